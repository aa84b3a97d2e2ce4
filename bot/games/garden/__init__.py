"""B Nomic's Gardens (rule 1902), Tomatoes on Vines (1908) and Thorns (1909), seed 004: pure.

Modules: ``plants`` (the types of Plant and Fruit and their objects),
``state`` (every Garden, Plant and Fruit, and what the rules count),
``actions`` (watering, planting, burning, picking, throwing, permissions),
``buying`` (a Thorn Seed from the Store, rule 1911), ``beginning`` (a game
that begins with Vines),
``timed`` (the Checkpoint and nweek-start events in rule 3 C's order),
``invariants`` (rule 1909's Thorn Bush in the Town Square, and rule 1918's
Blood Fern where that rule is kept), ``more_plants`` (rule 1918's Lemon
Trees and Sasquash Pods), ``render``
(Chauncey's display, rule 625 D.4) and ``serialize`` (the state as JSON).
Refereed by mail by ``bot.engine.games.garden``.
Built on ``bot.games.economy``'s lasting effects, quotas, timed events and
conversions.  Readings are in ``docs/readings.md``.  Players are named by
the key the engine keeps for them, and that key is what the rulings print.
"""

from bot.games.garden.actions import (
    CARDS_STAINED,
    PERMANENT_HONOR,
    STAINED,
    Outcome,
    burn,
    fruit_to_pick,
    permanent_honor,
    permit_picking,
    pick,
    plant,
    start,
    throw,
    water,
    withdraw_picking,
)
from bot.games.garden.more_plants import PodStage, import_lemon_tree, pod_stage
from bot.games.garden.plants import (
    BLOOD_FERN,
    BLOOD_SPORE,
    FRUIT_TYPES,
    GARDEN_OBJECT,
    LEMON,
    LEMON_TREE,
    PLANT_TYPES,
    SASQUASH_POD,
    THORN_BUSH,
    THORN_SEED,
    TOMATO,
    TOWN_SQUARE,
    VINE,
    Fruit,
    GardenKey,
    Plant,
)
from bot.games.garden.render import render_gardens
from bot.games.garden.serialize import state_from_json, state_to_json
from bot.games.garden.state import FreeThrow, GardenState
from bot.games.garden.timed import HANDLERS, events_at, run_timed

__all__ = [
    "BLOOD_FERN",
    "BLOOD_SPORE",
    "CARDS_STAINED",
    "FRUIT_TYPES",
    "GARDEN_OBJECT",
    "HANDLERS",
    "LEMON",
    "LEMON_TREE",
    "PERMANENT_HONOR",
    "PLANT_TYPES",
    "SASQUASH_POD",
    "STAINED",
    "THORN_BUSH",
    "THORN_SEED",
    "TOMATO",
    "TOWN_SQUARE",
    "VINE",
    "FreeThrow",
    "Fruit",
    "GardenKey",
    "GardenState",
    "Outcome",
    "Plant",
    "PodStage",
    "burn",
    "events_at",
    "fruit_to_pick",
    "import_lemon_tree",
    "permanent_honor",
    "permit_picking",
    "pick",
    "plant",
    "pod_stage",
    "render_gardens",
    "run_timed",
    "start",
    "state_from_json",
    "state_to_json",
    "throw",
    "water",
    "withdraw_picking",
]
