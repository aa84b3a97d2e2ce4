"""The Bunnies of rule 1911: Fluffy, Hungry and Ninja.

Rule 1911: "A Fluffy Bunny may be used to destroy any single plant in any
garden.  Doing so destroys the Bunny."  "A Hungry Bunny may be used to raid
any garden.  Doing so destroys both a random plant in that garden and the
Bunny."  "A Ninja Bunny may be used to steal any fruit from any player or
plant at any time (this does not count as picking the fruit [...]).  A Ninja
Bunny will not steal fruit from a player or garden if said player or garden
has already been targeted by a Bunny that nweek [...].  Once a Ninja Bunny
has stolen a fruit, it fades into the mists and is destroyed."  Rule 1918 B:
"Lemon Trees may not be destroyed by Bunnies."

Rule 1911 itself permits a Bunny on any garden, so no rule 636 permission
is needed.  Every Bunny's target (the Garden it was used on, or the player
or Garden a Ninja stole from) is recorded for the nweek; after each use the
Gardens' invariants are restored (the last Thorn Bush eaten brings one back
to the Town Square, rule 1909).
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.dice import DrawSource
from bot.games.economy import Happening, Moment, PlayerKey, PossibleLaterError, restore_invariants
from bot.games.errors import IllegalActionError
from bot.games.garden import Fruit, GardenKey, GardenState, Plant
from bot.games.garden.invariants import INVARIANTS
from bot.games.garden.rules import RULE_LEMON_TREES
from bot.games.garden.texts import garden_name
from bot.games.store.inventory import FLUFFY_BUNNY, HUNGRY_BUNNY, NINJA_BUNNY
from bot.games.store.rules import RULE_STORE
from bot.games.store.state import (
    Item,
    Outcome,
    StoreState,
    Target,
    check_holder,
    garden_target,
    player_target,
)


def use_fluffy_bunny(
    store: StoreState, gardens: GardenState, player: PlayerKey, plant_number: int, at: Moment
) -> Outcome:
    """``player``'s Fluffy Bunny destroys Plant ``plant_number``, in any Garden, and itself.

    Raises ``IllegalActionError`` for a player without one, a Plant that does
    not exist or a Lemon Tree.
    """
    check_holder(gardens, player)
    bunny = store.item_held(player, FLUFFY_BUNNY.name)
    target = gardens.plant(plant_number)
    _check_edible(target)
    text = f"{player}'s {bunny.label()} destroys {_plant_text(gardens, target)}"
    return _eaten(store, gardens, bunny, target, at, text)


def use_hungry_bunny(
    store: StoreState,
    gardens: GardenState,
    player: PlayerKey,
    garden: GardenKey,
    at: Moment,
    draws: DrawSource,
) -> Outcome:
    """``player``'s Hungry Bunny raids ``garden``: a random Plant there is destroyed, and the
    Bunny.  The Plant is one recorded draw from ``draws`` among those a Bunny may destroy
    (not a Lemon Tree, 1918 B); a Garden with none is refused and the Bunny kept."""
    check_holder(gardens, player)
    bunny = store.item_held(player, HUNGRY_BUNNY.name)
    gardens.check_garden(garden)
    edible = tuple(plant for plant in gardens.plants_in(garden) if not plant.type.bunny_proof)
    if not edible:
        lemons = (
            " but Lemon Trees, which Bunnies may not destroy" if gardens.plants_in(garden) else ""
        )
        raise IllegalActionError(
            f"{garden_name(garden)} has no Plants{lemons}: there is nothing to raid",
            rule=RULE_STORE,
        )
    labels = [plant.label() for plant in edible]
    purpose = f"rule 1911: {player}'s {bunny.label()} raids {garden_name(garden)}, which Plant"
    chosen = edible[0] if len(edible) == 1 else edible[labels.index(draws.choice(labels, purpose))]
    text = (
        f"{player}'s {bunny.label()} raids {garden_name(garden)} and destroys "
        f"{_plant_text(gardens, chosen)}"
    )
    return _eaten(store, gardens, bunny, chosen, at, text)


def use_ninja_bunny(
    store: StoreState, gardens: GardenState, player: PlayerKey, fruit_number: int, at: Moment
) -> Outcome:
    """``player``'s Ninja Bunny steals the Fruit ``fruit_number`` for em, from a Plant or from
    the player holding it, and fades into the mists.

    Not picking: neither the five Fruit in one's arms, nor the three gardens,
    nor Thorns, nor a Free Throw apply (rules 1902 B, 1909, 1908 B.3).
    Raises ``PossibleLaterError`` when the player or Garden robbed was
    already a Bunny's target this nweek, ``IllegalActionError`` else.
    """
    check_holder(gardens, player)
    bunny = store.item_held(player, NINJA_BUNNY.name)
    fruit = gardens.fruit(fruit_number)
    if fruit.holder == player:
        raise IllegalActionError(f"you hold {fruit.label()} already", rule=RULE_STORE)
    target = _robbed(gardens, fruit)
    _check_not_smelled(store, target, at)
    gardens = gardens.with_fruit(replace(fruit, plant=None, holder=player))
    store = store.without_objects((bunny.number,)).with_target(target, at.nweek)
    text = (
        f"{player}'s {bunny.label()} steals {fruit.label()} from {target.name()} for "
        f"{player}, then fades into the mists and is destroyed"
    )
    return _finished(store, gardens, at, text)


def _robbed(gardens: GardenState, fruit: Fruit) -> Target:
    """A Fruit on a Plant is stolen from that Plant's Garden; a held one from its holder."""
    if fruit.holder is not None:
        return player_target(fruit.holder)
    return garden_target(gardens.garden_of(fruit))


def _check_not_smelled(store: StoreState, target: Target, at: Moment) -> None:
    if target in store.targeted_in(at.nweek):
        raise PossibleLaterError(
            f"a Ninja Bunny will not steal fruit from {target.name()}: {target.name()} has "
            "already been targeted by a Bunny this nweek (they can smell that another Bunny "
            "was there)",
            rule=RULE_STORE,
            again=f"a Ninja Bunny may steal from {target.name()} again",
            possible_from=at.next_nweek_start(),
        )


def _check_edible(plant: Plant) -> None:
    if plant.type.bunny_proof:
        raise IllegalActionError(
            f"{plant.label()} is a Lemon Tree, and Lemon Trees may not be destroyed by Bunnies",
            rule=RULE_LEMON_TREES,
        )


def _plant_text(gardens: GardenState, plant: Plant) -> str:
    """ "Plant 4 (Vine) in bob's Garden, with Tomato 7 on it": its Fruit goes with it."""
    fruit = gardens.fruit_on(plant.number)
    on_it = f", with {', '.join(f.label() for f in fruit)} on it" if fruit else ""
    return f"{plant.label()} in {garden_name(plant.garden)}{on_it}"


def _eaten(
    store: StoreState, gardens: GardenState, bunny: Item, plant: Plant, at: Moment, text: str
) -> Outcome:
    """``plant`` and ``bunny`` destroyed, the Garden recorded as targeted this nweek."""
    gardens = gardens.without_objects((plant.number,))
    store = store.without_objects((bunny.number,)).with_target(
        garden_target(plant.garden), at.nweek
    )
    return _finished(store, gardens, at, f"{text}; the Bunny is destroyed")


def _finished(store: StoreState, gardens: GardenState, at: Moment, text: str) -> Outcome:
    gardens, restored = restore_invariants(gardens, at, INVARIANTS)
    return Outcome(store, gardens, (Happening(RULE_STORE, text), *restored))
