"""Drinks, Potions and Waterspout Concoctions: the objects rules 1913-1915 create.

Rule 1913: "When a Player Ferments a Fruit, the Fruit changes into an X
Drink, where X was the type of Fruit.  An X Drink is a Drink for all values
of X."  Rule 1914 A: "Potions are Game Objects with attributes Recipe and
Effects"; rule 1915 mixes "a Waterspout Concoction".  Each is a numbered
object held by a player, numbered in the Gardens' one series (a number names
one object for good, Fruit and Plants included).

Naming: a Thorn Seed ferments into a "Thorn Seed Drink" (1913's X, and 1915
says "Thorn Seed Drink"), and the "Thorn Drink" Bloody Harry's Recipe asks
for (1914 C.1, and 1915's own next sentence) is that same Drink
(docs/readings.md); ``drink_kind`` reads either name as the one kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.games.economy import Moment, PlayerKey
from bot.games.objects import ObjectType

DRINK_SUFFIX = " Drink"
# Other names the rules give one kind of Drink, by the name 1913 gives it.
DRINK_NAMES = {"Thorn Drink": "Thorn Seed Drink"}

BLOODY_HARRY = "Bloody Harry"
RAINBOW_POTION = "Rainbow Potion"
CONCOCTION = "Waterspout Concoction"


class Category(Enum):
    """What an object of these rules is, and so what may be done with it."""

    DRINK = "Drink"  # 1913: drunk for BAC and points
    POTION = "Potion"  # 1914: drunk for its Effects
    CONCOCTION = "Concoction"  # 1915: poured on a Plant


@dataclass(frozen=True)
class Item:
    """Object ``number``: a ``kind`` ("Tomato Drink", "Bloody Harry") held by ``holder``."""

    number: int
    kind: str
    category: Category
    holder: PlayerKey
    created: Moment

    def label(self) -> str:
        return f"{self.kind} {self.number}"


def drink_of(fruit_kind: str) -> str:
    """Rule 1913: the X Drink a Fruit of type X ferments into."""
    return f"{fruit_kind}{DRINK_SUFFIX}"


def drink_kind(name: str) -> str:
    """The kind a Drink's name means: "Thorn Drink" is the "Thorn Seed Drink"."""
    return DRINK_NAMES.get(name, name)


# How bot.games.objects sees them: rule 13's default, a player may give one e holds.
DRINK_OBJECT = ObjectType(name="Drink", plural="Drinks", rule="1913")
POTION_OBJECT = ObjectType(name="Potion", plural="Potions", rule="1914 A")
CONCOCTION_OBJECT = ObjectType(name=CONCOCTION, plural=f"{CONCOCTION}s", rule="1915")
OBJECT_TYPES = {
    Category.DRINK: DRINK_OBJECT,
    Category.POTION: POTION_OBJECT,
    Category.CONCOCTION: CONCOCTION_OBJECT,
}
