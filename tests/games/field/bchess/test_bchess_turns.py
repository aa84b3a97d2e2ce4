"""B-Chess Turns (seeds 000 and 003): captures counting against a King's owner, only the
owner invokes, one invokable action per piece per Turn, the Priority List order, and
Checkmate ending the match with its winner."""

from __future__ import annotations

from functools import partial

from bot.games.field import Request, TurnContext, describe_turn, object_by_id
from bot.games.field.bchess import (
    RULE_BCHESS,
    board_owners,
    capture_request,
    move_request,
    parse_bchess_board,
    rejoin_request,
    render_bchess_board,
)
from bot.testing.bchess_diagrams import ALICE_AND_BOB, bchess_board, bchess_turn

CONTEXT = TurnContext(nweek=7, referee="referee", players=("alice", "bob", "carol"))
turn = partial(bchess_turn, context=CONTEXT, draws="turn")

CAPTURE_BEFORE = bchess_board(
    "aR C3, bK C9, cK P15, aK K18, bP H4",
    (
        "a = alice: 1 King, captured 0 times",
        "b = bob: 1 King, captured 0 times",
        "c = carol: 1 King, captured 0 times",
    ),
)
# alice's Rook has moved from C3 to C9 and captured bob's King there.
CAPTURE_AFTER = bchess_board(
    "aR C9, cK P15, aK K18, bP H4",
    (
        "a = alice: 1 King, captured 0 times",
        "b = bob: 0 Kings, captured 1 time",
        "c = carol: 1 King, captured 0 times",
    ),
)

# One position, listed in two orders: the Pawn before the Rook, then the Rook first.
DUEL = bchess_board("aP C5, aR C3, bK C9, aK K18, bN F6", ALICE_AND_BOB)
DUEL_REVERSED = bchess_board("aR C3, aP C5, bK C9, aK K18, bN F6", ALICE_AND_BOB)
# Without Priority Lists: the pieces join it from A1 along each row.
LONE = bchess_board(
    "aK K18, bN F6, aP C5, aR C3",
    ("a = alice: 1 King, captured 0 times", "b = bob: 0 Kings, captured 0 times"),
    priority_list=False,
)
PAWN_DUEL = bchess_board("aK K18, bK C9, bN D6, aP C5, aR C3", ALICE_AND_BOB, priority_list=False)


def test_capturing_a_king_destroys_it_and_counts_against_its_owner() -> None:
    state = parse_bchess_board(CAPTURE_BEFORE)
    result = turn(state, [move_request(state, "alice", "C3", "C9", "Rook")])
    assert result.result.record.refusals == ()
    after = render_bchess_board(result.state, board_owners(CAPTURE_BEFORE))
    assert after == CAPTURE_AFTER
    assert "destroying bob's King at C9" in result.result.record.carried_out[0].summary


def test_only_the_owner_invokes_a_pieces_action() -> None:
    state = parse_bchess_board(CAPTURE_BEFORE)
    rook = state.objects[0]
    # The builder refuses bob at once; a request built otherwise is refused in the Turn.
    forged = Request("bob", "Move", rook.object_id, ("C3", "C5"), "bob moves alice's Rook")
    result = turn(state, [forged])
    (refusal,) = result.result.record.refusals
    assert refusal.rule == RULE_BCHESS
    assert refusal.message.startswith(
        "'All Invokable actions of Field Objects in this Field Match may only be invoked by "
        "that Field Object's owner.'"
    )
    assert object_by_id(result.state, rook.object_id) == rook


def test_a_second_action_of_one_piece_in_one_turn_is_refused_quoting_the_rule() -> None:
    state = parse_bchess_board(CAPTURE_BEFORE)
    first = move_request(state, "alice", "C3", "C5")
    second = move_request(state, "alice", "C3", "C6")
    result = turn(state, [first, second])
    record = result.result.record
    assert [done.summary for done in record.carried_out] == ["alice's Rook at C3 -> C5"]
    (refusal,) = record.refusals
    assert refusal.request is second and refusal.rule == RULE_BCHESS
    assert refusal.message.startswith(
        "'Only one invokable action per Field Object may be invoked each Turn of the Field.'"
    )
    # The next Turn of the Field, the Rook may act again.
    again = turn(result.state, [move_request(result.state, "alice", "C5", "C6")])
    assert again.result.record.refusals == ()


def test_a_pawns_move_and_capture_in_one_turn_are_two_actions_of_one_piece() -> None:
    state = parse_bchess_board(PAWN_DUEL)
    move = move_request(state, "alice", "C5", "C6")
    capture = capture_request(state, "alice", "C5", "D6")
    record = turn(state, [capture, move]).result.record
    # Move is listed before Capture in the document, so it is carried out first.
    assert [done.action for done in record.carried_out] == ["Move"]
    assert record.refusals[0].request is capture
    assert "Only one invokable action per Field Object" in record.refusals[0].message


def test_pieces_act_in_priority_list_order_not_request_order() -> None:
    for board, rook_moves in ((DUEL, True), (DUEL_REVERSED, False)):
        state = parse_bchess_board(board)
        rook = move_request(state, "alice", "C3", "C9")
        pawn = move_request(state, "alice", "C5", "D5")
        record = turn(state, [rook, pawn]).result.record
        moved = [done.summary for done in record.carried_out]
        assert ("alice's Rook at C3 -> C9, destroying bob's King at C9" in moved) is rook_moves
        assert "alice's Pawn at C5 -> D5" in moved


def test_checkmate_ends_the_match_at_the_next_turn_with_the_last_kings_owner_winning() -> None:
    state = parse_bchess_board(DUEL)
    captured = turn(
        state, [move_request(state, "alice", "C5", "D5"), move_request(state, "alice", "C3", "C9")]
    )
    # Checkmate is an action of The Field, judged in step 1, before the pieces move.
    assert captured.result.record.ending is None
    ended = turn(captured.state, [], draws="next")
    ending = ended.result.record.ending
    assert ending is not None and ending.winners == ("alice",)
    assert ending.reason == "only alice's King remains on the Field (at K18)"
    assert ended.state.match is None and ended.state.objects == ()
    assert ended.result.final_position is not None
    assert len(ended.result.final_position.objects) == 4
    assert "B-Chess has ended: only alice's King remains" in describe_turn(ended.result.record)


def test_a_rejoin_in_the_next_turn_comes_before_checkmate() -> None:
    state = parse_bchess_board(DUEL)
    captured = turn(
        state, [move_request(state, "alice", "C5", "D5"), move_request(state, "alice", "C3", "C9")]
    )
    rejoined = turn(captured.state, [rejoin_request("bob")], {"bob": 150}, draws="rejoin")
    assert rejoined.result.record.ending is None
    assert [item.macks for item in rejoined.spendings] == [100]
    assert rejoined.spent_by("bob") == 100


def test_no_checkmate_while_no_king_has_been_captured() -> None:
    result = turn(parse_bchess_board(LONE), [])
    assert result.result.record.ending is None and result.result.record.carried_out == ()
