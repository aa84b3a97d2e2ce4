"""Potions (rule 1914): Recipes as conversions, and Effects as lasting effects.

Rule 1914 A: "To create a Potion, a Player must Follow a Recipe by
destroying a number of each Ingredient in a Recipe equal to the Value
corresponding to that Ingredient [...] All Ingredients destroyed in this
manner must be owned by the destroying Player.  Players may not destroy
Ingredients for Potions unless they destroy all of the Ingredients for that
Potion, nor may they destroy more Ingredients than the Recipe calls for."
B: "When a Player drinks a Potion, the changes listed in that potions
Effects occur.  When a Potion is drunk, it is destroyed."  C: "No Potions
exist except those listed as subsections of this rule": Bloody Harry (C.1)
and Rainbow Potions (C.2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.games.drinks.items import (
    BLOODY_HARRY,
    RAINBOW_POTION,
    Category,
    Item,
    drink_kind,
)
from bot.games.drinks.rules import (
    FRUIT_TYPES_IN_THE_RULES,
    RAINBOW_NDAYS,
    RULE_BLOODY_HARRY,
    RULE_DRINKING_POTIONS,
    RULE_POTIONS,
    RULE_RAINBOW_POTIONS,
)
from bot.games.drinks.state import DrinksState, Outcome, RainbowWalk
from bot.games.economy import Conversion, Effect, Happening, Moment, Operation, PlayerKey, convert
from bot.games.errors import IllegalActionError

AV_POWER = "AvPower"  # rule 1912's Avatar stats, read through Effects.value_of
AV_SKILL = "AvSkill"
FOLLOWING_THE_RAINBOW = "Following the Rainbow"
RULE_POTION_LIST = "1914 C"


@dataclass(frozen=True)
class Ingredient:
    """``count`` Drinks of ``kind`` (None: any Drinks, each of another kind if ``different``)."""

    count: int
    kind: str | None
    different: bool = False


@dataclass(frozen=True)
class Recipe:
    """A Potion's Recipe, as rule 1914 C writes it (``text``), and its ``effects``."""

    potion: str
    text: str
    ingredients: tuple[Ingredient, ...]
    effects: str
    rule: str

    @property
    def count(self) -> int:
        return sum(ingredient.count for ingredient in self.ingredients)


BLOODY_HARRY_RECIPE = Recipe(
    BLOODY_HARRY,
    '"(1 Tomato Drink) (1 Thorn Drink)"',
    (Ingredient(1, "Tomato Drink"), Ingredient(1, drink_kind("Thorn Drink"))),
    "Your AvPower is increased by 2 until the end of the current nweek. "
    "Your AvSkill is decreased by 1 until the end of the current nweek.",
    RULE_BLOODY_HARRY,
)
RAINBOW_RECIPE = Recipe(
    RAINBOW_POTION,
    '"(The number of types of Fruit that exist, Different drinks)"',
    (Ingredient(len(FRUIT_TYPES_IN_THE_RULES), None, different=True),),
    "You are considered to be Following the Rainbow for one nday. When you are no longer "
    "Following the Rainbow, you find (get) a Pot of Gold.",
    RULE_RAINBOW_POTIONS,
)
RECIPES = {recipe.potion: recipe for recipe in (BLOODY_HARRY_RECIPE, RAINBOW_RECIPE)}


def recipe_named(potion: str) -> Recipe:
    """The Recipe of ``potion``; raises ``IllegalActionError`` for a Potion 1914 C lacks."""
    if potion not in RECIPES:
        raise IllegalActionError(
            f"there is no Potion called {potion}: no Potions exist except those listed in "
            f"rule 1914 ({', '.join(RECIPES)})",
            rule=RULE_POTION_LIST,
        )
    return RECIPES[potion]


# -- following a Recipe (1914 A) -----------------------------------------------


def lacking(recipe: Recipe, items: tuple[Item, ...]) -> str:
    """Why ``items`` are not exactly ``recipe``'s Ingredients, or "" when they are."""
    if len(items) != recipe.count:
        return (
            f"the Recipe {recipe.text} calls for {recipe.count} Ingredients, no fewer and no "
            f"more, and {len(items)} were named"
        )
    left = list(items)
    for ingredient in recipe.ingredients:
        if ingredient.kind is None:
            continue
        matching = [item for item in left if drink_kind(item.kind) == ingredient.kind]
        if len(matching) < ingredient.count:
            return f"the Recipe {recipe.text} calls for {ingredient.count} {ingredient.kind}"
        for item in matching[: ingredient.count]:
            left.remove(item)
    return _lacking_any_drinks(recipe, left)


def _lacking_any_drinks(recipe: Recipe, left: list[Item]) -> str:
    """The Ingredients without a kind ("Different drinks") checked against ``left``."""
    for ingredient in (i for i in recipe.ingredients if i.kind is None):
        chosen, left = left[: ingredient.count], left[ingredient.count :]
        if any(item.category is not Category.DRINK for item in chosen):
            return f"the Recipe {recipe.text} calls for Drinks only"
        if ingredient.different and len({drink_kind(i.kind) for i in chosen}) < len(chosen):
            return (
                f"the Recipe {recipe.text} calls for {ingredient.count} Drinks of different kinds"
            )
    return ""


def ingredients_for(state: DrinksState, player: PlayerKey, potion: str) -> tuple[int, ...]:
    """The Drinks ``player`` would destroy to follow ``potion``'s Recipe, oldest first
    ("I follow the Bloody Harry recipe"); raises ``IllegalActionError`` when e lacks some."""
    recipe = recipe_named(potion)
    drinks = list(state.held_by(player, Category.DRINK))
    chosen: list[Item] = []
    for ingredient in recipe.ingredients:
        matching = [
            item
            for item in drinks
            if item not in chosen
            and (ingredient.kind is None or drink_kind(item.kind) == ingredient.kind)
        ]
        if ingredient.different:
            kinds: dict[str, Item] = {}
            for item in matching:
                kinds.setdefault(drink_kind(item.kind), item)
            matching = list(kinds.values())
        if len(matching) < ingredient.count:
            what = ingredient.kind or ("different Drinks" if ingredient.different else "Drinks")
            raise IllegalActionError(
                f"the Recipe {recipe.text} calls for {ingredient.count} {what}, and you hold "
                f"{len(matching)}",
                rule=recipe.rule,
            )
        chosen.extend(matching[: ingredient.count])
    return tuple(item.number for item in chosen)


def follow_recipe(
    state: DrinksState,
    player: PlayerKey,
    potion: str,
    ingredients: tuple[int, ...],
    at: Moment,
) -> Outcome:
    """``player`` Follows ``potion``'s Recipe, destroying the Drinks ``ingredients``.

    A conversion: all the Ingredients or none, exactly as many as the Recipe
    calls for, each owned by ``player``; then e receives one Potion.  Raises
    ``IllegalActionError`` citing rule 1914 A or the Potion's section.
    """
    state.check_player(player)
    recipe = recipe_named(potion)
    items = _owned(state, player, ingredients)
    conversion = Conversion(recipe.rule, ingredients, ((recipe.potion, Category.POTION),))
    state = convert(
        state,
        conversion,
        (lambda _state: lacking(recipe, items),),
        lambda s, made: s.with_items(made, player, at),
    )
    text = (
        f"{player} followed the Recipe {recipe.text}, destroying "
        f"{', '.join(item.label() for item in items)}, and receives "
        f"{state.item(state.last_number()).label()}"
    )
    return Outcome(state, (Happening(recipe.rule, text),))


def _owned(state: DrinksState, player: PlayerKey, numbers: tuple[int, ...]) -> tuple[Item, ...]:
    """The objects ``numbers``, each once and each ``player``'s, or ``IllegalActionError``."""
    if len(set(numbers)) != len(numbers):
        raise IllegalActionError("an Ingredient is named twice", rule=RULE_POTIONS)
    items = tuple(state.item(number) for number in numbers)
    for item in items:
        if item.holder != player:
            raise IllegalActionError(
                f"all Ingredients destroyed must be owned by the destroying Player, and "
                f"{item.label()} is not yours",
                rule=RULE_POTIONS,
            )
    return items


# -- drinking a Potion (1914 B) ------------------------------------------------


def drink_potion(state: DrinksState, player: PlayerKey, number: int, at: Moment) -> Outcome:
    """``player`` drinks the Potion ``number`` e owns: its Effects occur, and it is destroyed.

    Raises ``IllegalActionError`` for another's Potion, or a Drink (``alcohol.drink``).
    """
    state.check_player(player)
    potion = state.item(number)
    if potion.holder != player or potion.category is not Category.POTION:
        raise IllegalActionError(f"you own no Potion {number}", rule=RULE_DRINKING_POTIONS)
    state = state.without_objects((number,))
    state, effects = POTION_EFFECTS[potion.kind](state, player, potion, at)
    text = f"{player} drank {potion.label()}: {effects}"
    return Outcome(state, (Happening(RULE_DRINKING_POTIONS, text),))


def _bloody_harry(
    state: DrinksState, player: PlayerKey, potion: Item, at: Moment
) -> tuple[DrinksState, str]:
    """1914 C.1: AvPower +2 and AvSkill -1 "until the end of the current nweek"."""
    ends = at.next_nweek_start()
    cause = f"drank {potion.label()}"
    for attribute, amount in ((AV_POWER, 2), (AV_SKILL, -1)):
        state = state.with_effect(
            Effect(player, attribute, Operation.ADD, amount, at, ends, RULE_BLOODY_HARRY, cause)
        )
    return (
        state,
        f"eir AvPower is increased by 2 and eir AvSkill decreased by 1 until {ends.display()}",
    )


def _rainbow(
    state: DrinksState, player: PlayerKey, potion: Item, at: Moment
) -> tuple[DrinksState, str]:
    """1914 C.2: Following the Rainbow for one nday of Clock time (rule 3 A); the Pot of
    Gold comes when e no longer Follows it (``timed``)."""
    ends = at.later(RAINBOW_NDAYS)
    status = Effect(
        player,
        FOLLOWING_THE_RAINBOW,
        Operation.SET,
        1,
        at,
        ends,
        RULE_RAINBOW_POTIONS,
        f"drank {potion.label()}",
    )
    walk = RainbowWalk(player, potion.number, ends)
    state = replace(state.with_effect(status), rainbow_walks=(*state.rainbow_walks, walk))
    return state, f"e is Following the Rainbow until {ends.display()}"


PotionEffects = Callable[[DrinksState, PlayerKey, Item, Moment], tuple[DrinksState, str]]
POTION_EFFECTS: dict[str, PotionEffects] = {
    BLOODY_HARRY: _bloody_harry,
    RAINBOW_POTION: _rainbow,
}
