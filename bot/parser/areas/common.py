"""Transformer for grammar/common.lark: repetition counts and names."""

from __future__ import annotations

import re

from lark import Token, Transformer

from bot.parser.area import Area
from bot.parser.limits import whole_number

NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        (
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ),
        start=1,
    )
}
REPEAT_WORDS = {"once": 1, "twice": 2, "thrice": 3}
DIGITS = re.compile(r"\d+")
QUOTES = "\"'“”‘’"
REPEAT = 'a number of times such as "twice" or "3 times"'


def number_from(token: Token) -> int:
    """The value of an INT or NUMBER_WORD token."""
    word = str(token).lower()
    return NUMBER_WORDS[word] if word in NUMBER_WORDS else whole_number(word)


class CommonTransformer(Transformer[Token, object]):
    """Builds the values of the shared rules; every area transformer inherits it."""

    def count(self, children: list[Token]) -> int:
        return number_from(children[0])

    def repeat(self, children: list[Token | int]) -> int:
        # Rule 1896: "I do X n times" performs X that many times.
        (child,) = children
        if isinstance(child, int):
            return child
        word = str(child).lower()
        if word in REPEAT_WORDS:
            return REPEAT_WORDS[word]
        digits = DIGITS.search(word)
        return whole_number(digits.group()) if digits else 1

    def name(self, children: list[Token]) -> str:
        if len(children) == 1 and children[0].type.endswith("QUOTED"):
            return str(children[0]).strip(QUOTES).strip()
        return " ".join(str(child) for child in children)


AREA = Area(
    namespace="common",
    transformer=CommonTransformer,
    terminals={
        "NAME_WORD": "a name",
        "QUOTED": "a name in quotes",
        "INT": REPEAT,
        "NUMBER_WORD": 'a number such as "three"',
        "REPEAT_WORD": REPEAT,
        "TIMES_X": REPEAT,
    },
    problems={
        "NAME_WORD": 'I could not read "{word}" as a name',
        "QUOTED": 'I could not read "{word}" as a name',
    },
)
