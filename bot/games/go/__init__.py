"""Political Go: B Nomic rule 1639 (seed 004), pure and standard-library only.

Points and parameters
    ``Point = int`` (``row * size + column``, A1 = 0); ``PlayerId = str``.
    ``parse_point(text: str, size: int, *, rule: str = "1639 A") -> Point``
    ``format_point(point: Point, size: int, *, lowercase: bool = False) -> str``
    ``GoParameters(size=9, lowercase_columns=False, rule_board="1639 A",
    rule_alliances="1639 B", rule_moves="1639 C", rule_capture="1639 D",
    rule_display="1639 H")``; ``B_NOMIC`` is the default.

State (immutable)
    ``GoState``: ``parameters``, ``board`` (bytes, 0 empty, 1 + player index),
    ``players`` (``PlayerRecord(name, mark, score, last_move_number,
    last_checking_period)``), ``alliances`` (set of unordered pairs),
    ``pending_consents`` ((consenter, other) pairs), ``move_number``,
    ``history`` (occupancy key -> ``PositionRecord``s, the hook for ko).
    Queries: ``stones``, ``owner_at``, ``score_of``, ``allies_of``,
    ``are_allies``, ``record_of``, ``last_mover``.
    ``new_game(parameters: GoParameters = B_NOMIC) -> GoState``
    ``add_players(state: GoState, names: Iterable[PlayerId]) -> GoState``
    ``renamed(state: GoState, old: PlayerId, new: PlayerId) -> GoState``
    (rule 151: a name change keeps the player's record, stones and alliances)
    ``forfeited(state, name) -> tuple[GoState, Forfeiture]`` (rule 14: the
    Lost Soul's stones, Go Score, alliances and consents go; eir record stays
    under a Lost Soul label, ``is_retired(record)``)

Moves (rule 1639 C); each returns ``MoveResult(state, events, counts_as_move)``
or raises ``IllegalActionError`` / ``AmbiguousActionError``
    ``place_stone(state, context: MoveContext, point: Point,
    capture_order: Sequence[DragonSelector] = (), *,
    history: PositionHistory | None = None) -> MoveResult``
    ``consent_to_alliance(state, context, ally: PlayerId) -> MoveResult``
    ``break_alliance(state, context, ally: PlayerId) -> MoveResult``
    ``pass_move(state, context) -> MoveResult``
    ``MoveContext(player: PlayerId, checking_period: int)``; events are
    ``StonePlaced``, ``DragonCaptured`` (``stones``, ``losses: StoneLoss``,
    ``shares: CaptureShare``), ``AllianceConsented``, ``AllianceFormed``,
    ``AllianceBroken``, ``Passed``.

Ko (rule 1639 E)
    ``PositionHistory`` (Protocol): ``positions_with(occupancy: bytes) ->
    Iterable[PositionRecord]``, keyed by ``occupancy_key(board)``;
    ``InMemoryHistory(positions)`` and ``history_of(state)`` serve
    ``state.history``; ``is_equivalent(state, board, earlier) -> bool``,
    ``equivalent_position(state, board, history) -> PositionRecord | None``.

Ending and scoring (rule 1639 F, G)
    ``game_should_end(state, at_checkpoint_period: int, nweek_periods: int = 3)
    -> bool``; ``score_game(state) -> ScoreResult`` (``territories``,
    ``totals: PlayerTotal``, ``nomic_points``); ``territories(state)``;
    ``reset_game(state) -> GoState``.  ``GoState.last_move_was_pass`` and
    ``GoState.stones_quiet_since`` carry what F needs.

Dragons (rule 1639 D)
    ``dragons_at(state, point) -> tuple[Dragon, ...]``,
    ``dragons_on_board(state) -> tuple[Dragon, ...]``,
    ``liberties(state, dragon) -> frozenset[Point]``,
    ``divide_points(stone_count, adjacent_counts, recency) -> tuple[CaptureShare, ...]``.
    Set-up without moves: ``with_stones(state, stones)``,
    ``with_alliances(state, pairs)``.

Text (rule 1639 H) and storage
    ``render_board(state, players: Sequence[PlayerId]) -> str``
    ``parse_board(text: str) -> dict[Point, str]`` (point -> mark),
    ``parse_board_diagram(text) -> BoardDiagram``,
    ``parse_legend(text) -> tuple[LegendEntry, ...]``,
    ``position_from_diagram(text, parameters=None) -> GoState``.
    ``state_to_json(state) -> dict[str, Any]``, ``state_from_json(data) -> GoState``.

Readings of ambiguous text (each explained where it is implemented):

* Dragons (``dragons``): maximal connected sets of stones whose owners are
  pairwise the same player or Allies; a stone may lie in several.
* Capturers, point division, capture order, self-capture (``capture``):
  adjacent players including Allies of the captured; the remainder goes one
  point each by most adjacent stones, then most recent mover, then join
  order; default order is Dragons without the new stone first, then lowest
  point; a placement is illegal if the new stone is captured in that order.
* Moves (``moves``): breaking an alliance is a Move and counts against the
  Checking Period; the first consent is not a Move, the second is; captures
  follow alliance changes too, in the default order.  Players and consent
  targets join (get a mark) when first named.
* Ko (``ko``): any previous position counts, set-up and alliance-Move
  positions included; only placements are refused.
* Ending, scoring, reset (``ending``): the game ends at the Checkpoint
  closing period ``c`` when ``c`` minus the period of the last stone is at
  least 3; Territories next to no stone score nothing; only positive totals
  become Nomic points; reset also drops pending consents.
* Display (``render``, ``marks``): indentation restored; "N points" literal;
  allies listed comma-separated in legend order, else "none"; marks are the
  capital initial unless it is a column letter, then lower case, then later
  letters of the name, stored once assigned.
"""

from bot.games.go.capture import DragonSelector, divide_points
from bot.games.go.dragons import Dragon
from bot.games.go.ending import (
    PlayerTotal,
    ScoreResult,
    Territory,
    game_should_end,
    reset_game,
    score_game,
    territories,
)
from bot.games.go.events import (
    AllianceBroken,
    AllianceConsented,
    AllianceFormed,
    CaptureShare,
    DragonCaptured,
    GoEvent,
    Passed,
    StoneLoss,
    StonePlaced,
)
from bot.games.go.ko import (
    InMemoryHistory,
    PositionHistory,
    equivalent_position,
    history_of,
    is_equivalent,
)
from bot.games.go.moves import (
    MoveContext,
    MoveResult,
    break_alliance,
    consent_to_alliance,
    pass_move,
    place_stone,
)
from bot.games.go.parameters import B_NOMIC, GoParameters
from bot.games.go.points import Point, format_point, parse_point
from bot.games.go.render import (
    BoardDiagram,
    LegendEntry,
    parse_board,
    parse_board_diagram,
    parse_legend,
    position_from_diagram,
    render_board,
)
from bot.games.go.serialize import (
    history_records,
    position_to_json,
    state_from_json,
    state_to_json,
)
from bot.games.go.setup import (
    dragons_at,
    dragons_on_board,
    liberties,
    with_alliances,
    with_stones,
)
from bot.games.go.state import (
    Alliance,
    Forfeiture,
    GoState,
    PlayerId,
    PlayerRecord,
    PositionRecord,
    add_players,
    forfeited,
    is_retired,
    new_game,
    occupancy_key,
    renamed,
)

__all__ = [
    "occupancy_key",
    "is_equivalent",
    "history_of",
    "equivalent_position",
    "PositionHistory",
    "InMemoryHistory",
    "territories",
    "score_game",
    "reset_game",
    "game_should_end",
    "Territory",
    "ScoreResult",
    "PlayerTotal",
    "B_NOMIC",
    "Alliance",
    "AllianceBroken",
    "AllianceConsented",
    "AllianceFormed",
    "BoardDiagram",
    "CaptureShare",
    "Dragon",
    "DragonCaptured",
    "DragonSelector",
    "Forfeiture",
    "GoEvent",
    "GoParameters",
    "GoState",
    "LegendEntry",
    "MoveContext",
    "MoveResult",
    "Passed",
    "PlayerId",
    "PlayerRecord",
    "Point",
    "PositionRecord",
    "StoneLoss",
    "StonePlaced",
    "add_players",
    "break_alliance",
    "consent_to_alliance",
    "divide_points",
    "dragons_at",
    "dragons_on_board",
    "forfeited",
    "format_point",
    "is_retired",
    "liberties",
    "new_game",
    "parse_board",
    "parse_board_diagram",
    "parse_legend",
    "parse_point",
    "pass_move",
    "place_stone",
    "position_from_diagram",
    "render_board",
    "renamed",
    "state_from_json",
    "state_to_json",
    "history_records",
    "position_to_json",
    "with_alliances",
    "with_stones",
]
