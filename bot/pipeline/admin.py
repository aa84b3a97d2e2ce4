"""Stage: an administrator's record, signed by the bot (bot.engine.admin_records).

It comes before the loop guard, which would otherwise take it for the bot's
own post.  A record whose signature does not verify is refused with the
reason; a verified one ends the pipeline, and the engine applies it.
"""

from __future__ import annotations

from bot.engine.admin_records import RecordError, carries_record, read_record
from bot.pipeline.context import PostContext


def read_admin_record(context: PostContext) -> None:
    if not carries_record(context.raw):
        return
    settings = context.settings
    try:
        context.admin_record = read_record(
            context.raw, settings.bot_domain, settings.trust.lookup()
        )
    except RecordError as error:
        context.refuse(f"an admin record that is not applied: {error}")
        return
    context.stop("an administrator's record")
