"""Property tests: random play keeps the rules' invariants (rule 1639, seed 004)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards  # type: ignore[import-untyped]

from bot.games.errors import ActionError
from bot.games.go import (
    DragonCaptured,
    GoParameters,
    GoState,
    MoveContext,
    MoveResult,
    add_players,
    break_alliance,
    consent_to_alliance,
    dragons_on_board,
    liberties,
    new_game,
    parse_board,
    pass_move,
    place_stone,
    position_from_diagram,
    render_board,
    state_from_json,
    state_to_json,
)
from bot.games.go.dragons import all_dragons
from bot.games.go.points import neighbour_table

PLAYERS = ("Rob", "Sue", "Tom", "Wen")
SIZE = 4

actions = st.lists(
    st.tuples(
        st.sampled_from(["place"] * 8 + ["ally", "ally", "break", "break", "pass"]),
        st.sampled_from(PLAYERS),
        st.sampled_from(PLAYERS),
        st.integers(0, SIZE * SIZE - 1),
        st.sampled_from([1, 1, 1, 0]),
    ),
    min_size=30,
    max_size=80,
)


def apply(state: GoState, action: tuple[str, str, str, int, int], period: int) -> MoveResult:
    kind, player, other, point, _ = action
    context = MoveContext(player, period)
    if kind == "place":
        return place_stone(state, context, point)
    if kind == "ally":
        # Both consents at once, so that alliances actually form often.
        consented = consent_to_alliance(state, MoveContext(other, period), player).state
        return consent_to_alliance(consented, context, other)
    if kind == "break":
        return break_alliance(state, context, other)
    return pass_move(state, context)


def assert_dragons_are_dragons(state: GoState) -> None:
    """Each Dragon is connected, pairwise friendly and cannot grow (rule 1639 D)."""
    neighbours = neighbour_table(state.parameters.size)
    dragons = dragons_on_board(state)
    for dragon in dragons:
        owners = {state.stones[point] for point in dragon}
        assert all(a == b or state.are_allies(a, b) for a in owners for b in owners)
        assert _is_connected(dragon, neighbours)
        for point in dragon:
            for other in neighbours[point]:
                owner = state.owner_at(other)
                if owner is None or other in dragon:
                    continue
                joins = all(owner == member or state.are_allies(owner, member) for member in owners)
                assert not joins, "a Dragon could grow by an adjacent friendly stone"
        assert liberties(state, dragon), "a Dragon without Liberties is left on the board"
    assert set().union(*dragons) == set(state.stones)


def _is_connected(points: frozenset[int], neighbours: tuple[tuple[int, ...], ...]) -> bool:
    start = min(points)
    seen, frontier = {start}, [start]
    while frontier:
        for other in neighbours[frontier.pop()]:
            if other in points and other not in seen:
                seen.add(other)
                frontier.append(other)
    return seen == points


@settings(max_examples=150, deadline=None)
@given(actions)
def test_random_play_never_leaves_a_dragon_without_liberties(
    sequence: list[tuple[str, str, str, int, int]],
) -> None:
    state = add_players(new_game(GoParameters(size=SIZE)), PLAYERS)
    period, unowned_points = 0, 0
    for action in sequence:
        period += action[4]
        try:
            result = apply(state, action, period)
        except ActionError:
            continue
        state = result.state
        unowned_points += _points_without_capturers(result.events)
        assert_dragons_are_dragons(state)
        assert sum(record.score for record in state.players) == -unowned_points
        assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    _assert_text_round_trip(state)


def _points_without_capturers(events: Iterable[object]) -> int:
    return sum(
        len(event.stones)
        for event in events
        if isinstance(event, DragonCaptured) and not event.shares
    )


def _assert_text_round_trip(state: GoState) -> None:
    text = render_board(state, PLAYERS)
    marks = {record.name: record.mark for record in state.players}
    assert parse_board(text) == {point: marks[owner] for point, owner in state.stones.items()}
    read = position_from_diagram(text)
    assert read.stones == state.stones
    assert read.alliances == state.alliances
    assert render_board(read, PLAYERS) == text


boards_3x3 = st.lists(st.integers(0, 4), min_size=9, max_size=9)
alliance_sets = st.sets(st.sampled_from(list(itertools.combinations(range(1, 5), 2))))


@settings(max_examples=300, deadline=None)
@given(boards_3x3, alliance_sets)
def test_dragons_match_a_brute_force_reading_of_the_definition(
    cells: list[int], alliances: set[tuple[int, int]]
) -> None:
    board = bytes(cells)
    pairs = alliances | {(b, a) for a, b in alliances}
    friends: list[frozenset[int]] = [frozenset()] + [
        frozenset({code} | {b for a, b in pairs if a == code}) for code in range(1, 5)
    ]
    neighbours = neighbour_table(3)
    assert set(all_dragons(board, friends, neighbours)) == _brute_force_dragons(board, friends)


def _brute_force_dragons(board: bytes, friends: list[frozenset[int]]) -> set[frozenset[int]]:
    """Maximal connected sets of stones whose owners are pairwise friendly."""
    stones = [point for point, owner in enumerate(board) if owner]
    neighbours = neighbour_table(3)
    candidates = set()
    for count in range(1, len(stones) + 1):
        for subset in itertools.combinations(stones, count):
            points = frozenset(subset)
            owners = {board[point] for point in points}
            friendly = all(b in friends[a] for a in owners for b in owners)
            if friendly and _is_connected(points, neighbours):
                candidates.add(points)
    return {points for points in candidates if not any(points < other for other in candidates)}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("bw"), st.integers(0, 48)), max_size=150))
def test_two_player_play_agrees_with_sgfmill(moves: list[tuple[str, int]]) -> None:
    size = 7
    state = add_players(new_game(GoParameters(size=size)), ["b", "w"])
    reference = boards.Board(size)
    for period, (colour, point) in enumerate(moves):
        row, column = divmod(point, size)
        if reference.get(row, column) is not None:
            continue
        try:
            state = place_stone(state, MoveContext(colour, period), point).state
        except ActionError:
            # Rule 1639 D forbids what sgfmill allows: playing into capture.
            reference.play(row, column, colour)
            assert reference.get(row, column) is None
            return
        reference.play(row, column, colour)
        assert state.stones == _sgfmill_stones(reference, size)


def _sgfmill_stones(reference: boards.Board, size: int) -> dict[int, str]:
    return {
        row * size + column: colour
        for (row, column) in reference.board_points
        if (colour := reference.get(row, column)) is not None
    }
