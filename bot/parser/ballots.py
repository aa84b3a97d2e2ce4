"""A Borda ballot written as a numbered list of lines (rule 1823 C.1, seed 004).

Rule 1823 C.1: "Each voter's ballot consists of a list of all the choices,
numbered one to n".  Players write exactly that:

    I vote for Minister of Justice:
    1. Alice
    2. Bob
    3. Carol

The sentence splitter makes each list item a sentence of its own, so the
ballot is recognised here, across sentences: a heading that names the
election and ends with a colon, then items numbered 1, 2, 3, ... in order.
The result is the same ``elections.vote`` as "I vote Alice, Bob, Carol for
Minister of Justice"; whether the list holds all the choices is the
election's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.parser.clauses import ADVERBS
from bot.parser.sentences import Sentence

HEADING = re.compile(
    rf"(?:i\s+{ADVERBS}(?:vote|rank)(?:\s+as\s+follows)?|my\s+(?:ballot|vote|votes|ranking))"
    r"\s+(?:for|in\s+the\s+election\s+(?:for|of))\s+(?P<ministry>[^:]+?)"
    r"(?:\s*,?\s*as\s+follows)?\s*:"
    rf"|for\s+(?P<ministry_first>[^:,]+?)\s*,?\s*(?:i\s+{ADVERBS}(?:vote|rank)|my\s+ballot\s+is)\s*:",
    re.IGNORECASE,
)
ITEM_NUMBER = re.compile(r"[ \t]*\(?(?P<number>[1-9][0-9]{0,2})[.)][ \t]*$")
NAME_END = ".,;!"


@dataclass(frozen=True)
class NumberedBallot:
    """A ballot read from ``count`` sentences: the heading and its items."""

    ministry: str
    choices: tuple[str, ...]
    count: int


def numbered_ballot(
    sentences: tuple[Sentence, ...], index: int, written: str
) -> NumberedBallot | None:
    """The numbered ballot whose heading is ``sentences[index]``, or None."""
    text = sentences[index].text
    heading = HEADING.fullmatch(text) if text.endswith(":") else None
    if heading is None:
        return None
    ministry = heading.group("ministry") or heading.group("ministry_first") or ""
    choices: list[str] = []
    for sentence in sentences[index + 1 :]:
        if _item_number(sentence, written) != len(choices) + 1:
            break
        choices.append(" ".join(sentence.text.rstrip(NAME_END).split()))
    if not choices:
        return None
    return NumberedBallot(ministry.strip(), tuple(choices), 1 + len(choices))


def _item_number(sentence: Sentence, written: str) -> int | None:
    """The number of the list item ``sentence`` opens ("2." or "(2)"), or None."""
    if not sentence.starts_line:
        return None
    line_start = written.rfind("\n", 0, sentence.start) + 1
    match = ITEM_NUMBER.fullmatch(written, line_start, sentence.start)
    return int(match.group("number")) if match else None
