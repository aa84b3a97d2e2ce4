"""Picking (rule 1902 B), Picking Slowly and the Thorns' scratches (1909), Free Throws
(1908 B.3) and rule 636's permission."""

from __future__ import annotations

import pytest

from bot.games.dice import DrawSource
from bot.games.economy import Moment, Payment, PossibleLaterError
from bot.games.errors import IllegalActionError
from bot.games.garden import (
    TOWN_SQUARE,
    GardenState,
    fruit_to_pick,
    permit_picking,
    pick,
    run_timed,
    start,
    withdraw_picking,
)

SEED = bytes(range(32))
NWEEK_2 = Moment.nweek_start(1)
DURING = Moment.at(1, 1, 3600)  # nweek 2, nday 2, 01:00


def orchard() -> GardenState:
    """Just after nweek 2's start: the Town Square's Thorn Bush (Plant 1) bears Thorn
    Seeds 3 and 4 and its Vine (Plant 2) Tomato 5; then Vines planted in bob's, carol's,
    dave's and erin's Gardens (Plants 6 to 9) with three Tomatoes each, put there by hand.
    """
    state = start(("alice", "bob", "carol", "dave", "erin"), Moment.nweek_start(0)).state
    state = state.with_plants((("Vine", TOWN_SQUARE),), Moment.at(0, 1))
    state = run_timed(state, NWEEK_2, DrawSource(SEED, "n2")).state
    state = state.with_plants(tuple(("Vine", p) for p in ("bob", "carol", "dave", "erin")), NWEEK_2)
    for plant in state.plants:
        if plant.garden is not None:
            state = state.with_fruit_on(plant, "Tomato", 3, NWEEK_2)
    return state


def test_picking_moves_the_fruit_to_the_picker_and_the_owner_gets_a_free_throw() -> None:
    # 1902 B: "Any player may pick any Fruit off of any Plant, causing said Fruit to move to
    # eir possession."  1908 B.3: "If a player picks a Fruit from another player's Garden
    # without that player's permission, the owner of the Garden gets one Free Throw against
    # the picking player; this opportunity is lost one nweek after the picking".
    state = orchard()
    number = fruit_to_pick(state, "bob", "Tomato")
    outcome = pick(state, "alice", number, DURING)
    assert [f.number for f in outcome.state.fruit_held_by("alice")] == [number]
    assert [h.text for h in outcome.happenings] == [
        f"alice picked Tomato {number} in bob's Garden",
        "bob gets one Free Throw against alice, until nweek 3, nday 2, 01:00:00",
    ]
    (right,) = outcome.state.free_throws
    assert (right.owner, right.picker, right.expires) == ("bob", "alice", Moment.at(2, 1, 3600))
    assert outcome.payments == ()


def test_with_the_owners_permission_no_free_throw() -> None:
    # 636: "no player may modify the state of any object in possession of another player,
    # without the other player's explicit permission in a public forum."
    state = permit_picking(orchard(), "bob", "alice", Moment.at(1, 0, 60)).state
    outcome = pick(state, "alice", fruit_to_pick(state, "bob", "Tomato"), DURING)
    assert outcome.state.free_throws == ()
    # A permission to alice is none to carol.
    other = pick(state, "carol", fruit_to_pick(state, "bob", "Tomato"), DURING)
    assert len(other.state.free_throws) == 1


def test_a_permission_that_has_ended_no_longer_counts() -> None:
    until = Moment.at(1, 1)
    state = permit_picking(orchard(), "bob", "alice", NWEEK_2, until).state
    outcome = pick(state, "alice", fruit_to_pick(state, "bob", "Tomato"), DURING)
    assert len(outcome.state.free_throws) == 1


def test_picking_in_ones_own_garden_or_the_town_square_gives_no_free_throw() -> None:
    state = orchard()
    own = pick(state, "bob", fruit_to_pick(state, "bob", "Tomato"), DURING)
    square = pick(state, "bob", fruit_to_pick(state, TOWN_SQUARE, "Tomato"), DURING)
    assert own.state.free_throws == square.state.free_throws == ()


def test_arms_full_at_five_fruits() -> None:
    # 1902 B: "no player may pick a Fruit if e already holds 5 fruits (because eir arms are
    # full)".
    state = orchard()
    for _ in range(3):
        state = pick(state, "bob", fruit_to_pick(state, "bob", "Tomato"), DURING).state
    state = permit_picking(state, "carol", "bob", DURING).state
    for _ in range(2):
        state = pick(state, "bob", fruit_to_pick(state, "carol", "Tomato"), DURING).state
    with pytest.raises(IllegalActionError) as refused:
        pick(state, "bob", fruit_to_pick(state, "carol", "Tomato"), DURING)
    assert refused.value.rule == "1902 B"
    assert str(refused.value) == "you already hold 5 fruits (because your arms are full)"


def test_no_more_than_three_foreign_gardens_per_checking_period() -> None:
    # 1902 B: "no player may pick Fruits from more than three gardens e doesn't own in any
    # given Checking Period (because it takes too long to run from garden to garden)."
    state = orchard()
    for garden in ("bob", "carol", "dave"):
        state = pick(state, "alice", fruit_to_pick(state, garden, "Tomato"), DURING).state
    # A garden already visited is no new one.
    state = pick(state, "alice", fruit_to_pick(state, "bob", "Tomato"), DURING).state
    with pytest.raises(PossibleLaterError) as refused:
        pick(state, "alice", fruit_to_pick(state, "erin", "Tomato"), DURING)
    assert refused.value.rule == "1902 B"
    assert refused.value.possible_from == Moment.at(1, 3)  # the next Checking Period
    assert str(refused.value) == (
        "you may pick Fruits from at most three gardens you don't own in any given Checking "
        "Period (because it takes too long to run from garden to garden); alice may pick "
        "Fruits in another garden again from the next Checking Period"
    )
    later = pick(state, "alice", fruit_to_pick(state, "erin", "Tomato"), Moment.at(1, 3))
    assert len(later.state.fruit_held_by("alice")) == 5


def test_a_garden_with_thorn_bushes_scratches_the_picker_for_8_points_per_bush() -> None:
    # 1909: "If a Player picks a Fruit from a garden that e doesn't own and that contains a
    # Thorn Bush, and that player doesn't Pick Slowly, that player loses 8 points per Thorn
    # Bush in the Garden instead, from being badly scratched up."
    state = orchard().with_plants((("Thorn Bush", "bob"), ("Thorn Bush", "bob")), DURING)
    outcome = pick(state, "alice", fruit_to_pick(state, "bob", "Tomato"), DURING)
    assert outcome.payments == (Payment("alice", -16, "points", "1909", "badly scratched up"),)
    assert "alice lost 16 points, badly scratched up by 2 Thorn Bushes" in [
        h.text for h in outcome.happenings
    ]
    # The Town Square's Thorn Bush scratches too: it is a garden alice doesn't own.
    square = pick(state, "alice", fruit_to_pick(state, TOWN_SQUARE, "Thorn Seed"), DURING)
    assert [p.amount for p in square.payments] == [-8]


def test_picking_slowly_costs_no_points_and_ends_foreign_picking_for_the_period() -> None:
    # 1909: "E may only do this if e hasn't picked any Fruits from Gardens e doesn't own
    # during that Checking Period, and after doing this, e may not pick any Fruits from any
    # Gardens e doesn't own for the rest of the Checking Period".
    state = orchard()
    outcome = pick(
        state, "alice", fruit_to_pick(state, TOWN_SQUARE, "Thorn Seed"), DURING, slowly=True
    )
    assert outcome.payments == ()
    assert "alice Picked Slowly in the Town Square" in [h.text for h in outcome.happenings]
    state = outcome.state
    with pytest.raises(PossibleLaterError) as refused:
        pick(state, "alice", fruit_to_pick(state, TOWN_SQUARE, "Thorn Seed"), DURING)
    assert (refused.value.rule, refused.value.possible_from) == ("1909", Moment.at(1, 3))
    # Her own Garden is not barred.
    state = state.with_plants((("Vine", "alice"),), DURING)
    state = state.with_fruit_on(state.plants[-1], "Tomato", 1, DURING)
    assert pick(state, "alice", fruit_to_pick(state, "alice", "Tomato"), DURING).state
    # And the next Checking Period she may pick abroad again.
    assert pick(state, "alice", fruit_to_pick(state, "bob", "Tomato"), Moment.at(1, 3)).state


def test_picking_slowly_needs_a_thorn_bush_and_no_foreign_pick_before() -> None:
    state = orchard()
    with pytest.raises(IllegalActionError) as no_thorns:
        pick(state, "alice", fruit_to_pick(state, "bob", "Tomato"), DURING, slowly=True)
    assert no_thorns.value.rule == "1909"
    state = pick(state, "alice", fruit_to_pick(state, "bob", "Tomato"), DURING).state
    with pytest.raises(PossibleLaterError):
        pick(state, "alice", fruit_to_pick(state, TOWN_SQUARE, "Thorn Seed"), DURING, slowly=True)
    with pytest.raises(IllegalActionError):
        pick(state, "bob", fruit_to_pick(state, "bob", "Tomato"), DURING, slowly=True)


def test_a_fruit_held_cannot_be_picked() -> None:
    state = orchard()
    number = fruit_to_pick(state, "bob", "Tomato")
    state = pick(state, "bob", number, DURING).state
    with pytest.raises(IllegalActionError) as refused:
        pick(state, "alice", number, DURING)
    assert str(refused.value) == f"Tomato {number} is not on a Plant"


def test_what_has_ended_is_forgotten_at_the_next_checkpoint() -> None:
    # The Free Throw is lost one nweek after the picking, the Slow Picking's bar at the
    # period's end: nothing of them is left to store.
    state = orchard()
    state = pick(state, "alice", fruit_to_pick(state, "bob", "Tomato"), DURING).state
    state = pick(
        state, "carol", fruit_to_pick(state, TOWN_SQUARE, "Thorn Seed"), DURING, slowly=True
    ).state
    assert state.free_throws and state.effects.items and state.picks
    state = run_timed(state, Moment.at(1, 3), DrawSource(SEED, "c")).state
    assert state.free_throws and not state.effects.items and not state.picks
    state = run_timed(state, Moment.at(2, 3), DrawSource(SEED, "c")).state
    assert not state.free_throws


def test_a_withdrawn_permission_no_longer_spares_the_free_throw() -> None:
    # 636: the picker needs "the other player's explicit permission"; once the owner
    # withdraws it, picking is "without that player's permission" again (1908 B.3).
    state = permit_picking(orchard(), "bob", "alice", Moment.at(1, 0, 60)).state
    withdrawn = withdraw_picking(state, "bob", "alice", Moment.at(1, 0, 120))
    assert [h.text for h in withdrawn.happenings] == [
        "bob withdraws alice's permission to pick from bob's Garden"
    ]
    outcome = pick(withdrawn.state, "alice", fruit_to_pick(state, "bob", "Tomato"), DURING)
    assert len(outcome.state.free_throws) == 1
    with pytest.raises(IllegalActionError, match="no permission of yours") as refused:
        withdraw_picking(withdrawn.state, "bob", "alice", DURING)
    assert refused.value.rule == "636"
