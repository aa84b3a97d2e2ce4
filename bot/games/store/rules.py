"""The rules of seed 004 the Store cites."""

from __future__ import annotations

from bot.games.precedence import SEED_004, RuleCitation

RULE_STORE = "1911"
RULE_INVENTORIES = "1921"
RULE_ARENA = "1912"
RULE_OBJECTS = "13"

MORE_PLANTS = RuleCitation(SEED_004, 1918)  # the Hatching's place in rule 3 C's order

DEFAULT_PRICE = 200  # 1911: "If an object's price isn't specified elsewhere [...] 200~"
STORE_HOLDER = "the Store"  # 1911: tildex are given "to the Store", a holder that is no player
