"""B Nomic's Store and Inventories (rules 1911, 1921) and rule 1918's held objects, pure.

Modules: ``inventory`` (the Store's Inventory, prices and each type's
Effects), ``state`` (the objects players hold that are neither Plants nor
Fruit, and the Bunnies' targets), ``buying`` (buying, the New Player's Water
Jet, the settings an admin record changes), ``giving`` (rule 13's gifts
and the objects' types), ``bunnies`` (Fluffy, Hungry and
Ninja Bunnies, on ``bot.games.garden``'s Gardens), ``tools`` (rule 1921's
"I use my ..."), ``more_plants`` (Huge Seeds, Alchemy and the Sasquash Pod's
Hatching, rule 1918 C and D), ``render`` (the price list) and ``serialize``
(the state as JSON).  Built on ``bot.games.economy``'s conversions and timed
events.  Readings are in ``docs/readings.md``.  Not yet refereed by mail.
"""

from bot.games.store.bunnies import use_fluffy_bunny, use_hungry_bunny, use_ninja_bunny
from bot.games.store.buying import buy, price_for, set_listed, set_price, welcome
from bot.games.store.giving import ITEM_OBJECTS, give
from bot.games.store.inventory import Article, StoreInventory, Use
from bot.games.store.more_plants import mix_huge_seed, next_hatching, plant_huge_seed, run_timed
from bot.games.store.render import render_held, render_price_list
from bot.games.store.serialize import state_from_json, state_to_json
from bot.games.store.state import Item, Outcome, StoreState, Target
from bot.games.store.tools import OnFruit, OnGarden, OnPlant, UseTarget, effects_of, use

__all__ = [
    "ITEM_OBJECTS",
    "Article",
    "Item",
    "OnFruit",
    "OnGarden",
    "OnPlant",
    "Outcome",
    "StoreInventory",
    "StoreState",
    "Target",
    "Use",
    "UseTarget",
    "buy",
    "effects_of",
    "give",
    "mix_huge_seed",
    "next_hatching",
    "plant_huge_seed",
    "price_for",
    "render_held",
    "render_price_list",
    "run_timed",
    "set_listed",
    "set_price",
    "state_from_json",
    "state_to_json",
    "use",
    "use_fluffy_bunny",
    "use_hungry_bunny",
    "use_ninja_bunny",
    "welcome",
]
