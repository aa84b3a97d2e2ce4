"""The state of a game of Political Go (rule 1639, seed 004).

A ``GoState`` is immutable.  The board is ``bytes`` with one byte per point: 0
for an empty point, otherwise 1 + the index of the owner in ``players``.  Bytes
copy quickly (copy-on-write per move), hash, and compare cheaply, which also
suits the position history kept for the ko rule (1639 E).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from bot.games.errors import IllegalActionError
from bot.games.go.marks import choose_mark
from bot.games.go.parameters import B_NOMIC, GoParameters
from bot.games.go.points import Point
from bot.games.lost_souls import is_lost_soul_label, lost_soul_label

PlayerId = str
# Rule 1639 B: an alliance is between two players and is not transitive, so
# alliances are stored as a set of unordered pairs.
Alliance = frozenset[PlayerId]
EMPTY = 0
MAXIMUM_PLAYERS = 255
# Maps every owner code to 1: ``board.translate`` gives the occupancy pattern.
_OCCUPANCY_TABLE = bytes([0] + [1] * 255)


@dataclass(frozen=True)
class PlayerRecord:
    """What the game remembers about one player.

    ``last_move_number`` is 0 until the player's first Move; Moves are
    numbered from 1, so a higher number means "played more recently".
    """

    name: PlayerId
    mark: str
    score: int = 0
    last_move_number: int = 0
    last_checking_period: int | None = None


@dataclass(frozen=True)
class PositionRecord:
    """A board position together with the alliances in force at the time.

    Rule 1639 E compares positions "allied in either state", so the
    alliances are kept with each position.  ``move_number`` is the Move after
    which the position arose (None when unknown, e.g. a set-up position); it
    is only for messages, so it takes no part in equality: the same board and
    alliances reached again are the same position.
    """

    board: bytes
    alliances: frozenset[Alliance]
    move_number: int | None = field(default=None, compare=False)


History = Mapping[bytes, tuple[PositionRecord, ...]]


@dataclass(frozen=True)
class GoState:
    """Stones, Go Scores, alliances, consents and move order.

    ``history`` maps the occupancy pattern of every position seen (one byte
    per point, 1 where a stone stands) to the positions with that pattern.
    Rule 1639 E equivalence only swaps owners, never empties a point, so a ko
    check is one dictionary lookup plus a comparison with a handful of
    positions, not a scan of the whole game.

    For rule 1639 F, ``last_move_was_pass`` says whether the most recent Move
    was to Pass, and ``stones_quiet_since`` is the Checking Period of the most
    recent stone placement (or, while no stone has been placed since the game
    began, of the game's first Move; None before any Move).
    """

    parameters: GoParameters
    board: bytes
    players: tuple[PlayerRecord, ...] = ()
    alliances: frozenset[Alliance] = frozenset()
    pending_consents: frozenset[tuple[PlayerId, PlayerId]] = frozenset()
    move_number: int = 0
    history: History = field(default_factory=dict, hash=False)
    last_move_was_pass: bool = False
    stones_quiet_since: int | None = None

    player_codes: Mapping[PlayerId, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # Board code (1 + index) of every known player; needed on nearly every
        # query, so built once here rather than behind a locked cached_property.
        codes = {record.name: code for code, record in enumerate(self.players, start=1)}
        object.__setattr__(self, "player_codes", codes)

    @property
    def friendship(self) -> tuple[frozenset[int], ...]:
        """For each board code, the codes of that player and eir allies."""
        return friendship_of(self.players, self.alliances)

    @property
    def stones(self) -> dict[Point, PlayerId]:
        """Every stone on the board, point -> owner."""
        return {point: self.players[code - 1].name for point, code in enumerate(self.board) if code}

    @property
    def last_mover(self) -> PlayerId | None:
        """The player who made the most recent Move, or None before the first."""
        for record in self.players:
            if self.move_number and record.last_move_number == self.move_number:
                return record.name
        return None

    def has_player(self, name: PlayerId) -> bool:
        """Whether ``name`` has a record (a mark) in this game."""
        return name in self.player_codes

    def record_of(self, name: PlayerId) -> PlayerRecord:
        """The record of ``name``; raises ``KeyError`` for an unknown player."""
        return self.players[self.player_codes[name] - 1]

    def owner_at(self, point: Point) -> PlayerId | None:
        """The owner of the stone on ``point``, or None if it is empty."""
        code = self.board[point]
        return self.players[code - 1].name if code else None

    def score_of(self, name: PlayerId) -> int:
        """Go Score of ``name`` (0 for a player the game has not seen)."""
        return self.record_of(name).score if self.has_player(name) else 0

    def allies_of(self, name: PlayerId) -> frozenset[PlayerId]:
        """The Allies of ``name`` (rule 1639 B)."""
        return frozenset(
            other for pair in self.alliances if name in pair for other in pair - {name}
        )

    def are_allies(self, first: PlayerId, second: PlayerId) -> bool:
        """Whether ``first`` and ``second`` are Allies (never true of oneself)."""
        return frozenset((first, second)) in self.alliances and first != second


def friendship_of(
    players: tuple[PlayerRecord, ...], alliances: frozenset[Alliance]
) -> tuple[frozenset[int], ...]:
    """Board code -> codes of the same player and eir allies (index 0 unused)."""
    if not alliances:
        return _friendship_without_alliances(len(players))
    return _friendship_with_alliances(tuple(record.name for record in players), alliances)


@functools.cache
def _friendship_without_alliances(count: int) -> tuple[frozenset[int], ...]:
    return (frozenset(), *(frozenset({code}) for code in range(1, count + 1)))


@functools.lru_cache(maxsize=256)
def _friendship_with_alliances(
    names: tuple[PlayerId, ...], alliances: frozenset[Alliance]
) -> tuple[frozenset[int], ...]:
    # Cached: alliances change rarely, while every Move builds a new state.
    codes = {name: code for code, name in enumerate(names, start=1)}
    friends: list[set[int]] = [set()] + [{code} for code in range(1, len(names) + 1)]
    for pair in alliances:
        first, second = (codes[name] for name in sorted(pair))
        friends[first].add(second)
        friends[second].add(first)
    return tuple(frozenset(group) for group in friends)


def occupancy_key(board: bytes) -> bytes:
    """The board with every stone replaced by 1: the key of ``GoState.history``."""
    return board.translate(_OCCUPANCY_TABLE)


def with_position_recorded(history: History, record: PositionRecord) -> History:
    """``history`` plus ``record`` (unchanged if that exact record is known)."""
    key = occupancy_key(record.board)
    known = history.get(key, ())
    if record in known:
        return history
    updated = dict(history)
    updated[key] = (*known, record)
    return updated


def new_game(parameters: GoParameters = B_NOMIC) -> GoState:
    """An empty board with no players (rule 1639 A: "initially empty")."""
    board = bytes(parameters.point_count)
    history = with_position_recorded({}, PositionRecord(board, frozenset()))
    return GoState(parameters=parameters, board=board, history=history)


def add_players(state: GoState, names: Iterable[PlayerId]) -> GoState:
    """``state`` with a record (and a fresh mark) for each new name, in order.

    Known names are left alone, so marks are stable as players join.  Raises
    ``ValueError`` for an empty name, and ``IllegalActionError`` (a refusal
    the engine reports, not a defect) beyond 255 players: the board keeps one
    byte per point.
    """
    names = tuple(names)
    if all(name in state.player_codes for name in names):
        return state
    records = list(state.players)
    known = {record.name for record in records}
    for name in names:
        if name in known:
            continue
        _check_new_player(name, len(records), state.parameters.rule_board)
        taken = {record.mark for record in records}
        records.append(PlayerRecord(name, choose_mark(name, taken, state.parameters.column_labels)))
        known.add(name)
    return state if len(records) == len(state.players) else replace(state, players=tuple(records))


def _check_new_player(name: PlayerId, count: int, rule: str) -> None:
    if not name.strip():
        raise ValueError("a player's name must not be empty")
    if count >= MAXIMUM_PLAYERS:
        raise IllegalActionError(
            f"{name} cannot join the game: Political Go keeps at most {MAXIMUM_PLAYERS} "
            "players (those who forfeited included), one board code each",
            rule=rule,
        )


def renamed(state: GoState, old: PlayerId, new: PlayerId) -> GoState:
    """``state`` with the player ``old`` called ``new`` everywhere (rule 151, seed 004).

    Rule 151 changes a player's name, not the player: eir record (mark,
    Go Score, last Move), stones (kept by board code), alliances, pending
    consents and the alliances of the ko history (rule 1639 E compares them)
    all follow the new name.  ``state`` itself when ``old`` is not in it.
    Raises ``ValueError`` when ``new`` already has a record: names are unique
    (rule 2), so two records would be a defect, not a merge to guess at.
    """
    if old == new or not state.has_player(old):
        return state  # consents and alliances name only players with records
    if state.has_player(new):
        raise ValueError(f"{new!r} already has a record in this game of Political Go")
    players = tuple(
        replace(record, name=new) if record.name == old else record for record in state.players
    )
    return replace(
        state,
        players=players,
        alliances=_renamed_pairs(state.alliances, old, new),
        pending_consents=frozenset(
            (_swap(first, old, new), _swap(second, old, new))
            for first, second in state.pending_consents
        ),
        history=_renamed_history(state.history, old, new),
    )


def _renamed_history(history: History, old: PlayerId, new: PlayerId) -> History:
    return {
        key: tuple(
            replace(record, alliances=_renamed_pairs(record.alliances, old, new))
            for record in records
        )
        for key, records in history.items()
    }


def _renamed_pairs(pairs: frozenset[Alliance], old: PlayerId, new: PlayerId) -> frozenset[Alliance]:
    return frozenset(frozenset(_swap(name, old, new) for name in pair) for pair in pairs)


def _swap(name: PlayerId, old: PlayerId, new: PlayerId) -> PlayerId:
    return new if name == old else name


@dataclass(frozen=True)
class Forfeiture:
    """What a forfeit took from the game (rule 14 of seed 004; docs/readings.md).

    ``stones`` are the points whose stones were removed, ``allies`` the
    players whose alliance with the Lost Soul ended, ``consents`` the pending
    consents to or from em that lapsed (as (consenter, other) pairs), and
    ``score`` the Go Score e lost.
    """

    player: PlayerId
    stones: tuple[Point, ...] = ()
    allies: tuple[PlayerId, ...] = ()
    consents: tuple[tuple[PlayerId, PlayerId], ...] = ()
    score: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.stones or self.allies or self.consents or self.score)


def is_retired(record: PlayerRecord) -> bool:
    """Whether ``record`` is what a forfeit left of a Lost Soul (``forfeited``)."""
    return is_lost_soul_label(record.name)


def forfeited(state: GoState, name: PlayerId) -> tuple[GoState, Forfeiture]:
    """``state`` after ``name`` forfeited (rule 14), and what e lost.

    Rule 14 takes "all game defined properties and attributes", and rule
    1639 A allows only "a Stone belonging to a certain player" on the board,
    so eir stones are removed (not a capture: nobody gains or loses Go Points
    by it, 1639 D), eir Go Score is gone, eir alliances end and consents to
    or from em lapse (1639 B: Allies are Players).  It is not a Move: nobody's
    one Move per Checking Period and nothing of 1639 F changes.  The board
    left is recorded as a previous position (1639 E).

    Eir record stays, renamed to a ``lost_soul_label``: board codes and marks
    never change (the stored ko history is read by them), the Lost Soul's
    earlier positions still compare as eirs, and the name is free, so
    whoever bears it next (e on rejoining, or another player) starts afresh.
    ``state`` itself when ``name`` has no record.
    """
    if not state.has_player(name):
        return state, Forfeiture(name)
    code = state.player_codes[name]
    label = lost_soul_label(name, code)
    before = state.record_of(name)
    allies = tuple(sorted(state.allies_of(name)))
    consents = tuple(sorted(pair for pair in state.pending_consents if name in pair))
    stones = tuple(point for point, owner in enumerate(state.board) if owner == code)
    state = renamed(state, name, label)
    board = bytes(EMPTY if owner == code else owner for owner in state.board)
    alliances = frozenset(pair for pair in state.alliances if label not in pair)
    history = state.history
    if stones:
        history = with_position_recorded(history, PositionRecord(board, alliances))
    players = tuple(
        replace(record, score=0) if record.name == label else record for record in state.players
    )
    after = replace(
        state,
        board=board,
        players=players,
        alliances=alliances,
        pending_consents=frozenset(pair for pair in state.pending_consents if label not in pair),
        history=history,
    )
    return after, Forfeiture(name, stones, allies, consents, before.score)
