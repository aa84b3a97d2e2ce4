"""Stage: an administrator's record, signed by the bot (bot.engine.admin_records).

It comes before the loop guard, which would otherwise take it for the bot's
own post.  A record whose signature does not verify is refused with the
reason; a verified one ends the pipeline, and the engine applies it.
"""

from __future__ import annotations

from pathlib import Path

from bot.engine.admin_records import AdminRecord, RecordError, carries_record, read_record
from bot.pipeline.context import PipelineSettings, PostContext
from bot.trust.keys import DnsFunction, KeyFileError, load_key_file, make_lookup


def read_admin_record(context: PostContext) -> None:
    if not carries_record(context.raw):
        return
    settings = context.settings
    try:
        context.admin_record = read_record(context.raw, settings.bot_domain, _lookup(settings))
    except RecordError as error:
        context.refuse(f"an admin record that is not applied: {error}")
        return
    context.stop("an administrator's record")


def verified_record(raw: bytes, settings: PipelineSettings) -> AdminRecord | None:
    """The record ``raw`` carries if its signature verifies, else None."""
    if not carries_record(raw):
        return None
    try:
        return read_record(raw, settings.bot_domain, _lookup(settings))
    except RecordError:
        return None


def _lookup(settings: PipelineSettings) -> DnsFunction:
    """The keys: the bot's own published record, if it made its key itself, then [trust]'s."""
    configured = settings.trust.lookup()
    path = Path(settings.own_key_record_file) if settings.own_key_record_file else None
    if path is None or not path.exists():
        return configured
    try:
        own = make_lookup(load_key_file(path), use_dns=False)
    except KeyFileError:
        return configured

    def lookup(name: bytes | str, timeout: int = 5) -> bytes | None:
        return own(name, timeout) or configured(name, timeout)

    return lookup
