"""Fermenting and Drinking (rule 1913), and the Gardens' actions rule 1913 checks.

Rule 1913: "Fermenting is an Action.  A Player may choose to Ferment any
Fruit e has, or any Fruit in eir garden, at any time by paying 5~.  When a
Player Ferments a Fruit, the Fruit changes into an X Drink [...] The new
Drink is in the possession of the Player who fermented the Fruit."  And:
"Drinking is an Action.  A Player may Drink a Drink in eir possession at
any time.  When e does, eir BAC is incremented by 1, the Drink ceases to
exist, and e receives 10 points."

Every one of these is an attempt (``sobriety.attempt``): refused while
Blacked Out or barred, rolled for while not Sober.  Picking, Watering and
Planting are the Gardens' own actions (``bot.games.garden``) run through the
same attempt.  Each function returns an ``Outcome``; a refusal raises
``IllegalActionError`` citing its rule, or ``PossibleLaterError``.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games import garden
from bot.games.dice import DrawSource
from bot.games.drinks.items import Category, drink_of
from bot.games.drinks.potions import drink_potion
from bot.games.drinks.rules import (
    DRINKING_POINTS,
    FERMENTING_COST,
    RULE_ALCOHOL,
    RULE_WATERSPOUTS,
)
from bot.games.drinks.sobriety import (
    DRINKING,
    FERMENTING,
    PICKING,
    PLANTING,
    WATERING,
    attempt,
)
from bot.games.drinks.state import DrinksState, Outcome
from bot.games.economy import Conversion, Happening, Moment, Payment, PlayerKey, convert
from bot.games.errors import IllegalActionError
from bot.games.garden import GardenKey


def ferment(
    state: DrinksState, player: PlayerKey, fruit_number: int, at: Moment, draws: DrawSource
) -> Outcome:
    """``player`` Ferments the Fruit ``fruit_number``, held or on a Plant in eir Garden.

    A conversion: the Fruit is destroyed and an X Drink created for em, for
    5~ (the ledger's payment, refused there if e holds less).  A Rotten
    Tomato is a Tomato and makes a Tomato Drink.
    """
    return attempt(
        state, player, FERMENTING, at, draws, lambda s: _ferment(s, player, fruit_number, at)
    )


def _ferment(state: DrinksState, player: PlayerKey, fruit_number: int, at: Moment) -> Outcome:
    state.check_player(player)
    fruit = state.garden.fruit(fruit_number)
    in_own_garden = fruit.plant is not None and state.garden.garden_of(fruit) == player
    if fruit.holder != player and not in_own_garden:
        raise IllegalActionError(
            f"you may Ferment only a Fruit you have or one in your own garden, and "
            f"{fruit.label()} is neither",
            rule=RULE_ALCOHOL,
        )
    payment = Payment(
        player, -FERMENTING_COST, "tildex", RULE_ALCOHOL, f"fermenting {fruit.label()}"
    )
    conversion = Conversion(
        RULE_ALCOHOL, (fruit.number,), ((drink_of(fruit.kind), Category.DRINK),), (payment,)
    )
    state = convert(state, conversion, (), lambda s, made: s.with_items(made, player, at))
    made = state.item(state.last_number())
    text = f"{player} fermented {fruit.label()} into {made.label()}, paying {FERMENTING_COST}~"
    return Outcome(state, (Happening(RULE_ALCOHOL, text),), conversion.payments)


def drink(
    state: DrinksState, player: PlayerKey, number: int, at: Moment, draws: DrawSource
) -> Outcome:
    """``player`` drinks the Drink or Potion ``number`` e holds.

    A Drink: rule 1913's Drinking, an attempt.  A Potion: rule 1914 B ("Players
    may drink Potions they own at any time"), which is no Drink's Drinking and so
    rolls nothing (docs/readings.md).  A Waterspout Concoction is poured, not drunk.
    """
    state.check_player(player)
    item = state.item(number)
    if item.holder != player:
        raise IllegalActionError(f"you do not hold {item.label()}", rule=RULE_ALCOHOL)
    if item.category is Category.POTION:
        return drink_potion(state, player, number, at)
    if item.category is Category.CONCOCTION:
        raise IllegalActionError(
            f"{item.label()} may be poured on a Plant, not drunk", rule=RULE_WATERSPOUTS
        )
    return attempt(state, player, DRINKING, at, draws, lambda s: _drink(s, player, number))


def _drink(state: DrinksState, player: PlayerKey, number: int) -> Outcome:
    item = state.item(number)
    bac = state.bac_of(player) + 1
    state = state.without_objects((number,)).with_bac(player, bac)
    points = Payment(player, DRINKING_POINTS, "points", RULE_ALCOHOL, f"drinking {item.label()}")
    text = (
        f"{player} drank {item.label()}: eir BAC is now {bac}, and e receives "
        f"{DRINKING_POINTS} points"
    )
    return Outcome(state, (Happening(RULE_ALCOHOL, text),), (points,))


# -- the Gardens' actions rule 1913 checks ------------------------------------


def pick(
    state: DrinksState,
    player: PlayerKey,
    fruit_number: int,
    at: Moment,
    draws: DrawSource,
    *,
    slowly: bool = False,
) -> Outcome:
    """Rule 1902 B's picking (``garden.pick``), as a rule 1913 attempt at Picking fruits."""
    return attempt(
        state,
        player,
        PICKING,
        at,
        draws,
        lambda s: _in_garden(s, garden.pick(s.garden, player, fruit_number, at, slowly=slowly)),
    )


def water(
    state: DrinksState,
    player: PlayerKey,
    garden_key: GardenKey,
    at: Moment,
    draws: DrawSource,
    amount: int | None = None,
) -> Outcome:
    """Rule 1902 A's watering (``garden.water``), as a rule 1913 attempt at Watering plants."""
    return attempt(
        state,
        player,
        WATERING,
        at,
        draws,
        lambda s: _in_garden(s, garden.water(s.garden, player, garden_key, at, amount)),
    )


def plant(
    state: DrinksState,
    player: PlayerKey,
    fruit_number: int,
    garden_key: GardenKey,
    at: Moment,
    draws: DrawSource,
) -> Outcome:
    """Planting a Fruit (``garden.plant``), as a rule 1913 attempt at Planting fruits."""
    return attempt(
        state,
        player,
        PLANTING,
        at,
        draws,
        lambda s: _in_garden(s, garden.plant(s.garden, player, fruit_number, garden_key, at)),
    )


def _in_garden(state: DrinksState, done: garden.Outcome) -> Outcome:
    return Outcome(replace(state, garden=done.state), done.happenings, done.payments)
