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

    def line_entry(self, children: list[object]) -> tuple[str, Target]:
        # "12: FOR": the target comes first on a ballot line.
        target, choice = children[0], children[-1]
        assert isinstance(choice, str) and isinstance(target, tuple)
        return (choice, target)

    def cfi_line_entry(self, children: list[object]) -> tuple[str, Target]:
        return self.line_entry(children)

    def ballot_line(self, children: list[object]) -> ActionReading:
        return self.vote(children)

    def cfi_ballot_line(self, children: list[object]) -> ActionReading:
        return self.cfi_vote(children)

    def word_entry(self, children: list[object]) -> tuple[str, Target]:
        return self.entry(children)

    def word_line(self, children: list[object]) -> ActionReading:
        return self.vote(children)

    def my_vote(self, children: list[object]) -> ActionReading:
        return self.vote([self.line_entry(children)])

    def abstain(self, children: list[object]) -> ActionReading:
        return self.vote([("abstain", child) for child in children if isinstance(child, tuple)])

    def cfi_abstain(self, children: list[object]) -> ActionReading:
        return self.cfi_vote([("abstain", child) for child in children if isinstance(child, tuple)])

    def cfi_target(self, children: list[Token]) -> Target:
        return ("cfi", int(str(children[-1])))

    def cfi_entry(self, children: list[object]) -> tuple[str, Target]:
        return self.entry(children)

    def cfi_vote(self, children: list[object]) -> ActionReading:
        """Votes on CFIs (rule 125): the same "each" list, for the CFI adapter."""
        reading = self.vote(children)
        return ActionReading("cfi.vote", reading.args)


# The words of VOTE_WORD in grammar/polls.lark: a ballot line starts a clause
# only with one of them, so "12 angry men" is no vote.
VOTE_WORDS = (
    r"(?:yes|y|ye|yea|yeah|yep|yup|yay|aye|ay|sure|pro|favou?r|for|approved?|agree"
    r"|affirmative|ok|okay|support|no|n|nay|nae|nah|nope|against|con|contra|opposed?"
    r"|disapprove|disagree|negative|abstain|abstaining|abstention|abs|present|neutral"
    r"|refused?|refusal|refusing|reject|rejected|true|false|shelve|shelf|shelved)(?![\w'’-])"
)
MARK = r"(?::|-|=|–|—|->|=>)"
TARGET = r"(?:(?:proposals?|props?|poll|cfi|cfj)\s*#?\s*|#\s*)?[1-9][0-9]*\s*"

AREA = Area(
    namespace="polls",
    transformer=PollsTransformer,
    triggers=(
        r"vote",
        r"abstain",
        # Ballot lines at the start of a line: "12: FOR", "Proposal 13 - AGAINST".
        # The vote word ends the line or the next entry follows: "2: Yes, I
        # agree with Bob" is a numbered reply, not a vote on proposal 2.
        # Only as the first words of a sentence ("(?<![^\n])"), never after "and".
        rf"(?<![^\n]){TARGET}{MARK}?\s*{VOTE_WORDS}(?=\s*(?:[.!]?\s*$|[,;&]\s*{TARGET}))",
        # The vote first: "FOR 12, 14", "Votes: AGAINST 13" (then a target).
        rf"(?<![^\n])(?:(?:my\s+)?(?:votes|ballot)\s*:\s*)?{VOTE_WORDS}\s*{MARK}?\s*{TARGET}"
        r"(?=[.!]?\s*$|\s*[,;&])",
        r"cast\s+(?:my|a)\s+(?:votes?|ballot)",
        rf"my\s+(?:vote|ballot)\s+(?:on|about|regarding)\s+{TARGET}",
    ),
    terminals={"VOTE_WORD": 'a vote such as "FOR", "AGAINST", "PRESENT" or "SHELVE"'},
    problems={},
)
