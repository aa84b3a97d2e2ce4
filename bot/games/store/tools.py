"""Rule 1921's Tools: "I use my ...", dispatched by the object's type.

Rule 1921: "Certain objects may be designated Inventory Objects, which may
also be referred to as Tools.  Each Tool has a body of text associated with
it called its Effects; this describes what happens when a player uses the
Tool [...].  It is acceptable to have a subsection of an existing rule be
the Effects field of a given Tool."  The objects of the Store's list that
rule 1911 says "may be used" are Tools whose Effects are their entries
there; ``use`` carries out those Effects that are refereed here (the
Bunnies) and refuses the rest saying why:

* Smoke Bombs and Shieldkits are Arena Tools, and the Water Jet, Air Jet,
  Flame Thrower and Rock Arena weapons: rule 1912, "Using any object denoted
  as an Arena Tool.  Arena Tools may not be used except in this manner" (a
  Turn in the Arena), and the Arena is not refereed by the bot;
* a seed is planted, not used (a Thorn Seed, rule 1909; a Huge Seed, 1918 C);
* for a Sasquash or a drink no rule says what using one does.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.dice import DrawSource
from bot.games.economy import Moment, PlayerKey
from bot.games.errors import IllegalActionError
from bot.games.garden import GardenKey, GardenState
from bot.games.store.bunnies import use_fluffy_bunny, use_hungry_bunny, use_ninja_bunny
from bot.games.store.inventory import Article, Use
from bot.games.store.rules import RULE_ARENA, RULE_INVENTORIES
from bot.games.store.state import Outcome, StoreState, check_holder


@dataclass(frozen=True)
class OnPlant:
    """ "on Plant 4" (or "on Bob's Vine", resolved to its number)."""

    number: int


@dataclass(frozen=True)
class OnGarden:
    """ "on Bob's Garden", "on the Town Square" (None)."""

    garden: GardenKey


@dataclass(frozen=True)
class OnFruit:
    """ "to steal Bob's Lemon" (resolved to the Fruit's number)."""

    number: int


UseTarget = OnPlant | OnGarden | OnFruit | None


def use(
    store: StoreState,
    gardens: GardenState,
    player: PlayerKey,
    kind: str,
    target: UseTarget,
    at: Moment,
    draws: DrawSource,
) -> Outcome:
    """``player`` uses an object of type ``kind`` e holds on ``target``.

    Raises ``IllegalActionError`` (citing the rule that says why) when e
    holds none, the target does not suit the object, or the object is not
    used here.
    """
    check_holder(gardens, player)
    article = store.inventory.article(kind)
    if article.use is Use.ARENA:
        raise IllegalActionError(_arena_refusal(article), rule=RULE_ARENA)
    if article.use in (Use.PLANTED, Use.NONE):
        raise IllegalActionError(_misuse(article), rule=_misuse_rule(article))
    store.item_held(player, article.name)  # "you hold no ..." before a word on the target
    if article.use is Use.FLUFFY and isinstance(target, OnPlant):
        return use_fluffy_bunny(store, gardens, player, target.number, at)
    if article.use is Use.HUNGRY and isinstance(target, OnGarden):
        return use_hungry_bunny(store, gardens, player, target.garden, at, draws)
    if article.use is Use.NINJA and isinstance(target, OnFruit):
        return use_ninja_bunny(store, gardens, player, target.number, at)
    raise IllegalActionError(_misuse(article), rule=_misuse_rule(article))


def effects_of(store: StoreState, kind: str) -> str:
    """Rule 1921: a Tool's Effects, "what happens when a player uses the Tool"."""
    article = store.inventory.article(kind)
    return article.effects or f"no rule gives {article.plural} any Effects"


def _arena_refusal(article: Article) -> str:
    what = "an Arena Tool" if "Arena Tools" in article.effects else "an Arena weapon"
    return (
        f"a {article.name} is {what}, used only as a Turn of your Avatar in the Arena "
        '(rule 1912: "Arena Tools may not be used except in this manner"); the Arena is '
        "not refereed by the bot, so a person referees it"
    )


def _misuse(article: Article) -> str:
    if article.use is Use.FLUFFY:
        return "a Fluffy Bunny is used on a single Plant, in any Garden (say which Plant)"
    if article.use is Use.HUNGRY:
        return "a Hungry Bunny is used to raid a Garden (say which Garden)"
    if article.use is Use.NINJA:
        return "a Ninja Bunny is used to steal a Fruit (say which Fruit, and from whom)"
    if article.use is Use.PLANTED:
        return f"a {article.name} is planted, not used"
    return f"no rule says what using a {article.name} does (rule 1921: a Tool's Effects do)"


def _misuse_rule(article: Article) -> str:
    return RULE_INVENTORIES if article.use is Use.NONE else article.rule
