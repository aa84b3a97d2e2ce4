"""Recognise game actions in the prose of a post.

``parse_post(text)`` takes the author's visible new text (quotes, signatures
and ``[[comments]]`` already removed) and returns the actions it states, in
the order written (rule 1896, seed 004), plus a ``NotUnderstood`` for every
clause that starts like an action but cannot be read.  The grammar only
builds values: names, players and legality are resolved by the engine.
"""

from __future__ import annotations

from bot.parser.post import parse_post
from bot.parser.results import NotUnderstood, ParsedAction, ParseResult

__all__ = ["NotUnderstood", "ParseResult", "ParsedAction", "parse_post"]
