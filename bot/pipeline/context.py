"""The message context every pipeline stage reads and extends."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.mail.decode import DecodedMessage
    from bot.parser import ParseResult


@dataclass(frozen=True)
class PipelineSettings:
    """What the stages need to know about this bot and its list."""

    bot_addresses: frozenset[str]
    list_addresses: frozenset[str]
    required_list_id: str = ""  # empty: posts need not carry a List-Id


@dataclass
class PostContext:
    """One post on its way through the stages.

    A stage either fills in a field or sets ``stop_reason``; after a stop the
    remaining stages are not run and the engine records the reason.
    """

    raw: bytes
    settings: PipelineSettings
    decoded: DecodedMessage | None = None
    author: str | None = None  # the address the post is attributed to
    author_name: str = ""
    visible_text: str = ""
    parsed: ParseResult | None = None
    stop_reason: str | None = None
    notes: tuple[str, ...] = ()
    # Sent to the bot alone, not through the list (a Concealable vote, a
    # request for a digest): judged, but answered to the sender only.
    private: bool = False

    def stop(self, reason: str) -> None:
        self.stop_reason = reason

    def note(self, text: str) -> None:
        self.notes = (*self.notes, text)
