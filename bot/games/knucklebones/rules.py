"""Where each ruling of Knucklebones rests: seed 001's rule and its subrules.

Seed 001 (an Infinite Nomic proposal) adds a subrule "Knucklebones" to the
rule Actions and a rule "Knucklebones" with six subrules.  A refusal cites
them by the seed's own names, which a player can look up; the catalogue's
numbers are given beside each.
"""

from __future__ import annotations

RULE_ACTIONS = "Actions/Knucklebones"  # 001-0: a player can state eir intention to join
RULE_COMMENCEMENT = "Knucklebones/Commencement"  # 001-1: intents, pairing, start
RULE_FIELD = "Knucklebones/Field"  # 001-2: one 3x3 matrix per participant
RULE_TURN_ORDER = "Knucklebones/Turn Order"  # 001-3: determined randomly
RULE_TURN = "Knucklebones/Turn"  # 001-4: roll 1d6, choose a column, destroy, 24 hours
RULE_WINNING = "Knucklebones/Winning"  # 001-5: the end, scores, winner, prize
RULE_DICE = "Knucklebones/Dice"  # 001-6: Dice items (not refereed here)

# Rule Knucklebones/Winning: "The winner of a game of Knucklebones gains one
# Handy Pack and one Chip."  Neither object is defined in the seeds; the
# result only names them, for the engine's inventory to create.
PRIZE = ("Handy Pack", "Chip")
