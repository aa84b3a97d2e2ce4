"""How an administrator's record is recognised in a mail, without reading it.

Apart from ``bot.engine.admin_records`` (signing, verifying and applying a
record, which needs the database models and the signature code): the
pipeline looks at every post for a record, and the process that prepares
posts ahead (``bot.engine.prepare``) starts faster without those imports.
"""

from __future__ import annotations

RECORD_TYPE = "application/vnd.nomicbot.admin-record"


def carries_record(raw: bytes) -> bool:
    """A cheap first look: could this mail carry an admin record?"""
    return RECORD_TYPE.encode() in raw
