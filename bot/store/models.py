"""SQLAlchemy 2.0 typed models.

The action log is append-only: a ruling, once recorded, is never updated.
Game state is a JSON snapshot per game, rewritten in the same transaction as
the action log rows that produced it, so the two never disagree.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship, validates
from sqlalchemy.types import TypeDecorator

# Warehouse-style naming convention: every constraint gets a stable name, so
# Alembic migrations (and SQLite batch mode) can refer to them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UtcDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite stores naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Player(Base):
    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    # Rule 2: names are unique whatever their case, so the name folded as
    # players compare names (``folded_name``) is unique too, and indexed: a
    # name is looked up once, not compared with every player's.
    # (Nullable in the schema only: migration 0009 added it to a table others refer to.)
    name_folded: Mapped[str] = mapped_column(String(200), nullable=True, index=True, unique=True)
    active: Mapped[bool] = mapped_column(default=True)  # False: a Lost Soul (rule 14)
    origin: Mapped[str] = mapped_column(String(20))  # "config" or "registration"
    joined_at: Mapped[datetime] = mapped_column(UtcDateTime())
    # Rule 205: every player is either On Leave or Off Leave.
    on_leave: Mapped[bool] = mapped_column(default=False)
    # Rule 212: an External Force that was a Player earlier in the current
    # nweek re-enters with 0BW, so the (zero-based) nweek e last left in is kept.
    left_nweek: Mapped[int | None] = mapped_column(Integer, nullable=True)
    addresses: Mapped[list[PlayerAddress]] = relationship(back_populates="player")
    # Rule 151: the names e gave up, oldest first; read when asked for (only a rename does).
    former_name_rows: Mapped[list[PlayerFormerName]] = relationship(order_by="PlayerFormerName.id")

    @property
    def former_names(self) -> list[dict[str, str]]:
        """The names e gave up, oldest first, as {"name": ..., "until": ISO instant}."""
        return [{"name": row.name, "until": row.until.isoformat()} for row in self.former_name_rows]

    @validates("name")
    def _fold_name(self, _key: str, name: str) -> str:
        self.name_folded = folded_name(name)
        return name


def folded_name(name: str) -> str:
    """A name as rule 2 compares names: spaces collapsed, case folded."""
    return " ".join(name.split()).casefold()


class PlayerFormerName(Base):
    """A name a player gave up (rule 151), so the archive's old names still lead to em."""

    __tablename__ = "player_former_name"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    name_folded: Mapped[str] = mapped_column(String(200), index=True)
    until: Mapped[datetime] = mapped_column(UtcDateTime())  # when e gave it up


class PlayerAddress(Base):
    __tablename__ = "player_address"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Indexed: a player's addresses are read by player (``Player.addresses``).
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    address: Mapped[str] = mapped_column(String(320), unique=True)
    player: Mapped[Player] = relationship(back_populates="addresses")


class Message(Base):
    """A post as received: raw bytes first, everything else derived from them."""

    __tablename__ = "message"
    __table_args__ = (Index("ix_message_status_arrival", "status", "received_at", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(998), unique=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    received_at: Mapped[datetime] = mapped_column(UtcDateTime())  # arrival, not the Date header
    source: Mapped[str] = mapped_column(String(20))  # "imap", "smtp" or "replay"
    status: Mapped[str] = mapped_column(String(20), default="queued")
    status_reason: Mapped[str] = mapped_column(Text, default="")
    sender: Mapped[str] = mapped_column(String(320), default="")
    subject: Mapped[str] = mapped_column(Text, default="")
    processed_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class Shunt(Base):
    """A message whose processing raised: kept with its traceback until re-queued."""

    __tablename__ = "shunt"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_pk: Mapped[int] = mapped_column(ForeignKey("message.id"))
    traceback: Mapped[str] = mapped_column(Text)
    shunted_at: Mapped[datetime] = mapped_column(UtcDateTime())
    requeued_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class ShuntedEvent(Base):
    """A timed event whose handler raised: set aside with its traceback, to be run again.

    ``handler`` names the timed handler (``module.function``) and the event
    is its run over ``(due_after, due_until]``; consecutive failures of one
    handler are one row whose interval grows.  ``status`` is ``shunted``,
    ``queued`` (re-queued by the operator: the worker runs it again) or
    ``done`` (it ran without error).
    """

    __tablename__ = "shunted_event"
    __table_args__ = (Index("ix_shunted_event_status_due", "status", "due_until"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    handler: Mapped[str] = mapped_column(String(200))
    due_after: Mapped[datetime] = mapped_column(UtcDateTime())
    due_until: Mapped[datetime] = mapped_column(UtcDateTime())
    status: Mapped[str] = mapped_column(String(20), default="shunted")
    failures: Mapped[int] = mapped_column(Integer, default=1)
    error: Mapped[str] = mapped_column(Text)  # the traceback's last line
    traceback: Mapped[str] = mapped_column(Text)
    shunted_at: Mapped[datetime] = mapped_column(UtcDateTime())
    requeued_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    done_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class ActionRecord(Base):
    """Append-only log of every action read from a post and the ruling on it."""

    __tablename__ = "action_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_pk: Mapped[int | None] = mapped_column(ForeignKey("message.id"), nullable=True)
    position: Mapped[int] = mapped_column(Integer)  # order within the post (rule 1896)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), nullable=True)
    action: Mapped[str] = mapped_column(String(100))
    args: Mapped[dict[str, Any]] = mapped_column(JSON)
    text: Mapped[str] = mapped_column(Text)
    ruling: Mapped[str] = mapped_column(String(20))  # applied / rejected / not_taken
    summary: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text, default="")
    rule: Mapped[str] = mapped_column(String(50), default="")
    draws: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # What the action changed, as data for queries such as "which post placed
    # or captured the stone on q16": [{"game": "go", "point": "q16", ...}].
    effects: Mapped[list[Any]] = mapped_column(JSON, default=list)
    ntime: Mapped[str] = mapped_column(String(60), default="")
    occurred_at: Mapped[datetime] = mapped_column(UtcDateTime())


class GameRecord(Base):
    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(50), unique=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)


class GoPosition(Base):
    """One position of a Political Go game's ko history (rule 1639 E), append-only.

    Kept out of the game's JSON state, which would otherwise grow with every
    Move and be rewritten by each; ``occupancy`` (which points hold a stone,
    as hex) is the key a ko check looks positions up by.
    """

    __tablename__ = "go_position"
    __table_args__ = (Index("ix_go_position_game_occupancy", "game", "occupancy"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(50))
    move_number: Mapped[int] = mapped_column(Integer)
    occupancy: Mapped[str] = mapped_column(String(200))
    board: Mapped[str] = mapped_column(Text)  # one mark per point, "." for empty
    alliances: Mapped[list[list[str]]] = mapped_column(JSON)


class OutboxMessage(Base):
    """A reply or report to send; delivered only after its transaction commits."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_due", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(998), unique=True)
    in_reply_to_pk: Mapped[int | None] = mapped_column(ForeignKey("message.id"), nullable=True)
    kind: Mapped[str] = mapped_column(String(30))  # ruling, dice-commitment, dice-reveal, ...
    recipients: Mapped[list[str]] = mapped_column(JSON)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    # pending, sending, sent or failed
    status: Mapped[str] = mapped_column(String(20), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    next_attempt_at: Mapped[datetime] = mapped_column(UtcDateTime())
    sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    last_error: Mapped[str] = mapped_column(Text, default="")


class ImapCursor(Base):
    """Where the IMAP poller stopped: UIDVALIDITY and the last UID ingested."""

    __tablename__ = "imap_cursor"
    __table_args__ = (UniqueConstraint("account", name="uq_imap_cursor_account"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account: Mapped[str] = mapped_column(String(500))  # user@host:port/folder
    uidvalidity: Mapped[int] = mapped_column(Integer)
    last_uid: Mapped[int] = mapped_column(Integer, default=0)


class DiceSeed(Base):
    """Per-nweek dice commitment and, once the nweek is over, the revealed seed."""

    __tablename__ = "dice_seed"

    nweek: Mapped[int] = mapped_column(Integer, primary_key=True)  # zero-based, as the Clock
    commitment: Mapped[str] = mapped_column(String(64))
    revealed_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ClockMark(Base):
    """Single-row table: the last instant the scheduler has handled events up to."""

    __tablename__ = "clock_mark"

    id: Mapped[int] = mapped_column(primary_key=True)
    handled_until: Mapped[datetime] = mapped_column(UtcDateTime())


# A ledger entry's holder, and a balance's: a player or an entity, never both.
ONE_HOLDER = (
    "(player_id IS NULL AND entity IS NOT NULL) OR (player_id IS NOT NULL AND entity IS NULL)"
)


class LedgerEntry(Base):
    """One change to what a holder holds (points, tildex, ...), append-only.

    A balance is the sum of a holder's entries in one currency, kept in
    ``balance`` as the entries are written.  The holder
    is a player (``player_id``) or an entity that is no player (``entity``,
    its name: "the Store" of rule 1911), never both: rule 21 A.2 wants the
    tildex of "any game entity" on a public display.  Every entry names what
    caused it: the post (``message_pk``) and the rule, or an administrator's
    command (``source`` "admin").  ``basin_nweek`` is the (zero-based) nweek
    in which the Basin created the entry's tildex (rule 21 A.2's cap of
    10000~ each nweek), on the entries of tildex it created, and NULL on
    every other.
    """

    __tablename__ = "ledger_entry"
    __table_args__ = (
        Index("ix_ledger_entry_player_currency", "player_id", "currency"),
        Index("ix_ledger_entry_entity_currency", "entity", "currency"),
        Index("ix_ledger_entry_basin_nweek", "basin_nweek"),
        Index("ix_ledger_entry_occurred_at", "occurred_at"),
        CheckConstraint(ONE_HOLDER, name="one_holder"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), nullable=True)
    entity: Mapped[str | None] = mapped_column(String(200), nullable=True)
    currency: Mapped[str] = mapped_column(String(50))  # "points", ...
    amount: Mapped[int] = mapped_column(Integer)  # positive: gained; negative: spent
    message_pk: Mapped[int | None] = mapped_column(ForeignKey("message.id"), nullable=True)
    source: Mapped[str] = mapped_column(String(20))  # "post", "admin" or "scheduler"
    rule: Mapped[str] = mapped_column(String(50), default="")
    note: Mapped[str] = mapped_column(Text, default="")
    occurred_at: Mapped[datetime] = mapped_column(UtcDateTime())
    basin_nweek: Mapped[int | None] = mapped_column(Integer, nullable=True)


class Balance(Base):
    """What one holder holds of one currency: the sum of its ``ledger_entry`` rows, kept.

    Written with every entry (``bot.engine.ledger``), in the same flush, so
    it never disagrees with the ledger; a balance is one row read through
    its unique index, and the Twiddler's display one row per holder and
    currency, however many entries the game's years have added.  A row
    exists once the holder has had an entry in the currency, so a balance
    spent to zero keeps its row (and its line on the display), as the sum
    of its entries did.  The holder is a player or an entity, as on the
    ledger.
    """

    __tablename__ = "balance"
    __table_args__ = (
        Index("ix_balance_player_currency", "player_id", "currency", unique=True),
        Index("ix_balance_entity_currency", "entity", "currency", unique=True),
        CheckConstraint(ONE_HOLDER, name="one_holder"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), nullable=True)
    entity: Mapped[str | None] = mapped_column(String(200), nullable=True)
    currency: Mapped[str] = mapped_column(String(50))
    amount: Mapped[int] = mapped_column(Integer)


class RuleChange(Base):
    """A setting that is part of the rules, changed from an instant on (docs/archive.md).

    Written only by an admin record (``bot.engine.rule_changes``), so a
    replay of the archive writes the same rows; the configuration file
    holds the starting values.  ``setting`` is "ntime.clock" (rule 3 A:
    the value is true for On) or a changeable "SECTION.KEY"; the value in
    force at an instant is the latest row at or before it.
    """

    __tablename__ = "rule_change"
    __table_args__ = (Index("ix_rule_change_setting_effective", "setting", "effective_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    setting: Mapped[str] = mapped_column(String(100))
    value: Mapped[Any] = mapped_column(JSON)
    effective_at: Mapped[datetime] = mapped_column(UtcDateTime())
    record_id: Mapped[str] = mapped_column(String(32))  # the admin record that made it
    recorded_at: Mapped[datetime] = mapped_column(UtcDateTime())  # the record's own instant


class GameObject(Base):
    """One object that is not a currency (a Card, a Chip, a Garden): who holds it now.

    One row per object, updated when it moves, so what a holder has is an
    indexed query however old the game; ``object_event`` keeps every change.
    The holder is a player (``holder_kind`` "player", ``holder`` eir id) or
    an entity ("deck", "the Deck"); a destroyed object keeps its row, held by
    nobody (``holder_kind`` "destroyed"), so its history can still be read.
    """

    __tablename__ = "game_object"
    __table_args__ = (
        Index("ix_game_object_holder_type", "holder_kind", "holder", "object_type"),
        Index("ix_game_object_type", "object_type"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    object_type: Mapped[str] = mapped_column(String(50))  # an ObjectType's name
    holder_kind: Mapped[str] = mapped_column(String(30))
    holder: Mapped[str] = mapped_column(String(200))
    location: Mapped[str] = mapped_column(String(200), default="")
    attributes: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    destroyed_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class ObjectEvent(Base):
    """One change to an object (created, transferred, moved, changed, destroyed), append-only.

    Beside the ledger of holdings: every entry names its cause, the post or
    admin record (``message_pk``) and the rule, or the scheduler.
    """

    __tablename__ = "object_event"
    __table_args__ = (Index("ix_object_event_object", "object_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    object_id: Mapped[int] = mapped_column(ForeignKey("game_object.id"))
    change: Mapped[str] = mapped_column(String(20))
    from_kind: Mapped[str] = mapped_column(String(30), default="")
    from_holder: Mapped[str] = mapped_column(String(200), default="")
    to_kind: Mapped[str] = mapped_column(String(30), default="")
    to_holder: Mapped[str] = mapped_column(String(200), default="")
    location: Mapped[str] = mapped_column(String(200), default="")
    # On creation the object's attributes; on a change of attributes the new values.
    attributes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    message_pk: Mapped[int | None] = mapped_column(ForeignKey("message.id"), nullable=True)
    source: Mapped[str] = mapped_column(String(20))  # "post", "admin" or "scheduler"
    rule: Mapped[str] = mapped_column(String(50), default="")
    note: Mapped[str] = mapped_column(Text, default="")
    occurred_at: Mapped[datetime] = mapped_column(UtcDateTime())


# -- governance that grows with the game: one row per item -------------------------------
#
# Proposals, Ballots, polls, CFIs and Elections are kept a row each, the
# item's data as JSON, with the columns the hot path looks things up by
# indexed, so a post reads and writes only the items it touches and the
# scheduler's "anything due?" reads only what is still open.


class ProposalRow(Base):
    """One proposal (rules 4, 5, 19, 23 of seed 004) with its revisions."""

    __tablename__ = "proposal"

    serial: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    # Rule 151's "current proposal": submitted, on the Ballot or shelved.
    current: Mapped[bool] = mapped_column(index=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class ProposalBallotRow(Base):
    """One nweek's Ballot (rule 23): the poll number of each proposal on it."""

    __tablename__ = "proposal_ballot"

    nweek: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    is_open: Mapped[bool] = mapped_column(index=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class PollRow(Base):
    """One poll (rule 15) with its votes; ``kind`` says what called it."""

    __tablename__ = "poll"
    __table_args__ = (Index("ix_poll_kind_open", "kind", "is_open"),)

    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(30))
    is_open: Mapped[bool] = mapped_column()
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    # When the poll Concludes, from ``state`` at each write, so the scheduler's
    # "anything due?" reads these columns and not every open poll's votes:
    # the instant it was called; its deadline, as an ntime reading in ndays
    # (resolved through The Clock when read, rule 3 A) or, for a deadline
    # that does not move with The Clock, the instant (None: Indeterminate);
    # and the instant its flags concluded it early (rule 15 B), if they did.
    called_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    deadline_ndays: Mapped[int | None] = mapped_column(Integer, nullable=True)
    fixed_deadline: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    early_conclusion: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class CfiRow(Base):
    """One Call For Inquiry (rule 125), found by its number or its poll's."""

    __tablename__ = "cfi"

    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    poll_number: Mapped[int] = mapped_column(Integer, unique=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class ElectionRow(Base):
    """One Ministerial Election (rules 625 B, 1823) with its nominations and ballots."""

    __tablename__ = "election"

    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    in_progress: Mapped[bool] = mapped_column(index=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)  # all but the ballots


class ElectionBallotRow(Base):
    """One ballot as cast in an Election (rule 1823: a voter's last one counts).

    A row each, so casting one writes one row and asks the index whether
    the voter voted before, however many have voted.
    """

    __tablename__ = "election_ballot"
    __table_args__ = (Index("ix_election_ballot_election_voter", "election_number", "voter"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    election_number: Mapped[int] = mapped_column(ForeignKey("election.number"))
    voter: Mapped[str] = mapped_column(String(200))
    choices: Mapped[list[str]] = mapped_column(JSON)
    cast_at: Mapped[datetime] = mapped_column(UtcDateTime())
    message_id: Mapped[str] = mapped_column(String(998))


class GardenPlantRow(Base):
    """One living Plant of the Gardens (rules 1902, 1908, 1909): a row each, indexed by Garden.

    ``number`` is the Gardens' own object number (Plants and Fruit share one
    series); ``garden`` its owner's name, empty for the Town Square (1902 C).
    A destroyed Plant's row is deleted: the display and the rulings name
    what happened, and a post reads only what lives.
    """

    __tablename__ = "garden_plant"

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(Integer, index=True)
    kind: Mapped[str] = mapped_column(String(50))
    garden: Mapped[str] = mapped_column(String(200), index=True)
    planted_ndays: Mapped[int] = mapped_column(Integer)
    planted_second: Mapped[int] = mapped_column(Integer)


class GardenFruitRow(Base):
    """One existing Fruit: on a Plant (``plant``, its number) or held (``holder``)."""

    __tablename__ = "garden_fruit"

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(Integer, index=True)
    kind: Mapped[str] = mapped_column(String(50))
    created_ndays: Mapped[int] = mapped_column(Integer)
    created_second: Mapped[int] = mapped_column(Integer)
    plant: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    holder: Mapped[str | None] = mapped_column(String(200), nullable=True, index=True)
    rotten: Mapped[bool] = mapped_column(default=False)


class GardenPermissionRow(Base):
    """Rule 636: ``grantor`` lets ``grantee`` do ``scope`` ("pick" in eir Garden) from
    ``begins`` until ``ends`` (Clock time: nday count and second; no end: for good).
    Deleted once ended, at the next Checkpoint."""

    __tablename__ = "garden_permission"
    __table_args__ = (Index("ix_garden_permission_grantor_grantee", "grantor", "grantee"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    grantor: Mapped[str] = mapped_column(String(200))
    grantee: Mapped[str] = mapped_column(String(200))
    scope: Mapped[str] = mapped_column(String(50))
    begins_ndays: Mapped[int] = mapped_column(Integer)
    begins_second: Mapped[int] = mapped_column(Integer)
    ends_ndays: Mapped[int | None] = mapped_column(Integer, nullable=True)
    ends_second: Mapped[int | None] = mapped_column(Integer, nullable=True)


class GardenFreeThrowRow(Base):
    """Rule 1908 B.3: ``owner`` may throw a Free Throw at ``picker`` until ``expires``
    (Clock time), for the picking ``cause`` names.  Deleted when thrown or lost."""

    __tablename__ = "garden_free_throw"
    __table_args__ = (Index("ix_garden_free_throw_owner_picker", "owner", "picker"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner: Mapped[str] = mapped_column(String(200))
    picker: Mapped[str] = mapped_column(String(200))
    expires_ndays: Mapped[int] = mapped_column(Integer)
    expires_second: Mapped[int] = mapped_column(Integer)
    cause: Mapped[str] = mapped_column(Text)


class GardenRecordRow(Base):
    """One smaller record of the Gardens, a row each.

    ``kind`` says which: a player with a Garden (1902 A), a payment for
    watering in a Checking Period (1902 A), the gardens a player picked in
    this Checking Period (1902 B, 1909), a lasting effect (a Stain, a Pick
    Slowly), a quota's count, and the counters.  ``player`` is the player it
    belongs to, indexed with ``kind``; ``data`` the record as
    ``bot.games.garden.serialize`` writes it.  Records that can no longer
    matter are deleted at each Checkpoint, so the rows do not grow with the
    game's age.
    """

    __tablename__ = "garden_record"
    __table_args__ = (Index("ix_garden_record_kind_player", "kind", "player"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(30))
    player: Mapped[str] = mapped_column(String(200))
    data: Mapped[Any] = mapped_column(JSON)


class EconomyObjectRow(Base):
    """One existing object of the Drinks or the Store (rules 1911, 1913-1915, 1918): a
    Drink, a Potion, a Waterspout Concoction, a Bunny, an Arena Tool, a Huge Seed.

    ``number`` is in the Gardens' one series; ``category`` says whose rules keep it
    ("Drink", "Potion", "Concoction", or "Store"); ``holder`` the player holding it.
    A destroyed object's row is deleted.
    """

    __tablename__ = "economy_object"

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(Integer, index=True)
    kind: Mapped[str] = mapped_column(String(50))
    category: Mapped[str] = mapped_column(String(20))
    holder: Mapped[str] = mapped_column(String(200), index=True)
    created_ndays: Mapped[int] = mapped_column(Integer)
    created_second: Mapped[int] = mapped_column(Integer)


class EconomyRecordRow(Base):
    """One smaller record of the Drinks and the Store, a row each: a player's BAC
    (1913), a Rainbow walk (1914 C.2), a Bunny's target this nweek (1911), a New
    Player's free Water Jet (1911, 1912), the Store's tildex (1911)."""

    __tablename__ = "economy_record"
    __table_args__ = (Index("ix_economy_record_kind_player", "kind", "player"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(30))
    player: Mapped[str] = mapped_column(String(200))
    data: Mapped[Any] = mapped_column(JSON)
