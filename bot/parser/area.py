"""How one game or governance area plugs into the post parser.

An area is a grammar file ``grammar/<namespace>.lark`` whose ``action`` rule
lists its actions, a Transformer whose methods turn that rule's trees into
``ActionReading`` values, and the trigger words the cheap prefilter looks for.
A game declares its areas (``bot.engine.game.Game.areas``); the default
areas, for reading text without a deployment, are listed in
``bot/parser/areas/__init__.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lark import Token, Transformer

AreaTransformer = Transformer[Token, object]


@dataclass(frozen=True)
class ActionReading:
    """An action as the grammar read it, before sentence and condition are known."""

    action: str
    args: Mapping[str, object] = field(hash=False)


@dataclass(frozen=True)
class Area:
    """One grammar namespace and everything the parser needs to know about it.

    ``triggers`` are regular expressions (matched case-insensitively, as whole
    words) for the words that begin one of the area's actions, such as
    ``"roll"``; a sentence is only handed to the grammar when one appears
    after "I", "please", a conjunction, or at the start of a line.

    ``terminals`` says what a player would call a terminal of the grammar
    (keyed by its name without namespace, e.g. ``"POINT"``), and ``problems``
    gives the headline used when the word at that place cannot be read;
    ``{word}`` in it is replaced by the offending word.

    ``directory`` holds ``<namespace>.lark`` when it is not the top-level
    ``grammar/`` (a game kept outside the bot's packages); such a grammar
    imports nothing from ``grammar/``.

    ``gifts`` is a regular expression (matched whole, case-insensitively) of
    the nouns of the objects the area's game keeps in its own state: a gift
    of one ("I give my Huge Seed to Bob", rule 13, read by grammar/give.lark)
    is read as ``<namespace>.give`` with the same arguments, so that the game
    that owns the object judges it (``bot.parser.grammar``).
    """

    namespace: str
    transformer: type[AreaTransformer]
    triggers: tuple[str, ...] = ()
    terminals: Mapping[str, str] = field(default_factory=dict, hash=False)
    problems: Mapping[str, str] = field(default_factory=dict, hash=False)
    directory: Path | None = None
    gifts: str = ""
