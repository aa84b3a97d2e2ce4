"""Error types shared by every game and by the parser.

Parsing, validating and applying are three calls with three error types, all
subclasses of one ``ActionError(ValueError)`` (after python-chess's
``InvalidMoveError`` / ``IllegalMoveError`` / ``AmbiguousMoveError``).

A rejected action is an *outcome*: the engine catches ``ActionError`` and turns
it into a ruling quoted back to the player.  Any other exception is a defect.
"""

from __future__ import annotations


class ActionError(ValueError):
    """An action that cannot be taken, with the reason in a player's words.

    ``rule`` names the rule the ruling rests on, e.g. ``"1639 D"`` (rule 1639,
    section D of seed 004) or ``"9"``; empty when no rule applies.
    """

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return self.message


class ActionSyntaxError(ActionError):
    """The text looks like an action but could not be read as one."""


class IllegalActionError(ActionError):
    """The action was understood but the rules or the state forbid it."""


class AmbiguousActionError(ActionError):
    """The action was understood but could mean more than one thing."""
