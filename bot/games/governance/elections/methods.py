"""The Selection Methods rule 1823 C defines (seed 004), and naming one.

Rule 1823: "Only Selection Methods defined by the rules may be used in
Elections", and "If the Selection Method of an election is not specified, it
is assumed to be using the Borda Count" (C.1; rule 625 B says the same for
Ministerial Elections).
"""

from __future__ import annotations

from enum import Enum

from bot.games.errors import IllegalActionError

Choice = str
"""A choice in an Election, as the engine names it (for Ministries, a candidate)."""


class SelectionMethod(Enum):
    """One of rule 1823 C's Selection Methods; ``rule`` is the section defining it."""

    BORDA_COUNT = "Borda Count"
    APPROVAL_VOTING = "Approval Voting"
    INSTANT_RUNOFF = "Instant Runoff Voting"

    @property
    def rule(self) -> str:
        return RULE_OF_METHOD[self]

    @property
    def is_ranked(self) -> bool:
        """True when a legal vote ranks every choice (C.1 and C.3)."""
        return self is not SelectionMethod.APPROVAL_VOTING


RULE_OF_METHOD = {
    SelectionMethod.BORDA_COUNT: "1823 C.1",
    SelectionMethod.APPROVAL_VOTING: "1823 C.2",
    SelectionMethod.INSTANT_RUNOFF: "1823 C.3",
}

DEFAULT_METHOD = SelectionMethod.BORDA_COUNT

# The names a caller may write for each method, compared case- and space-insensitively.
METHOD_NAMES = {
    "borda": SelectionMethod.BORDA_COUNT,
    "borda count": SelectionMethod.BORDA_COUNT,
    "approval": SelectionMethod.APPROVAL_VOTING,
    "approval voting": SelectionMethod.APPROVAL_VOTING,
    "irv": SelectionMethod.INSTANT_RUNOFF,
    "instant runoff": SelectionMethod.INSTANT_RUNOFF,
    "instant runoff voting": SelectionMethod.INSTANT_RUNOFF,
    "instant-runoff voting": SelectionMethod.INSTANT_RUNOFF,
}


def method_named(text: str | None) -> SelectionMethod:
    """The method ``text`` names; the Borda Count when nothing is named.

    Raises ``IllegalActionError`` (rule "1823 C") for a method the rules do not define.
    """
    if text is None or not text.strip():
        return DEFAULT_METHOD
    key = " ".join(text.casefold().replace("(irv)", "").split())
    method = METHOD_NAMES.get(key)
    if method is None:
        known = "Borda Count, Approval Voting or Instant Runoff Voting (IRV)"
        raise IllegalActionError(
            f"{text!r} is not a Selection Method the rules define: use {known}",
            rule="1823 C",
        )
    return method
