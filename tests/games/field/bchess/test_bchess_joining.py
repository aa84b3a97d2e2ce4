"""B-Chess's Initialize, Join and Rejoin (seed 000): Kings for the Active Players drawn
again while any two are adjacent, new Kings out of every piece's reach, and Rejoin's
prices by the number of captures."""

from __future__ import annotations

from functools import partial

import pytest

from bot.games.dice import DrawSource
from bot.games.errors import IllegalActionError
from bot.games.field import FieldState, Request, TurnContext, validate_match
from bot.games.field.bchess import (
    BCHESS,
    RULE_INITIALIZE,
    RULE_JOIN,
    RULE_REJOIN,
    initialize_request,
    join_request,
    parse_bchess_board,
    play_turn,
    reach_of,
    rejoin_request,
    safe_squares,
    start_bchess,
)
from bot.games.field.bchess.board import kings_of, occupants
from bot.testing.bchess_diagrams import SEED, ScriptedSource, bchess_board, bchess_turn

CONTEXT = TurnContext(nweek=2, referee="referee", players=("alice", "bob", "carol"))
turn = partial(bchess_turn, context=CONTEXT)

# Pieces row by row from the top; with no Priority List they join it from A1 along each row.
LOBBY = bchess_board(
    "zK P15, bP J13, aQ J10, aK C3, zN T1",
    (
        "a = alice: 1 King, captured 0 times",
        "b = bob: 0 Kings, captured 1 time",
        "c = carol: 0 Kings, captured 2 times",
        "d = dave: 0 Kings, captured 3 times",
        "e = erin: 0 Kings, captured 4 times",
        "f = frank: 0 Kings, captured 0 times",
        "g = gwen: 0 Kings, captured 1 time",
        "z = zed: 1 King, captured 0 times",
    ),
    priority_list=False,
)

TINY = """
B-Chess: 3 x 3 torus
   A  B  C
3  .. .. ..
2  .. aK ..
1  .. .. ..
Pieces: K King, Q Queen, R Rook, B Bishop, N Knight, P Pawn; .. unoccupied
a = alice: 1 King, captured 0 times
"""


def started() -> FieldState:
    return start_bchess(FieldState(), CONTEXT, DrawSource(SEED, "select")).state


def test_bchess_is_a_valid_field_match_on_a_twenty_square_torus() -> None:
    assert validate_match(BCHESS) == ()
    state = started()
    assert state.geometry.describe() == "20 x 20 torus" and state.objects == ()
    assert BCHESS.trophy == "An ornamental chess piece"
    assert BCHESS.communication == "A public message to the forum"


def test_initialize_gives_each_active_player_a_king_where_the_draws_say() -> None:
    source = DrawSource(SEED, "initialize")
    result = play_turn(started(), CONTEXT, [initialize_request(CONTEXT)], source, {})
    state = result.state
    kings = {king.owner: king.square for king in state.objects}
    assert set(kings) == {"alice", "bob", "carol"}
    squares = [square for square in kings.values() if square is not None]
    assert len(set(squares)) == 3
    for square in squares:
        assert not set(state.geometry.neighbours(square)) & set(squares)
    # The last draw of each player's square is the one that stands (earlier ones were redrawn).
    chosen = {}
    for draw in source.draws:
        if draw.purpose.startswith("Initialize, draw"):
            player = draw.purpose.split(": square of ")[1].removesuffix("'s King")
            chosen[player] = draw.options[draw.result[0]]
    assert {p: state.geometry.format_square(s) for p, s in kings.items() if s is not None} == chosen


def test_initialize_draws_again_while_any_two_kings_are_adjacent() -> None:
    source = ScriptedSource(
        [
            "A1",
            "B2",
            "K10",  # bob's King next to alice's
            "A1",
            "T20",
            "K10",  # T20 touches A1 across the corner of the torus
            "A1",
            "F6",
            "K10",  # apart
        ]
    )
    result = play_turn(started(), CONTEXT, [initialize_request(CONTEXT)], source, {})
    (done,) = result.result.record.carried_out
    assert done.summary == (
        "Kings placed: alice A1, bob F6, carol K10 (drawn 3 times: adjacent Kings were redrawn)"
    )
    assert source.purposes[:3] == [
        "Initialize, draw 1: square of alice's King",
        "Initialize, draw 1: square of bob's King",
        "Initialize, draw 1: square of carol's King",
    ]
    assert source.purposes[-1] == "Initialize, draw 3: square of carol's King"
    assert len(result.state.objects) == 3


def test_initialize_is_the_referees_and_only_once_per_match() -> None:
    state = started()
    forged = Request("alice", "Initialize", text="Initialize")
    refused = turn(state, [forged], {}).result.record.refusals
    assert [(r.message, r.rule) for r in refused] == [
        ("only the Referee may Initialize B-Chess", RULE_INITIALIZE)
    ]
    once = turn(state, [initialize_request(CONTEXT)], {}).state
    again = turn(once, [initialize_request(CONTEXT)], {}, draws="again").result.record.refusals
    assert again[0].message == "Initialize has already been invoked in this B-Chess match"


def test_initialize_skips_a_player_who_joined_first_and_players_not_active() -> None:
    joined = turn(started(), [join_request("carol")], {}).state
    # Seed 000: "a King is created in the possession of each Active Player";
    # Bob is On Leave (rule 205), so not active.
    on_leave_excluded = TurnContext(
        nweek=2,
        referee="referee",
        players=("alice", "bob", "carol"),
        active_players=("alice", "carol"),
    )
    source = DrawSource(SEED, "init")
    result = play_turn(joined, on_leave_excluded, [initialize_request(CONTEXT)], source, {})
    owners = sorted(king.owner or "" for king in result.state.objects)
    assert owners == ["alice", "carol"]


def test_a_joining_king_lands_out_of_reach_of_every_piece() -> None:
    state = parse_bchess_board(LOBBY)
    safe = {state.geometry.format_square(square) for square in safe_squares(state)}
    # The Queen on J10 reaches 8 squares along free lines and stops at bob's Pawn on J13.
    assert {"B10", "R10", "J2", "B2", "R18", "J12"}.isdisjoint(safe)
    assert {"J18", "J15", "A1", "S9"} <= safe
    # bob's Pawn reaches its four cardinal and four diagonal squares; zed's Knight on T1
    # jumps across the edges and the corner.
    assert {"J14", "I14", "K12", "K14", "A3", "S3", "A19", "R20", "B2"}.isdisjoint(safe)
    for piece in state.objects:
        assert not reach_of(BCHESS, piece, occupants(state)) & set(safe_squares(state))
    source = DrawSource(SEED, "join")
    result = play_turn(state, CONTEXT, [join_request("harry")], source, {})
    (king,) = kings_of(result.state, "harry")
    assert king.square in safe_squares(state)
    (draw,) = source.draws
    assert draw.options == tuple(sorted(safe, key=lambda n: state.geometry.parse_square(n)))


def test_join_is_for_players_who_never_possessed_a_king() -> None:
    state = parse_bchess_board(LOBBY)
    record = turn(state, [join_request("alice"), join_request("bob")], {}).result.record
    assert [(r.request.invoker, r.rule) for r in record.refusals] == [
        ("alice", RULE_JOIN),
        ("bob", RULE_JOIN),
    ]
    assert record.refusals[1].message.startswith(
        "bob has already possessed a King in this B-Chess match"
    )


def test_join_is_refused_when_every_free_square_is_within_reach() -> None:
    # An amended 3 x 3 copy: alice's King is adjacent to every other square.
    record = turn(parse_bchess_board(TINY), [join_request("bob")], {}).result.record
    assert record.refusals[0].message.startswith("every unoccupied square of the Field")


@pytest.mark.parametrize(("player", "price"), [("bob", 100), ("carol", 500), ("dave", 1000)])
def test_rejoin_costs_100_500_1000_by_the_number_of_captures(player: str, price: int) -> None:
    state = parse_bchess_board(LOBBY)
    result = turn(state, [rejoin_request(player)], {player: price})
    assert result.result.record.refusals == ()
    assert [item.macks for item in result.spendings] == [price]
    (king,) = kings_of(result.state, player)
    assert king.square in safe_squares(state)


@pytest.mark.parametrize(
    ("player", "macks", "message"),
    [
        ("erin", 5000, "erin's King has been captured 4 times; Rejoin is only for 1-3 captures"),
        ("frank", 5000, "frank's King has never been captured in this match"),
        ("alice", 5000, "alice still possesses a King (at C3)"),
        ("gwen", 99, "Rejoin after 1 captures costs 100 macks and gwen has 99"),
    ],
)
def test_rejoin_refusals(player: str, macks: int, message: str) -> None:
    result = turn(parse_bchess_board(LOBBY), [rejoin_request(player)], {player: macks})
    (refusal,) = result.result.record.refusals
    assert refusal.rule == RULE_REJOIN and refusal.message.startswith(message)
    assert result.spent_by(player) == 0


def test_a_second_rejoin_in_one_turn_finds_the_king_already_there() -> None:
    requests = [rejoin_request("bob"), rejoin_request("bob")]
    result = turn(parse_bchess_board(LOBBY), requests, {"bob": 1000})
    assert [item.macks for item in result.spendings] == [100, 0]
    assert result.result.record.refusals[0].message.startswith("bob still possesses a King")


def test_play_turn_needs_bchess_to_be_current() -> None:
    with pytest.raises(IllegalActionError, match="B-Chess is not the Current Field Match"):
        play_turn(FieldState(), CONTEXT, [], DrawSource(SEED, "x"), {})
