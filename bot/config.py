"""Settings: one TOML file, every value overridable by environment variable.

``NOMICBOT_<SECTION>_<KEY>`` overrides ``[section] key`` (for example
``NOMICBOT_IMAP_PASSWORD`` or ``NOMICBOT_DATABASE_URL``).  Secrets (IMAP and
SMTP passwords, the dice master secret) belong in the environment or in a file
outside the repository, never in the TOML checked into ``deploy/``.

Embedded defaults need no file at all: SQLite under ``var/``, the built-in
SMTP ingress on 127.0.0.1:8025 and replies written to the ``var/outbox``
Maildir.
"""

from __future__ import annotations

import os
import secrets
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

ENV_PREFIX = "NOMICBOT_"
SectionType = TypeVar("SectionType")
MINIMUM_SECRET_BYTES = 32  # the dice seeds are HMAC-SHA256 keyed by it (rule 9)


@dataclass(frozen=True)
class BotSettings:
    address: str = "referee@nomic.invalid"
    name: str = "nomicbot"
    list_address: str = "nomic@nomic.invalid"
    reply_to: str = "list"  # "list" or "sender"
    data_dir: str = "var"
    master_secret: str = ""  # hex; generated into data_dir/master-secret when empty
    accept_registrations: bool = True  # rule 14 registration posts
    # When set, only posts that came through the list (List-Id naming it) are
    # acted on: the list, not the bot, checks that the sender is a member.
    list_id: str = ""
    # The key that signs administrators' records in the archive
    # (docs/archive.md); empty: made once in data_dir (dkim-private.pem).
    dkim_key_file: str = ""
    dkim_selector: str = "nomicbot"


@dataclass(frozen=True)
class TrustSettings:
    """Who may act (docs/trust.md): how a post proves the list carried it, and its author.

    ``list_signature`` "arc" (the list ARC-seals what it distributes, as GNU
    Mailman 3 does with its [ARC] section) or "dkim" (the list's outgoing
    MTA DKIM-signs) make the list's signature, by ``list_signer`` (d=) and
    ``list_selector`` (s=, optional), the proof; "none" is the weaker mode
    (List-Id only), announced at start-up and in every ruling.  Keys are
    looked up in ``key_file`` ("NAME TXT-VALUE" lines) and then, with
    ``dns``, in DNS.  ``authserv_ids`` names the bot's own receiving
    servers, whose topmost Authentication-Results count (RFC 8601).
    ``author_authentication`` "required" refuses list posts whose author's
    domain the list did not authenticate; "list" accepts them on the list's
    word (membership) alone.
    """

    list_signature: str = "none"
    list_signer: str = ""
    list_selector: str = ""
    list_authserv_id: str = ""  # the list's own A-R id (dkim mode); empty: list_signer
    key_file: str = ""
    dns: bool = True
    authserv_ids: tuple[str, ...] = ()
    author_authentication: str = "required"


@dataclass(frozen=True)
class DatabaseSettings:
    url: str = ""  # empty: sqlite file in data_dir


@dataclass(frozen=True)
class SmtpIngressSettings:
    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8025
    max_message_bytes: int = 25 * 1024 * 1024


@dataclass(frozen=True)
class ImapSettings:
    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 143
    security: str = "plain"  # "plain", "starttls" or "tls"
    ca_file: str = ""  # CA certificates to trust besides the system's (a private CA)
    username: str = ""
    password: str = ""
    folder: str = "INBOX"
    batch_size: int = 100
    # IDLE is re-issued, and the mailbox searched again, at least this often
    # (at most 600).  A post that lands between a search and the next IDLE
    # may never be announced by the server (seen with Dovecot 2.3), so this
    # bounds how late such a post is found.
    idle_renew_seconds: int = 60
    poll_seconds: int = 60  # when the server has no IDLE
    mark_seen: bool = False
    delete_processed: bool = False


@dataclass(frozen=True)
class OutboundSettings:
    smtp_host: str = ""  # empty: write replies to the outbox Maildir
    smtp_port: int = 25
    security: str = "plain"
    username: str = ""
    password: str = ""
    maildir: str = ""  # empty: data_dir/outbox
    max_attempts: int = 8


@dataclass(frozen=True)
class NtimeSettings:
    epoch: str = "2026-01-01T00:00:00+00:00"  # a UTC midnight: nweek 1, nday 1 when displayed
    # "INSTANT off" / "INSTANT on": when the Clock was turned Off or On (rule 3 A)
    switches: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class GoSettings:
    """Political Go: which rule set, and the numbers a proposal may change.

    ``rules`` "B" is B Nomic's rule 1639 (seed 004), "A" A Nomic's rules
    365-377 (seed 002).  ``size`` 0 means the rule set's own (9 for B, 19 for
    A); the other keys are rule set A's: the Go Consul (365), the hours of
    rule 368's limit, rule 374's purchase base, rule 377's sale price, and
    whether a placement uses up a Reserve Stone (see docs/readings.md).
    """

    rules: str = "B"
    size: int = 0
    consul: str = ""
    move_interval_hours: int = 19
    purchase_base: int = 5
    sale_price: int = 1
    placement_uses_reserve: bool = False

    @property
    def board_size(self) -> int:
        if self.size:
            return self.size
        return 19 if self.rules == "A" else 9


@dataclass(frozen=True)
class FieldSettings:
    """Field Matches (seeds 003 and 000): who referees, and what the bot does on its own.

    ``referee`` is the player whose posts may select the Current Field Match,
    Initialize and Evolve (the Minister of Play); empty means only the bot's
    own schedule and the console act as Referee.  ``auto_evolve`` performs
    Life's Evolve at the start of every nweek (rule 25 of seed 004).
    """

    referee: str = ""
    auto_evolve: bool = True


@dataclass(frozen=True)
class HoldingsSettings:
    """The numbers of rules 212 and 19 (seed 004) that a proposal may change."""

    bandwidth_per_nweek: int = 10  # rule 212: Bandwidth resets to this each nweek
    new_player_bandwidth: int = 4  # rule 212: what a new player starts with
    proposal_cost_bandwidth: int = 2  # rule 19: what submitting a proposal costs


# Rule 5 (seed 004): "If no Serial number was ever assigned to an object of
# that type, a new object of that type gets serial number 100 instead."
FIRST_SERIAL_NUMBER = 100


@dataclass(frozen=True)
class ProposalSettings:
    # The serial number of the first proposal the bot numbers (rule 5): set it
    # to continue a series numbered before the bot.
    first_serial: int = FIRST_SERIAL_NUMBER


@dataclass(frozen=True)
class CfiSettings:
    # The serial number of the first CFI the bot numbers (rules 5 and 125:
    # CFIs are Serializable Game Documents): set it to continue a series.
    first_serial: int = FIRST_SERIAL_NUMBER


@dataclass(frozen=True)
class ElectionSettings:
    nomination_ndays: int = 5  # rule 1823 A
    voting_ndays: int = 4  # rule 1823 A
    moderator: str = ""  # the player who breaks Approval Voting ties (rule 1823 B)
    # ndays the Moderator has to pick among tied choices before a recorded draw
    # stands in (0: draw at once); see docs/readings.md, rule 1823 C.2
    moderator_wait_ndays: int = 2


@dataclass(frozen=True)
class DigestSettings:
    daily: bool = True  # a digest to every Minister at 00:00 UTC
    at_checkpoints: bool = True  # and at every Checkpoint (rule 3)
    seal: bool = False  # post the rule 1906 Seal announcement with a digest


# The games a deployment plays when its configuration names none: those the
# bot referees for seed 004 (and its Field Matches), in the order their
# adapters see each post and their reply sections appear.
DEFAULT_GAMES = (
    "roster",
    "dice",
    "go",
    "field",
    "elections",
    "digests",
    "proposals",
    "cfis",
    "clock",
    "unrefereed",
)


@dataclass(frozen=True)
class GamesSettings:
    """Which games the nomic plays, by name (``bot.engine.registry`` finds their declarations).

    ``modules`` names further modules to search for declarations (a game
    kept outside the bot's own packages); a game's own settings, when it has
    any not built in here, are in a section named after it.
    """

    enabled: tuple[str, ...] = DEFAULT_GAMES
    modules: tuple[str, ...] = ()


@dataclass(frozen=True)
class SiteSettings:
    """The public web site (docs/site.md).

    ``archive_url`` links each post to the list archive's copy of it:
    ``{message_id}`` is replaced by the post's Message-ID, without angle
    brackets and URL-quoted (e.g. HyperKitty's or Pipermail's address).
    ``directory`` is where ``nomicbot serve`` and a rebuild find the site.
    """

    title: str = "Nomic"
    archive_url: str = ""
    directory: str = ""


@dataclass(frozen=True)
class MinistryEntry:
    """Who holds a Ministry at start-up (rule 625); elections change it later."""

    ministry: str
    holder: str = ""
    deputies: tuple[str, ...] = ()


@dataclass(frozen=True)
class Settings:
    bot: BotSettings = field(default_factory=BotSettings)
    trust: TrustSettings = field(default_factory=TrustSettings)
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    smtp_ingress: SmtpIngressSettings = field(default_factory=SmtpIngressSettings)
    imap: ImapSettings = field(default_factory=ImapSettings)
    outbound: OutboundSettings = field(default_factory=OutboundSettings)
    ntime: NtimeSettings = field(default_factory=NtimeSettings)
    go: GoSettings = field(default_factory=GoSettings)
    field_matches: FieldSettings = field(default_factory=FieldSettings)
    holdings: HoldingsSettings = field(default_factory=HoldingsSettings)
    proposals: ProposalSettings = field(default_factory=ProposalSettings)
    cfis: CfiSettings = field(default_factory=CfiSettings)
    elections: ElectionSettings = field(default_factory=ElectionSettings)
    digests: DigestSettings = field(default_factory=DigestSettings)
    games: GamesSettings = field(default_factory=GamesSettings)
    site: SiteSettings = field(default_factory=SiteSettings)
    players: tuple[PlayerEntry, ...] = ()
    ministries: tuple[MinistryEntry, ...] = ()
    # The sections of games whose settings are not built in above, as
    # written (``section`` reads them into the game's own settings type).
    game_sections: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False)
    environment: Mapping[str, str] = field(default_factory=dict, hash=False, repr=False)

    def section(self, name: str, kind: type[SectionType]) -> SectionType:
        """The game section ``[name]`` read as ``kind`` (a frozen dataclass with defaults).

        Raises ConfigError for unknown keys or unparsable values.
        """
        section: SectionType = _build_section(
            name, kind, self.game_sections.get(name, {}), self.environment
        )
        return section

    @property
    def data_path(self) -> Path:
        return Path(self.bot.data_dir)

    @property
    def database_url(self) -> str:
        return self.database.url or f"sqlite:///{self.data_path / 'nomicbot.sqlite3'}"

    @property
    def outbox_maildir(self) -> Path:
        return Path(self.outbound.maildir) if self.outbound.maildir else self.data_path / "outbox"

    @property
    def ntime_epoch(self) -> datetime:
        return _parse_instant(self.ntime.epoch)

    @property
    def ntime_switches(self) -> tuple[tuple[datetime, bool], ...]:
        return tuple(_parse_switch(value) for value in self.ntime.switches)

    @property
    def bot_domain(self) -> str:
        return self.bot.address.rpartition("@")[2] or "nomic.invalid"


SECTIONS: Mapping[str, type] = {
    "bot": BotSettings,
    "trust": TrustSettings,
    "database": DatabaseSettings,
    "smtp_ingress": SmtpIngressSettings,
    "imap": ImapSettings,
    "outbound": OutboundSettings,
    "ntime": NtimeSettings,
    "go": GoSettings,
    "field_matches": FieldSettings,
    "holdings": HoldingsSettings,
    "proposals": ProposalSettings,
    "cfis": CfiSettings,
    "elections": ElectionSettings,
    "digests": DigestSettings,
    "games": GamesSettings,
    "site": SiteSettings,
}


class ConfigError(ValueError):
    """The configuration file or an environment override is invalid."""


def load_settings(
    path: str | Path | None = None,
    environ: Mapping[str, str] | None = None,
    database_url: str | None = None,
) -> Settings:
    """Read ``path`` (optional), then apply environment overrides.

    Raises ConfigError for unknown sections or keys and unparsable values.
    """
    document: dict[str, Any] = {}
    if path is not None:
        with open(path, "rb") as handle:
            try:
                document = tomllib.load(handle)
            except tomllib.TOMLDecodeError as error:
                raise ConfigError(f"{path} is not valid TOML: {error}") from None
    environ = os.environ if environ is None else environ
    settings = _from_document(document, environ)
    if database_url:
        settings = replace(settings, database=DatabaseSettings(url=database_url))
    _validate(settings)
    return settings


def _validate(settings: Settings) -> None:
    """Check the values that are parsed later, so a mistake is reported now."""
    from bot.games.ntime import NtimeConfig, Switch

    try:
        NtimeConfig(
            epoch=settings.ntime_epoch,
            switches=tuple(Switch(at, on) for at, on in settings.ntime_switches),
        )
    except ValueError as error:
        raise ConfigError(f"[ntime]: {error}") from None
    secret = settings.bot.master_secret
    if secret and not _is_hex_of_at_least(secret, MINIMUM_SECRET_BYTES):
        raise ConfigError(
            f"[bot] master_secret must be at least {MINIMUM_SECRET_BYTES * 2} hex digits"
        )
    _validate_go(settings.go)
    _validate_trust(settings.trust)
    if settings.bot.reply_to not in {"list", "sender"}:
        raise ConfigError('[bot] reply_to must be "list" or "sender"')


def _validate_trust(trust: TrustSettings) -> None:
    from bot.trust.keys import KeyFileError, load_key_file
    from bot.trust.policy import AUTHOR_MODES, SIGNATURE_KINDS

    if trust.list_signature not in SIGNATURE_KINDS:
        raise ConfigError('[trust] list_signature must be "arc", "dkim" or "none"')
    if trust.list_signature != "none" and not trust.list_signer:
        raise ConfigError(
            f'[trust] list_signature = "{trust.list_signature}" needs list_signer, '
            "the domain (d=) the list signs with"
        )
    if trust.author_authentication not in AUTHOR_MODES:
        raise ConfigError('[trust] author_authentication must be "required" or "list"')
    if trust.key_file:
        try:
            load_key_file(trust.key_file)
        except KeyFileError as error:
            raise ConfigError(f"[trust] key_file: {error}") from None


def _validate_go(go: GoSettings) -> None:
    if go.rules not in {"A", "B"}:
        raise ConfigError('[go] rules must be "A" (A Nomic 365-377) or "B" (B Nomic 1639)')
    if go.size and not 2 <= go.size <= 26:
        raise ConfigError("[go] size must be from 2 to 26 (0: the rule set's own)")
    if go.move_interval_hours < 0 or go.purchase_base < 1 or go.sale_price < 0:
        raise ConfigError("[go] move_interval_hours, purchase_base and sale_price must be positive")


def _is_hex_of_at_least(text: str, length: int) -> bool:
    try:
        return len(bytes.fromhex(text)) >= length
    except ValueError:
        return False


def _from_document(document: Mapping[str, Any], environ: Mapping[str, str]) -> Settings:
    values: dict[str, Any] = {}
    for section, kind in SECTIONS.items():
        values[section] = _build_section(section, kind, document.get(section, {}), environ)
    # A section not built in is an enabled game's own, named after it: kept
    # as written, and read when the games are built (``bot.engine.registry``).
    others = set(document) - set(SECTIONS) - {"players", "ministries"}
    unknown = sorted(
        name
        for name in others
        if name not in values["games"].enabled or not isinstance(document[name], Mapping)
    )
    if unknown:
        raise ConfigError(f"unknown configuration section(s): {', '.join(unknown)}")
    values["players"] = _players(document.get("players", []))
    values["ministries"] = _ministries(document.get("ministries", []))
    values["game_sections"] = {name: dict(document[name]) for name in sorted(others)}
    values["environment"] = {
        name: value for name, value in environ.items() if name.startswith(ENV_PREFIX)
    }
    return Settings(**values)


def _build_section(
    section: str, kind: type, table: Mapping[str, Any], environ: Mapping[str, str]
) -> Any:
    known = {item.name: item for item in fields(kind)}
    unknown = set(table) - set(known)
    if unknown:
        raise ConfigError(f"unknown key(s) in [{section}]: {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {}
    for name, item in known.items():
        env_name = f"{ENV_PREFIX}{section}_{name}".upper()
        if env_name in environ:
            values[name] = _coerce(environ[env_name], item.default, env_name)
        elif name in table:
            values[name] = _check_type(table[name], item.default, f"[{section}] {name}")
    return kind(**values)


def _coerce(text: str, default: Any, where: str) -> Any:
    if isinstance(default, bool):
        if text.lower() in {"1", "true", "yes", "on"}:
            return True
        if text.lower() in {"0", "false", "no", "off"}:
            return False
        raise ConfigError(f"{where}: expected true or false, got {text!r}")
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise ConfigError(f"{where}: expected a whole number, got {text!r}") from None
    if isinstance(default, tuple):
        return tuple(part.strip() for part in text.split(",") if part.strip())
    return text


def _check_type(value: Any, default: Any, where: str) -> Any:
    if isinstance(default, tuple) and isinstance(value, list):
        return tuple(str(item) for item in value)
    if isinstance(default, bool) is not isinstance(value, bool) or not isinstance(
        value, type(default)
    ):
        raise ConfigError(f"{where}: expected {type(default).__name__}, got {value!r}")
    return value


def _players(entries: Any) -> tuple[PlayerEntry, ...]:
    if not isinstance(entries, list):
        raise ConfigError("[[players]] must be an array of tables")
    players = []
    for entry in entries:
        name = entry.get("name")
        addresses = entry.get("addresses", [])
        if not isinstance(name, str) or not name.strip() or not isinstance(addresses, list):
            raise ConfigError(f"[[players]] entry needs a name and a list of addresses: {entry!r}")
        players.append(PlayerEntry(name.strip(), tuple(a.strip().lower() for a in addresses)))
    return tuple(players)


def _ministries(entries: Any) -> tuple[MinistryEntry, ...]:
    if not isinstance(entries, list):
        raise ConfigError("[[ministries]] must be an array of tables")
    ministries = []
    for entry in entries:
        name, holder = entry.get("ministry"), entry.get("holder", "")
        deputies = entry.get("deputies", [])
        if not isinstance(name, str) or not name.strip() or not isinstance(holder, str):
            raise ConfigError(f"[[ministries]] entry needs a ministry name: {entry!r}")
        if not isinstance(deputies, list):
            raise ConfigError(f"[[ministries]] deputies must be a list of names: {entry!r}")
        ministries.append(
            MinistryEntry(name.strip(), holder.strip(), tuple(str(d).strip() for d in deputies))
        )
    return tuple(ministries)


def _parse_instant(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ConfigError(f"not an ISO 8601 instant: {text!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _parse_switch(text: str) -> tuple[datetime, bool]:
    instant, _, state = text.strip().rpartition(" ")
    if state.lower() not in {"on", "off"}:
        raise ConfigError(f'a Clock switch reads "INSTANT on" or "INSTANT off", not {text!r}')
    return _parse_instant(instant), state.lower() == "on"


def master_secret(settings: Settings) -> bytes:
    """The dice master secret; generated once into the data directory when not configured."""
    if settings.bot.master_secret:
        return bytes.fromhex(settings.bot.master_secret)
    path = settings.data_path / "master-secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_hex(32) + "\n")
    return bytes.fromhex(path.read_text().strip())
