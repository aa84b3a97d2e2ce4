"""Error types shared by every game and by the parser.

Parsing, validating and applying are three calls with three error types, all
subclasses of one ``ActionError(ValueError)`` (after python-chess's
``InvalidMoveError`` / ``IllegalMoveError`` / ``AmbiguousMoveError``).

A rejected action is an *outcome*: the engine catches ``ActionError`` and turns
it into a ruling quoted back to the player.  Any other exception is a defect.
"""

from __future__ import annotations

from datetime import UTC, datetime


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


NEXT_CHECKING_PERIOD = "the next Checking Period"


class NotYetError(IllegalActionError):
    """An action the rules forbid now but allow later: the message says when.

    ``reason`` is why not now; ``again`` who may do what later ("Rob may
    move again"); ``from_instant`` when, or None for "the next Checking
    Period" (rule 3), which only the engine's Clock can date
    (``bot.engine.not_yet`` adds its nweek, nday and UTC time).
    """

    def __init__(
        self, reason: str, *, rule: str = "", again: str, from_instant: datetime | None = None
    ) -> None:
        when = NEXT_CHECKING_PERIOD if from_instant is None else utc_text(from_instant)
        super().__init__(f"{reason}; {again} from {when}", rule=rule)
        self.reason = reason
        self.again = again
        self.from_instant = from_instant


def utc_text(instant: datetime) -> str:
    """``2026-01-04 00:00 UTC``: how refusals write an instant."""
    return f"{instant.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
