"""The Gardens, the Drinks and the Store of seed 004 as one state, pure.

``bot.games.garden``, ``bot.games.drinks`` and ``bot.games.store`` each keep
objects of one number series; ``state.Economy`` holds the three over one
GardenState, runs their timed events in one rule 3 C order and gives any of
their objects (rule 13).  The engine (``bot.engine.games.garden``) judges
every action of the three against it.
"""

from bot.games.garden_economy.state import (
    Economy,
    EconomyOutcome,
    give_object,
    mix_huge_seed,
    next_timer,
    run_timed,
)

__all__ = [
    "Economy",
    "EconomyOutcome",
    "give_object",
    "mix_huge_seed",
    "next_timer",
    "run_timed",
]
