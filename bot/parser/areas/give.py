"""Transformer and triggers for grammar/give.lark: gifts of currencies and objects (rule 13).

Rule 13 (seed 004): "Players are capable of possessing any Object and of
transferring any Object they possess to any entity that can possess that
Object."  ``give.currency`` carries an amount of one ledger currency (rule
21's points and tildex, rule 212's Bandwidth, rule 1899's Renown);
``give.object`` an object named by its noun as written, or by its number
alone ("object 12").  A gift of an object whose noun a game's area names
(``Area.gifts``) is handed to that game by ``bot.parser.grammar``.
"""

from __future__ import annotations

import re

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import NUMBER_WORDS, CommonTransformer

# The ledger's names (bot.engine.holdings) of what an amount is written in.
TILDEX = "tildex"
POINTS = "points"
BANDWIDTH = "bandwidth"
RENOWN = "renown"  # of a category ("renown:Honor:temporary") or unspecified
WORDS_OF_ONE = {"a": 1, "an": 1}
AMOUNT = re.compile(
    r"~\s*(?P<after>\d+)|(?P<count>\d+|[a-z]+)\s*(?P<unit>.+)", re.IGNORECASE | re.DOTALL
)
RENOWN_UNIT = re.compile(
    r"(?:(?P<kind>temporary|permanent)\s+)?(?P<category>glory|honou?r|wisdom|renown)", re.I
)


def amount_of(text: str) -> tuple[int, str]:
    """``"50~"`` as ``(50, "tildex")``, ``"3 points"`` as ``(3, "points")``,
    ``"1 Temporary Honor"`` as ``(1, "renown:Honor:temporary")``."""
    match = AMOUNT.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"not an amount: {text!r}")  # the grammar's AMOUNT reads only these
    if match["after"] is not None:
        return int(match["after"]), TILDEX
    count_word = match["count"].lower()
    count = int(count_word) if count_word.isdigit() else 0
    count = count or NUMBER_WORDS.get(count_word, WORDS_OF_ONE.get(count_word, 0))
    return count, currency_of(match["unit"])


def currency_of(unit: str) -> str:
    """The ledger currency a unit names: "~", "tildex" -> tildex; "BW" -> bandwidth; ..."""
    words = " ".join(unit.lower().split())
    if words in ("~", "tildex", "tilde", "tildes"):
        return TILDEX
    if words.startswith(("bw", "bandwidth")):
        return BANDWIDTH
    if words.startswith("point"):
        return POINTS
    if words.startswith("win"):  # 1899: "A point of Permanent Glory is also called a Win"
        return "renown:Glory:permanent"
    renown = RENOWN_UNIT.fullmatch(words)
    if renown is None or renown["category"] == RENOWN:
        return RENOWN  # Renown of no category named: refused all the same (rule 1899)
    category = "Honor" if renown["category"].startswith("hono") else renown["category"].title()
    return f"renown:{category}:{renown['kind'] or 'temporary'}"


class GiveTransformer(CommonTransformer):
    """Builds ``give.currency`` and ``give.object``; names are resolved by the engine."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def currency(self, children: list[object]) -> ActionReading:
        amount_token = next(c for c in children if isinstance(c, Token) and _is(c, "AMOUNT"))
        recipient = next(str(c) for c in children if not isinstance(c, Token))
        amount, currency = amount_of(str(amount_token))
        return ActionReading(
            "give.currency", {"amount": amount, "currency": currency, "recipient": recipient}
        )

    def noun(self, children: list[object]) -> str:
        return " ".join(str(word) for word in children)

    bare_noun = noun
    capitals = noun

    def first_name(self, children: list[object]) -> str:
        (written,) = children
        if isinstance(written, Token):  # QUOTED: the name inside the quotation marks
            return str(written)[1:-1]
        return str(written)

    def gift(self, children: list[object]) -> ActionReading:
        kind = str(children[0])
        numbers = [int(c) for c in children if isinstance(c, Token) and _is(c, "NUMBER")]
        number = numbers[0] if numbers else None
        recipient = str(children[-1]) if len(children) > 1 and not _numbered(children[-1]) else ""
        return ActionReading(
            "give.object", {"kind": kind, "number": number, "recipient": recipient}
        )

    def numbered_gift(self, children: list[object]) -> ActionReading:
        number = next(int(c) for c in children if isinstance(c, Token) and _is(c, "NUMBER"))
        return ActionReading(
            "give.object", {"kind": "", "number": number, "recipient": str(children[-1])}
        )


def _numbered(child: object) -> bool:
    return isinstance(child, Token) and _is(child, "NUMBER")


def _is(token: Token, terminal: str) -> bool:
    return token.type.rsplit("__", 1)[-1] == terminal


# What a gift's verb is followed by (grammar/give.lark): an amount, an article or
# number word, "object 12", or, but after "send", a capitalised noun or name ("I
# give Tomato 12 to Bob", "I pay Bob 20~").  Anything else after the verb is
# everyday English ("give me a break", "send me a recipe", "Send Ppp mailing list
# submissions to ..."), never handed to the grammar, so never answered.
_GIFT_START = (
    r"(?=~|\d|(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|my|the|object|item)\b)"
)
_CAPITAL = r"(?=(?-i:[A-Z]))"

AREA = Area(
    namespace="give",
    transformer=GiveTransformer,
    triggers=(
        rf"(?:give|transfer|pay)\s+(?:{_GIFT_START}|{_CAPITAL}|away\b)",
        rf"send\s+{_GIFT_START}",
    ),
    terminals={
        "AMOUNT": "an amount with its currency (50~, 3 points, 2BW)",
        "NUMBER": "an object's number (object 12)",
    },
)
