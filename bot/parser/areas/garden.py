"""Transformer and triggers for grammar/garden.lark: Gardens, Tomatoes and Thorns (seed 004).

Buying a Thorn Seed (rule 1911), planting (1908 B.1, 1909), watering
(1902 A), picking, also slowly (1902 B, 1909), burning (1902 D), throwing
and Free Throws (1908 B.2, B.3), rule 636's permission to pick, the Drinks'
and the Store's actions, and More Plants' (1918: importing a Lemon Tree,
Alchemy, planting a Huge Seed).  Names
and Fruit are kept as written; the engine resolves them
(``bot.engine.games.garden``).
"""

from __future__ import annotations

from collections.abc import Sequence

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer

TOWN_SQUARE = ""  # how the args name the Town Square (rule 1902 C): no owner
COUNT_WORDS = {
    word: number
    for number, word in enumerate(
        ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), 1
    )
}


def _words(token: Token) -> str:
    """``Rotten  tomato`` as ``Rotten Tomato``: the kind as the rules spell it."""
    return " ".join(word.capitalize() for word in str(token).split())


class GardenTransformer(CommonTransformer):
    """Builds ``garden.buy``, ``garden.plant``, ``garden.water``, ``garden.pick``,
    ``garden.burn``, ``garden.throw``, ``garden.claim`` and ``garden.permit``."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def own_garden(self, children: list[Token]) -> dict[str, object]:
        return {"own": True}

    def players_garden(self, children: list[Token]) -> dict[str, object]:
        return {"owner": str(children[0])[:-2]}  # "Bob's" and "Bob’s" alike

    def town_square(self, children: list[Token]) -> dict[str, object]:
        return {"owner": TOWN_SQUARE}

    def lasting(self, children: list[Token]) -> str:
        return " ".join(str(children[-1]).lower().split())

    def buy(self, children: list[Token]) -> ActionReading:
        first = str(children[0]).split()[0].lower()
        count = COUNT_WORDS.get(first, int(first) if first.isdigit() else 1)
        return ActionReading("garden.buy", {"kind": "Thorn Seed", "count": count})

    def plant(self, children: list[object]) -> ActionReading:
        args = _fruit_args(children)
        args["garden"] = _garden(children, default={"own": True})
        return ActionReading("garden.plant", args)

    def water(self, children: list[object]) -> ActionReading:
        return ActionReading("garden.water", {"garden": _garden(children)})

    def pay(self, children: list[object]) -> ActionReading:
        amount = next(
            str(c) for c in children if isinstance(c, Token) and c.type.endswith("TILDEX")
        )
        tildex = int("".join(ch for ch in amount if ch.isdigit()))
        return ActionReading("garden.water", {"garden": _garden(children), "amount": tildex})

    def pick(self, children: list[object]) -> ActionReading:
        args = _fruit_args(children)
        args.update(garden=_garden(children), slowly=False)
        return ActionReading("garden.pick", args)

    def pick_slowly(self, children: list[object]) -> ActionReading:
        args = _fruit_args(children)
        args.update(garden=_garden(children), slowly=True)
        return ActionReading("garden.pick", args)

    def burn(self, children: list[object]) -> ActionReading:
        kind, number = _kind_and_number(children, "PLANT")
        garden = _garden(children, default={"own": True})
        return ActionReading("garden.burn", {"kind": kind, "number": number, "garden": garden})

    def throw(self, children: list[object]) -> ActionReading:
        args = _fruit_args(children)
        args["target"] = str(children[-1])
        return ActionReading("garden.throw", args)

    def claim(self, children: list[object]) -> ActionReading:
        return ActionReading("garden.claim", {"target": str(children[-1])})

    def withdraw(self, children: list[object]) -> ActionReading:
        return ActionReading("garden.withdraw", {"grantee": str(children[0])})

    def permit(self, children: list[object]) -> ActionReading:
        lasting = children[1] if len(children) > 1 else ""
        return ActionReading("garden.permit", {"grantee": str(children[0]), "lasting": lasting})

    # "Bob may pick from my Garden this nweek": the same permission, grantee first.
    permit_may = permit


class EconomyTransformer(GardenTransformer):
    """Adds the Drinks' and the Store's actions (rules 1911, 1913-1915, 13):
    ``garden.ferment``, ``garden.drink``, ``garden.mix``, ``garden.pour``,
    ``garden.buy`` of any Inventory type and ``garden.use``; and rule
    1918's ``garden.import`` (a Lemon Tree), ``garden.plant_huge_seed`` and Alchemy's
    ``garden.mix`` of a Huge Seed."""

    def players_plant(self, children: list[Token]) -> dict[str, object]:
        kind, number = _kind_and_number(children, "PLANT")
        return {"owner": str(children[0])[:-2], "kind": kind, "number": number}

    def own_plant(self, children: list[Token]) -> dict[str, object]:
        kind, number = _kind_and_number(children, "PLANT")
        return {"own": True, "kind": kind, "number": number}

    def town_square_plant(self, children: list[Token]) -> dict[str, object]:
        kind, number = _kind_and_number(children, "PLANT")
        return {"owner": TOWN_SQUARE, "kind": kind, "number": number}

    def numbered_plant(self, children: list[Token]) -> dict[str, object]:
        return {"number": int(children[-1]), "kind": "Plant"}

    def players_fruit(self, children: list[Token]) -> dict[str, object]:
        kind, number = _kind_and_number(children, "FRUIT")
        return {"owner": str(children[0])[:-2], "kind": kind, "number": number}

    def numbered_fruit(self, children: list[Token]) -> dict[str, object]:
        kind, number = _kind_and_number(children, "FRUIT")
        return {"kind": kind, "number": number}

    def ferment(self, children: list[object]) -> ActionReading:
        return ActionReading("garden.ferment", _fruit_args(children))

    def drink(self, children: list[object]) -> ActionReading:
        kind, number = _kind_and_number(children, "DRINK")
        return ActionReading("garden.drink", {"kind": kind, "number": number})

    def mix(self, children: list[object]) -> ActionReading:
        kind, _number = _kind_and_number(children, "MIXTURE")
        return ActionReading("garden.mix", {"kind": kind})

    def mix_made(self, children: list[Token]) -> ActionReading:
        made = str(children[0]).split(maxsplit=2)[-1]  # "make a Bloody Harry": its Potion
        return ActionReading("garden.mix", {"kind": " ".join(w.capitalize() for w in made.split())})

    def mix_alchemy(self, children: list[object]) -> ActionReading:
        return ActionReading("garden.mix", {"kind": "Huge Seed"})  # rule 1918 D's product

    def import_tree(self, children: list[object]) -> ActionReading:
        garden = _garden(children, default={"own": True})
        return ActionReading("garden.import", {"kind": "Lemon Tree", "garden": garden})

    def plant_huge_seed(self, children: list[object]) -> ActionReading:
        _kind, number = _kind_and_number(children, "FRUIT")
        garden = _garden(children, default={"own": True})
        return ActionReading("garden.plant_huge_seed", {"number": number, "garden": garden})

    def use_on_jet(self, children: list[object]) -> ActionReading:
        return ActionReading("garden.use_on_jet", {"kind": "Lemon Drink"})

    def pour(self, children: list[object]) -> ActionReading:
        _kind, number = _kind_and_number(children, "CONCOCTION")
        target = _garden(children)
        return ActionReading("garden.pour", {"number": number, "plant": target})

    def buy_item(self, children: list[Token]) -> ActionReading:
        words = str(children[0]).split()
        count = COUNT_WORDS.get(words[0].lower(), int(words[0]) if words[0].isdigit() else 0)
        kind_words = words[1:] if count or words[0].lower() in ("a", "an") else words
        kind = " ".join(word.capitalize() for word in kind_words)
        return ActionReading("garden.buy", {"kind": kind, "count": count or 1})

    def use(self, children: list[object]) -> ActionReading:
        return self._use(children, "plant")

    def use_on_garden(self, children: list[object]) -> ActionReading:
        return self._use(children, "garden")

    def use_to_steal(self, children: list[object]) -> ActionReading:
        return self._use(children, "fruit")

    def _use(self, children: list[object], on: str) -> ActionReading:
        kind, number = _kind_and_number(children, "BUNNY")
        args = {"kind": kind, "number": number, "on": on, "target": _garden(children)}
        return ActionReading("garden.use", args)


def _kind_and_number(children: Sequence[object], terminal: str) -> tuple[str, int | None]:
    kind, number = "", None
    for child in children:
        if isinstance(child, Token) and child.type.endswith(terminal):
            kind = _words(child)
        elif isinstance(child, Token) and child.type.endswith("FRUIT_NUMBER"):
            number = int(child)
    return kind, number


def _fruit_args(children: list[object]) -> dict[str, object]:
    kind, number = _kind_and_number(children, "FRUIT")
    rotten = kind.startswith("Rotten ")
    return {"kind": kind.removeprefix("Rotten ") or "", "rotten": rotten, "number": number}


def _garden(children: list[object], default: dict[str, object] | None = None) -> dict[str, object]:
    for child in children:
        if isinstance(child, dict):
            return dict(child)
    return dict(default or {})


# Rule 13: the objects of the Gardens, the Drinks and the Store a player holds, whose
# gifts ("I give my Huge Seed to Bob", grammar/give.lark) this game judges as
# ``garden.give`` (``Area.gifts``).  Plants are not among them: they "must always be in
# gardens" (1902 A), and a gift of one is refused by its declared type.
FRUIT_NOUNS = r"(?:rotten\s+)?(?:tomato|thorn\s+seed|lemon|blood\s+spore|water\s+pod)"
GIFTS = (
    rf"{FRUIT_NOUNS}(?:\s+drink)?|thorn\s+drink|bloody\s+harry|rainbow\s+potion"
    r"|waterspout\s+concoction|(?:fluffy|hungry|ninja)\s+bunny|smoke\s+bomb|shieldkit"
    r"|water\s+jet|air\s+jet|flame\s*thrower|rock|huge\s+seed|sasquash"
)
# "Bob may pick from my Garden": a trigger holding the grantee's name, capitalised and
# not "I" ("I think Bob may pick ..." is no permission), so it anchors only as the first
# words of a line (bot.parser.clauses).
# Pronouns are conversation ("You may pick from my Garden"), not a grantee's name.
GRANTEE_WORD = r"(?-i:(?!(?:I|You|He|She|It|We|They)\b)[A-Z][\w'’\-]*)"
MAY_PICK = rf"{GRANTEE_WORD}(?:\s+{GRANTEE_WORD}){{0,2}}\s+may\s+pick\s+from\s+my\s+garden"

AREA = Area(
    namespace="garden",
    transformer=EconomyTransformer,
    triggers=(
        r"buy",
        r"purchase",
        r"plant",
        r"water",
        r"pay",
        r"pick",
        r"burn",
        r"throw",
        r"claim",
        r"permit",
        r"allow",
        r"withdraw",
        r"revoke",
        r"ferment",
        r"drink",
        r"mix",
        r"brew",
        r"follow",
        r"pour",
        r"use",
        r"import",
        r"make",
        MAY_PICK,
    ),
    terminals={
        "SEEDS": "Thorn Seeds, with how many (a Thorn Seed, two Thorn Seeds)",
        "FRUIT": "a Fruit (Tomato, Rotten Tomato, Thorn Seed, Lemon, Blood Spore)",
        "PLANT": "a Plant (Vine, Thorn Bush, Plant)",
        "FRUIT_NUMBER": "an object's number (Tomato 12)",
        "PERIOD": "nweek, nday or Checking Period",
        "TILDEX": "an amount of tildex (3~)",
        "OWNER": "the owner's name with 's (Bob's)",
        "SQUARES": "the Town Square's",
        "DRINK": "a Drink or Potion (Tomato Drink, Bloody Harry)",
        "MIXTURE": "a Potion, Concoction or Huge Seed (Bloody Harry, Huge Seed)",
        "MADE_MIXTURE": "a Potion or Concoction made (make a Bloody Harry)",
        "LEMON_DRINKS": "Lemon Drinks, with how many (two Lemon Drinks)",
        "JET": "a Jet of Water (this Jet)",
        "ALCHEMY": "a Thorn Seed, a Lemon Drink and a Blood Spore Drink (rule 1918 D)",
        "CONCOCTION": "a Waterspout Concoction",
        "ITEMS": "objects on the Store's Inventory, with how many (2 Smoke Bombs)",
        "BUNNY": "a Bunny (Fluffy, Hungry or Ninja)",
    },
    problems={},
    gifts=GIFTS,
)
