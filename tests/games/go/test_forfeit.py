"""A forfeit in Political Go (rule 14 of seed 004 read with rule 1639), pure."""

from __future__ import annotations

from dataclasses import replace

from bot.games.go import (
    Forfeiture,
    MoveContext,
    add_players,
    forfeited,
    history_of,
    is_retired,
    new_game,
    occupancy_key,
    parse_point,
    place_stone,
    with_alliances,
    with_stones,
)


def point(name: str) -> int:
    return parse_point(name, 9)


def test_a_forfeit_removes_stones_score_alliances_and_consents_and_keeps_the_code() -> None:
    state = add_players(new_game(), ["Alice", "Bob", "Carol"])
    state = with_stones(state, {point("E5"): "Alice", point("E6"): "Alice", point("C3"): "Bob"})
    state = with_alliances(state, [("Alice", "Bob")])
    alice = replace(state.record_of("Alice"), score=4)
    state = replace(
        state,
        players=(alice, *state.players[1:]),
        pending_consents=frozenset({("Carol", "Alice")}),
    )
    after, lost = forfeited(state, "Alice")
    assert (lost.stones, lost.allies, lost.consents, lost.score) == (
        (point("E5"), point("E6")),
        ("Bob",),
        (("Carol", "Alice"),),
        4,
    )
    assert after.stones == {point("C3"): "Bob"}
    assert after.alliances == frozenset() and after.pending_consents == frozenset()
    # The record keeps its code and mark under a label no player can bear.
    record = after.players[0]
    assert is_retired(record) and (record.mark, record.score) == ("a", 0)
    assert not after.has_player("Alice")
    # Not a Move: what rules 1639 C and F read is untouched.
    assert (after.move_number, after.last_move_was_pass) == (state.move_number, False)
    # Rule 1639 E: the board left is a previous position.
    assert any(
        earlier.board == after.board
        for earlier in history_of(after).positions_with(occupancy_key(after.board))
    )
    assert forfeited(after, "Alice") == (after, Forfeiture("Alice"))


def test_a_new_player_of_the_same_name_starts_afresh_and_is_not_ko_bound_to_the_old() -> None:
    state = with_stones(add_players(new_game(), ["Alice", "Bob"]), {point("E5"): "Alice"})
    after, _ = forfeited(state, "Alice")
    # The old position (E5 the old Alice's) and the new one differ in an owner
    # who is no Ally of the new Alice: not equivalent (rule 1639 E).
    moved = place_stone(after, MoveContext("Alice", 0), point("E5")).state
    assert moved.stones == {point("E5"): "Alice"}
    assert moved.record_of("Alice").mark == "L" and moved.players[0].mark == "a"
