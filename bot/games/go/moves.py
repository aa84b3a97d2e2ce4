"""Moves of Political Go (rule 1639 C, seed 004) as pure functions.

Each function takes the state and a ``MoveContext`` and returns a
``MoveResult``, or raises ``IllegalActionError`` (``AmbiguousActionError`` for
an unclear capture order) with a message that quotes the move and the state.
``ValueError`` means a defect in the caller, such as a clock running backwards.

Readings of the rule, as a fair referee would take them:

* Breaking an alliance is in rule 1639 C's list of Moves, so it counts
  against "at most once per Checking Period" like any Move; "at any time"
  is read as "whoever made the last Move", i.e. free of the Ally restriction
  that only governs placing Stones.
* The first consent to an alliance is not a Move and is not limited; the
  second consent forms the alliance and is a Move, so it is refused if that
  player has already moved in the Checking Period (the other player's consent
  stays on record).  Consents do not expire.
* Captures follow every Move (rule 1639 C: "After any Move, some pieces may
  be Captured"): forming or breaking an alliance can leave Dragons without
  Liberties, and these are captured in the default order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.games.errors import IllegalActionError, NotYetError
from bot.games.go.capture import (
    DragonSelector,
    dead_dragons_after_placement,
    dead_dragons_anywhere,
    resolve_captures,
    select_dragons,
)
from bot.games.go.dragons import Dragon
from bot.games.go.events import (
    AllianceBroken,
    AllianceConsented,
    AllianceFormed,
    DragonCaptured,
    GoEvent,
    Passed,
    StonePlaced,
)
from bot.games.go.ko import PositionHistory, equivalent_position, history_of, ko_message
from bot.games.go.points import Point, is_on_board, neighbour_table
from bot.games.go.state import (
    Alliance,
    GoState,
    PlayerId,
    PlayerRecord,
    PositionRecord,
    add_players,
    friendship_of,
    with_position_recorded,
)


@dataclass(frozen=True)
class MoveContext:
    """Who is moving, and in which Checking Period (from the caller's clock)."""

    player: PlayerId
    checking_period: int


@dataclass(frozen=True)
class MoveResult:
    """The state after the action, what happened, and whether it was a Move."""

    state: GoState
    events: tuple[GoEvent, ...]
    counts_as_move: bool


def place_stone(
    state: GoState,
    context: MoveContext,
    point: Point,
    capture_order: Sequence[DragonSelector] = (),
    *,
    history: PositionHistory | None = None,
) -> MoveResult:
    """Place a Stone of ``context.player`` on the empty ``point`` (rule 1639 C.1).

    ``capture_order`` names Dragons left without Liberties in the order the
    mover wants them captured (rule 1639 D); any others follow the default
    order (see ``resolve_captures``).  Raises ``IllegalActionError`` for an
    off-board or occupied point, a second Move in the Checking Period, an Ally
    having made the most recent Move, or a Stone that would be immediately
    Captured; ``AmbiguousActionError`` for an unclear ``capture_order``.
    Also raises ``IllegalActionError`` (rule 1639 E) if the board would be
    equivalent to a previous position in ``history`` (default: the positions
    kept in ``state.history``; a state loaded from storage has none, so the
    engine passes its own).
    """
    player, where = context.player, _describe(state, point)
    state = add_players(state, (player,))
    _require_may_move(state, context, f"place a stone at {where}")
    _require_no_ally_moved_last(state, player, where)
    _require_empty(state, point, player)
    players, number = _players_after_move(state, context)
    board = bytearray(state.board)
    board[point] = state.player_codes[player]
    captures = _captures_after_placement(state, players, board, point, capture_order)
    if board[point] == 0:
        message = _suicide_message(player, where, capture_order)
        raise IllegalActionError(message, rule=state.parameters.rule_capture)
    _require_new_position(state, bytes(board), player, where, history)
    after = _next_state(state, players, number, bytes(board), captures)
    after = replace(after, stones_quiet_since=context.checking_period)
    return MoveResult(after, (StonePlaced(player, point), *captures), counts_as_move=True)


def consent_to_alliance(state: GoState, context: MoveContext, ally: PlayerId) -> MoveResult:
    """Publicly consent to an alliance with ``ally`` (rule 1639 C.2).

    The first consent is recorded and is not a Move; consenting when ``ally``
    has already consented forms the alliance, which is a Move.  Raises
    ``IllegalActionError`` for an alliance with oneself, with an existing
    Ally, a repeated consent, or a forming consent by a player who has
    already moved in this Checking Period.
    """
    player = context.player
    _require_someone_else(state, player, ally)
    state = add_players(state, (player, ally))
    if state.are_allies(player, ally):
        raise IllegalActionError(f"{player} and {ally} are already Allies.", rule=_rule(state))
    if (ally, player) in state.pending_consents:
        _require_may_move(state, context, f"form an alliance with {ally}")
        consents = state.pending_consents - {(ally, player)}
        alliances = state.alliances | {frozenset((player, ally))}
        return _alliance_changed(state, context, alliances, consents, AllianceFormed(player, ally))
    if (player, ally) in state.pending_consents:
        raise IllegalActionError(
            f"{player} has already consented to an alliance with {ally}; "
            f"it forms when {ally} consents too.",
            rule=_rule(state),
        )
    consents = state.pending_consents | {(player, ally)}
    consented = replace(state, pending_consents=consents)
    return MoveResult(consented, (AllianceConsented(player, ally),), counts_as_move=False)


def break_alliance(state: GoState, context: MoveContext, ally: PlayerId) -> MoveResult:
    """Break the alliance between ``context.player`` and ``ally`` (rule 1639 C.2).

    Raises ``IllegalActionError`` if they are not Allies or the player has
    already moved in this Checking Period.
    """
    player = context.player
    if not state.are_allies(player, ally):
        raise IllegalActionError(
            f"{player} cannot break an alliance with {ally}: they are not Allies.",
            rule=_rule(state),
        )
    _require_may_move(state, context, f"break eir alliance with {ally}")
    alliances = state.alliances - {frozenset((player, ally))}
    event = AllianceBroken(player, ally)
    return _alliance_changed(state, context, alliances, state.pending_consents, event)


def pass_move(state: GoState, context: MoveContext) -> MoveResult:
    """Pass (rule 1639 C.3); raises ``IllegalActionError`` for a second Move
    in the Checking Period."""
    state = add_players(state, (context.player,))
    _require_may_move(state, context, "pass")
    players, number = _players_after_move(state, context)
    quiet_since = _quiet_since(state, context)
    after = replace(
        state,
        players=players,
        move_number=number,
        last_move_was_pass=True,
        stones_quiet_since=quiet_since,
    )
    return MoveResult(after, (Passed(context.player),), counts_as_move=True)


def _quiet_since(state: GoState, context: MoveContext) -> int:
    # Rule 1639 F counts "nobody has placed a stone for more than an Nweek";
    # before any stone of this game the count starts at its first Move.
    if state.stones_quiet_since is None:
        return context.checking_period
    return state.stones_quiet_since


def _alliance_changed(
    state: GoState,
    context: MoveContext,
    alliances: frozenset[Alliance],
    consents: frozenset[tuple[PlayerId, PlayerId]],
    event: GoEvent,
) -> MoveResult:
    # A change of alliances reshapes Dragons anywhere on the board, so every
    # Dragon is checked; the mover chooses no order (rule 1639 D gives that
    # choice for "a stone being placed"), so the default order applies.
    players, number = _players_after_move(state, context)
    board = bytearray(state.board)
    neighbours = neighbour_table(state.parameters.size)
    dead = dead_dragons_anywhere(board, friendship_of(players, alliances), neighbours)
    captures = _resolve(state, players, board, dead, (), None)
    after = _next_state(state, players, number, bytes(board), captures, alliances)
    after = replace(
        after, pending_consents=consents, stones_quiet_since=_quiet_since(state, context)
    )
    return MoveResult(after, (event, *captures), True)


def _captures_after_placement(
    state: GoState,
    players: tuple[PlayerRecord, ...],
    board: bytearray,
    point: Point,
    capture_order: Sequence[DragonSelector],
) -> tuple[DragonCaptured, ...]:
    neighbours = neighbour_table(state.parameters.size)
    dead = dead_dragons_after_placement(board, point, state.friendship, neighbours)
    if not dead and not capture_order:
        return ()
    chosen = select_dragons(dead, capture_order, state.parameters)
    return _resolve(state, players, board, dead, chosen, point)


def _resolve(
    state: GoState,
    players: tuple[PlayerRecord, ...],
    board: bytearray,
    dead: Sequence[Dragon],
    chosen: Sequence[Dragon],
    placed: Point | None,
) -> tuple[DragonCaptured, ...]:
    names = tuple(record.name for record in players)
    # The mover's record already carries this Move, so e counts as the player
    # "who played most recently" in tie-breaks.
    recency = {record.name: record.last_move_number for record in players}
    neighbours = neighbour_table(state.parameters.size)
    return resolve_captures(board, dead, chosen, placed, names, recency, neighbours)


def _players_after_move(
    state: GoState, context: MoveContext
) -> tuple[tuple[PlayerRecord, ...], int]:
    """The player records with this Move noted on the mover's, and its number."""
    number = state.move_number + 1
    index = state.player_codes[context.player] - 1
    old = state.players[index]
    record = PlayerRecord(old.name, old.mark, old.score, number, context.checking_period)
    return (*state.players[:index], record, *state.players[index + 1 :]), number


def _next_state(
    state: GoState,
    players: tuple[PlayerRecord, ...],
    number: int,
    board: bytes,
    captures: Sequence[DragonCaptured],
    alliances: frozenset[Alliance] | None = None,
) -> GoState:
    """The state after a Move: new board, Go Points of ``captures``, history."""
    alliances = state.alliances if alliances is None else alliances
    record = PositionRecord(board, alliances, move_number=number)
    history = with_position_recorded(state.history, record)
    scored = _with_scores(players, _score_changes(captures)) if captures else players
    return GoState(
        parameters=state.parameters,
        board=board,
        players=scored,
        alliances=alliances,
        pending_consents=state.pending_consents,
        move_number=number,
        history=history,
    )


def _with_scores(
    players: tuple[PlayerRecord, ...], changes: Counter[PlayerId]
) -> tuple[PlayerRecord, ...]:
    return tuple(
        replace(record, score=record.score + changes[record.name])
        if changes[record.name]
        else record
        for record in players
    )


def _score_changes(captures: Sequence[DragonCaptured]) -> Counter[PlayerId]:
    # Rule 1639 D: Capturers gain their shares; "Each player whose Stones are
    # being Captured loses one Go Point for each stone that e loses."
    changes: Counter[PlayerId] = Counter()
    for capture in captures:
        for share in capture.shares:
            changes[share.player] += share.points
        for loss in capture.losses:
            changes[loss.player] -= loss.stones
    return changes


def _require_may_move(state: GoState, context: MoveContext, action: str) -> None:
    last = state.record_of(context.player).last_checking_period
    if last is None:
        return
    if context.checking_period < last:
        raise ValueError(
            f"checking period {context.checking_period} is before {context.player}'s "
            f"last Move in period {last}: the clock must not run backwards"
        )
    if context.checking_period == last:
        raise NotYetError(
            f"{context.player} cannot {action}: e has already made a Move in this "
            "Checking Period, and a player may move at most once per Checking Period",
            rule=_rule(state),
            again=f"{context.player} may move again",
        )


def _require_no_ally_moved_last(state: GoState, player: PlayerId, where: str) -> None:
    last_mover = state.last_mover
    if last_mover is not None and state.are_allies(player, last_mover):
        raise IllegalActionError(
            f"{player} cannot place a stone at {where}: eir Ally {last_mover} "
            "made the most recent Move.",
            rule=_rule(state),
        )


def _require_empty(state: GoState, point: Point, player: PlayerId) -> None:
    owner = state.owner_at(point)
    if owner is not None:
        where = state.parameters.format_point(point)
        raise IllegalActionError(
            f"{player} cannot place a stone at {where}: {where} is already occupied "
            f"by {owner}'s stone.",
            rule=_rule(state),
        )


def _require_new_position(
    state: GoState,
    board: bytes,
    player: PlayerId,
    where: str,
    history: PositionHistory | None,
) -> None:
    # Rule 1639 E (seed 004): Ko under alliances; see bot.games.go.ko.
    history = history_of(state) if history is None else history
    earlier = equivalent_position(state, board, history)
    if earlier is not None:
        message = ko_message(player, where, earlier)
        raise IllegalActionError(message, rule=state.parameters.rule_ko)


def _require_someone_else(state: GoState, player: PlayerId, ally: PlayerId) -> None:
    if player == ally:
        raise IllegalActionError(
            f"{player} cannot ally with emself: a player's Allies are other Players.",
            rule=state.parameters.rule_alliances,
        )


def _describe(state: GoState, point: Point) -> str:
    """``point`` as text; raises ``IllegalActionError`` if it is off the board."""
    parameters = state.parameters
    if not is_on_board(point, parameters.size):
        raise IllegalActionError(
            f"Point number {point} is not on the {parameters.size}x{parameters.size} board.",
            rule=parameters.rule_board,
        )
    return parameters.format_point(point)


def _suicide_message(player: PlayerId, where: str, capture_order: Sequence[object]) -> str:
    order = " in the capture order given" if capture_order else ""
    return (
        f"{player} cannot place a stone at {where}: it would be immediately Captured{order}, "
        "because its Dragon would have no Liberties."
    )


def _rule(state: GoState) -> str:
    return state.parameters.rule_moves
