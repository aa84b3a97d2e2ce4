"""The rules of seed 004 the Gardens cite, and their numbers for rule 3 C's order."""

from __future__ import annotations

from bot.games.precedence import SEED_004, RuleCitation

RULE_GARDENS = "1902 A"
RULE_FRUITS = "1902 B"
RULE_TOWN_SQUARE = "1902 C"
RULE_BURNING = "1902 D"
RULE_VINES = "1908 A"
RULE_TOMATOES = "1908 B.1"
RULE_FOOD_FIGHTS = "1908 B.2"
RULE_FREE_THROWS = "1908 B.3"
RULE_THORNS = "1909"
RULE_PERMISSION = "636"

GARDENING = RuleCitation(SEED_004, 1902)
TOMATOES = RuleCitation(SEED_004, 1908)
THORNS = RuleCitation(SEED_004, 1909)

MAXIMUM_PLANTS = 10  # 1902 A: "at most 10 Plants in the Garden"
MAXIMUM_FRUIT_HELD = 5  # 1902 B: "if e already holds 5 fruits (because eir arms are full)"
MAXIMUM_FOREIGN_GARDENS = 3  # 1902 B: "more than three gardens e doesn't own"
BURNING_REWARD = 2  # 1902 D: "gives the player 2 tildex"
THORN_SCRATCH_POINTS = 8  # 1909: "loses 8 points per Thorn Bush in the Garden"
FRUIT_TIMER_NDAYS = 10  # 1908 B.1, 1909: one nweek of Clock time
FREE_THROW_NDAYS = 10  # 1908 B.3: "lost one nweek after the picking"
