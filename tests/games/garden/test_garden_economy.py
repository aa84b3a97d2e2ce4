"""One Economy of the Gardens, the Drinks and the Store (seed 004): rule 1918 D's Alchemy
reads the Drinks fermented under rule 1913, gifts of every object (rule 13), and the
timed events of the three in rule 3 C's order."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games import drinks
from bot.games.dice import DrawSource
from bot.games.economy import Moment
from bot.games.errors import IllegalActionError
from bot.games.garden import Fruit, start
from bot.games.garden_economy import Economy, give_object, mix_huge_seed, run_timed

SEED = bytes(range(32))
AT = Moment.at(0, 1, 60)


def economy_with_fruit(*kinds: str) -> Economy:
    """alice and bob, rule 1918 kept; alice holds one Fruit of each of ``kinds``."""
    garden = start(("alice", "bob"), Moment.nweek_start(0), more_plants=True).state
    first = garden.next_number
    fruits = tuple(
        Fruit(first + offset, kind, Moment(0), holder="alice") for offset, kind in enumerate(kinds)
    )
    garden = replace(garden, fruits=(*garden.fruits, *fruits), next_number=first + len(kinds))
    return Economy().with_garden(garden)


def fermented(state: Economy, *numbers: int) -> Economy:
    drunk = state.drinks
    for number in numbers:
        drunk = drinks.ferment(drunk, "alice", number, AT, DrawSource(SEED, "f")).state
    return replace(state, drinks=drunk)


def test_alchemy_mixes_the_drinks_fermented_under_rule_1913() -> None:
    state = economy_with_fruit("Thorn Seed", "Lemon", "Blood Spore")
    seed, lemon, spore = (fruit.number for fruit in state.garden.fruit_held_by("alice"))
    state = fermented(state, lemon, spore)
    assert [item.kind for item in state.drinks.items] == ["Lemon Drink", "Blood Spore Drink"]
    done = mix_huge_seed(state, "alice", AT)
    assert done.state.drinks.items == ()
    assert [item.kind for item in done.state.store.held_by("alice")] == ["Huge Seed"]
    assert done.state.garden.fruit_held_by("alice") == ()
    assert f"Thorn Seed {seed}" in done.happenings[0].text


def test_alchemy_without_a_blood_spore_drink_changes_nothing() -> None:
    state = economy_with_fruit("Thorn Seed", "Lemon")
    state = fermented(state, state.garden.fruit_held_by("alice")[1].number)
    with pytest.raises(IllegalActionError, match="you hold no Blood Spore Drink"):
        mix_huge_seed(state, "alice", AT)


def test_every_object_is_given_under_rule_13() -> None:
    state = economy_with_fruit("Tomato", "Tomato")
    tomato, other = (fruit.number for fruit in state.garden.fruit_held_by("alice"))
    state = fermented(state, other)
    state = give_object(state, "alice", "Tomato", None, "bob").state
    state = give_object(state, "alice", "Tomato Drink", None, "bob").state
    assert [fruit.number for fruit in state.garden.fruit_held_by("bob")] == [tomato]
    assert [item.kind for item in state.drinks.held_by("bob")] == ["Tomato Drink"]
    with pytest.raises(IllegalActionError, match="you hold no Tomato") as refused:
        give_object(state, "alice", "Tomato", None, "bob")
    assert refused.value.rule == "13"


def test_at_a_checkpoint_sobering_comes_before_the_gardens_events() -> None:
    """Rule 3 C: rule 1913 (Chutzpah 3) before rules 1902-1909 (Chutzpah 1)."""
    state = economy_with_fruit("Tomato")
    # An unwatered Vine in alice's Garden, for rule 1902 A to destroy at the same instant.
    state = state.with_garden(state.garden.with_plants((("Vine", "alice"),), Moment(0)))
    state = fermented(state, state.garden.fruit_held_by("alice")[0].number)
    drunk = drinks.drink(
        state.drinks, "alice", state.drinks.items[0].number, AT, DrawSource(SEED, "d")
    )
    state = replace(state, drinks=drunk.state)
    checkpoint = Moment.period_start(AT.checking_period).next_period_start()
    assert checkpoint.is_checkpoint
    done = run_timed(state, checkpoint, DrawSource(SEED, "checkpoint"))
    rules = [happening.rule.split()[0] for happening in done.happenings]
    assert rules[0] == "1913" and "1902" in rules[1:] and done.state.drinks.bac == ()
