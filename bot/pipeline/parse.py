"""Stage: recognise the game actions in the visible text (rule 1896)."""

from __future__ import annotations

from bot.parser import parse_post
from bot.parser.limits import MAX_ACTIONS
from bot.pipeline.context import PostContext


def parse_actions(context: PostContext) -> None:
    # A post is read up to its MAX_ACTIONS-th clause: no more can be taken.
    context.parsed = parse_post(
        context.visible_text,
        limit=MAX_ACTIONS,
        areas=context.settings.areas,
        refereed_subgames=context.settings.refereed_subgames,
        grammar_folder=context.settings.grammar_folder,
    )
