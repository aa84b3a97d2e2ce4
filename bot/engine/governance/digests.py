"""Ministers' digests by mail (issue 5; rules 625, 1272 and 1906 of seed 004).

Each Ministry's duties (rule 625 D) are Public Displays and pending
actions; a *digest* mails a Minister, and eir Deputies (rule 1272), what
the bot keeps of them, with everything that is overdue flagged and the rule
behind it.

* A **provider** is a function ``(session, services, at) -> tuple[DigestSection,
  ...]`` reading one store (the Go board, the roster, the ledger, the
  Ministries and Elections); each game declares its own
  (``Game.digest_sections``) and ``providers()`` gathers the enabled games'.
  The governance sections are in ``bot.engine.governance.digest_sections``,
  a game's own beside its declaration.
* **When**: at every 00:00 UTC (``settings.digests.daily``) and every
  Checkpoint (``at_checkpoints``, rule 3 A), through the timed handler
  ``send_scheduled_digests``, once per instant and Minister; and on request
  ("digest please", ``DigestAdapter``), publicly or privately.
* **Who**: the holder of each Ministry and its Deputies, at every address
  they post from.  An Open Ministry's sections are mailed to nobody; the
  ``digests`` view shows them.
* Mail Message-IDs are derived from the kind and a key (the instant and the
  player, or the request's post), so a replayed archive writes the same
  digests, and a digest already in the outbox is not written twice.
* Optionally (``settings.digests.seal``) a scheduled digest is accompanied,
  for each held Ministry with nothing overdue, by the rule 1906 Seal
  announcement on the list that its Public Displays are up to date.  That
  announcement counts for rule 129, so ``seal`` is a setting of the rules:
  a record may change it from an instant on (``bot.engine.rule_changes``),
  and it is read as in force at each digest's instant.  The schedule
  (``daily``, ``at_checkpoints``) is the bot's own service, read from the
  configuration file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import timed
from bot.engine.game import DigestSection
from bot.engine.governance.ministries import Ministries, Ministry, load_ministries
from bot.engine.players import player_known_as
from bot.engine.rulings import Board, PlayerRef, Ruling, Turn, applied, rejected
from bot.games.errors import ActionError
from bot.outbound.compose import _derived_id, _mail, _outbox_row, compose_report
from bot.parser import ParsedAction
from bot.store.models import OutboxMessage, Player

if TYPE_CHECKING:
    from bot.engine.services import Services

KIND = "digest"
SEAL_KIND = "seal"
TEMPLATE = "digests/digest.txt.j2"
SEAL_TEMPLATE = "digests/seal.txt.j2"
DAILY = "the daily digest (00:00 UTC)"
ON_REQUEST = "on request"
ONE_DAY = timedelta(days=1)
# A Checkpoint falls at least every fourth nday while the Clock is On (rule 3
# A); looking back eleven days finds the last one unless the Clock was Off.
CHECKPOINT_LOOKBACK = timedelta(days=11)


# -- the values --------------------------------------------------------------------------


Provider = Callable[[Session, "Services", datetime], tuple[DigestSection, ...]]
ProviderOf = TypeVar("ProviderOf", bound=Provider)
# The Ministry each registered provider's sections go to (``sections_for``).
MINISTRY_OF_PROVIDER: dict[Provider, str] = {}


def sections_for(ministry: str) -> Callable[[ProviderOf], ProviderOf]:
    """Declare that a provider's sections all go to ``ministry``.

    A digest then runs it only when the Ministry is configured: its sections
    would be mailed to nobody (``digests_at``).  The view shows them all.
    """

    def register(provider: ProviderOf) -> ProviderOf:
        MINISTRY_OF_PROVIDER[provider] = ministry
        return provider

    return register


@dataclass(frozen=True)
class Served:
    """One Ministry a recipient serves, as its holder or a Deputy, with its sections."""

    ministry: Ministry
    deputy: bool
    sections: tuple[DigestSection, ...]

    @property
    def role(self) -> str:
        return "you are a Deputy, rule 1272" if self.deputy else "you are its Minister"


@dataclass(frozen=True)
class Recipient:
    player: PlayerRef
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class Digest:
    """What one Minister or Deputy receives at one instant."""

    recipient: Recipient
    served: tuple[Served, ...]
    at: datetime
    occasion: str  # DAILY, a Checkpoint's description, or ON_REQUEST

    @property
    def overdue(self) -> tuple[str, ...]:
        return tuple(
            f"{part.ministry.name}: {item.describe()}"
            for part in self.served
            for section in part.sections
            for item in section.overdue
        )


@dataclass(frozen=True)
class Assignment:
    """Every provider's sections, sorted to the Ministries they serve."""

    ministries: Ministries
    by_ministry: dict[str, tuple[DigestSection, ...]]  # Ministry name -> its sections
    unassigned: tuple[DigestSection, ...]  # naming no configured Ministry

    def sections_of(self, ministry: Ministry) -> tuple[DigestSection, ...]:
        return self.by_ministry.get(ministry.name, ())


# -- providers -----------------------------------------------------------------------------


def providers(services: Services) -> tuple[Provider, ...]:
    """Every enabled game's providers of digest sections, in the order their sections are shown."""
    return tuple(provider for game in services.games for provider in game.digest_sections)


def ministries_at(session: Session, services: Services, at: datetime) -> Ministries:
    _record, ministries = load_ministries(
        session, services.settings.ministries, services.clock.reading(at).nweek
    )
    return ministries


def assign_sections(
    session: Session,
    services: Services,
    at: datetime,
    ministries: Ministries | None = None,
    configured_only: bool = False,
) -> Assignment:
    """Run every provider at ``at`` and sort the sections to their Ministries.

    With ``configured_only``, a provider declared for a Ministry that is not
    configured (``sections_for``) is not run: for the digests, which mail
    only the sections of configured Ministries.
    """
    if ministries is None:
        ministries = ministries_at(session, services, at)
    by_ministry: dict[str, list[DigestSection]] = {}
    unassigned: list[DigestSection] = []
    for provider in providers(services):
        declared = MINISTRY_OF_PROVIDER.get(provider)
        if configured_only and declared and _ministry_named(ministries, declared) is None:
            continue
        for section in provider(session, services, at):
            ministry = _ministry_named(ministries, section.ministry)
            if ministry is None:
                unassigned.append(section)
            else:
                by_ministry.setdefault(ministry.name, []).append(section)
    frozen = {name: tuple(sections) for name, sections in by_ministry.items()}
    return Assignment(ministries, frozen, tuple(unassigned))


def _ministry_named(ministries: Ministries, text: str) -> Ministry | None:
    try:
        return ministries.named(text)
    except ActionError:
        return None  # not configured (or ambiguous): the view shows the section


# -- recipients ----------------------------------------------------------------------------


def recipient_named(session: Session, name: str | None) -> Recipient | None:
    """The player a Ministry names as holder or Deputy, with eir addresses.

    Rule 151: a name given up still leads to its player.  A Lost Soul is no
    longer a player (rule 14) and holds no Ministry's duties: None.
    """
    if not name:
        return None
    found = player_known_as(session, name)
    row = session.get(Player, found.id) if found else None
    if row is None or not row.active or not row.addresses:
        return None
    addresses = tuple(sorted(item.address for item in row.addresses))
    return Recipient(PlayerRef(row.id, row.name), addresses)


def served_by(session: Session, assignment: Assignment, player: PlayerRef) -> tuple[Served, ...]:
    """The held Ministries ``player`` holds or is a Deputy for (rule 1272), in list order."""
    served: list[Served] = []
    for ministry in assignment.ministries.items:
        holder = recipient_named(session, ministry.holder)
        if holder is None:
            continue  # Open (rule 625 A): nobody is mailed for it
        deputies = [recipient_named(session, name) for name in ministry.deputies]
        if holder.player.id == player.id:
            served.append(Served(ministry, False, assignment.sections_of(ministry)))
        elif any(deputy and deputy.player.id == player.id for deputy in deputies):
            served.append(Served(ministry, True, assignment.sections_of(ministry)))
    return tuple(served)


def recipients(session: Session, ministries: Ministries) -> tuple[Recipient, ...]:
    """Every holder and Deputy of a held Ministry, once each, by player id."""
    found: dict[int, Recipient] = {}
    for ministry in ministries.items:
        holder = recipient_named(session, ministry.holder)
        if holder is None:
            continue
        for name in (ministry.holder, *ministry.deputies):
            recipient = recipient_named(session, name)
            if recipient is not None:
                found.setdefault(recipient.player.id, recipient)
    return tuple(found[key] for key in sorted(found))


def digests_at(
    session: Session, services: Services, at: datetime, occasion: str
) -> tuple[Digest, ...]:
    """The digest every Minister and Deputy receives at ``at``.

    The providers run only when someone receives a digest: with no Ministry
    held, a midnight costs one read of the Ministries.
    """
    ministries = ministries_at(session, services, at)
    everyone = recipients(session, ministries)
    if not everyone:
        return ()
    assignment = assign_sections(session, services, at, ministries, configured_only=True)
    return tuple(
        Digest(recipient, served_by(session, assignment, recipient.player), at, occasion)
        for recipient in everyone
    )


def digest_for(
    session: Session, services: Services, player: PlayerRef, at: datetime, occasion: str
) -> Digest | None:
    """``player``'s digest at ``at``, or None when e serves no held Ministry."""
    assignment = assign_sections(session, services, at, configured_only=True)
    recipient = recipient_named(session, player.name)
    served = served_by(session, assignment, player)
    if recipient is None or not served:
        return None
    return Digest(recipient, served, at, occasion)


# -- mail --------------------------------------------------------------------------------


def compose_digest(services: Services, digest: Digest, key: str) -> OutboxMessage:
    """The digest as a mail to the recipient's addresses only (kind "digest")."""
    label = services.clock.reading(digest.at).label
    names = ", ".join(part.ministry.name for part in digest.served)
    body = services.templates.get_template(TEMPLATE).render(
        {
            "recipient": digest.recipient.player.name,
            "occasion": digest.occasion,
            "label": label,
            "utc": f"{digest.at.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC",
            "overdue": list(digest.overdue),
            "served": [_served_variables(part) for part in digest.served],
            "bot_name": services.settings.bot.name,
        }
    )
    addresses = list(digest.recipient.addresses)
    subject = f"[digest] {names}: {label}"
    message_id = _derived_id(KIND, key, services)
    mail = _mail(services, subject, addresses, body, KIND, message_id, digest.at)
    return _outbox_row(mail, KIND, addresses, None)


def _served_variables(part: Served) -> dict[str, Any]:
    return {
        "ministry": part.ministry.name,
        "role": part.role,
        "sections": [
            {"title": section.title, "text": "\n".join(section.lines)} for section in part.sections
        ],
    }


def add_once(session: Session, mail: OutboxMessage) -> bool:
    """Queue ``mail`` unless a mail with its Message-ID is queued already (a replay)."""
    existing = session.scalar(
        select(OutboxMessage.id).where(OutboxMessage.message_id == mail.message_id)
    )
    if existing is not None:
        return False
    session.add(mail)
    return True


def seal_block(services: Services, ministry: Ministry) -> str:
    """The block of ASCII text the bot uses as ``ministry``'s Seal (rule 1906).

    Rule 1906 forbids a Seal in common usage and one Seal for two
    Ministries: a digest of the bot's domain and the Ministry's name makes
    the block unique to the Ministry and to this game.
    """
    stamp = hashlib.sha256(f"{services.settings.bot_domain}\0{ministry.key}".encode())
    inner = f" {ministry.name} :: {stamp.hexdigest()[:12]} "
    rule = "=" * len(inner)
    return f"#={rule}=#\n#|{inner}|#\n#={rule}=#"


def compose_seal(services: Services, part: Served, at: datetime) -> OutboxMessage:
    """Rule 1906: the Seal on the list, declaring ``part``'s Public Displays up to date."""
    ministry = part.ministry
    return compose_report(
        services,
        SEAL_KIND,
        f"{at.isoformat()}/{ministry.key}",
        f"[seal] {ministry.name}: the Public Displays are up to date",
        SEAL_TEMPLATE,
        {
            "ministry": ministry.name,
            "holder": ministry.holder or "",
            "seal": seal_block(services, ministry),
            "label": services.clock.reading(at).label,
            "sections": [section.title for section in part.sections],
        },
        at,
    )


# -- the schedule --------------------------------------------------------------------------


def digest_instants(
    services: Services, after: datetime, until: datetime
) -> tuple[tuple[datetime, str], ...]:
    """The instants in ``(after, until]`` a digest is due at, with their occasion."""
    settings = services.settings.digests
    due: dict[datetime, str] = {}
    if settings.daily:
        due.update(dict.fromkeys(_midnights_between(after, until), DAILY))
    if settings.at_checkpoints:
        for checkpoint in services.clock.checkpoints_between(after, until):
            due[checkpoint.instant] = f"the Checkpoint ending {checkpoint.ending.display()}"
    return tuple(sorted(due.items()))


def send_scheduled_digests(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """The timed handler: every digest due in ``(after, until]``, once per instant and player.

    Cheap when nothing is due: digests fall on midnights (a Checkpoint is
    one too, rule 3 A), and most advances cross none.
    """
    if after.astimezone(UTC).date() == until.astimezone(UTC).date():
        return
    for at, occasion in digest_instants(services, after, until):
        # The rules' settings in force at the digest's instant (``rule_changes``):
        # the Seal (rule 1906) and the numbers the sections show.
        in_force = services.at(at)
        for digest in digests_at(session, in_force, at, occasion):
            add_once(session, compose_digest(in_force, digest, scheduled_key(digest)))
            if in_force.settings.digests.seal:
                _seal_displays(session, in_force, digest)


def digests_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``send_scheduled_digests`` next has something to do: its next instant (rule 625 D)."""
    settings = services.settings.digests
    daily = timed.next_midnight(after) if settings.daily else None
    at_checkpoint = (
        timed.next_checkpoint(session, services, after) if settings.at_checkpoints else None
    )
    return timed.earliest(daily, at_checkpoint)


def scheduled_key(digest: Digest) -> str:
    return f"{digest.at.isoformat()}/{digest.recipient.player.id}"


def _seal_displays(session: Session, services: Services, digest: Digest) -> None:
    # Only the Minister emself uses the Seal (rule 1906: "A Minister using
    # the Seal of eir ministry"), and only when nothing is overdue: the
    # Seal declares the Displays up to date.
    for part in digest.served:
        if part.deputy or any(section.overdue for section in part.sections):
            continue
        add_once(session, compose_seal(services, part, digest.at))


def previous_digest(services: Services, at: datetime) -> datetime:
    """The last scheduled digest instant before ``at`` ("since the last digest").

    Derived from the schedule, not from the outbox, so it is the same live
    and in a replay; the epoch when there was none.
    """
    settings = services.settings.digests
    found: list[datetime] = []
    if settings.daily:
        found.append(_last_midnight_before(at))
    if settings.at_checkpoints:
        checkpoints = services.clock.checkpoints_between(
            at - CHECKPOINT_LOOKBACK, at - timedelta(microseconds=1)
        )
        found.extend(point.instant for point in checkpoints[-1:])
    epoch = services.settings.ntime_epoch
    return max((instant for instant in found if instant >= epoch), default=epoch)


def _last_midnight_before(instant: datetime) -> datetime:
    utc = instant.astimezone(UTC)
    midnight = datetime.combine(utc.date(), time(), tzinfo=UTC)
    return midnight - ONE_DAY if midnight == utc else midnight


def _midnights_between(after: datetime, until: datetime) -> Iterable[datetime]:
    midnight = _last_midnight_before(after.astimezone(UTC) + ONE_DAY)
    while midnight <= until:
        if midnight > after:
            yield midnight
        midnight += ONE_DAY


# -- "digest please" -------------------------------------------------------------------------


class DigestAdapter:
    """A Minister's or Deputy's request for eir digest, by post or private mail."""

    prefix = "digest"
    # A request for information (rule 1896 allows it privately); it is
    # answered to the sender alone.
    private_actions: frozenset[str] = frozenset({"digest.request"})

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        assert turn.player is not None, "the engine only passes players' actions"
        digest = digest_for(self.session, self.services, turn.player, turn.occurred_at, ON_REQUEST)
        if digest is None:
            return rejected(
                action.action,
                action.args,
                action.text,
                turn,
                f"{turn.player.name} holds no Ministry and is no Minister's Deputy, "
                "so there is no digest to send em",
                rule="625 A, 1272",
            )
        key = f"request/{turn.message_id}/{turn.position}"
        add_once(self.session, compose_digest(self.services, digest, key))
        names = ", ".join(part.ministry.name for part in digest.served)
        summary = f"the digest for {names} is mailed to {turn.player.name} alone"
        return applied(action.action, action.args, action.text, turn, summary, rule="625 D")

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def save(self) -> None:
        """The digest mail is queued in ``apply``; nothing else changes."""


# -- the view ----------------------------------------------------------------------------------


def wall_clock() -> datetime:
    """Now, for a view asked for without an instant (the only read of the wall clock here)."""
    return datetime.now(UTC)


def digests_view(
    session: Session, services: Services, at: datetime | None = None
) -> tuple[str, dict[str, Any]]:
    """``nomicbot state digests [--at INSTANT]``: what each Ministry's digest holds at
    ``at`` (default: now), and who receives it.

    Given an instant, the view is a function of the store and that instant
    alone: the wall clock is read only when none is given (Trust II, item 13).
    """
    at = wall_clock() if at is None else at
    assignment = assign_sections(session, services, at)
    parts = [
        _ministry_part(session, assignment, ministry) for ministry in assignment.ministries.items
    ]
    if assignment.unassigned:
        parts.append(
            {
                "ministry": None,
                "recipients": [],
                "sections": [_section_data(section) for section in assignment.unassigned],
            }
        )
    text = "\n\n".join(_view_text(part) for part in parts)
    return text or "no Ministries are configured", {"at": at.isoformat(), "ministries": parts}


def _ministry_part(session: Session, assignment: Assignment, ministry: Ministry) -> dict[str, Any]:
    holder = recipient_named(session, ministry.holder)
    people = [ministry.holder, *ministry.deputies] if holder is not None and ministry.holder else []
    found = [recipient_named(session, name) for name in people]
    return {
        "ministry": ministry.name,
        "holder": ministry.holder,
        "deputies": list(ministry.deputies),
        "recipients": [item.player.name for item in found if item is not None],
        "sections": [_section_data(section) for section in assignment.sections_of(ministry)],
    }


def _section_data(section: DigestSection) -> dict[str, Any]:
    return {
        "ministry": section.ministry,
        "title": section.title,
        "lines": list(section.lines),
        "overdue": [item.describe() for item in section.overdue],
    }


def _view_text(part: dict[str, Any]) -> str:
    if part["ministry"] is None:
        head = "Sections for Ministries that are not configured (mailed to nobody):"
    elif part["recipients"]:
        head = f"{part['ministry']}: mailed to {', '.join(part['recipients'])}"
    else:
        head = f"{part['ministry']}: Open or held by no current player; no digest is mailed"
    lines = [head]
    for section in part["sections"]:
        lines.append(f"  {section['title']}")
        lines.extend(f"    {line}".rstrip() for line in section["lines"])
        lines.extend(f"    OVERDUE: {item}" for item in section["overdue"])
    return "\n".join(lines)
