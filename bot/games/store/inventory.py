"""The Store's Inventory and prices (rule 1911), and what each object type does (1921).

Rule 1911: "The Store has a list called its Inventory; every entry in this
list is a type of object which the Store is implicitly empowered to create.
Every object type in the Store's Inventory has a price in tildex.  If an
object's price isn't specified elsewhere in the rules, then it has a price of
200~."  The list and its prices are settings: a rule change or an admin
record changes them (``StoreInventory.with_price`` and the rest), and the
rulings quote the list as it stands.

"Inventory" means two things in seed 004: the Store's list of types here,
and the Inventory Objects of rule 1921, "which may also be referred to as
Tools", each with "a body of text associated with it called its Effects".
An ``Article`` carries both: its place on the Store's list and, for a Tool,
its Effects, which rule 1921 lets be "a subsection of an existing rule" (its
entry in rule 1911).  Articles are also the types of players' other objects
that rules define outside the Store (a Huge Seed, a Sasquash, rule 1918),
with no price: those are not on the Inventory.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bot.games.errors import IllegalActionError
from bot.games.store.rules import DEFAULT_PRICE, RULE_STORE


class Use(Enum):
    """What "I use my ..." does with an object of a type (rule 1921's Effects)."""

    FLUFFY = "Fluffy Bunny"  # destroys a single Plant
    HUNGRY = "Hungry Bunny"  # raids a Garden
    NINJA = "Ninja Bunny"  # steals a Fruit
    ARENA = "Arena"  # an Arena Tool or weapon: used only as a Turn in the Arena (1912)
    PLANTED = "planted"  # a seed: planted, not used (1909, 1918 C)
    NONE = "none"  # no rule says what using one does


@dataclass(frozen=True)
class Article:
    """A type of object: ``price`` None is "not specified", so 200~ (rule 1911).

    ``fruit``: the Store creates it as a Fruit in the Gardens (a Thorn Seed,
    "defined by r1909").  ``free_to_new_players``: the Water Jet's "200~ or
    free to New Players".  ``effects``: rule 1921's Effects, in the rule's
    words.  ``on_inventory``: whether the Store sells it.
    """

    name: str
    plural: str
    rule: str
    use: Use
    effects: str = ""
    price: int | None = None
    fruit: bool = False
    free_to_new_players: bool = False
    on_inventory: bool = True

    @property
    def listed_price(self) -> int:
        """The price in tildex: the one specified, or 200~ (rule 1911)."""
        return DEFAULT_PRICE if self.price is None else self.price


FLUFFY_EFFECTS = (
    "A Fluffy Bunny may be used to destroy any single plant in any garden. "
    "Doing so destroys the Bunny."
)
HUNGRY_EFFECTS = (
    "A Hungry Bunny may be used to raid any garden. Doing so destroys both a random plant "
    "in that garden and the Bunny."
)
NINJA_EFFECTS = (
    "A Ninja Bunny may be used to steal any fruit from any player or plant at any time "
    "(this does not count as picking the fruit and so is not affected by side effects such "
    "as Thorn Bushes). A Ninja Bunny will not steal fruit from a player or garden if said "
    "player or garden has already been targeted by a Bunny that nweek (they can smell that "
    "another Bunny was there). Once a Ninja Bunny has stolen a fruit, it fades into the "
    "mists and is destroyed."
)
SMOKE_BOMB_EFFECTS = (
    "Smoke Bombs are Arena Tools. A Player with an Avatar may use a Smoke Bomb e holds on "
    "any Cube occupied by or adjacent to eir Avatar."
)
SHIELDKIT_EFFECTS = (
    "Shieldkits are Arena Tools. A Player with an Avatar may use a Shieldkit e holds on eir Avatar."
)

# Rule 1911's list, in its order and with its prices (the Air Jet and the Flame Thrower
# are listed without one, so they cost 200~).
THORN_SEED = Article(
    "Thorn Seed", "Thorn Seeds", "1909", Use.PLANTED, "These are defined by r1909.", 130, True
)
FLUFFY_BUNNY = Article(
    "Fluffy Bunny", "Fluffy Bunnies", RULE_STORE, Use.FLUFFY, FLUFFY_EFFECTS, 250
)
HUNGRY_BUNNY = Article(
    "Hungry Bunny", "Hungry Bunnies", RULE_STORE, Use.HUNGRY, HUNGRY_EFFECTS, 100
)
NINJA_BUNNY = Article("Ninja Bunny", "Ninja Bunnies", RULE_STORE, Use.NINJA, NINJA_EFFECTS, 350)
SMOKE_BOMB = Article("Smoke Bomb", "Smoke Bombs", RULE_STORE, Use.ARENA, SMOKE_BOMB_EFFECTS, 140)
SHIELDKIT = Article("Shieldkit", "Shieldkits", RULE_STORE, Use.ARENA, SHIELDKIT_EFFECTS, 200)
WATER_JET = Article(
    "Water Jet",
    "Water Jets",
    "1912",
    Use.ARENA,
    "A Water Jet is an Arena Weapon.",
    200,
    free_to_new_players=True,
)
AIR_JET = Article("Air Jet", "Air Jets", "1912", Use.ARENA, "An Air Jet is an Arena weapon.")
FLAME_THROWER = Article(
    "Flame Thrower", "Flame Throwers", "1912", Use.ARENA, "A Flame Thrower is an Arena weapon."
)
ROCK = Article("Rock", "Rocks", "1912", Use.ARENA, "A Rock is an Arena weapon.", 50)

# Rule 1918's objects that players hold and that are neither Plants nor Fruit.
HUGE_SEED = Article("Huge Seed", "Huge Seeds", "1918 C", Use.PLANTED, on_inventory=False)
SASQUASH = Article("Sasquash", "Sasquashes", "1918 C", Use.NONE, on_inventory=False)
# The drinks of rule 1913 that rule 1918 D mixes (made by fermenting, not sold).
LEMON_DRINK = Article("Lemon Drink", "Lemon Drinks", "1913", Use.NONE, on_inventory=False)
BLOOD_SPORE_DRINK = Article(
    "Blood Spore Drink", "Blood Spore Drinks", "1913", Use.NONE, on_inventory=False
)

RULE_1911_LIST = (
    THORN_SEED,
    FLUFFY_BUNNY,
    HUNGRY_BUNNY,
    NINJA_BUNNY,
    SMOKE_BOMB,
    SHIELDKIT,
    WATER_JET,
    AIR_JET,
    FLAME_THROWER,
    ROCK,
)
NOT_SOLD = (HUGE_SEED, SASQUASH, LEMON_DRINK, BLOOD_SPORE_DRINK)


@dataclass(frozen=True)
class StoreInventory:
    """Every type of object these rules know, the Store's Inventory among them, in order."""

    articles: tuple[Article, ...] = (*RULE_1911_LIST, *NOT_SOLD)

    def article(self, name: str) -> Article:
        """The type named ``name`` (singular or plural, any case); ``IllegalActionError`` else."""
        wanted = name.casefold()
        for article in self.articles:
            if wanted in (article.name.casefold(), article.plural.casefold()):
                return article
        raise IllegalActionError(f"no rule defines an object called {name!r}", rule=RULE_STORE)

    def on_sale(self, name: str) -> Article:
        """The Inventory's entry ``name``; raises ``IllegalActionError`` for another type."""
        article = self.article(name)
        if not article.on_inventory:
            raise IllegalActionError(
                f"{article.plural} are not on the Store's Inventory, so the Store cannot "
                "create one",
                rule=RULE_STORE,
            )
        return article

    def listed(self) -> tuple[Article, ...]:
        """The Store's Inventory, in its order."""
        return tuple(article for article in self.articles if article.on_inventory)

    # -- settings an admin record changes ------------------------------------

    def with_price(self, name: str, price: int | None) -> StoreInventory:
        """The entry ``name`` at ``price`` (None: unspecified, so 200~); ``ValueError`` if < 0."""
        if price is not None and price < 0:
            raise ValueError(f"a price of {price}~")
        return self._with(replace(self.on_sale(name), price=price))

    def with_listed(self, name: str, listed: bool) -> StoreInventory:
        """The type ``name`` added to the Inventory (at its price) or taken off it."""
        return self._with(replace(self.article(name), on_inventory=listed))

    def with_article(self, article: Article) -> StoreInventory:
        """A new type, or ``article`` replacing the type of its name."""
        names = [known.name for known in self.articles]
        if article.name not in names:
            return StoreInventory((*self.articles, article))
        return self._with(article)

    def _with(self, article: Article) -> StoreInventory:
        return StoreInventory(
            tuple(article if known.name == article.name else known for known in self.articles)
        )
