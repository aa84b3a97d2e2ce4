"""What must hold "at any time" in the Gardens, restored after every action and event.

Rule 1909: "If at any time no Thorn Bushes exist, one is created in the Town
Square."  Rule 1918 A, where it is kept: "If at any time no Blood Ferns or
Blood Spores exist, a Blood Fern is created in the Town Square."
"""

from __future__ import annotations

from bot.games.economy import Happening, Invariant, Moment
from bot.games.garden.plants import BLOOD_FERN, BLOOD_SPORE, THORN_BUSH, TOWN_SQUARE
from bot.games.garden.rules import RULE_BLOOD_FERNS, RULE_THORNS
from bot.games.garden.state import GardenState


def a_thorn_bush_exists(
    state: GardenState, at: Moment
) -> tuple[GardenState, tuple[Happening, ...]]:
    """A Thorn Bush in the Town Square when none exists anywhere (rule 1909)."""
    if state.count_of(THORN_BUSH.name, anywhere=True):
        return state, ()
    state = state.with_plants(((THORN_BUSH.name, TOWN_SQUARE),), at)
    made = f"Plant {state.next_number - 1}"
    text = f"no Thorn Bushes existed, so one is created in the Town Square: {made}"
    return state, (Happening(RULE_THORNS, text),)


def a_blood_fern_or_spore_exists(
    state: GardenState, at: Moment
) -> tuple[GardenState, tuple[Happening, ...]]:
    """A Blood Fern in the Town Square when no Blood Fern nor Blood Spore exists (1918 A).

    Blood Spore Drinks (rule 1913) are not Blood Spores, so they do not count.
    """
    if not state.more_plants or state.count_of(BLOOD_FERN.name, anywhere=True):
        return state, ()
    if any(fruit.kind == BLOOD_SPORE.name for fruit in state.fruits):
        return state, ()
    state = state.with_plants(((BLOOD_FERN.name, TOWN_SQUARE),), at)
    made = f"Plant {state.next_number - 1}"
    text = (
        "no Blood Ferns or Blood Spores existed, so a Blood Fern is created in the "
        f"Town Square: {made}"
    )
    return state, (Happening(RULE_BLOOD_FERNS, text),)


# In rule order (3 C): 1909's Thorn Bush first, then 1918's Blood Fern.
INVARIANTS: tuple[Invariant[GardenState], ...] = (a_thorn_bush_exists, a_blood_fern_or_spore_exists)
