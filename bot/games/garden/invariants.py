"""What must hold "at any time" in the Gardens, restored after every action and event.

Rule 1909: "If at any time no Thorn Bushes exist, one is created in the Town
Square."
"""

from __future__ import annotations

from bot.games.economy import Happening, Invariant, Moment
from bot.games.garden.plants import THORN_BUSH, TOWN_SQUARE
from bot.games.garden.rules import RULE_THORNS
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


INVARIANTS: tuple[Invariant[GardenState], ...] = (a_thorn_bush_exists,)
