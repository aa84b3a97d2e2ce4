"""Stage: recognise the game actions in the visible text (rule 1896)."""

from __future__ import annotations

from bot.parser import parse_post
from bot.pipeline.context import PostContext


def parse_actions(context: PostContext) -> None:
    context.parsed = parse_post(context.visible_text)
