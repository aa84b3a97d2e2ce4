"""Transformer and triggers for grammar/elections.lark: rules 625 B-C, 1823 and 1272 (seed 004).

Ministries, candidates and methods are kept as written; the engine resolves
them (a Ministry by its name or its Minister's title, a player by rule 2's
abbreviations, a method with ``method_named``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer

POSSESSIVE_END = re.compile(r"['’]s?$")


@dataclass(frozen=True)
class WrittenMethod:
    """A Selection Method as the caller wrote it, told apart from the Ministry's name."""

    text: str


class ElectionsTransformer(CommonTransformer):
    """Calling, nominating, accepting, voting, the Moderator's pick, and Deputies."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def method(self, children: list[Token]) -> WrittenMethod:
        return WrittenMethod(" ".join(str(children[0]).split()))

    def ministry(self, children: list[str]) -> str:
        return children[0]

    def nominee(self, children: list[str | Token]) -> str:
        child = children[0]
        # "myself" is resolved by the engine to the author of the post.
        return "" if isinstance(child, Token) else child

    def choice(self, children: list[str]) -> str:
        return children[0]

    def ballot(self, children: list[str | Token]) -> tuple[str, ...]:
        # "nobody" is an empty vote, legal under Approval Voting (rule 1823 C.2).
        return tuple(child for child in children if not isinstance(child, Token))

    def call_election(self, children: list[str | WrittenMethod]) -> ActionReading:
        # The method may come before "election" or after the Ministry.
        ministry = next(child for child in children if isinstance(child, str))
        args: dict[str, object] = {"ministry": ministry}
        methods = [child.text for child in children if isinstance(child, WrittenMethod)]
        if methods:
            args["method"] = methods[0]
        return ActionReading("elections.call", args)

    def nominate(self, children: list[str]) -> ActionReading:
        nominee, ministry = children
        return ActionReading("elections.nominate", {"nominee": nominee, "ministry": ministry})

    def accept_nomination(self, children: list[str]) -> ActionReading:
        return ActionReading("elections.accept", {"ministry": children[0]} if children else {})

    def reject_nomination(self, children: list[str]) -> ActionReading:
        return ActionReading("elections.reject", {"ministry": children[0]} if children else {})

    def vote(self, children: list[object]) -> ActionReading:
        # The ballot is a tuple whichever of the two comes first.
        ballot = next(child for child in children if isinstance(child, tuple))
        ministry = next(child for child in children if isinstance(child, str))
        assert isinstance(ballot, tuple)
        return ActionReading("elections.vote", {"choices": list(ballot), "ministry": ministry})

    def pick(self, children: list[str]) -> ActionReading:
        choice, ministry = children
        return ActionReading("elections.pick", {"choice": choice, "ministry": ministry})

    def designate(self, children: list[str]) -> ActionReading:
        return ActionReading("elections.designate", _deputy_args(children))

    def revoke(self, children: list[str]) -> ActionReading:
        return ActionReading("elections.revoke", _deputy_args(children))

    def resign(self, children: list[str]) -> ActionReading:
        return ActionReading("elections.resign", {"ministry": children[0]} if children else {})


def _deputy_args(children: list[str]) -> dict[str, object]:
    # "Bob's Deputyhood": the possessive ending is not part of the name.
    args: dict[str, object] = {"deputy": POSSESSIVE_END.sub("", children[0])}
    if len(children) > 1:
        args["ministry"] = children[1]
    return args


METHODS = r"(?:borda(?:\s+count)?|approval(?:\s+voting)?|irv|instant[- ]runoff(?:\s+voting)?)"

AREA = Area(
    namespace="elections",
    transformer=ElectionsTransformer,
    triggers=(
        rf"(?:call|start|hold)\s+(?:an?\s+)?(?:{METHODS}\s+)?election",
        "nominate",
        r"(?:accept|reject|decline|refuse)\s+(?:my|the)\s+nomination",
        "vote",
        # Only with a Ministry after them: "I approve of this idea" is prose.
        r"(?:approve(?:\s+of)?|rank)\s+[^.;:!?]{1,80}?\bfor\s+(?:the\s+)?minist\w*",
        # The Moderator's pick names the Ministry: "I pick my battles" is prose.
        r"pick\s+[^.;:!?]{1,80}?\b(?:for|in)\s+(?:the\s+)?\w+",
        r"(?:designate|appoint)",
        r"revoke\s+(?:the\s+deputyhood|\S+\s+deputyhood|\S+\s+\S+\s+deputyhood)",
        r"resign\s+(?:as|the|my)",
    ),
    terminals={
        "METHOD": "a Selection Method (Borda Count, Approval Voting or IRV)",
        "MYSELF": '"myself"',
        "NOBODY": '"nobody"',
    },
    problems={
        "METHOD": (
            'I could not read "{word}" as a Selection Method'
            " (rule 1823 C defines Borda Count, Approval Voting and Instant Runoff Voting)"
        ),
    },
)
