"""B-Chess's Purchase and Distribute (seed 000): the price rising within one Turn of the
Field and starting again at the next, macks paid from the engine's balances, the weighted
piece table (a chi-square test over recorded draws), and where purchased pieces land."""

from __future__ import annotations

from collections import Counter
from functools import partial

from bot.games.dice import DrawKind, DrawSource
from bot.games.field import TurnContext
from bot.games.field.bchess import (
    RULE_PURCHASE,
    board_owners,
    parse_bchess_board,
    play_turn,
    purchase_request,
    rejoin_request,
    render_bchess_board,
)
from bot.testing.bchess_diagrams import (
    ALICE_AND_BOB,
    SEED,
    ScriptedSource,
    bchess_board,
    bchess_turn,
)

CONTEXT = TurnContext(nweek=9, referee="referee", players=("alice", "bob", "carol"))
turn = partial(bchess_turn, context=CONTEXT)
# Chi-square critical value for 4 degrees of freedom at p = 0.001.
CRITICAL_4_DOF = 18.47

SHOP_LEGEND = (
    "a = alice: 1 King, captured 0 times",
    "b = bob: 0 Kings, captured 0 times",
    "c = carol: 0 Kings, captured 1 time",
    "d = dave: 1 King, captured 0 times",
)
SHOP_PIECES = "dK Q3, aK J10, bN K11"
# Without a Priority List the pieces join it from A1 along each row, in the order above.
SHOP = bchess_board(SHOP_PIECES, SHOP_LEGEND, priority_list=False)
# alice's purchased Queen, distributed to I9 next to her King.
SHOP_AFTER = bchess_board(SHOP_PIECES + ", aQ I9", SHOP_LEGEND)

# alice's King on J10 is hemmed in by bob's Pawns and her own Rook; her Queen is not placed.
HEMMED_PIECES = "aK J10, bP I9, bP J9, bP K9, bP I10, bP K10, bP I11, bP J11, aR K11, bK C3"
HEMMED = bchess_board(HEMMED_PIECES + ", aQ not placed", ALICE_AND_BOB)
HEMMED_AFTER = bchess_board(HEMMED_PIECES, ALICE_AND_BOB)

KINGLESS = bchess_board(
    "aK J10, cK Q3, bR not placed",
    (
        "a = alice: 1 King, captured 0 times",
        "b = bob: 0 Kings, captured 1 time",
        "c = carol: 1 King, captured 0 times",
    ),
)

CROWDED = """
B-Chess: 3 x 3 torus
   A  B  C
3  bK .. ..
2  bP aK bP
1  bP bP bP
Pieces: K King, Q Queen, R Rook, B Bishop, N Knight, P Pawn; .. unoccupied
a = alice: 1 King, captured 0 times
b = bob: 1 King, captured 0 times
Priority List: aK B2, bP A1, bP B1, bP C1, bP A2, bP C2, bK A3, aP not placed
"""

ROOMY = """
B-Chess: 3 x 3 torus
   A  B  C
3  bK .. ..
2  bP aK ..
1  bP bP bP
Pieces: K King, Q Queen, R Rook, B Bishop, N Knight, P Pawn; .. unoccupied
a = alice: 1 King, captured 0 times
b = bob: 1 King, captured 0 times
Priority List: aK B2, bP A1, bP B1, bP C1, bP A2, bK A3, aP not placed
"""


def test_purchases_in_one_turn_cost_0_10_20_and_the_count_restarts_next_turn() -> None:
    state = parse_bchess_board(SHOP)
    first = turn(state, [purchase_request("alice")] * 3, {"alice": 30})
    assert [item.macks for item in first.spendings] == [0, 10, 20]
    assert first.spent_by("alice") == 30 and first.result.record.refusals == ()
    paid = [done.summary for done in first.result.record.carried_out if done.action == "Purchase"]
    assert [summary.split(" for ")[0] for summary in paid] == [
        "alice paid 0 macks",
        "alice paid 10 macks",
        "alice paid 20 macks",
    ]
    second = turn(first.state, [purchase_request("alice")], {"alice": 0}, draws="next")
    assert [item.macks for item in second.spendings] == [0]
    assert second.result.record.refusals == ()


def test_a_purchase_that_cannot_be_paid_is_refused_and_spends_nothing() -> None:
    state = parse_bchess_board(SHOP)
    result = turn(state, [purchase_request("alice")] * 3, {"alice": 15})
    assert [item.macks for item in result.spendings] == [0, 10, 0]
    (refusal,) = result.result.record.refusals
    assert refusal.rule == RULE_PURCHASE
    assert refusal.message == (
        "this Purchase costs 20 macks (2 earlier in this Turn of the Field) and alice has 5"
    )


def test_a_refused_purchase_is_not_counted_towards_the_price() -> None:
    state = parse_bchess_board(SHOP)
    result = turn(state, [purchase_request("alice")] * 3, {"alice": 5})
    assert [item.macks for item in result.spendings] == [0, 0, 0]
    assert [r.message.split(" (")[0] for r in result.result.record.refusals] == [
        "this Purchase costs 10 macks",
        "this Purchase costs 10 macks",
    ]


def test_purchase_needs_a_king_on_the_field() -> None:
    result = turn(parse_bchess_board(SHOP), [purchase_request("bob")], {"bob": 100})
    (refusal,) = result.result.record.refusals
    assert refusal.rule == RULE_PURCHASE
    assert refusal.message.startswith("bob possesses no King on the Field")
    assert result.spendings[0].macks == 0


def test_the_balance_goes_down_across_a_turns_paid_requests() -> None:
    # Rejoin is listed before Purchase, so carol's King exists when she purchases.
    requests = [purchase_request("carol"), purchase_request("carol"), rejoin_request("carol")]
    result = turn(parse_bchess_board(SHOP), requests, {"carol": 105})
    assert [item.macks for item in result.spendings] == [0, 0, 100]
    (refusal,) = result.result.record.refusals
    assert refusal.request is requests[1]
    assert refusal.message.endswith("and carol has 5")


def test_a_purchased_piece_is_drawn_once_and_distributed_next_to_its_owners_king() -> None:
    state = parse_bchess_board(SHOP)
    source = ScriptedSource([20, "I9"])  # 20 is the Queen's band; then its square.
    result = play_turn(state, CONTEXT, [purchase_request("alice")], source, {"alice": 0})
    owners = board_owners(SHOP)
    assert render_bchess_board(result.state, owners) == SHOP_AFTER
    (draw_purpose, bounds), (square_purpose, offered) = source.offered
    assert draw_purpose == (
        "Purchase: piece for alice (1-10 Pawn, 11-13 Rook, 14-16 Knight, 17-19 Bishop, 20 Queen)"
    )
    assert bounds == (1, 20)
    # The eight squares around J10 but K11, where bob's Knight stands.
    assert sorted(map(str, offered)) == ["I10", "I11", "I9", "J11", "J9", "K10", "K9"]
    assert square_purpose.startswith("Distribute: square of alice's Queen")


def test_distribute_destroys_the_piece_when_no_square_next_to_the_king_is_free() -> None:
    state = parse_bchess_board(HEMMED)
    result = play_turn(state, CONTEXT, [], ScriptedSource([]), {})
    assert render_bchess_board(result.state, board_owners(HEMMED)) == HEMMED_AFTER
    (done,) = result.result.record.carried_out
    assert done.summary == (
        "alice's Queen (not placed) destroyed: no square next to alice's King is unoccupied"
    )


def test_distribute_destroys_the_piece_of_a_player_without_a_king() -> None:
    result = play_turn(parse_bchess_board(KINGLESS), CONTEXT, [], ScriptedSource([]), {})
    (done,) = result.result.record.carried_out
    assert done.summary == "bob's Rook (not placed) destroyed: bob possesses no King on the Field"
    assert [item.kind for item in result.state.objects] == ["King", "King"]


def test_distribute_needs_three_unoccupied_squares_on_the_field() -> None:
    # An amended 3 x 3 copy of the document: on it every square is next to the King.
    crowded = play_turn(parse_bchess_board(CROWDED), CONTEXT, [], ScriptedSource([]), {})
    assert crowded.result.record.carried_out[0].summary.endswith(
        "destroyed: fewer than 3 squares of the Field are unoccupied"
    )
    source = ScriptedSource(["C3"])
    roomy = play_turn(parse_bchess_board(ROOMY), CONTEXT, [], source, {})
    assert roomy.result.record.carried_out[0].summary == "alice's Pawn placed at C3"
    assert sorted(map(str, source.offered[0][1])) == ["B3", "C2", "C3"]


def test_the_piece_table_holds_over_twenty_thousand_recorded_draws() -> None:
    state = parse_bchess_board(SHOP)
    counts: Counter[str] = Counter()
    rounds = 5_000
    for number in range(rounds):
        source = DrawSource(SEED, f"purchase {number}")
        result = play_turn(state, CONTEXT, [purchase_request("alice")] * 4, source, {"alice": 60})
        kinds = [item.kind for item in result.state.objects if item.owner == "alice"]
        counts.update(kind for kind in kinds if kind != "King")
        piece_draws = [draw for draw in source.draws if draw.purpose.startswith("Purchase")]
        assert [draw.kind for draw in piece_draws] == [DrawKind.RANDINT] * 4
    weights = {"Pawn": 10, "Rook": 3, "Knight": 3, "Bishop": 3, "Queen": 1}
    total = rounds * 4
    assert sum(counts.values()) == total
    statistic = sum(
        (counts[kind] - total * weight / 20) ** 2 / (total * weight / 20)
        for kind, weight in weights.items()
    )
    print(f"piece table chi-square over {total} draws: {statistic:.3f} (counts {dict(counts)})")
    assert statistic < CRITICAL_4_DOF
