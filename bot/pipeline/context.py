"""The message context every pipeline stage reads and extends."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.parser.area import Area
from bot.parser.areas import AREAS
from bot.trust.policy import TrustPolicy

if TYPE_CHECKING:
    from bot.engine.admin_records import AdminRecord
    from bot.mail.decode import DecodedMessage, HeadersFirst
    from bot.parser import ParseResult
    from bot.trust.results import AuthResults


@dataclass(frozen=True)
class PipelineSettings:
    """What the stages need to know about this bot and its list."""

    bot_addresses: frozenset[str]
    list_addresses: frozenset[str]
    required_list_id: str = ""  # empty: posts need not carry a List-Id
    trust: TrustPolicy = TrustPolicy()
    bot_domain: str = ""  # the domain of the Message-IDs the bot makes
    # The file where the bot publishes its own key's record when it made the
    # key itself (bot.trust.bot_key): read when a record arrives, since the
    # console may make the key while a daemon runs.
    own_key_record_file: str = ""
    # The grammar areas of the enabled games (``bot.engine.registry``), in
    # their order; the default is every area the bot has.
    areas: tuple[Area, ...] = AREAS
    # The subgames of the parser's catch-all (``bot.parser.unrefereed``) that
    # an enabled game referees (``Game.refereed_subgames``).
    refereed_subgames: frozenset[str] = frozenset()
    # The folder where the composed post grammar is kept for the next
    # process (``bot.parser.saved_grammar``); empty: composed anew.
    grammar_folder: str = ""


# The longest Subject kept: a post's Subject is for people to read.
SUBJECT_CHARS = 2000


@dataclass
class PostContext:
    """One post on its way through the stages.

    A stage either fills in a field or sets ``stop_reason``; after a stop the
    remaining stages are not run and the engine records the reason.
    """

    raw: bytes
    settings: PipelineSettings
    decoded: DecodedMessage | None = None
    # Set while only the headers are decoded (bot.pipeline.decode.read_body).
    headers_first: HeadersFirst | None = None
    author: str | None = None  # the address the post is attributed to
    author_name: str = ""
    visible_text: str = ""
    parsed: ParseResult | None = None
    stop_reason: str | None = None
    notes: tuple[str, ...] = ()
    # What the ruling must tell the author about the post as a whole (its
    # body could not be read): a post with remarks is answered even without
    # any action.
    remarks: tuple[str, ...] = ()
    # Sent to the bot alone, not through the list (a Concealable vote, a
    # request for a digest): judged, but answered to the sender only.
    private: bool = False
    # Refused as possibly forged (docs/trust.md): never answered, listed for
    # the administrator, and it does not claim its Message-ID, so the list's
    # own copy of the same post is still judged.
    refused: bool = False
    carriage: str = ""  # how the post reached the bot, as verified
    list_results: AuthResults | None = None  # the list's own authentication results
    authentication: str = ""  # how the author was authenticated; "" if not
    claimed_secret: str = ""  # a private mail's "secret:" line, checked by the engine
    # An administrator's record the bot signed (bot.engine.admin_records), verified.
    admin_record: AdminRecord | None = None

    def stop(self, reason: str) -> None:
        self.stop_reason = reason

    def refuse(self, reason: str) -> None:
        self.stop_reason = reason
        self.refused = True

    def note(self, text: str) -> None:
        self.notes = (*self.notes, text)

    def subject_or(self, stored: str) -> str:
        """The Subject the bot records for the post and quotes in its ruling; ``stored``
        (what the message row holds) for a post that was not decoded."""
        return stored if self.decoded is None else self.decoded.subject[:SUBJECT_CHARS]
