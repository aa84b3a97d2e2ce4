"""Potions (rule 1914, seed 004): Recipes as conversions, Effects as lasting effects.

Rule 1914 A: "To create a Potion, a Player must Follow a Recipe by destroying
a number of each Ingredient in a Recipe equal to the Value corresponding to
that Ingredient [...] Players may not destroy Ingredients for Potions unless
they destroy all of the Ingredients for that Potion, nor may they destroy
more Ingredients than the Recipe calls for."
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.dice import DrawSource
from bot.games.drinks import (
    AV_POWER,
    AV_SKILL,
    BLOODY_HARRY,
    FOLLOWING_THE_RAINBOW,
    POT_OF_GOLD,
    RAINBOW_POTION,
    RECIPES,
    Category,
    DrinksState,
    drink,
    follow_recipe,
    ingredients_for,
    render_drinks,
    run_timed,
    timers,
)
from bot.games.economy import Moment
from bot.games.errors import IllegalActionError
from bot.games.garden import start

NWEEK = 4
WHEN = Moment.at(NWEEK, 2, 3600)  # nweek 5, nday 3, 01:00
SEED = bytes(range(32))


def cellar(*drinks: tuple[str, str]) -> DrinksState:
    """alice and bob, each holding the Drinks listed for em as (holder, kind)."""
    state = DrinksState(garden=start(("alice", "bob"), Moment.nweek_start(0)).state)
    for holder, kind in drinks:
        state = state.with_items(((kind, Category.DRINK),), holder, Moment.at(NWEEK, 1))
    return state


def numbers(state: DrinksState, player: str) -> tuple[int, ...]:
    return tuple(item.number for item in state.held_by(player))


def test_bloody_harrys_thorn_drink_is_the_thorn_seed_drink() -> None:
    # C.1: 'Recipe "(1 Tomato Drink) (1 Thorn Drink)"'; a Thorn Seed ferments into a
    # "Thorn Seed Drink" (1913), the one 1915 calls both names.
    state = cellar(
        ("alice", "Thorn Seed Drink"), ("alice", "Lemon Drink"), ("alice", "Tomato Drink")
    )
    thorn, _lemon, tomato = numbers(state, "alice")
    assert ingredients_for(state, "alice", BLOODY_HARRY) == (tomato, thorn)
    outcome = follow_recipe(state, "alice", BLOODY_HARRY, (thorn, tomato), WHEN)
    assert [item.label() for item in outcome.state.held_by("alice")] == [
        f"Lemon Drink {_lemon}",
        f"Bloody Harry {tomato + 1}",
    ]
    assert outcome.happenings[0].rule == "1914 C.1"
    assert outcome.happenings[0].text == (
        f'alice followed the Recipe "(1 Tomato Drink) (1 Thorn Drink)", destroying Thorn Seed '
        f"Drink {thorn}, Tomato Drink {tomato}, and receives Bloody Harry {tomato + 1}"
    )


def test_all_the_ingredients_and_no_more_each_owned_by_the_player() -> None:
    state = cellar(
        ("alice", "Tomato Drink"),
        ("alice", "Thorn Seed Drink"),
        ("alice", "Tomato Drink"),
        ("bob", "Thorn Seed Drink"),
    )
    tomato, thorn, second_tomato, bobs_thorn = numbers(state, "alice") + numbers(state, "bob")
    refusals = {
        (tomato,): "calls for 2 Ingredients, no fewer and no more, and 1 were named",
        (tomato, thorn, second_tomato): "calls for 2 Ingredients, no fewer and no more, and 3",
        (tomato, second_tomato): "calls for 1 Thorn Seed Drink",
        (tomato, bobs_thorn): "is not yours",
    }
    for ingredients, why in refusals.items():
        with pytest.raises(IllegalActionError) as refused:
            follow_recipe(state, "alice", BLOODY_HARRY, ingredients, WHEN)
        assert why in str(refused.value), ingredients
        assert refused.value.rule in {"1914 A", "1914 C.1"}
    assert state.held_by("alice") == cellar(
        ("alice", "Tomato Drink"), ("alice", "Thorn Seed Drink"), ("alice", "Tomato Drink")
    ).held_by("alice")
    with pytest.raises(IllegalActionError) as refused:
        follow_recipe(state, "alice", "Elixir of Life", (tomato,), WHEN)
    assert refused.value.rule == "1914 C"
    with pytest.raises(IllegalActionError) as refused:
        ingredients_for(cellar(("alice", "Tomato Drink")), "alice", BLOODY_HARRY)
    assert str(refused.value).endswith("calls for 1 Thorn Seed Drink, and you hold 0")


def test_a_bloody_harrys_effects_last_until_the_end_of_the_current_nweek() -> None:
    # C.1: "Your AvPower is increased by 2 until the end of the current nweek.  Your
    # AvSkill is decreased by 1 until the end of the current nweek."  "When a Potion is
    # drunk, it is destroyed" (1914 B).
    state = cellar(("bob", "Tomato Drink"), ("bob", "Thorn Seed Drink"))
    state = follow_recipe(state, "bob", BLOODY_HARRY, numbers(state, "bob"), WHEN).state
    (potion,) = numbers(state, "bob")
    draws = DrawSource(SEED, "bob-drinks")
    outcome = drink(state, "bob", potion, WHEN, draws)
    assert outcome.state.held_by("bob") == ()
    assert outcome.state.bac_of("bob") == 0 and outcome.payments == ()  # not a Drink
    assert draws.draws == ()
    assert outcome.happenings[0].text == (
        f"bob drank Bloody Harry {potion}: eir AvPower is increased by 2 and eir AvSkill "
        "decreased by 1 until nweek 6, nday 1"
    )
    effects = outcome.state.garden.effects
    last_instant = Moment.nweek_start(NWEEK + 1).later(-1)
    assert effects.value_of("bob", AV_POWER, last_instant, base=3) == 5
    assert effects.value_of("bob", AV_SKILL, last_instant, base=3) == 2
    assert effects.value_of("alice", AV_POWER, last_instant, base=3) == 3
    # At the nweek's end the effects are over, and the nweek-start run forgets them.
    next_nweek = Moment.nweek_start(NWEEK + 1)
    assert effects.value_of("bob", AV_POWER, next_nweek, base=3) == 3
    assert effects.value_of("bob", AV_SKILL, next_nweek, base=3) == 3
    assert render_drinks(outcome.state, WHEN) == (
        "Drinks, Potions and BAC at nweek 5, nday 3, 01:00:00 (rules 1913, 1914, 1915)\n"
        "\n"
        "alice: Sober; holds nothing\n"
        "bob: Sober; holds nothing\n"
        f"  AvPower +2 until nweek 6, nday 1 (rule 1914 C.1: drank Bloody Harry {potion})\n"
        f"  AvSkill -1 until nweek 6, nday 1 (rule 1914 C.1: drank Bloody Harry {potion})\n"
    )
    later = run_timed(outcome.state, next_nweek, DrawSource(SEED, "nweek 6")).state
    assert later.garden.effects.active("bob", AV_POWER, next_nweek) == ()
    assert all(e.rule != "1914 C.1" for e in later.garden.effects.items)


FIVE_KINDS = ("Tomato Drink", "Thorn Seed Drink", "Water Pod Drink", "Blood Spore Drink")


def test_a_rainbow_potion_takes_one_drink_of_each_of_the_five_types_of_fruit() -> None:
    # C.2: 'Recipe "(The number of types of Fruit that exist, Different drinks)"': the
    # ruleset defines five (Tomato, Thorn Seed, Water Pod, Blood Spore, Lemon).
    assert RECIPES[RAINBOW_POTION].count == 5
    four = cellar(*(("alice", kind) for kind in FIVE_KINDS))
    with pytest.raises(IllegalActionError) as refused:
        ingredients_for(four, "alice", RAINBOW_POTION)
    assert str(refused.value).endswith("calls for 5 different Drinks, and you hold 4")
    repeated = cellar(*(("alice", kind) for kind in FIVE_KINDS), ("alice", "Tomato Drink"))
    with pytest.raises(IllegalActionError) as refused:
        follow_recipe(repeated, "alice", RAINBOW_POTION, numbers(repeated, "alice"), WHEN)
    assert str(refused.value).endswith("calls for 5 Drinks of different kinds")
    five = cellar(*(("alice", kind) for kind in FIVE_KINDS), ("alice", "Lemon Drink"))
    outcome = follow_recipe(
        five, "alice", RAINBOW_POTION, ingredients_for(five, "alice", RAINBOW_POTION), WHEN
    )
    assert [item.kind for item in outcome.state.held_by("alice")] == [RAINBOW_POTION]


def test_following_the_rainbow_for_one_nday_then_a_pot_of_gold() -> None:
    # C.2: "You are considered to be Following the Rainbow for one nday.  When you are no
    # longer Following the Rainbow, you find (get) a Pot of Gold."
    state = cellar()
    state = state.with_items(((RAINBOW_POTION, Category.POTION),) * 2, "alice", WHEN)
    first, second = numbers(state, "alice")
    state = drink(state, "alice", first, WHEN, DrawSource(SEED, "a")).state
    half_nday_later = Moment(WHEN.ndays, WHEN.second + 12 * 3600)
    state = drink(state, "alice", second, half_nday_later, DrawSource(SEED, "b")).state
    assert state.garden.effects.holds("alice", FOLLOWING_THE_RAINBOW, WHEN.later(1))
    assert timers(state) == (WHEN.later(1), half_nday_later.later(1))
    # The first nday ends while the second Potion keeps her on the Rainbow: no Pot yet.
    early = run_timed(state, WHEN.later(1), DrawSource(SEED, "rainbow"))
    assert early.happenings == ()
    ended = run_timed(early.state, half_nday_later.later(1), DrawSource(SEED, "rainbow"))
    assert [(h.rule, h.kind, h.text) for h in ended.happenings] == [
        (
            "1914 C.2",
            POT_OF_GOLD,
            f"alice is no longer Following the Rainbow and finds (gets) a Pot of Gold "
            f"(Rainbow Potion {potion})",
        )
        for potion in (first, second)
    ]
    assert ended.state.rainbow_walks == () and timers(ended.state) == ()
    assert not ended.state.garden.effects.holds(
        "alice", FOLLOWING_THE_RAINBOW, half_nday_later.later(1)
    )


def test_potions_are_drunk_at_any_time_even_blacked_out() -> None:
    # 1914 B: "Players may drink Potions they own at any time."  A Potion is no Drink, so
    # rule 1913's Drinking (and its bar) is not in play.
    state = cellar().with_items(((BLOODY_HARRY, Category.POTION),), "bob", WHEN)
    state = state.with_bac("bob", 11)
    (potion,) = numbers(state, "bob")
    outcome = drink(state, "bob", potion, WHEN, DrawSource(SEED, "c"))
    assert outcome.performed and outcome.state.bac_of("bob") == 11
    with pytest.raises(IllegalActionError):
        drink(replace(state, items=()), "bob", potion, WHEN, DrawSource(SEED, "c"))


def test_each_bloody_harry_drunk_adds_its_own_effects() -> None:
    # 1914 B: "When a Player drinks a Potion, the changes listed in that potions Effects
    # occur": two Potions, twice the changes, to the same nweek's end.
    state = cellar().with_items(((BLOODY_HARRY, Category.POTION),) * 2, "bob", WHEN)
    for potion in numbers(state, "bob"):
        state = drink(state, "bob", potion, WHEN, DrawSource(SEED, "c")).state
    effects = state.garden.effects
    assert effects.value_of("bob", AV_POWER, WHEN, base=1) == 5
    assert effects.value_of("bob", AV_SKILL, WHEN, base=1) == -1
    assert effects.value_of("bob", AV_POWER, Moment.nweek_start(NWEEK + 1), base=1) == 1
