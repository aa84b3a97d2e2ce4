"""Timed events in rule 3 C's order, per-object timers and invariants (mechanic M6).

Rule 3 C (seed 004): "When multiple rules specify that an event takes place
at a certain time [...], those events occur in order of rule precedence,
with higher precedence events happening before lower precedence events."
Rule 33 orders by Chutzpah, then the lower rule number
(``bot.games.precedence``).  Events of one rule at one instant keep the
order of their sections in the rule's text (``section``), then of their
subjects (a Tomato's number).

A rule may also state something that must hold "at any time" ("If at any
time no Thorn Bushes exist, one is created in the Town Square", rule 1909):
an ``Invariant``, re-checked after every action and every event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from bot.games.dice import DrawSource
from bot.games.economy.moments import Moment
from bot.games.precedence import RuleCitation, precedence_key

State = TypeVar("State")


@dataclass(frozen=True)
class Happening:
    """What an action or event did, in words, under the rule that made it happen.

    ``kind`` names it for the code that acts on it outside these rules
    ("cards stained": rule 1908 B.2's Cards are kept elsewhere).
    """

    rule: str
    text: str
    kind: str = ""


@dataclass(frozen=True)
class TimedEvent:
    """One event a rule fixes at ``at``: ``kind`` names its handler, ``subject`` its object."""

    at: Moment
    rule: RuleCitation
    kind: str
    section: int = 0  # its place in the rule's text, for events of one rule at one instant
    subject: int = 0  # the number of the object it is about (a timer's), or 0

    def sort_key(self) -> tuple[Moment, tuple[int, int, int], int, int]:
        return (self.at, precedence_key(self.rule), self.section, self.subject)


def in_rule_order(events: Iterable[TimedEvent]) -> tuple[TimedEvent, ...]:
    """``events`` by instant, and those of one instant in rule 3 C's order."""
    return tuple(sorted(events, key=TimedEvent.sort_key))


@dataclass(frozen=True)
class Timer:
    """A per-object timer: ``length_ndays`` of Clock time after ``started`` (rule 3 A)."""

    started: Moment
    length_ndays: int

    @property
    def due(self) -> Moment:
        return self.started.later(self.length_ndays)

    def is_due(self, at: Moment) -> bool:
        return self.due <= at


Handler = Callable[[State, TimedEvent, DrawSource], tuple[State, tuple[Happening, ...]]]
Invariant = Callable[[State, Moment], tuple[State, tuple[Happening, ...]]]


def restore_invariants(
    state: State, at: Moment, invariants: Iterable[Invariant[State]]
) -> tuple[State, tuple[Happening, ...]]:
    """``state`` with every invariant made true again, and what that did."""
    happenings: list[Happening] = []
    for invariant in invariants:
        state, done = invariant(state, at)
        happenings.extend(done)
    return state, tuple(happenings)


def run_events(
    state: State,
    events: Iterable[TimedEvent],
    handlers: Mapping[str, Handler[State]],
    invariants: Iterable[Invariant[State]],
    draws: DrawSource,
) -> tuple[State, tuple[Happening, ...]]:
    """Run ``events`` in the order given, restoring the invariants after each.

    The caller orders them (``in_rule_order``); a test may give another order
    to show that the order decides.  Raises ``KeyError`` for an event without
    a handler (a defect).
    """
    checks = tuple(invariants)
    happenings: list[Happening] = []
    for event in events:
        state, done = handlers[event.kind](state, event, draws)
        happenings.extend(done)
        state, restored = restore_invariants(state, event.at, checks)
        happenings.extend(restored)
    return state, tuple(happenings)
