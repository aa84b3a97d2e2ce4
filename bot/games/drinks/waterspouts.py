"""Waterspouts (rule 1915): the Concoction mixed, and poured on a Plant.

Rule 1915: "Any player holding a Thorn Seed Drink, a Rotten Tomato, and at
least 30~, and whose Avatar is adjacent to a Cube Filled with Water, may mix
the Tomato and the Tildex into the Thorn Drink and dip the whole thing in
the Water to create a Waterspout Concoction.  This destroys the Drink, the
Tomato, and the Tildex.  A Waterspout Concoction may be poured on any Plant
to turn that Plant into a Waterspout (it ceases to be whatever other type of
plant it was)."

The Waterspout itself, its -8~ Watering Cost and the Gardening Cost floored
at 0, are the Gardens' (``bot.games.garden.plants``, ``GardenState.gardening_cost``).
The Arena (rule 1912) is not kept here: whether the Avatar is adjacent to a
Cube Filled with Water is a fact the caller states.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.drinks.items import CONCOCTION, Category, Item, drink_kind
from bot.games.drinks.rules import CONCOCTION_TILDEX, RULE_WATERSPOUTS
from bot.games.drinks.state import DrinksState, Outcome
from bot.games.economy import (
    Conversion,
    Happening,
    Moment,
    Payment,
    PlayerKey,
    PossibleLaterError,
    convert,
    restore_invariants,
)
from bot.games.errors import IllegalActionError
from bot.games.garden.invariants import INVARIANTS
from bot.games.garden.plants import TOMATO, WATERSPOUT, Fruit
from bot.games.garden.rules import FRUIT_TIMER_NDAYS
from bot.games.garden.texts import garden_name

THORN_SEED_DRINK = drink_kind("Thorn Drink")


def concoction_ingredients(state: DrinksState, player: PlayerKey) -> tuple[int, int]:
    """The Thorn Seed Drink and the Rotten Tomato ``player`` would mix, oldest first
    ("I mix a Waterspout Concoction"); raises ``IllegalActionError`` when e lacks one."""
    drinks = [i for i in state.held_by(player) if drink_kind(i.kind) == THORN_SEED_DRINK]
    tomatoes = [
        fruit
        for fruit in state.garden.fruit_held_by(player)
        if fruit.kind == TOMATO.name and fruit.rotten
    ]
    if not drinks or not tomatoes:
        raise IllegalActionError(
            "mixing a Waterspout Concoction needs a Thorn Seed Drink and a Rotten Tomato "
            "that you hold",
            rule=RULE_WATERSPOUTS,
        )
    return drinks[0].number, tomatoes[0].number


def mix(
    state: DrinksState,
    player: PlayerKey,
    drink_number: int,
    tomato_number: int,
    at: Moment,
    *,
    avatar_beside_water: bool,
) -> Outcome:
    """``player`` mixes the Rotten Tomato and 30~ into the Thorn Seed Drink.

    A conversion destroying the Drink, the Tomato and the Tildex (the
    ledger's payment, refused there if e holds less than 30~) and creating a
    Waterspout Concoction e holds.  Raises ``IllegalActionError`` citing
    1915, or ``PossibleLaterError`` for a Tomato not Rotten yet.
    """
    state.check_player(player)
    drink = _thorn_seed_drink(state.item(drink_number), player)
    _check_tomato(state.garden.fruit(tomato_number), player)
    if not avatar_beside_water:
        raise IllegalActionError(
            "your Avatar must be adjacent to a Cube Filled with Water to dip the mixture in",
            rule=RULE_WATERSPOUTS,
        )
    tildex = Payment(
        player, -CONCOCTION_TILDEX, "tildex", RULE_WATERSPOUTS, "mixed into a Concoction"
    )
    conversion = Conversion(
        RULE_WATERSPOUTS,
        (drink_number, tomato_number),
        ((CONCOCTION, Category.CONCOCTION),),
        (tildex,),
    )
    state = convert(state, conversion, (), lambda s, made: s.with_items(made, player, at))
    made = state.item(state.last_number())
    text = (
        f"{player} mixed Rotten Tomato {tomato_number} and {CONCOCTION_TILDEX}~ into "
        f"{drink.label()} and dipped it in the Water: {made.label()}"
    )
    return Outcome(state, (Happening(RULE_WATERSPOUTS, text),), conversion.payments)


def _thorn_seed_drink(drink: Item, player: PlayerKey) -> Item:
    if drink.holder != player or drink_kind(drink.kind) != THORN_SEED_DRINK:
        raise IllegalActionError(
            f"a Waterspout Concoction is mixed into a Thorn Seed Drink you hold, and "
            f"{drink.label()} is not one",
            rule=RULE_WATERSPOUTS,
        )
    return drink


def _check_tomato(tomato: Fruit, player: PlayerKey) -> None:
    if tomato.holder != player or tomato.kind != TOMATO.name:
        raise IllegalActionError(
            f"a Waterspout Concoction needs a Rotten Tomato you hold, and {tomato.label()} "
            "is not one",
            rule=RULE_WATERSPOUTS,
        )
    if not tomato.rotten:
        raise PossibleLaterError(
            f"a Waterspout Concoction needs a Rotten Tomato, and {tomato.label()} is not "
            "Rotten yet",
            rule=RULE_WATERSPOUTS,
            again=f"{tomato.label()} may be mixed",
            possible_from=tomato.created.later(FRUIT_TIMER_NDAYS),
        )


def pour(
    state: DrinksState, player: PlayerKey, concoction_number: int, plant_number: int, at: Moment
) -> Outcome:
    """``player`` pours the Concoction e holds on Plant ``plant_number``, in any Garden.

    The Plant becomes a Waterspout, keeping its number, Garden, planting and
    the Fruit on it; the Concoction is used up.  Then the Gardens'
    invariants are restored (rule 1909: the last Thorn Bush turned gives the
    Town Square a new one).  Raises ``IllegalActionError`` citing 1915.
    """
    state.check_player(player)
    concoction = _concoction_of(state, player, concoction_number)
    target = state.garden.plant(plant_number)
    if target.kind == WATERSPOUT.name:
        raise IllegalActionError(f"{target.label()} is a Waterspout already", rule=RULE_WATERSPOUTS)
    turned = replace(target, kind=WATERSPOUT.name)
    plants = tuple(turned if p.number == plant_number else p for p in state.garden.plants)
    state = state.without_objects((concoction.number,))
    state = replace(state, garden=replace(state.garden, plants=plants))
    garden_state, restored = restore_invariants(state.garden, at, INVARIANTS)
    text = (
        f"{player} poured {concoction.label()} on {target.label()} in "
        f"{garden_name(target.garden)}: it is now a Waterspout, Watering Cost "
        f"{WATERSPOUT.watering_cost}~"
    )
    happenings = (Happening(RULE_WATERSPOUTS, text), *restored)
    return Outcome(replace(state, garden=garden_state), happenings)


def _concoction_of(state: DrinksState, player: PlayerKey, number: int) -> Item:
    item = state.item(number)
    if item.holder != player or item.category is not Category.CONCOCTION:
        raise IllegalActionError(
            f"you hold no Waterspout Concoction {number}", rule=RULE_WATERSPOUTS
        )
    return item
