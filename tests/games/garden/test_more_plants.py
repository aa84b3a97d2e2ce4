"""Rule 1918 (More Plants) in the Gardens: Blood Ferns, Lemon Trees and Sasquash Pods.

Rule 1918 is kept where a state says so (``more_plants``); without it the Gardens are
those of rules 1902, 1908 and 1909 alone, as every other test here shows.
"""

from __future__ import annotations

import pytest

from bot.games.dice import DrawSource, replay_draw
from bot.games.economy import Moment, Payment
from bot.games.errors import IllegalActionError
from bot.games.garden import (
    TOWN_SQUARE,
    GardenState,
    PodStage,
    burn,
    import_lemon_tree,
    pick,
    plant,
    pod_stage,
    render_gardens,
    run_timed,
    start,
    state_from_json,
    state_to_json,
    water,
)

SEED = bytes(range(32))


def kept(*players: str) -> GardenState:
    """The game at its start with rule 1918 kept: Plant 1 is the Town Square's Thorn Bush
    (rule 1909), Plant 2 its Blood Fern (1918 A)."""
    return start(players, Moment.nweek_start(0), more_plants=True).state


def kinds_in(state: GardenState, garden: str | None) -> list[str]:
    return [plant.kind for plant in state.plants_in(garden)]


def test_the_game_starts_with_a_blood_fern_in_the_town_square_where_1918_is_kept() -> None:
    # 1918 A: "If at any time no Blood Ferns or Blood Spores exist, a Blood Fern is created
    # in the Town Square."
    outcome = start(("alice",), Moment.nweek_start(0), more_plants=True)
    assert kinds_in(outcome.state, TOWN_SQUARE) == ["Thorn Bush", "Blood Fern"]
    assert [h.rule for h in outcome.happenings] == ["1909", "1918 A"]
    assert kinds_in(start(("alice",), Moment.nweek_start(0)).state, TOWN_SQUARE) == ["Thorn Bush"]


def test_a_blood_fern_bears_spores_that_grow_a_fern_in_any_garden() -> None:
    # 1918 A: "Blood Ferns are Plants, with a watering cost of 7 tildex and with Blood
    # Spores as their Fruits [...] a Blood Spore may be planted in any Garden to create a
    # Blood Fern in that Garden (this destroys the Spores)."
    state = run_timed(kept("alice", "bob"), Moment.nweek_start(1), DrawSource(SEED, "n2")).state
    assert [f.label() for f in state.fruit_on(2)] == ["Blood Spore 5"]
    state = pick(state, "alice", 5, Moment.at(1, 1)).state
    outcome = plant(state, "alice", 5, "bob", Moment.at(1, 2))
    assert kinds_in(outcome.state, "bob") == ["Blood Fern"]
    assert outcome.state.gardening_cost("bob") == 7
    assert [h.text for h in outcome.happenings] == [
        "alice planted Blood Spore 5 in bob's Garden: a new Blood Fern, Plant 6"
    ]


def test_the_last_blood_fern_burned_brings_one_to_the_town_square_unless_a_spore_exists() -> None:
    state = kept("alice").with_plants((("Blood Fern", "alice"),), Moment.at(0, 1))
    state = state.without_objects((2,))  # the Town Square's: alice's Plant 3 is the last
    with_spore = state.with_fruit_on(state.plant(3), "Blood Spore", 1, Moment.at(0, 1))
    with_spore = pick(with_spore, "alice", 4, Moment.at(0, 2)).state
    kept_spore = burn(with_spore, "alice", 3, Moment.at(0, 2))
    assert [h.rule for h in kept_spore.happenings] == ["1902 D"]  # a Spore still exists
    outcome = burn(state, "alice", 3, Moment.at(0, 2))
    assert [h.text for h in outcome.happenings] == [
        "alice burned Plant 3 (Blood Fern) and gets 2~",
        "no Blood Ferns or Blood Spores existed, so a Blood Fern is created in the Town "
        "Square: Plant 4",
    ]


def test_a_lemon_tree_is_imported_for_60_into_any_garden_and_never_grown() -> None:
    # 1918 B: "Lemon Trees don't grow around here, but any player may create one in any
    # garden by paying 60~ (to import one from further south)."
    outcome = import_lemon_tree(kept("alice", "bob"), "alice", "bob", Moment.at(0, 1))
    assert kinds_in(outcome.state, "bob") == ["Lemon Tree"]
    assert outcome.state.gardening_cost("bob") == 2
    assert outcome.payments == (
        Payment("alice", -60, "tildex", "1918 B", "importing a Lemon Tree"),
    )
    state = water(outcome.state, "bob", "bob", Moment.at(0, 8)).state
    state = run_timed(state, Moment.nweek_start(1), DrawSource(SEED, "n2")).state
    (lemon,) = state.fruit_on(3)
    assert lemon.label() == "Lemon 7"
    state = pick(state, "bob", lemon.number, Moment.at(1, 1)).state
    with pytest.raises(IllegalActionError, match="no rule lets a Lemon be planted") as no:
        plant(state, "bob", lemon.number, "bob", Moment.at(1, 2))
    assert no.value.rule == "1918 B"
    without = start(("alice",), Moment.nweek_start(0)).state
    with pytest.raises(IllegalActionError, match="rule 1918"):
        import_lemon_tree(without, "alice", "alice", Moment.at(0, 1))


def test_a_lemon_tree_takes_two_places_under_the_ten_plant_cap() -> None:
    # 1902 A: "If, at the end of a Checking Period, a Garden has more than 10 Plants in
    # it, the one with the largest watering and weeding cost (ties settled at random) is
    # destroyed"; 1918 B: "a Lemon Tree takes up the space of two plants".
    state = kept("alice").with_plants((("Vine", "alice"),) * 9, Moment.at(0, 1))
    state = import_lemon_tree(state, "alice", "alice", Moment.at(0, 1)).state
    state = water(state, "alice", "alice", Moment.at(0, 2)).state  # 47~: none dies of thirst
    draws = DrawSource(SEED, "checkpoint")
    outcome = run_timed(state, Moment.at(0, 3), draws)
    (draw,) = draws.draws
    assert replay_draw(SEED, "checkpoint", draw) == draw
    lost = draw.options[draw.result[0]]
    assert [h.text for h in outcome.happenings] == [
        f"alice's Garden: 10 Plants taking 11 places, more than 10: {lost} is destroyed"
    ]
    assert kinds_in(outcome.state, "alice") == ["Vine"] * 8 + ["Lemon Tree"]
    assert outcome.state.places_in("alice") == 10


def test_a_sasquash_pod_has_no_fruit_and_matures_one_nweek_after_planting() -> None:
    # 1918 C: "Sasquash Pods are Plants with no Fruit, and a watering cost of 10~ [...]
    # Sasquash Pods are initially Young.  One nweek after a Sasquash Pod is planted, it
    # becomes Mature."
    state = kept("alice").with_plants((("Sasquash Pod", "alice"),), Moment.at(0, 4, 3600))
    pod = state.plant(3)
    assert pod_stage(pod, Moment.at(1, 4, 3599)) is PodStage.YOUNG
    assert pod_stage(pod, Moment.at(1, 4, 3600)) is PodStage.MATURE
    assert state.gardening_cost("alice") == 10
    state = water(state, "alice", "alice", Moment.at(0, 8)).state
    state = run_timed(state, Moment.nweek_start(1), DrawSource(SEED, "n2")).state
    assert state.fruit_on(3) == ()
    assert render_gardens(state, Moment.nweek_start(1)).splitlines()[2:4] == [
        "alice's Garden: Gardening Cost 10~, paid for watering 0~ this Checking Period",
        "  Plant 3   Sasquash Pod 10~  planted nweek 1, nday 5, 01:00:00, Young   no Fruit",
    ]
    with pytest.raises(ValueError, match="no Sasquash Pod"):
        pod_stage(state.plant(1), Moment.at(1, 1))


def test_rule_1918_is_kept_through_json_and_absent_from_it_when_off() -> None:
    state = kept("alice")
    assert state_from_json(state_to_json(state)) == state
    assert "more_plants" not in state_to_json(start(("alice",), Moment.nweek_start(0)).state)
