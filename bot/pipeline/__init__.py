"""Pipeline stages, in the one place their order is defined.

Each stage transforms the post's context or records a reason to stop; none
sends mail or touches the database (Mailman's rules and handlers).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.pipeline.admin import read_admin_record
from bot.pipeline.author import find_author
from bot.pipeline.context import PipelineSettings, PostContext
from bot.pipeline.decode import decode, decode_body
from bot.pipeline.loop_guard import guard_loops
from bot.pipeline.origin import check_origin
from bot.pipeline.parse import parse_actions
from bot.pipeline.visible import extract_visible_text

Stage = Callable[[PostContext], None]

STAGES: tuple[Stage, ...] = (
    decode,
    read_admin_record,
    guard_loops,
    check_origin,
    find_author,
    decode_body,
    extract_visible_text,
    parse_actions,
)


def run_pipeline(raw: bytes, settings: PipelineSettings) -> PostContext:
    context = PostContext(raw=raw, settings=settings)
    for stage in STAGES:
        stage(context)
        if context.stop_reason is not None:
            break
    return context


__all__ = ["STAGES", "PipelineSettings", "PostContext", "run_pipeline"]
