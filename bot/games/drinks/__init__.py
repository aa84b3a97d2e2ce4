"""B Nomic's Alcohol (rule 1913), Potions (1914) and Waterspouts (1915), seed 004: pure.

One package for the three because they share one object, the Drink: rule
1913 ferments Fruit into Drinks, 1914's Recipes consume Drinks and make
Potions that are drunk in turn, and 1915's Concoction is mixed into a Thorn
Seed Drink.  Built on the Gardens (``bot.games.garden``), whose Fruit they
consume and whose Plants a Concoction turns, and on ``bot.games.economy``'s
conversions, lasting effects, gates and timed events.

Modules: ``items`` (Drinks, Potions, Concoctions and their names), ``state``
(the Gardens, those objects, BAC and Rainbow timers), ``sobriety`` (BAC,
Blacked Out and the 1d10), ``alcohol`` (fermenting, drinking, and the
Gardens' actions rule 1913 checks), ``potions`` (Recipes and Effects),
``waterspouts`` (mixing and pouring), ``timed`` (BAC at each Checking
Period's end, the Rainbow's end, with the Gardens' events in rule 3 C's
order), ``render`` and ``serialize``.  Readings are in ``docs/readings.md``.
"""

from bot.games.drinks.alcohol import drink, ferment, pick, plant, water
from bot.games.drinks.items import (
    BLOODY_HARRY,
    CONCOCTION,
    OBJECT_TYPES,
    RAINBOW_POTION,
    Category,
    Item,
    drink_kind,
    drink_of,
)
from bot.games.drinks.potions import (
    AV_POWER,
    AV_SKILL,
    FOLLOWING_THE_RAINBOW,
    RECIPES,
    Recipe,
    drink_potion,
    follow_recipe,
    ingredients_for,
)
from bot.games.drinks.render import render_drinks
from bot.games.drinks.serialize import state_from_json, state_to_json
from bot.games.drinks.sobriety import (
    CHECKED_ACTIONS,
    DRINKING,
    FERMENTING,
    PICKING,
    PLANTING,
    USING_AN_AVATAR,
    WATERING,
    attempt,
    check_allowed,
    is_blacked_out,
    is_sober,
)
from bot.games.drinks.state import DrinksState, Outcome, RainbowWalk
from bot.games.drinks.timed import POT_OF_GOLD, events_at, run_timed, timers
from bot.games.drinks.waterspouts import concoction_ingredients, mix, pour

__all__ = [
    "AV_POWER",
    "AV_SKILL",
    "BLOODY_HARRY",
    "CHECKED_ACTIONS",
    "CONCOCTION",
    "DRINKING",
    "FERMENTING",
    "FOLLOWING_THE_RAINBOW",
    "OBJECT_TYPES",
    "PICKING",
    "PLANTING",
    "POT_OF_GOLD",
    "RAINBOW_POTION",
    "RECIPES",
    "USING_AN_AVATAR",
    "WATERING",
    "Category",
    "DrinksState",
    "Item",
    "Outcome",
    "RainbowWalk",
    "Recipe",
    "attempt",
    "check_allowed",
    "concoction_ingredients",
    "drink",
    "drink_kind",
    "drink_of",
    "drink_potion",
    "events_at",
    "ferment",
    "follow_recipe",
    "ingredients_for",
    "is_blacked_out",
    "is_sober",
    "mix",
    "pick",
    "plant",
    "pour",
    "render_drinks",
    "run_timed",
    "state_from_json",
    "state_to_json",
    "timers",
    "water",
]
