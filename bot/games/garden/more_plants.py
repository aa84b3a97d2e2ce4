"""Rule 1918 (More Plants, seed 004) in the Gardens: Lemon Trees imported, Sasquash Pods.

Blood Ferns and Blood Spores need nothing here: they are a type of Plant and
of Fruit (``plants``), a Spore is planted as any Fruit is (``actions.plant``)
and their "if at any time" is an invariant (``invariants``).  What is left:

* 1918 B: "any player may create [a Lemon Tree] in any garden by paying 60~
  (to import one from further south)";
* 1918 C: a Sasquash Pod is Young, then Mature one nweek after it is planted,
  and Hatches one nweek after that, "destroying it and giving its owner a
  Sasquash.  If no player owns it, it is simply destroyed."  The Sasquash is
  not a Plant or Fruit, so whoever keeps players' other objects gives it
  (``bot.games.store``).

Rule 1918 is kept only in a state with ``more_plants`` set.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.games.economy import Happening, Moment, Payment, PlayerKey, Timer, restore_invariants
from bot.games.errors import IllegalActionError
from bot.games.garden.actions import Outcome
from bot.games.garden.invariants import INVARIANTS
from bot.games.garden.plants import LEMON_TREE, SASQUASH_POD, GardenKey, Plant
from bot.games.garden.rules import (
    LEMON_TREE_IMPORT_PRICE,
    RULE_LEMON_TREES,
    RULE_MORE_PLANTS,
    RULE_SASQUASH,
    SASQUASH_HATCHES_NDAYS,
    SASQUASH_MATURES_NDAYS,
)
from bot.games.garden.state import GardenState
from bot.games.garden.texts import garden_name


def check_more_plants(state: GardenState) -> None:
    """Raises ``IllegalActionError`` unless rule 1918 is kept in these Gardens."""
    if not state.more_plants:
        raise IllegalActionError("rule 1918 (More Plants) is not kept here", rule=RULE_MORE_PLANTS)


def import_lemon_tree(
    state: GardenState, player: PlayerKey, garden: GardenKey, at: Moment
) -> Outcome:
    """``player`` pays 60~ and a Lemon Tree is created in ``garden`` (rule 1918 B).

    "Any player may create one in any garden": another player's or the Town
    Square too, without rule 636 permission, as with a Rotten Tomato (1908
    B.1).  The 60~ go "further south", out of the game: no one in it is paid.
    Raises ``IllegalActionError``.
    """
    check_more_plants(state)
    state.check_player(player)
    state.check_garden(garden)
    state = state.with_plants(((LEMON_TREE.name, garden),), at)
    text = (
        f"{player} paid {LEMON_TREE_IMPORT_PRICE}~ to import a Lemon Tree from further south "
        f"into {garden_name(garden)}: Plant {state.next_number - 1}"
    )
    payment = Payment(
        player, -LEMON_TREE_IMPORT_PRICE, "tildex", RULE_LEMON_TREES, "importing a Lemon Tree"
    )
    state, restored = restore_invariants(state, at, INVARIANTS)
    return Outcome(state, (Happening(RULE_LEMON_TREES, text), *restored), (payment,))


class PodStage(Enum):
    """Rule 1918 C: "Each Sasquash Pod can be in one of two stages, Young or Mature."""

    YOUNG = "Young"
    MATURE = "Mature"


def pod_stage(pod: Plant, at: Moment) -> PodStage:
    """Rule 1918 C: "Sasquash Pods are initially Young.  One nweek after a Sasquash Pod is
    planted, it becomes Mature" (one nweek of Clock time, rule 3 A)."""
    if pod.kind != SASQUASH_POD.name:
        raise ValueError(f"{pod.label()} is no Sasquash Pod")
    return (
        PodStage.MATURE if Timer(pod.planted, SASQUASH_MATURES_NDAYS).is_due(at) else PodStage.YOUNG
    )


def hatching_due(pod: Plant) -> Moment:
    """When ``pod`` Hatches: one nweek after it became Mature, two after it was planted."""
    return Timer(pod.planted, SASQUASH_HATCHES_NDAYS).due


def pods_hatching(state: GardenState, at: Moment) -> tuple[Plant, ...]:
    """The Sasquash Pods whose Hatching is due at or before ``at``, by number."""
    return tuple(
        plant
        for plant in state.plants
        if plant.kind == SASQUASH_POD.name and hatching_due(plant) <= at
    )


@dataclass(frozen=True)
class Hatching:
    """Pod ``pod`` Hatched at ``at``; ``owner`` gets a Sasquash (None: nobody, 1918 C)."""

    pod: int
    owner: PlayerKey | None
    at: Moment


def hatch(state: GardenState, pod_number: int) -> tuple[GardenState, Hatching, Happening]:
    """Pod ``pod_number`` Hatches: it is destroyed, and its owner (its Garden's, 1902 A) is
    to be given a Sasquash; in the Town Square "it is simply destroyed" (rule 1918 C)."""
    pod = state.plant(pod_number)
    at = hatching_due(pod)
    state = state.without_objects((pod.number,))
    if pod.garden is None:
        text = f"{pod.label()} in the Town Square Hatches; no player owns it, so it is destroyed"
    else:
        text = f"{pod.label()} in {garden_name(pod.garden)} Hatches: {pod.garden} gets a Sasquash"
    return state, Hatching(pod.number, pod.garden, at), Happening(RULE_SASQUASH, text)
