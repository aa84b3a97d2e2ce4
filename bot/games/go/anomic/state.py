"""The state of A Nomic's Political Go (rules 365-377, seed 002).

Like rule set B's ``GoState`` the board is ``bytes``, one byte per vertex: 0
empty, else 1 + the index of the Stone's owner in ``players``.  What differs:
rule 368's alliance *offers*, the 19-hour limit (kept as the time of each
player's last limited move), the rule that nobody places two stones in a row
(``last_placer``), and Stones as objects with three states (rule 373): Reserve
and Captured stones are counted per player, In Play stones are the board.

The positional-superko history (rule 368 a) is a ``PositionLog`` of Zobrist
keys; see ``superko``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.games.errors import IllegalActionError
from bot.games.go.anomic.superko import PositionLog
from bot.games.go.marks import choose_mark
from bot.games.go.points import Point, check_size, column_labels, format_point, parse_point
from bot.games.go.state import Alliance, PlayerId, friendship_of
from bot.games.go.state import PlayerRecord as _MarkRecord

MAXIMUM_PLAYERS = 255
HOUR = 3600


@dataclass(frozen=True)
class AnomicParameters:
    """Everything a proposal might change, as data (never code constants).

    ``move_interval`` is rule 368's "no more than one Go move within 19
    hours", in seconds.  ``purchase_base`` is the 5 of rule 374's (5^n)-1 and
    ``sale_price`` rule 377's 1 point.  ``placement_uses_reserve`` chooses the
    reading of rules 373/376 (see ``docs/readings.md``): when true a placement
    puts one of the player's Reserve stones In Play and is refused without
    one; when false (the default) placing creates the stone, as rule 368
    allows a placement with only the exceptions a-c.
    """

    size: int = 19
    lowercase_columns: bool = True
    move_interval: int = 19 * HOUR
    purchase_base: int = 5
    sale_price: int = 1
    placement_uses_reserve: bool = False

    def __post_init__(self) -> None:
        check_size(self.size)
        if self.move_interval < 0 or self.purchase_base < 1 or self.sale_price < 0:
            raise ValueError("move_interval, purchase_base and sale_price must not be negative")

    @property
    def point_count(self) -> int:
        return self.size * self.size

    @property
    def column_labels(self) -> str:
        """Rule 366: "lettered horizontally from "a" to "s"" on 19x19."""
        return column_labels(self.size, lowercase=self.lowercase_columns)

    def parse_point(self, text: str) -> Point:
        """``"q16"`` -> point, citing rule 366 when it is off the board."""
        return parse_point(text, self.size, rule="366", lowercase=self.lowercase_columns)

    def format_point(self, point: Point) -> str:
        return format_point(point, self.size, lowercase=self.lowercase_columns)


A_NOMIC = AnomicParameters()


class GoPlayer(NamedTuple):
    """One player as the Go Contest sees em.

    ``is_go_player``: rule 365, "Players become Go players by making a Go
    move" (reset when the board is cleared).  ``reserve`` and ``captured``
    count eir Reserve and Captured Stones (rule 373); ``captures`` the stones
    e captured in the current game, which with territory make the Go score
    (rule 370).  ``last_limited_move_at`` is the time (seconds) of eir last
    move that rule 368's 19-hour limit counts.  ``purchases`` counts the
    Stones bought in nweek ``purchase_nweek`` (rule 374's n).

    A named tuple rather than a dataclass: every placement builds the
    placer's record anew, and a tuple is built and read faster.  Change a
    record with ``_replace``.
    """

    name: PlayerId
    mark: str
    is_go_player: bool = False
    reserve: int = 0
    captured: int = 0
    captures: int = 0
    last_limited_move_at: int | None = None
    purchase_nweek: int | None = None
    purchases: int = 0

    def purchases_in(self, nweek: int) -> int:
        """Stones this player bought earlier in ``nweek``."""
        return self.purchases if self.purchase_nweek == nweek else 0


class _AnomicFields(NamedTuple):
    """The fields of ``AnomicState``, in order; construct ``AnomicState``, not this."""

    parameters: AnomicParameters
    board: bytes
    players: tuple[GoPlayer, ...]
    alliances: frozenset[Alliance]
    offers: frozenset[tuple[PlayerId, PlayerId]]
    last_placer: PlayerId | None
    move_number: int
    game_number: int
    started_nweek: int | None
    last_placement_nweek: int | None
    breathless: frozenset[Point]
    key: int
    positions: PositionLog
    player_codes: Mapping[PlayerId, int]


# The fields two states are compared and hashed by: all but the position log
# (a state loaded from storage starts a fresh one) and ``player_codes`` (derived).
_COMPARED = len(_AnomicFields._fields) - 2


class AnomicState(_AnomicFields):
    """Board, players, alliances, offers and the position log of one game.

    ``offers`` holds (offerer, offeree) pairs still open (rule 368.2).
    ``last_placer`` is who placed the most recent stone this game (368 c).
    ``started_nweek`` is the nweek of the game's first Go move and
    ``last_placement_nweek`` that of its latest placement (rule 365's end).
    ``breathless`` lists one stone of each Dragon left without Liberties
    (rule 369 only captures Dragons unfriendly to the mover, so a mover's own
    such Dragon can stay on the board until someone else moves).
    ``player_codes`` maps each player to eir board code (1 + index in
    ``players``); it is derived from ``players``, never given.

    A named tuple rather than a frozen dataclass: every placement reads a
    dozen fields and builds a successor, and a tuple is unpacked and built in
    a fraction of the time (see ``place_stone``).  Change a state with
    ``_replace``, which derives ``player_codes`` anew.  Two states are equal
    when all but the position log (a state loaded from storage starts a
    fresh one) and ``player_codes`` are; a state never equals a plain tuple.
    """

    __slots__ = ()

    def __new__(
        cls,
        parameters: AnomicParameters,
        board: bytes,
        players: tuple[GoPlayer, ...] = (),
        alliances: frozenset[Alliance] = frozenset(),
        offers: frozenset[tuple[PlayerId, PlayerId]] = frozenset(),
        last_placer: PlayerId | None = None,
        move_number: int = 0,
        game_number: int = 1,
        started_nweek: int | None = None,
        last_placement_nweek: int | None = None,
        breathless: frozenset[Point] = frozenset(),
        key: int = 0,
        positions: PositionLog | None = None,
    ) -> AnomicState:
        codes = {record.name: code for code, record in enumerate(players, start=1)}
        fields = (
            parameters,
            board,
            players,
            alliances,
            offers,
            last_placer,
            move_number,
            game_number,
            started_nweek,
            last_placement_nweek,
            breathless,
            key,
            PositionLog() if positions is None else positions,
            codes,
        )
        return tuple.__new__(cls, fields)

    def _replace(self, **changes: Any) -> AnomicState:
        """This state with ``changes``, ``player_codes`` derived anew."""
        fields: dict[str, Any] = dict(zip(self._fields[:-1], self, strict=False))
        fields.update(changes)
        return AnomicState(**fields)

    def __getnewargs__(self) -> tuple[Any, ...]:
        return self[:-1]  # the arguments of __new__: all but the derived player_codes

    def __eq__(self, other: object) -> bool:
        # False, not NotImplemented: Python would then compare as plain tuples.
        return type(other) is AnomicState and self[:_COMPARED] == other[:_COMPARED]

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self[:_COMPARED])

    @property
    def friendship(self) -> tuple[frozenset[int], ...]:
        """For each board code, the codes of that player and eir allies."""
        marks = tuple(_MarkRecord(record.name, record.mark) for record in self.players)
        return friendship_of(marks, self.alliances)

    @property
    def stones(self) -> dict[Point, PlayerId]:
        """Every stone In Play, vertex -> owner."""
        return {point: self.players[code - 1].name for point, code in enumerate(self.board) if code}

    def has_player(self, name: PlayerId) -> bool:
        return name in self.player_codes

    def record_of(self, name: PlayerId) -> GoPlayer:
        """The record of ``name``; ``KeyError`` for an unknown player."""
        return self.players[self.player_codes[name] - 1]

    def owner_at(self, point: Point) -> PlayerId | None:
        code = self.board[point]
        return self.players[code - 1].name if code else None

    def are_allies(self, first: PlayerId, second: PlayerId) -> bool:
        return first != second and frozenset((first, second)) in self.alliances

    def allies_of(self, name: PlayerId) -> frozenset[PlayerId]:
        return frozenset(
            other for pair in self.alliances if name in pair for other in pair - {name}
        )

    def in_play(self, name: PlayerId) -> int:
        """Stones of ``name`` In Play (rule 376): on the board."""
        code = self.player_codes.get(name)
        return self.board.count(code) if code else 0

    @property
    def go_players(self) -> tuple[PlayerId, ...]:
        return tuple(record.name for record in self.players if record.is_go_player)


def new_game(parameters: AnomicParameters = A_NOMIC) -> AnomicState:
    """Rule 365: "The Go Board is empty at the start of Political Go"."""
    board = bytes(parameters.point_count)
    return AnomicState(
        parameters=parameters, board=board, positions=PositionLog().with_board(board)
    )


def add_players(state: AnomicState, names: Iterable[PlayerId]) -> AnomicState:
    """``state`` with a record (and a board mark) for each new name, in order.

    Raises ``IllegalActionError`` beyond ``MAXIMUM_PLAYERS`` records.
    """
    records = list(state.players)
    known = set(state.player_codes)
    for name in names:
        if name in known:
            continue
        if not name.strip():
            raise ValueError("a player's name must not be empty")
        if len(records) >= MAXIMUM_PLAYERS:
            # A refusal, not a defect: the board keeps one byte per vertex.
            raise IllegalActionError(
                f"{name} cannot join the game: Political Go keeps at most {MAXIMUM_PLAYERS} "
                "players (those who forfeited included), one board code each",
                rule="366",
            )
        taken = {record.mark for record in records}
        records.append(GoPlayer(name, choose_mark(name, taken, state.parameters.column_labels)))
        known.add(name)
    return state if len(records) == len(state.players) else state._replace(players=tuple(records))


def with_player(state: AnomicState, record: GoPlayer) -> AnomicState:
    """``state`` with ``record`` replacing the record of the same name."""
    players = list(state.players)
    players[state.player_codes[record.name] - 1] = record
    return state._replace(players=tuple(players))


def renamed(state: AnomicState, old: PlayerId, new: PlayerId) -> AnomicState:
    """``state`` with the player ``old`` called ``new`` everywhere (rule 151, seed 004).

    A name change keeps the player: eir record (mark, Stones, captures, the
    19-hour limit, purchases), stones on the board (kept by code), alliances,
    offers and being the last placer (rule 368 c) follow the new name; the
    superko log holds boards only.  ``state`` itself when ``old`` is not in
    it.  Raises ``ValueError`` when ``new`` already has a record (rule 2:
    names are unique, so that would be a defect).
    """
    if old == new or not state.has_player(old):
        return state  # offers and alliances name only players with records
    if state.has_player(new):
        raise ValueError(f"{new!r} already has a record in this game of Political Go")

    def swap(name: PlayerId) -> PlayerId:
        return new if name == old else name

    return state._replace(
        players=tuple(record._replace(name=swap(record.name)) for record in state.players),
        alliances=frozenset(frozenset(map(swap, pair)) for pair in state.alliances),
        offers=frozenset((swap(offerer), swap(offeree)) for offerer, offeree in state.offers),
        last_placer=None if state.last_placer is None else swap(state.last_placer),
    )
