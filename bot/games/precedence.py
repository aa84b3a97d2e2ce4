"""The order of simultaneous events: rule 3 C and rule 33 of seed 004.

Rule 3 C: "When multiple rules specify that an event takes place at a
certain time [...], those events occur in order of rule precedence, with
higher precedence events happening before lower precedence events."

Rule 33: "In the event of a conflict between two or more rules, the rule
with the highest Chutzpah takes precedence.  If two or more rules have equal
Chutzpah, the rule with the lowest identification number takes precedence
[...]  If the Chutzpah of a rule is not otherwise indicated, its Chutzpah is
assumed to be 1."

Seed 004 states the Chutzpah of a dozen rules; ``CHUTZPAH`` lists them.
The rules of the other seeds' games (Field Matches, seeds 000 and 003; A
Nomic, seed 002) carry no Chutzpah and are not rules of seed 004: their
events come after seed 004's, in the order of their own rule numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

SEED_004 = "004"
DEFAULT_CHUTZPAH = 1  # rule 33: "assumed to be 1"

# Rule number -> Chutzpah, as seed 004 gives them (each rule's "Attributes").
CHUTZPAH: dict[int, int] = {
    0: 8,
    2: 2,
    10: 10,
    13: 2,
    14: 2,
    19: 5,
    33: 2,
    206: 3,
    625: 2,
    636: 2,
    699: 11,
    1913: 3,
}


@dataclass(frozen=True, order=True)
class RuleCitation:
    """The rule that fixes when an event happens: its seed and its number."""

    seed: str
    number: int

    def __str__(self) -> str:
        return (
            f"rule {self.number}"
            if self.seed == SEED_004
            else f"seed {self.seed} rule {self.number}"
        )


def chutzpah(rule: RuleCitation) -> int:
    """Rule 33: the Chutzpah of ``rule`` (1 unless seed 004 says otherwise)."""
    if rule.seed != SEED_004:
        return DEFAULT_CHUTZPAH
    return CHUTZPAH.get(rule.number, DEFAULT_CHUTZPAH)


def precedence_key(rule: RuleCitation) -> tuple[int, int, int]:
    """A sort key putting the event of the rule with higher precedence first.

    Seed 004's rules first, higher Chutzpah first, then the lower rule
    number (rule 33); then the other seeds' rules by their numbers.
    """
    other_seed = 0 if rule.seed == SEED_004 else 1
    return (other_seed, -chutzpah(rule), rule.number)
