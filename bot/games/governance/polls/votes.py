"""Reading a vote word: Yes, No, Abstain and their obvious variants (rule 15, seed 004).

Rule 15: a vote "may be Yes, No, or Abstain (or some obvious variant on one of
these words, so 'sure','nay',etc. work; but if it's not obvious what the vote
means, it should be interpreted as an Abstain vote)".  Rule 125 adds, for a
CFI's poll only, the option Refused and the words True and False for Yes and
No.  Which words a poll accepts is its ``VoteOptions``.

The caller hands over the vote text alone (comments in ``[[ ]]``, rule 8, and
the surrounding action are the parser's business).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class Choice(Enum):
    """What a vote counts as."""

    YES = "Yes"
    NO = "No"
    ABSTAIN = "Abstain"
    REFUSED = "Refused"


@dataclass(frozen=True)
class VoteOptions:
    """The choices a poll offers beyond Yes, No and Abstain, and its extra words.

    ``refused`` is rule 125's "additional voting option of Refused";
    ``true_false`` is rule 125's "a voter may use the word 'True' to mean Yes
    and the word 'False' to mean No".
    """

    refused: bool = False
    true_false: bool = False

    @property
    def choices(self) -> frozenset[Choice]:
        base = {Choice.YES, Choice.NO, Choice.ABSTAIN}
        return frozenset(base | {Choice.REFUSED} if self.refused else base)


STANDARD_OPTIONS = VoteOptions()
CFI_OPTIONS = VoteOptions(refused=True, true_false=True)


@dataclass(frozen=True)
class Vote:
    """A vote as read: the choice it counts as, the text, and why it was read so.

    ``obvious`` is False when the text was not an obvious variant and was
    therefore read as Abstain (rule 15); ``reason`` then says why, in words
    to quote back to the voter.
    """

    choice: Choice
    text: str
    obvious: bool
    reason: str


# Rule 15's "obvious variants".  Whole phrases only: "sure" is Yes but "not
# sure" is not an obvious anything, so it falls through to Abstain.
VARIANTS: dict[str, Choice] = {
    **dict.fromkeys(
        (
            "yes",
            "y",
            "ye",
            "yea",
            "yeah",
            "yep",
            "yup",
            "yay",
            "aye",
            "ay",
            "sure",
            "for",
            "pro",
            "in favor",
            "in favour",
            "favor",
            "favour",
            "approve",
            "approved",
            "agree",
            "affirmative",
            "ok",
            "okay",
            "support",
            "+1",
        ),
        Choice.YES,
    ),
    **dict.fromkeys(
        (
            "no",
            "n",
            "nay",
            "nae",
            "nah",
            "nope",
            "against",
            "con",
            "contra",
            "oppose",
            "opposed",
            "disapprove",
            "disagree",
            "negative",
            "-1",
        ),
        Choice.NO,
    ),
    **dict.fromkeys(
        ("abstain", "abstaining", "abstention", "abs", "present", "neutral", "no opinion"),
        Choice.ABSTAIN,
    ),
    **dict.fromkeys(("refused", "refuse", "refusal", "refusing"), Choice.REFUSED),
}
TRUE_FALSE: dict[str, Choice] = {"true": Choice.YES, "false": Choice.NO}
# "Reject" is an obvious No on an ordinary poll, but on a CFI it could as well
# mean Refused ("should not be judged", rule 125): not obvious, so Abstain.
NO_OR_REFUSED = frozenset({"reject", "rejected"})
LEADING_WORDS = re.compile(r"^(?:i vote|i'm voting|i am voting|my vote is|voting|vote)\s*:?\s*")
EDGE_PUNCTUATION = " \t.,!?;:\"'()[]{}*_`"


def normalise(text: str) -> str:
    """Lower-case ``text``, collapse spaces, drop a leading "I vote" and edge punctuation."""
    words = " ".join(text.split()).lower().strip(EDGE_PUNCTUATION)
    return LEADING_WORDS.sub("", words).strip(EDGE_PUNCTUATION)


def read_vote(text: str, options: VoteOptions = STANDARD_OPTIONS) -> Vote:
    """Read ``text`` as a vote on a poll offering ``options``; never raises.

    Anything that is not an obvious variant of an offered choice is an
    Abstain vote with the reason (rule 15).
    """
    word = normalise(text)
    if word in NO_OR_REFUSED:
        return _read_reject(text, options)
    if word in TRUE_FALSE:
        return _read_true_false(text, word, options)
    choice = VARIANTS.get(word)
    if choice is None:
        return unclear(text, f"{text.strip()!r} is not an obvious variant of {offered(options)}")
    if choice not in options.choices:
        return unclear(text, f"{choice.value} is not an option on this poll")
    return Vote(choice, text, obvious=True, reason=f"read as {choice.value}")


def _read_reject(text: str, options: VoteOptions) -> Vote:
    if Choice.REFUSED in options.choices:
        return unclear(text, f"{text.strip()!r} could mean No or Refused")
    return Vote(Choice.NO, text, obvious=True, reason="read as No")


def _read_true_false(text: str, word: str, options: VoteOptions) -> Vote:
    # Rule 125 grants True/False to CFI polls only; elsewhere they are not an
    # obvious variant of Yes/No (or rule 125 would not have needed to say so).
    if not options.true_false:
        return unclear(text, f"{text.strip()!r} means Yes/No only on a CFI (rule 125)")
    choice = TRUE_FALSE[word]
    return Vote(choice, text, obvious=True, reason=f"read as {choice.value} (rule 125)")


def unclear(text: str, why: str) -> Vote:
    """An Abstain vote for text whose meaning is not obvious (rule 15)."""
    return Vote(Choice.ABSTAIN, text, obvious=False, reason=f"{why}; read as Abstain (rule 15)")


def offered(options: VoteOptions) -> str:
    """The offered choices in words, e.g. "Yes, No, Abstain or Refused"."""
    names = [choice.value for choice in Choice if choice in options.choices]
    return ", ".join(names[:-1]) + " or " + names[-1]
