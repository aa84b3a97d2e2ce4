"""What the parser returns: actions read from a post, and sentences it could not read.

These are values, not exceptions (STYLE.md, rule of thumb 2): a post that
contains a garbled action still yields every action that was understood, plus
one ``NotUnderstood`` per garbled clause for the reply to quote back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from bot.games.errors import ActionSyntaxError


def _frozen_mapping(mapping: Mapping[str, object]) -> Mapping[str, object]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class ParsedAction:
    """One game action as the player stated it (rule 1896, seed 004).

    ``action`` is a dotted name such as ``'go.place'``; ``args`` holds its
    JSON-able targets, e.g. ``{'point': 'G3'}``.  ``text`` is the sentence the
    action was read from.  A ``conditional`` action is reported but, by rule
    1896, not taken; ``repeat`` is how many times the player said to do it.
    ``withheld`` says why the referee's limits on one post leave the action
    untaken (``bot.parser.limits``), or is empty.
    """

    action: str
    args: Mapping[str, object] = field(hash=False)
    text: str
    conditional: bool = False
    repeat: int = 1
    withheld: str = ""

    def __post_init__(self) -> None:
        # Frozen means frozen: callers must not be able to edit args in place.
        object.__setattr__(self, "args", _frozen_mapping(self.args))

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "action": self.action,
            "args": dict(self.args),
            "text": self.text,
        }
        if self.conditional:
            document["conditional"] = True
        if self.repeat > 1:
            document["repeat"] = self.repeat
        if self.withheld:
            document["withheld"] = self.withheld
        return document


@dataclass(frozen=True)
class NotUnderstood:
    """A sentence that starts like an action but could not be read as one.

    ``column`` is 1-based in ``text``; ``expected`` names, in a player's
    words, what could have come next; ``message`` explains the problem and
    points at it with a caret line.  ``readings`` are the actions an
    ambiguous sentence could state ("I roll 2d6 or 3d6"); none is taken.
    """

    text: str
    column: int
    expected: tuple[str, ...]
    message: str
    # An ambiguous sentence: each action it could state, none of them taken.
    readings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "text": self.text,
            "column": self.column,
            "expected": list(self.expected),
            "message": self.message,
        }
        if self.readings:
            document["readings"] = list(self.readings)
        return document

    def as_error(self) -> ActionSyntaxError:
        """The same problem as the shared syntax-error type, for callers that raise."""
        return ActionSyntaxError(self.message, rule="1896")


@dataclass(frozen=True)
class ParseResult:
    """Everything read from one post, each part in the order written.

    ``unread`` is the sentence where reading stopped because the post had
    reached the limit of clauses read (``parse_post``'s ``limit``); nothing
    from it on was read.  Empty when the whole post was read.
    """

    actions: tuple[ParsedAction, ...]
    not_understood: tuple[NotUnderstood, ...]
    unread: str = ""

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "actions": [action.to_json() for action in self.actions],
            "not_understood": [problem.to_json() for problem in self.not_understood],
        }
        if self.unread:
            document["unread"] = self.unread
        return document
