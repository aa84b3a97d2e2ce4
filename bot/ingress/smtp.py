"""The built-in SMTP ingress (aiosmtpd).

250 is answered only after the raw bytes are committed to the database, so a
mail the list's MTA saw accepted is never lost.  Oversized mail gets 552
from aiosmtpd's own size check; mail with no header block gets 550; a
storage failure gets a temporary 451 so the sending MTA retries.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from aiosmtpd.controller import Controller

from bot.ingress.ingest import IngestResult

log = logging.getLogger(__name__)

StoreFunction = Callable[[bytes, datetime], IngestResult]


class IngressHandler:
    def __init__(
        self,
        store: StoreFunction,
        on_stored: Callable[[], None],
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.store = store
        self.on_stored = on_stored
        self.clock = clock  # the receipt time is the post's arrival (rule 3 B)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw: bytes = envelope.original_content or b""
        problem = _defect(raw)
        if problem:
            return f"550 5.6.0 {problem}"
        received_at = self.clock()
        try:
            result = await asyncio.get_running_loop().run_in_executor(
                None, self.store, raw, received_at
            )
        except Exception:
            log.exception("could not store a message from %s", envelope.mail_from)
            return "451 4.3.0 could not store the message now; please try again later"
        self.on_stored()
        if not result.stored:
            return f"250 2.0.0 already have <{result.message_id}>; not stored twice"
        return f"250 2.0.0 stored as message {result.message_pk}"


def _defect(raw: bytes) -> str | None:
    if not raw.strip():
        return "empty message"
    head = raw[:65536].replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
    first = head.split(b"\n", 1)[0]
    if b":" not in first or first[:1] in b" \t":
        return "message has no header block (RFC 5322 section 2.1)"
    return None


def make_controller(
    handler: IngressHandler, host: str, port: int, max_message_bytes: int
) -> Controller:
    return Controller(
        handler,
        hostname=host,
        port=port,
        data_size_limit=max_message_bytes,
        decode_data=False,
        server_hostname="nomicbot",
        ident="nomicbot SMTP ingress",
    )
