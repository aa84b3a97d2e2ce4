"""Rule 1918's held objects: Alchemy's Huge Seed (D), the Sasquash Pod it grows and the
Sasquash it Hatches (C), in rule 3 C's order after the Gardens' own events.

Rule 1918 C: "One nweek after a Sasquash Pod is planted, it becomes Mature.  One nweek
after a Sasquash Pod becomes Mature, it Hatches, destroying it and giving its owner a
Sasquash.  If no player owns it, it is simply destroyed.  Huge Seeds are Game Objects;
a Huge Seed may be planted in any Garden to create a Sasquash Pod in that Garden (doing
so destroys the seed)."  Rule 1918 D: "Any player who has a Thorn Seed, a Lemon Drink,
and a Blood Spore Drink may mix the three together, destroying them and creating a Huge
Seed."
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.dice import DrawSource
from bot.games.economy import Moment
from bot.games.errors import IllegalActionError
from bot.games.garden import GardenState, start, water
from bot.games.garden import run_timed as run_garden_timed
from bot.games.store import (
    StoreState,
    buy,
    mix_huge_seed,
    next_hatching,
    plant_huge_seed,
    run_timed,
)
from bot.games.store.state import created

SEED = bytes(range(32))


def mixer(*drinks: str) -> tuple[StoreState, GardenState]:
    """alice (rule 1918 kept: Plants 1 and 2 are the Town Square's Thorn Bush and Blood
    Fern) bought Thorn Seed 3 and holds ``drinks`` (made by fermenting, rule 1913)."""
    gardens = start(("alice", "bob"), Moment.nweek_start(0), more_plants=True).state
    outcome = buy(StoreState(), gardens, "alice", "Thorn Seed", Moment.at(0, 1))
    made = tuple((drink, "alice") for drink in drinks)
    store, gardens, _ = created(outcome.store, outcome.gardens, made, Moment.at(0, 1))
    return store, gardens


def test_alchemy_mixes_a_thorn_seed_and_two_drinks_into_a_huge_seed() -> None:
    store, gardens = mixer("Lemon Drink", "Blood Spore Drink")
    outcome = mix_huge_seed(store, gardens, "alice", Moment.at(0, 2))
    assert [item.label() for item in outcome.store.held_by("alice")] == ["Huge Seed 6"]
    assert outcome.gardens.fruit_held_by("alice") == ()
    assert [h.text for h in outcome.happenings] == [
        "alice mixed Thorn Seed 3, Lemon Drink 4, Blood Spore Drink 5 together: Huge Seed 6"
    ]


def test_alchemy_without_all_three_changes_nothing() -> None:
    store, gardens = mixer("Lemon Drink")
    with pytest.raises(IllegalActionError, match="you hold no Blood Spore Drink"):
        mix_huge_seed(store, gardens, "alice", Moment.at(0, 2))
    store, gardens = mixer("Lemon Drink", "Blood Spore Drink")
    seedless = gardens.without_objects((3,))
    with pytest.raises(IllegalActionError, match="no Thorn Seed") as raised:
        mix_huge_seed(store, seedless, "alice", Moment.at(0, 2))
    assert raised.value.rule == "1918 D"


def pod_in(garden: str | None) -> tuple[StoreState, GardenState]:
    """alice's Huge Seed 6 planted in ``garden`` at nweek 1's start: Plant 7, a Young Pod."""
    store, gardens = mixer("Lemon Drink", "Blood Spore Drink")
    mixed = mix_huge_seed(store, gardens, "alice", Moment.at(0, 2))
    planted = plant_huge_seed(mixed.store, mixed.gardens, "alice", garden, Moment.nweek_start(1))
    assert planted.happenings[0].text.endswith("a Young Sasquash Pod, Plant 7")
    assert planted.store.held_by("alice") == ()
    return planted.store, planted.gardens


def test_a_pod_hatches_two_nweeks_after_planting_and_its_owner_gets_a_sasquash() -> None:
    store, gardens = pod_in("bob")  # planted in bob's Garden, so it is bob's (1902 A)
    assert next_hatching(gardens) == Moment.nweek_start(3)
    nothing = run_timed(store, gardens, Moment.at(2, 9), DrawSource(SEED, "early"))
    assert nothing.happenings == () and nothing.gardens == gardens
    outcome = run_timed(store, gardens, Moment.nweek_start(3), DrawSource(SEED, "n4"))
    assert [h.text for h in outcome.happenings] == [
        "Plant 7 (Sasquash Pod) in bob's Garden Hatches: bob gets a Sasquash: Sasquash 8"
    ]
    (sasquash,) = outcome.store.held_by("bob")
    assert sasquash.created == Moment.nweek_start(3)
    assert outcome.gardens.plants_in("bob") == ()
    assert next_hatching(outcome.gardens) is None


def test_a_pod_nobody_owns_is_simply_destroyed() -> None:
    store, gardens = pod_in(None)
    outcome = run_timed(store, gardens, Moment.nweek_start(3), DrawSource(SEED, "n4"))
    assert [h.text for h in outcome.happenings] == [
        "Plant 7 (Sasquash Pod) in the Town Square Hatches; no player owns it, so it is destroyed"
    ]
    assert outcome.store.items == ()


def test_huge_seeds_need_rule_1918_kept() -> None:
    store, gardens = mixer("Lemon Drink", "Blood Spore Drink")
    with pytest.raises(IllegalActionError, match="rule 1918"):
        mix_huge_seed(store, replace(gardens, more_plants=False), "alice", Moment.at(0, 2))


def watered_each_period(store: StoreState, gardens: GardenState, until: Moment) -> GardenState:
    """bob waters his Garden in every Checking Period before ``until``'s last one, which he
    forgets, and every Checkpoint's events run."""
    at = Moment.at(1, 1)
    while at.next_period_start() < until:
        gardens = water(gardens, "bob", "bob", at).state
        at = at.next_period_start()
        gardens = run_garden_timed(gardens, at, DrawSource(SEED, f"c{at.ndays}")).state
    return gardens


def test_rule_3_c_settles_the_watering_before_the_pod_hatches() -> None:
    # The Pod Hatches at nweek 4's start, a Checkpoint: rule 1902 (equal Chutzpah, lower
    # number) settles the watering first, so bob's unwatered Pod dies of thirst and no
    # Sasquash Hatches.  The other order would give him one.
    store, gardens = pod_in("bob")
    hatch_at = Moment.nweek_start(3)
    gardens = watered_each_period(store, gardens, hatch_at)
    assert [p.kind for p in gardens.plants_in("bob")] == ["Sasquash Pod"]
    in_order = run_garden_timed(gardens, hatch_at, DrawSource(SEED, "n4"))
    assert in_order.happenings[0].text == (
        "bob's Garden: 0~ paid for watering, Gardening Cost 10~: "
        "Plant 7 (Sasquash Pod) is destroyed"
    )
    hatched = run_timed(store, in_order.state, hatch_at, DrawSource(SEED, "n4"))
    assert hatched.store.items == ()
    other_order = run_timed(store, gardens, hatch_at, DrawSource(SEED, "n4"))
    assert [item.kind for item in other_order.store.held_by("bob")] == ["Sasquash"]
