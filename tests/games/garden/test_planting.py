"""Watering (rule 1902 A), planting (1908 B.1, 1909), Burning (1902 D) and the Thorn
Bush that rule 1909 keeps in the Town Square."""

from __future__ import annotations

import pytest

from bot.games.dice import DrawSource
from bot.games.economy import Moment, Payment, PossibleLaterError
from bot.games.errors import IllegalActionError
from bot.games.garden import (
    GARDEN_OBJECT,
    TOWN_SQUARE,
    GardenState,
    burn,
    pick,
    plant,
    run_timed,
    start,
    water,
)
from bot.games.objects import check_transfer, player_holder

SEED = bytes(range(32))


def with_vine_and_tomato() -> GardenState:
    """alice's Vine (Plant 2) bore Tomato 5 at nweek 2's start and she picked it."""
    state = start(("alice", "bob"), Moment.nweek_start(0)).state
    state = state.with_plants((("Vine", "alice"),), Moment.at(0, 9))
    state = water(state, "alice", "alice", Moment.at(0, 9, 60)).state
    state = run_timed(state, Moment.nweek_start(1), DrawSource(SEED, "n2")).state
    return pick(state, "alice", 5, Moment.at(1, 1)).state


def test_watering_ones_garden_pays_the_gardening_cost() -> None:
    # 1902 A: "A statement to the effect of choosing to water one's Garden means that the
    # player is paying tildex for watering equal to the Gardening Cost of that garden."
    state = start(("alice", "bob"), Moment.nweek_start(0)).state
    state = state.with_plants((("Vine", "alice"), ("Thorn Bush", "alice")), Moment.at(0, 1))
    outcome = water(state, "alice", "alice", Moment.at(0, 2))
    assert outcome.payments == (
        Payment("alice", -11, "tildex", "1902 A", "watering alice's Garden"),
    )
    # Watered already: a second "I water my Garden" pays nothing and is refused.
    with pytest.raises(IllegalActionError) as refused:
        water(outcome.state, "alice", "alice", Moment.at(0, 2))
    assert str(refused.value) == (
        "alice's Garden is watered for this Checking Period already: 11~ paid, Gardening Cost 11~"
    )
    # "players may pay tildex for watering any garden": bob pays towards alice's.
    more = water(outcome.state, "bob", "alice", Moment.at(0, 2), amount=3)
    assert more.state.paid_for("alice", 0) == 14
    assert more.payments[0].holder == "bob"


def test_after_a_new_plant_watering_pays_only_what_is_missing() -> None:
    state = start(("alice",), Moment.nweek_start(0)).state
    state = state.with_plants((("Vine", "alice"),), Moment.at(0, 1))
    state = water(state, "alice", "alice", Moment.at(0, 1, 10)).state
    state = state.with_plants((("Thorn Bush", "alice"),), Moment.at(0, 2))
    outcome = water(state, "alice", "alice", Moment.at(0, 2, 10))
    assert [p.amount for p in outcome.payments] == [-6]


def test_the_town_square_cannot_be_watered_nor_an_empty_garden() -> None:
    state = start(("alice",), Moment.nweek_start(0)).state
    with pytest.raises(IllegalActionError) as empty:
        water(state, "alice", "alice", Moment.at(0, 1))
    assert str(empty.value) == "alice's Garden has no Plants to water"
    with pytest.raises(IllegalActionError) as refused:
        water(state, "alice", TOWN_SQUARE, Moment.at(0, 1))
    assert refused.value.rule == "1902 C"


def test_a_tomato_is_planted_only_once_rotten_in_any_garden() -> None:
    # 1908 B.1: "Players may Plant Rotten Tomatoes they hold in any garden, destroying the
    # Tomato and creating a Vine in that Garden.  The vine so created is owned by the owner
    # of the Garden (or by nobody, if the Garden is unowned)."
    state = with_vine_and_tomato()
    with pytest.raises(PossibleLaterError) as refused:
        plant(state, "alice", 5, "bob", Moment.at(1, 2))
    assert refused.value.possible_from == Moment.nweek_start(2)
    assert str(refused.value) == (
        "only Rotten Tomatoes may be planted, and Tomato 5 is not Rotten yet; "
        "Tomato 5 may be planted from nweek 3, nday 1"
    )
    state = water(state, "alice", "alice", Moment.at(1, 8)).state
    state = run_timed(state, Moment.nweek_start(2), DrawSource(SEED, "n3")).state
    outcome = plant(state, "alice", 5, "bob", Moment.at(2, 1))
    assert [(p.kind, p.garden) for p in outcome.state.plants_in("bob")] == [("Vine", "bob")]
    assert not outcome.state.has_object(5)
    assert outcome.happenings[0].text.startswith("alice planted Rotten Tomato 5 in bob's Garden")


def test_a_thorn_seed_is_planted_only_in_ones_own_garden() -> None:
    # 1909: "any player may Plant a Thorn Seed they hold in their own Garden to create a
    # Thorn Bush."
    state = start(("alice", "bob"), Moment.nweek_start(0)).state
    state = run_timed(state, Moment.nweek_start(1), DrawSource(SEED, "n2")).state
    state = pick(state, "alice", 2, Moment.at(1, 1), slowly=True).state
    with pytest.raises(IllegalActionError) as refused:
        plant(state, "alice", 2, "bob", Moment.at(1, 2))
    assert (refused.value.rule, str(refused.value)) == (
        "1909",
        "a Thorn Seed may be planted only in your own Garden",
    )
    with pytest.raises(IllegalActionError):
        plant(state, "bob", 2, "bob", Moment.at(1, 2))  # bob does not hold it
    outcome = plant(state, "alice", 2, "alice", Moment.at(1, 2))
    assert [p.kind for p in outcome.state.plants_in("alice")] == ["Thorn Bush"]


def test_burning_destroys_the_plant_and_its_fruit_and_pays_2_tildex() -> None:
    # 1902 D: "Any player may Burn a Plant in eir garden.  Doing so destroys the Plant and
    # gives the player 2 tildex."
    state = start(("alice", "bob"), Moment.nweek_start(0)).state
    state = state.with_plants((("Vine", "alice"),), Moment.at(0, 1))
    state = state.with_fruit_on(state.plant(2), "Tomato", 1, Moment.at(0, 1))
    with pytest.raises(IllegalActionError) as refused:
        burn(state, "bob", 2, Moment.at(0, 2))
    assert refused.value.rule == "1902 D"
    outcome = burn(state, "alice", 2, Moment.at(0, 2))
    assert outcome.state.plants_in("alice") == () and outcome.state.fruits == ()
    assert outcome.payments == (Payment("alice", 2, "tildex", "1902 D", "burning Plant 2 (Vine)"),)
    assert outcome.happenings[0].text == (
        "alice burned Plant 2 (Vine), with Tomato 3 on it, and gets 2~"
    )


def test_burning_the_last_thorn_bush_brings_one_to_the_town_square() -> None:
    # 1909: "If at any time no Thorn Bushes exist, one is created in the Town Square."
    state = start(("alice",), Moment.nweek_start(0)).state
    state = burn(
        state.without_objects((1,)).with_plants((("Thorn Bush", "alice"),), Moment.at(0, 1)),
        "alice",
        2,
        Moment.at(0, 2),
    ).state
    assert [(p.number, p.kind, p.garden) for p in state.plants] == [(3, "Thorn Bush", None)]


def test_gardens_may_not_be_given_away() -> None:
    # 1902 A: "Each player has a Garden; Gardens may not be given away."
    with pytest.raises(IllegalActionError) as refused:
        check_transfer(
            GARDEN_OBJECT,
            {},
            player_holder(1),
            player_holder(2),
            mover=player_holder(1),
            destination_text="Bob",
        )
    assert (refused.value.rule, str(refused.value)) == ("1902 A", "Gardens may not be given away")
