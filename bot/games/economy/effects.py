"""Lasting effects and the values they change (mechanic M4 of the catalogue).

Many rules change what something "is" for a while: a Stained player is
"treated for all ruleset purposes as though they had one less Permanent
Honor" (rule 1908 B.2), a drink lasts to the nweek's end (1913), a failed
check bars actions for the rest of a Checking Period (1913), doubled stats
last to the Checking Period's end (1916).  Each is an ``Effect``: whom it
changes, which attribute, how, from when and until when.  Every rule that
asks "what is X now" reads it through ``Effects.value_of``, so they all get
the same answer.

Effects apply in the order they began (then the order they were added), so
"doubled, then one more" and "one more, then doubled" are told apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.games.economy.moments import Moment


class Operation(Enum):
    """How an effect changes the value it is applied to."""

    ADD = "add"
    MULTIPLY = "multiply"
    SET = "set"

    def apply(self, value: int, amount: int) -> int:
        if self is Operation.ADD:
            return value + amount
        if self is Operation.MULTIPLY:
            return value * amount
        return amount


@dataclass(frozen=True)
class Effect:
    """``attribute`` of ``subject`` changed by ``operation`` and ``amount``.

    Active from ``begins`` up to ``ends`` (exclusive); ``ends`` None lasts
    until a rule removes it.  ``rule`` is the rule that creates it, ``cause``
    what did, in words ("hit by Alice's Tomato").
    """

    subject: str
    attribute: str
    operation: Operation
    amount: int
    begins: Moment
    ends: Moment | None
    rule: str
    cause: str = ""

    def __post_init__(self) -> None:
        if self.ends is not None and self.ends <= self.begins:
            raise ValueError(f"an effect ending at {self.ends} before it begins at {self.begins}")

    def active_at(self, at: Moment) -> bool:
        return self.begins <= at and (self.ends is None or at < self.ends)


@dataclass(frozen=True)
class Effects:
    """Every lasting effect in force or to come, in the order they were added."""

    items: tuple[Effect, ...] = ()

    def added(self, effect: Effect) -> Effects:
        return Effects((*self.items, effect))

    def active(self, subject: str, attribute: str, at: Moment) -> tuple[Effect, ...]:
        """The effects on ``subject``'s ``attribute`` at ``at``, in the order they apply."""
        found = [
            (effect.begins, position, effect)
            for position, effect in enumerate(self.items)
            if effect.subject == subject and effect.attribute == attribute and effect.active_at(at)
        ]
        return tuple(effect for _, _, effect in sorted(found, key=lambda entry: entry[:2]))

    def value_of(self, subject: str, attribute: str, at: Moment, base: int = 0) -> int:
        """``attribute`` of ``subject`` at ``at``: ``base`` changed by every active effect."""
        value = base
        for effect in self.active(subject, attribute, at):
            value = effect.operation.apply(value, effect.amount)
        return value

    def holds(self, subject: str, status: str, at: Moment) -> bool:
        """Whether ``subject`` has ``status`` (a flag such as Stained) at ``at``."""
        return self.value_of(subject, status, at) != 0

    def lasts_until(self, subject: str, status: str, at: Moment) -> Moment | None:
        """When the effects giving ``subject`` ``status`` at ``at`` have all ended; None: never."""
        endings = [effect.ends for effect in self.active(subject, status, at)]
        if not endings or any(end is None for end in endings):
            return None
        return max(end for end in endings if end is not None)

    def without_expired(self, at: Moment) -> Effects:
        """The effects still in force or to come at ``at``: those ended are forgotten."""
        return Effects(tuple(e for e in self.items if e.ends is None or at < e.ends))

    def without_subject(self, subject: str) -> Effects:
        """Every effect on ``subject`` removed (a forfeit, rule 14)."""
        return Effects(tuple(effect for effect in self.items if effect.subject != subject))
