"""The rules of seed 004 the Drinks cite, their numbers for rule 3 C's order, and amounts."""

from __future__ import annotations

from bot.games.precedence import SEED_004, RuleCitation

RULE_ALCOHOL = "1913"
RULE_POTIONS = "1914 A"
RULE_DRINKING_POTIONS = "1914 B"
RULE_BLOODY_HARRY = "1914 C.1"
RULE_RAINBOW_POTIONS = "1914 C.2"
RULE_WATERSPOUTS = "1915"

ALCOHOL = RuleCitation(SEED_004, 1913)  # Chutzpah 3 (rule 1913's own attribute)
POTIONS = RuleCitation(SEED_004, 1914)

FERMENTING_COST = 5  # 1913: "at any time by paying 5~"
DRINKING_POINTS = 10  # 1913: "e receives 10 points"
BLACKOUT_BAC = 10  # 1913: "Blacked Out if eir BAC equals or exceeds 10"
CHECK_FACES = 10  # 1913: "e must roll 1d10"
CONCOCTION_TILDEX = 30  # 1915: "at least 30~ [...] This destroys [...] the Tildex"
RAINBOW_NDAYS = 1  # 1914 C.2: "Following the Rainbow for one nday"

# 1914 C.2 asks for "The number of types of Fruit that exist": the types the ruleset
# defines, whether or not one is growing now (docs/readings.md).
FRUIT_TYPES_IN_THE_RULES = (
    "Tomato",  # 1908 A
    "Thorn Seed",  # 1909
    "Water Pod",  # 1915
    "Blood Spore",  # 1918 A
    "Lemon",  # 1918 B
)
