"""Players: the roster, and resolving addresses and names to players.

Rules of seed 004: 2 (names), 14 (becoming a player, forfeiting, Lost
Souls), 151 (name changes) and 205 (On Leave and Off Leave).  Every function
here changes or reads the session only; the caller commits, and the roster
adapter (``bot.engine.games.roster``) turns refusals into rulings.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import event, func, insert, select
from sqlalchemy.orm import ORMExecuteState, Session

from bot.config import PlayerEntry
from bot.engine.rulings import PlayerRef
from bot.games.errors import AmbiguousActionError, IllegalActionError
from bot.store.models import Player, PlayerAddress, PlayerFormerName, folded_name

NAME_LENGTH = 200  # the width of player.name
# Rule 151: raises IllegalActionError for a name no player may take (one of
# an entity a current proposal defines); the enabled games' checks
# (``bot.engine.game.Game.name_checks``), run where the rule has them run.
NameCheck = Callable[[str], None]


def no_name_check(name: str) -> None:
    """No game reserves any name."""


@dataclass(frozen=True)
class RosterEntry:
    """One line of the roster display: a player or a Lost Soul."""

    name: str
    active: bool  # False: a Lost Soul (rule 14)
    on_leave: bool  # rule 205
    origin: str  # "config" or "registration"
    joined_at: datetime
    addresses: tuple[str, ...]  # for the console only: the mailed roster shows a count
    former_names: tuple[str, ...]  # rule 151, oldest first
    left_nweek: int | None = None  # zero-based nweek e last forfeited in (rule 212's 0BW)


@dataclass(frozen=True)
class RosterCounts:
    """How many players (of them, how many On Leave) and Lost Souls there are (rules 14, 205)."""

    players: int
    on_leave: int
    lost_souls: int


def player_for_address(session: Session, address: str | None) -> PlayerRef | None:
    if not address:
        return None
    remembered: dict[str, PlayerRef | None] | None = session.info.get(REMEMBERED_PLAYERS)
    if remembered is None or _roster_changing(session):
        return _player_for_address(session, address.lower())
    key = address.lower()
    if key not in remembered:
        remembered[key] = _player_for_address(session, key, session.info[REMEMBERED_ON_LEAVE])
    return remembered[key]


def _player_for_address(
    session: Session, address: str, on_leave: dict[int, bool] | None = None
) -> PlayerRef | None:
    row = session.execute(
        select(Player.id, Player.name, Player.on_leave)
        .join(PlayerAddress, PlayerAddress.player_id == Player.id)
        .where(PlayerAddress.address == address, Player.active.is_(True))
    ).first()
    if row is None:
        return None
    if on_leave is not None:
        on_leave[row.id] = row.on_leave
    return PlayerRef(row.id, row.name)


def remembered_on_leave(session: Session, player_id: int) -> bool | None:
    """Whether the active player ``player_id`` is On Leave (rule 205), as remembered.

    Known for a player whose address a session that remembers players
    (``remember_players``) resolved, while no roster row has been written
    since; None otherwise, and the caller reads the player's row.
    """
    known: dict[int, bool] | None = session.info.get(REMEMBERED_ON_LEAVE)
    if not known or _roster_changing(session):
        return None
    return known.get(player_id)


# The key in ``Session.info`` of the addresses already resolved in a session
# that remembers them (``remember_players``).
REMEMBERED_PLAYERS = "players-by-address"
# And whether each player so found was On Leave then: player id -> on_leave.
REMEMBERED_ON_LEAVE = "on-leave-by-player"
ROSTER_ROWS = (Player, PlayerAddress, PlayerFormerName)


def remember_players(session: Session) -> None:
    """Let ``session`` remember who an address is, until anything may change the roster.

    For a replay's batch of posts, where most posts are by the same few
    players: the answer is forgotten as soon as a roster row is written
    (flushed or pending), a bulk statement runs, or a SAVEPOINT or the
    transaction rolls back, so no post is judged against a roster an
    earlier post changed.
    """
    session.info[REMEMBERED_PLAYERS] = {}
    session.info[REMEMBERED_ON_LEAVE] = {}
    event.listen(session, "before_flush", _forget_if_roster_written)
    event.listen(session, "do_orm_execute", _forget_on_bulk_statement)
    event.listen(session, "after_soft_rollback", _forget_after_rollback)


def _forget(session: Session) -> None:
    for key in (REMEMBERED_PLAYERS, REMEMBERED_ON_LEAVE):
        remembered = session.info.get(key)
        if remembered:
            remembered.clear()


def _roster_changing(session: Session) -> bool:
    changed = (*session.new, *session.deleted, *session.dirty)
    return any(isinstance(item, ROSTER_ROWS) for item in changed)


def _forget_if_roster_written(session: Session, _context: object, _instances: object) -> None:
    if _roster_changing(session):
        _forget(session)


def _forget_on_bulk_statement(state: ORMExecuteState) -> None:
    if not state.is_select:
        _forget(state.session)


def _forget_after_rollback(session: Session, _previous: object) -> None:
    _forget(session)


def acting_player(
    session: Session, player: PlayerRef | None, author: str, *, rule: str, doing: str
) -> PlayerRef:
    """The player acting, read afresh; IllegalActionError (``rule``) when ``author`` is not one.

    Read afresh because an earlier action of the same post may have renamed
    em or made em leave; ``doing`` completes "only a player can ...".
    """
    row = session.get(Player, player.id) if player else None
    if row is None or not row.active:
        raise IllegalActionError(
            f"only a player can {doing}, and {author} is not a player's address", rule=rule
        )
    return PlayerRef(row.id, row.name)


def registered_addresses(session: Session, player_id: int) -> tuple[str, ...]:
    """The addresses the roster has for the player, sorted."""
    rows = session.scalars(
        select(PlayerAddress.address)
        .where(PlayerAddress.player_id == player_id)
        .order_by(PlayerAddress.address)
    )
    return tuple(rows)


def all_players(session: Session) -> list[PlayerRef]:
    """Every player, On Leave or not, in roster order; Lost Souls are not players (rule 14).

    Rule 15's default Eligible Voters ("all Players"), rule 1823's, rule
    212's "each player" and everyone who can hold or be named.
    """
    rows = session.execute(
        select(Player.id, Player.name).where(Player.active.is_(True)).order_by(Player.id)
    )
    return [PlayerRef(row.id, row.name) for row in rows]


def active_players(session: Session) -> list[PlayerRef]:
    """The active players: every player who is Off Leave (rule 205), in roster order.

    The one definition of "active" wherever a rule counts active players:
    rule 15 B's Democratic veto ("at least half of all active players"),
    seed 000's B-Chess "Active Player", and rule 205's random selections
    ("a player who is On Leave cannot be selected").  A player On Leave is
    still a player (rule 205 keeps em one), so ``all_players`` has em.
    """
    rows = session.execute(
        select(Player.id, Player.name)
        .where(Player.active.is_(True), Player.on_leave.is_(False))
        .order_by(Player.id)
    )
    return [PlayerRef(row.id, row.name) for row in rows]


def is_on_leave(session: Session, player: PlayerRef) -> bool:
    row = session.get(Player, player.id)
    return row is not None and row.on_leave


def find_player_by_name(session: Session, name: str) -> PlayerRef:
    """Resolve a name or an unambiguous abbreviation of one (rule 2).

    Raises IllegalActionError when nobody matches and AmbiguousActionError
    when several players do.
    """
    exact_bearer = _bearer_of(session, name, players_only=True)
    if exact_bearer is not None:
        return exact_bearer
    wanted = _folded(name)
    holder = _name_holder(session, name)
    if holder is not None and holder.active:
        return PlayerRef(holder.id, holder.name)
    # An abbreviation (rule 2): compared with every player's name, only when
    # no player bears the name itself.
    partial = [p for p in all_players(session) if _folded(p.name).startswith(wanted)]
    if len(partial) == 1:
        return partial[0]
    if not partial:
        raise IllegalActionError(f'there is no player called "{name}"', rule="2")
    names = ", ".join(p.name for p in partial)
    raise AmbiguousActionError(f'"{name}" could mean any of: {names}', rule="2")


def player_known_as(session: Session, name: str) -> PlayerRef | None:
    """Whoever bears ``name`` now, or else whoever bore it last (rule 151).

    For reading the archive: a post from before a name change still names
    its player.  Lost Souls count, since they keep their names (rule 14).
    """
    exact_bearer = _bearer_of(session, name, players_only=False)
    if exact_bearer is not None:
        return exact_bearer
    wanted = _folded(name)
    row = session.execute(
        select(Player.id, Player.name).where(Player.name_folded == wanted)
    ).first()
    if row is not None:
        return PlayerRef(row.id, row.name)
    # Whoever gave the name up last; on a tie, the first in roster order (``KnownNames``).
    former = session.execute(
        select(Player.id, Player.name)
        .join(PlayerFormerName, PlayerFormerName.player_id == Player.id)
        .where(PlayerFormerName.name_folded == wanted)
        .order_by(PlayerFormerName.until.desc(), Player.id, PlayerFormerName.id)
        .limit(1)
    ).first()
    return PlayerRef(former.id, former.name) if former is not None else None


def _bearer_of(session: Session, name: str, players_only: bool) -> PlayerRef | None:
    """Whoever bears exactly ``name`` (a Lost Soul too unless ``players_only``): one
    look-up in the unique index of names.

    Rule 2: names are unique whatever their case, since registering, renaming
    and the configuration each refuse or match a name borne in any case
    (``_name_holder``, ``KnownNames``); so the exact bearer is the only one,
    and the scans that compare names without case are needed only without one.
    """
    query = select(Player.id, Player.name).where(Player.name == " ".join(name.split()))
    if players_only:
        query = query.where(Player.active.is_(True))
    row = session.execute(query).first()
    return PlayerRef(row.id, row.name) if row else None


@dataclass
class KnownNames:
    """The roster's names, folded (rule 2), for many look-ups without a query each.

    ``current``: each name borne now, to the first player in roster order
    who bears it; ``former``: each name given up (rule 151), to the instant
    it was last given up and the player who gave it up then.
    """

    current: dict[str, PlayerRef] = field(default_factory=dict)
    former: dict[str, tuple[datetime, PlayerRef]] = field(default_factory=dict)

    def add_current(self, player: PlayerRef) -> None:
        self.current.setdefault(_folded(player.name), player)

    def add_former(self, player: PlayerRef, name: str, until: datetime) -> None:
        key = _folded(name)
        # On a tie, the first player in roster order.
        if key not in self.former or until > self.former[key][0]:
            self.former[key] = (until, player)

    def known_as(self, name: str) -> PlayerRef | None:
        """As ``player_known_as``: whoever bears ``name`` now, or else whoever bore it last."""
        wanted = _folded(name)
        if wanted in self.current:
            return self.current[wanted]
        return self.former[wanted][1] if wanted in self.former else None


def sync_configured_players(
    session: Session, entries: Sequence[PlayerEntry], now: datetime
) -> None:
    """Make sure every player named in the configuration exists with eir addresses.

    Every command starts with this, and a configuration may list thousands
    of players: the roster is read in two statements and the new rows are
    written in bulk.  Each entry is matched as if the ones before it were
    already written, as writing them one at a time would.
    """
    known = _known_names(session)
    owners = _address_owners(session)
    created: list[str] = []  # the names of the new players
    wanted: list[tuple[str, int]] = []  # (address, owner) of each new address
    for entry in entries:
        owner = _configured_owner(entry, owners, known)
        if owner is None:
            created.append(entry.name)
            owner = -len(created)  # stands for the new player until it has an id
            known.add_current(PlayerRef(owner, entry.name))
        for address in entry.addresses:
            if address not in owners:
                owners[address] = owner
                wanted.append((address, owner))
    ids = _insert_configured(session, created, now)
    if wanted:
        session.execute(
            insert(PlayerAddress),
            [
                {"player_id": owner if owner > 0 else ids[-owner - 1], "address": address}
                for address, owner in wanted
            ],
        )


def _insert_configured(session: Session, names: Sequence[str], now: datetime) -> list[int]:
    """Insert the new configured players in bulk; their ids, in the order of ``names``.

    A bulk INSERT is sent as one statement (or a few batches), where the
    unit of work would send one per row on SQLite; the ids are then read
    back by name, which the roster keeps unique.
    """
    if not names:
        return []
    session.execute(
        insert(Player),
        [
            {
                "name": name,
                "name_folded": folded_name(name),
                "active": True,
                "origin": "config",
                "joined_at": now,
            }
            for name in names
        ],
    )
    ids = {name: player_id for name, player_id in session.execute(select(Player.name, Player.id))}
    return [ids[name] for name in names]


def _known_names(session: Session) -> KnownNames:
    known = KnownNames()
    players: dict[int, PlayerRef] = {}
    for player_id, name in session.execute(select(Player.id, Player.name).order_by(Player.id)):
        players[player_id] = PlayerRef(player_id, name)
        known.add_current(players[player_id])
    formers = select(PlayerFormerName.player_id, PlayerFormerName.name, PlayerFormerName.until)
    for player_id, name, until in session.execute(
        formers.order_by(PlayerFormerName.player_id, PlayerFormerName.id)
    ):
        known.add_former(players[player_id], name, until)
    return known


def _address_owners(session: Session) -> dict[str, int]:
    """Every address the roster has, to its player's (or Lost Soul's) id."""
    rows = session.execute(select(PlayerAddress.address, PlayerAddress.player_id))
    return {address: player_id for address, player_id in rows}


def _configured_owner(entry: PlayerEntry, owners: dict[str, int], known: KnownNames) -> int | None:
    # By address first: a configured player who has since changed eir name
    # (rule 151) is still the same player, not a new one under the old name.
    for address in entry.addresses:
        if address.lower() in owners:
            return owners[address.lower()]
    found = known.known_as(entry.name)
    return found.id if found else None


def register_player(
    session: Session,
    name: str,
    address: str,
    now: datetime,
    refuse_name: NameCheck = no_name_check,
) -> PlayerRef:
    """Rule 14: an External Force becomes a Player by posting a request and a name.

    A Lost Soul (a former player, known by eir address) may rejoin; e takes
    the requested name when it is free.  Raises IllegalActionError when the
    name belongs to someone else or the address already belongs to a player.
    """
    clean = clean_name(name, rule="14")
    if player_for_address(session, address) is not None:
        raise IllegalActionError(f"{address} is already a player's address", rule="14")
    lost_soul = _lost_soul_at(session, address)
    holder = _name_holder(session, clean)
    if holder is not None and holder is not lost_soul:
        raise IllegalActionError(f'the name "{clean}" is already taken', rule="14")
    refuse_name(clean)
    if lost_soul is None:
        player = Player(name=clean, origin="registration", joined_at=now)
        session.add(player)
        session.flush()
        session.add(PlayerAddress(player_id=player.id, address=address.lower()))
    else:
        player = lost_soul
        _give_name(player, clean, now)
        player.joined_at = now
    player.active = True
    player.on_leave = False
    session.flush()
    return PlayerRef(player.id, player.name)


def was_player_in_nweek(session: Session, player: PlayerRef, nweek: int) -> bool:
    """Whether ``player`` left the game during ``nweek`` (zero-based), for rule 212."""
    row = session.get(Player, player.id)
    return row is not None and row.left_nweek == nweek


def _lost_soul_at(session: Session, address: str) -> Player | None:
    return session.scalar(
        select(Player)
        .join(PlayerAddress, PlayerAddress.player_id == Player.id)
        .where(PlayerAddress.address == address.lower(), Player.active.is_(False))
    )


def forfeit_player(session: Session, player: PlayerRef, nweek: int | None = None) -> None:
    """Rule 14: a forfeiting player becomes a Lost Soul, keeping only eir name.

    ``nweek`` (zero-based) is when: rule 212 gives 0BW to one who re-enters
    in the same nweek.  Holdings are taken by ``holdings.strip_holdings``.
    """
    row = session.get(Player, player.id)
    if row is not None:
        row.active = False
        row.on_leave = False
        row.left_nweek = nweek


def rename_player(
    session: Session,
    player: PlayerRef,
    name: str,
    now: datetime,
    refuse_name: NameCheck = no_name_check,
) -> PlayerRef:
    """Rule 151: a player changes eir own name; the old one is kept as a former name.

    Raises IllegalActionError when the name is empty, already eirs, or
    borne by another player or Lost Soul (rule 2: names are unique).
    """
    clean = clean_name(name, rule="151")
    row = session.get(Player, player.id)
    if row is None or not row.active:
        raise IllegalActionError("only a player can change eir name", rule="151")
    if clean == row.name:
        raise IllegalActionError(f'your name is already "{clean}"', rule="151")
    holder = _name_holder(session, clean)
    if holder is not None and holder is not row:
        raise IllegalActionError(
            f'the name "{clean}" belongs to {holder.name}; names are unique', rule="2"
        )
    refuse_name(clean)
    _give_name(row, clean, now)
    session.flush()
    return PlayerRef(row.id, row.name)


def set_on_leave(session: Session, player: PlayerRef, on_leave: bool) -> None:
    """Rule 205: a player Off Leave declares emself On Leave, or the other way round.

    Raises IllegalActionError when e already is what e declares.
    """
    row = session.get(Player, player.id)
    if row is None or not row.active:
        raise IllegalActionError("only a player can go On Leave or Off Leave", rule="205")
    if row.on_leave == on_leave:
        state = "On Leave" if on_leave else "Off Leave"
        raise IllegalActionError(f"{row.name} is already {state}", rule="205")
    row.on_leave = on_leave


def add_address(session: Session, name: str, address: str) -> PlayerRef:
    """Give a player (or Lost Soul) one more address to post from.

    Raises IllegalActionError when the address is malformed or already
    someone's, and the errors of ``find_player_by_name``.
    """
    player = _anyone_named(session, name)
    clean = address.strip().lower()
    if "@" not in clean.strip("@") or any(character.isspace() for character in clean):
        raise IllegalActionError(f'"{address}" is not an e-mail address', rule="14")
    owner = session.scalar(select(PlayerAddress).where(PlayerAddress.address == clean))
    if owner is not None:
        raise IllegalActionError(f"{clean} is already {owner.player.name}'s address", rule="14")
    session.add(PlayerAddress(player_id=player.id, address=clean))
    session.flush()
    return PlayerRef(player.id, player.name)


def remove_address(session: Session, name: str, address: str) -> PlayerRef:
    """Take one address from a player; never eir last (rule 14: a working e-mail address).

    Raises IllegalActionError when the address is not the player's or is eir last.
    """
    player = _anyone_named(session, name)
    clean = address.strip().lower()
    row = next((item for item in player.addresses if item.address == clean), None)
    if row is None:
        raise IllegalActionError(f"{clean} is not an address of {player.name}", rule="14")
    if len(player.addresses) == 1:
        raise IllegalActionError(
            f"{clean} is {player.name}'s only address, and a player needs a working one",
            rule="14",
        )
    session.delete(row)
    session.flush()
    return PlayerRef(player.id, player.name)


def roster(session: Session, player_ids: Collection[int] | None = None) -> list[RosterEntry]:
    """Everyone who is or was a player (or those of ``player_ids``), in the order they first joined.

    Three statements however many players there are: the players, their addresses and
    their former names.
    """
    players = select(
        Player.id,
        Player.name,
        Player.active,
        Player.on_leave,
        Player.origin,
        Player.joined_at,
        Player.left_nweek,
    ).order_by(Player.id)
    addresses = select(PlayerAddress.player_id, PlayerAddress.address)
    formers = select(PlayerFormerName.player_id, PlayerFormerName.name).order_by(
        PlayerFormerName.id
    )
    if player_ids is not None:
        players = players.where(Player.id.in_(player_ids))
        addresses = addresses.where(PlayerAddress.player_id.in_(player_ids))
        formers = formers.where(PlayerFormerName.player_id.in_(player_ids))
    held: dict[int, list[str]] = {}
    for player_id, address in session.execute(addresses):
        held.setdefault(player_id, []).append(address)
    former_names: dict[int, list[str]] = {}
    for player_id, name in session.execute(formers):
        former_names.setdefault(player_id, []).append(name)
    return [
        RosterEntry(
            name=row.name,
            active=row.active,
            on_leave=row.on_leave,
            origin=row.origin,
            joined_at=row.joined_at,
            # Sorted here, not by ORDER BY: a PostgreSQL collation may not sort as Python does.
            addresses=tuple(sorted(held.get(row.id, ()))),
            former_names=tuple(former_names.get(row.id, ())),
            left_nweek=row.left_nweek,
        )
        for row in session.execute(players)
    ]


def roster_counts(session: Session) -> RosterCounts:
    """The roster's counts in one statement, whatever its length."""
    rows = session.execute(
        select(Player.active, Player.on_leave, func.count()).group_by(
            Player.active, Player.on_leave
        )
    )
    players = on_leave = lost_souls = 0
    for active, leave, count in rows:
        if not active:
            lost_souls += count
            continue
        players += count
        on_leave += count if leave else 0
    return RosterCounts(players, on_leave, lost_souls)


def render_roster(entries: Sequence[RosterEntry]) -> str:
    """The roster as the public display shows it: players, then Lost Souls.

    Addresses are counted, never shown: the display goes to a public list.
    """
    players = [entry for entry in entries if entry.active]
    souls = [entry for entry in entries if not entry.active]
    on_leave = sum(entry.on_leave for entry in players)
    lines = [f"Players: {len(players)} ({on_leave} On Leave)"]
    lines.extend(_roster_line(entry) for entry in players)
    if souls:
        lines.append(f"Lost Souls: {len(souls)}")
        lines.extend(_roster_line(entry) for entry in souls)
    return "\n".join(lines) + "\n"


def render_roster_changes(counts: RosterCounts, changed: Sequence[RosterEntry]) -> str:
    """What a post changed in the roster: the counts, then the line of each player it changed.

    A ruling's board shows the change, not every player: its length and its
    cost do not grow with the roster (the whole roster is ``nomicbot state
    players`` and the Minister of the Roster's digest, rule 625 D.6).
    """
    lines = [f"Players: {counts.players} ({counts.on_leave} On Leave)"]
    if counts.lost_souls:
        lines.append(f"Lost Souls: {counts.lost_souls}")
    lines.append("Changed by this post:")
    # A Lost Soul's line says so where a player's says On Leave (never both, rule 14).
    lines.extend(_roster_line(entry, "" if entry.active else "Lost Soul") for entry in changed)
    return "\n".join(lines) + "\n"


def _roster_line(entry: RosterEntry, status: str = "") -> str:
    leave = "On Leave" if entry.on_leave else status
    # A configured player's joining instant is only when the bot first started.
    joined = "configured" if entry.origin == "config" else f"joined {entry.joined_at:%Y-%m-%d}"
    count = len(entry.addresses)
    addresses = f"{count} address{'' if count == 1 else 'es'}"
    formerly = f"  formerly {', '.join(entry.former_names)}" if entry.former_names else ""
    return f"  {entry.name:<20} {leave:<9} {joined:<18} {addresses}{formerly}".rstrip()


def clean_name(name: str, rule: str) -> str:
    """``name`` with its spaces collapsed; IllegalActionError if empty or too long."""
    clean = " ".join(name.split())
    if not clean:
        raise IllegalActionError("a name to be known by is needed", rule=rule)
    if len(clean) > NAME_LENGTH:
        raise IllegalActionError(f"a name is at most {NAME_LENGTH} characters", rule=rule)
    return clean


def _give_name(player: Player, name: str, now: datetime) -> None:
    if player.name != name:
        former = PlayerFormerName(name=player.name, name_folded=player.name_folded, until=now)
        player.former_name_rows.append(former)
        player.name = name


def _name_holder(session: Session, name: str) -> Player | None:
    # Folded in Python (SQL lower() knows ASCII only) and looked up in the
    # unique index of folded names (rule 2).
    return session.scalar(select(Player).where(Player.name_folded == _folded(name)))


def _anyone_named(session: Session, name: str) -> Player:
    found = player_known_as(session, name)
    if found is None:
        raise IllegalActionError(f'there is no player or Lost Soul called "{name}"', rule="2")
    row = session.get(Player, found.id)
    assert row is not None
    return row


def _folded(name: str) -> str:
    return folded_name(name)
