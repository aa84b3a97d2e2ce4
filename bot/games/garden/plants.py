"""Plants, Fruits and Gardens: their types and their objects (rules 1902, 1908, 1909).

Rule 1902 A: "Each type of Plant has a Watering Cost associated with it";
rule 1908 A: "Vines are Plants with a Watering Cost of 5~.  They have
Tomatoes as their Fruit"; rule 1909: "Thorn Bushes are Plants with a
Watering Cost of 6~.  They have Thorn Seeds as their Fruits, and produce two
each nweek instead of one."  Rule 1918 adds Blood Ferns (7~, Blood Spores),
Lemon Trees (2~, Lemons; two places under the 10-Plant cap, and no Bunny may
destroy one) and Sasquash Pods (10~, no Fruit).

A Garden is named by its owner's key; the Town Square (1902 C) by None, "not
owned by anyone".  Plants and Fruits are numbered objects; a Plant's owner
is its Garden's ("The vine so created is owned by the owner of the Garden
(or by nobody, if the Garden is unowned)", 1908 B.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.economy import Moment, PlayerKey
from bot.games.objects import ObjectType

GardenKey = PlayerKey | None  # the owner's key; None is the Town Square (rule 1902 C)
TOWN_SQUARE: GardenKey = None
GARDEN_HOLDER = "garden"  # the kind of holder a Garden is (bot.games.objects)


@dataclass(frozen=True)
class PlantType:
    """A type of Plant: its Watering Cost, its Fruit and how many it bears per nweek."""

    name: str
    plural: str
    watering_cost: int
    fruit: str
    fruit_per_nweek: int
    rule: str
    places: int = 1  # 1918 B: "a Lemon Tree takes up the space of two plants"
    bunny_proof: bool = False  # 1918 B: "Lemon Trees may not be destroyed by Bunnies"


@dataclass(frozen=True)
class FruitType:
    """A type of Fruit and the Plant it is planted as.

    ``needs_rotten``: only a Rotten one may be planted (1908 B.1);
    ``own_garden_only``: only in the planter's own Garden (1909).
    """

    name: str
    plural: str
    rule: str
    grows_into: str
    needs_rotten: bool
    own_garden_only: bool


VINE = PlantType("Vine", "Vines", 5, "Tomato", 1, "1908 A")
THORN_BUSH = PlantType("Thorn Bush", "Thorn Bushes", 6, "Thorn Seed", 2, "1909")
TOMATO = FruitType("Tomato", "Tomatoes", "1908 B.1", "Vine", True, False)
THORN_SEED = FruitType("Thorn Seed", "Thorn Seeds", "1909", "Thorn Bush", False, True)
# 1915: "Waterspouts are Plants.  They have a Watering Cost of -8~"; "Water Pods are
# Fruits, produced by Waterspouts".  No rule lets a Water Pod be planted: it grows into
# nothing ("").
WATERSPOUT = PlantType("Waterspout", "Waterspouts", -8, "Water Pod", 1, "1915")
WATER_POD = FruitType("Water Pod", "Water Pods", "1915", "", False, False)

PLANT_TYPES = {plant.name: plant for plant in (VINE, THORN_BUSH, WATERSPOUT)}
FRUIT_TYPES = {fruit.name: fruit for fruit in (TOMATO, THORN_SEED, WATER_POD)}

# Rule 1918 A: "Blood Ferns are Plants, with a watering cost of 7 tildex and with Blood
# Spores as their Fruits [...] a Blood Spore may be planted in any Garden".
BLOOD_FERN = PlantType("Blood Fern", "Blood Ferns", 7, "Blood Spore", 1, "1918 A")
BLOOD_SPORE = FruitType("Blood Spore", "Blood Spores", "1918 A", "Blood Fern", False, False)
# Rule 1918 B: "Lemon Trees are Plants with a watering cost of 2 tildex and with Lemons as
# their Fruits"; they are imported, never grown from a Lemon ("don't grow around here").
LEMON_TREE = PlantType(
    "Lemon Tree", "Lemon Trees", 2, "Lemon", 1, "1918 B", places=2, bunny_proof=True
)
LEMON = FruitType("Lemon", "Lemons", "1918 B", "", False, False)
# Rule 1918 C: "Sasquash Pods are Plants with no Fruit, and a watering cost of 10~".
SASQUASH_POD = PlantType("Sasquash Pod", "Sasquash Pods", 10, "", 0, "1918 C")
PLANT_TYPES |= {plant.name: plant for plant in (BLOOD_FERN, LEMON_TREE, SASQUASH_POD)}
FRUIT_TYPES |= {fruit.name: fruit for fruit in (BLOOD_SPORE, LEMON)}


@dataclass(frozen=True)
class Plant:
    """Plant ``number`` of type ``kind``, in ``garden`` since ``planted``."""

    number: int
    kind: str
    garden: GardenKey
    planted: Moment

    @property
    def type(self) -> PlantType:
        return PLANT_TYPES[self.kind]

    @property
    def watering_cost(self) -> int:
        return self.type.watering_cost

    def label(self) -> str:
        return f"Plant {self.number} ({self.kind})"


@dataclass(frozen=True)
class Fruit:
    """Fruit ``number``: on Plant ``plant``, or held by ``holder`` (exactly one is set)."""

    number: int
    kind: str
    created: Moment
    plant: int | None = None
    holder: PlayerKey | None = None
    rotten: bool = False

    def __post_init__(self) -> None:
        if (self.plant is None) == (self.holder is None):
            raise ValueError(f"Fruit {self.number} must be on a Plant or held, not both or neither")

    @property
    def type(self) -> FruitType:
        return FRUIT_TYPES[self.kind]

    def label(self) -> str:
        rotten = "Rotten " if self.rotten else ""
        return f"{rotten}{self.kind} {self.number}"


# How bot.games.objects sees them (rule 13's transfers, rule 14's forfeits).
GARDEN_OBJECT = ObjectType(
    name="Garden",
    plural="Gardens",
    rule="1902 A",
    transferable=False,
    refusal="Gardens may not be given away",
)
PLANT_OBJECT = ObjectType(
    name="Plant",
    plural="Plants",
    rule="1902 A",
    transferable=False,
    holder_kinds=frozenset({GARDEN_HOLDER}),
    refusal="Plants must always be in gardens; if a Plant isn't in a garden, it withers and dies",
)
# Fruit follow rule 13's default: a player may give a Fruit e holds.
FRUIT_OBJECTS = {
    fruit.name: ObjectType(name=fruit.name, plural=fruit.plural, rule=fruit.rule)
    for fruit in (TOMATO, THORN_SEED, WATER_POD)
}
FRUIT_OBJECTS |= {
    fruit.name: ObjectType(name=fruit.name, plural=fruit.plural, rule=fruit.rule)
    for fruit in (BLOOD_SPORE, LEMON)
}
