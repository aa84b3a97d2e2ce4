"""Stage: an administrator's record, signed by the bot (bot.engine.admin_records).

It comes before the loop guard, which would otherwise take it for the bot's
own post.  A record whose signature does not verify is refused with the
reason; a verified one ends the pipeline, and the engine applies it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.engine.admin_record_type import carries_record
from bot.pipeline.context import PipelineSettings, PostContext
from bot.trust.keys import DnsFunction, KeyFileError, load_key_file, make_lookup

if TYPE_CHECKING:
    from bot.engine.admin_records import AdminRecord


def read_admin_record(context: PostContext) -> None:
    if not carries_record(context.raw):
        return
    # Imported for the rare post that carries a record: reading one needs the
    # database models and the signature code, which the process preparing
    # posts ahead (bot.engine.prepare) otherwise never imports.
    from bot.engine.admin_records import RecordError, read_record

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
    from bot.engine.admin_records import RecordError, read_record  # as read_admin_record does

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
