"""Transformer and triggers for grammar/polls.lark: votes on polls (rules 15 and 23).

One "I vote ..." clause may cast several votes ("FOR 12 and 13, AGAINST
14"); the reading carries them as ``each``, and ``bot.parser.post`` makes one
action per vote so that each gets its own ruling, in the order written
(rule 1896).
"""

from __future__ import annotations

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer

Target = tuple[str, int]  # ("proposal", 12), ("poll", 3) or ("cfi", 2)


class PollsTransformer(CommonTransformer):
    """Rule 15's votes and rule 23's Shelve, as written: the poll reads the word."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def word_choice(self, children: list[Token]) -> str:
        return str(children[0])

    def for_choice(self, children: list[Token]) -> str:
        return "for"

    def in_favour(self, children: list[Token]) -> str:
        return "in favour"

    def to_choice(self, children: list[Token]) -> str:
        return str(children[-1])

    def proposal_target(self, children: list[Token]) -> Target:
        return ("proposal", int(str(children[-1])))

    def poll_target(self, children: list[Token]) -> Target:
        return ("poll", int(str(children[-1])))

    def entry(self, children: list[object]) -> tuple[str, Target]:
        choice, target = children[0], children[-1]
        assert isinstance(choice, str) and isinstance(target, tuple)
        return (choice, target)

    def vote(self, children: list[object]) -> ActionReading:
        votes: list[dict[str, object]] = []
        choice = ""
        for child in children:
            if isinstance(child, tuple) and isinstance(child[1], tuple):
                choice, target = child
            elif isinstance(child, tuple):
                target = child
            else:
                continue
            votes.append({"vote": choice, "on": target[0], "number": target[1]})
        return ActionReading("polls.vote", {"each": votes})

    def cfi_target(self, children: list[Token]) -> Target:
        return ("cfi", int(str(children[-1])))

    def cfi_entry(self, children: list[object]) -> tuple[str, Target]:
        return self.entry(children)

    def cfi_vote(self, children: list[object]) -> ActionReading:
        """Votes on CFIs (rule 125): the same "each" list, for the CFI adapter."""
        reading = self.vote(children)
        return ActionReading("cfi.vote", reading.args)


AREA = Area(
    namespace="polls",
    transformer=PollsTransformer,
    triggers=(r"vote",),
    terminals={"VOTE_WORD": 'a vote such as "FOR", "AGAINST", "PRESENT" or "SHELVE"'},
    problems={},
)
