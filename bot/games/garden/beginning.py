"""The Gardens when a game begins with Vines already growing in the Town Square.

No rule creates the first Vine: rule 1908 B.1 makes Vines from Rotten
Tomatoes only, and only Vines bear Tomatoes.  A game that is to have
Tomatoes begins with some Vines in the Town Square (1902 C, owned by
nobody), as a game joined while Gardens already grew would have them
(docs/readings.md).
"""

from __future__ import annotations

from bot.games.economy import Happening, Moment, PlayerKey
from bot.games.garden.actions import Outcome, start
from bot.games.garden.plants import TOWN_SQUARE, VINE
from bot.games.garden.rules import RULE_VINES


def start_with_vines(
    players: tuple[PlayerKey, ...], at: Moment, vines: int, *, more_plants: bool = False
) -> Outcome:
    """``start``'s Gardens (a Garden per player, the Town Square's Thorn Bush of rule 1909,
    and with rule 1918 kept its Blood Fern), with ``vines`` Vines planted in the Town Square
    at ``at``."""
    started = start(players, at, more_plants=more_plants)
    if not vines:
        return started
    state = started.state.with_plants(((VINE.name, TOWN_SQUARE),) * vines, at)
    numbers = ", ".join(
        str(number) for number in range(state.next_number - vines, state.next_number)
    )
    grown = Happening(RULE_VINES, f"the Town Square holds {vines} Vine(s): Plant(s) {numbers}")
    return Outcome(state, (*started.happenings, grown))
