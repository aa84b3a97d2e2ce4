"""Transformer and triggers for grammar/clock.lark: the GM's recognizer (rule 23).

Whether the author is the GM (rule 625 D.7) or eir Deputy (rule 1272), and
whether the Clock waits for that nweek's recognizer, is the engine's
business (``bot.engine.clock_stops``); the grammar reads the sentence and
the nweek it names, displayed one-based as players write it (rule 3 A).
"""

from __future__ import annotations

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer


class ClockTransformer(CommonTransformer):
    """Builds the one action of the area: ``clock.recognize``."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def nweek_named(self, children: list[Token]) -> int:
        return int(str(children[-1]))

    def nweek_possessive(self, children: list[Token]) -> int:
        return int(str(children[0]))

    def recognize(self, children: list[object]) -> ActionReading:
        numbers = [child for child in children if isinstance(child, int)]
        return ActionReading("clock.recognize", {"nweek": numbers[0]} if numbers else {})


RECOGNIZE = r"(?:recogni[sz]e|(?:am|['’]m)\s+recogni[sz]ing)"
CHANGES = r"(?:the\s+)?(?:rules?\s+)?changes"
AREA = Area(
    namespace="clock",
    transformer=ClockTransformer,
    triggers=(
        rf"{RECOGNIZE}\s+{CHANGES}",
        rf"{RECOGNIZE}\s+(?:the\s+)?nweek\s+\d+",
        # "The recognizer is late" is prose: the noun starts a recognizer only
        # when an nweek or the end of the sentence follows it.
        r"(?:(?:here|this)\s+is\s+)?(?:(?:my|the|a)\s+)?recogni[sz]er"
        r"(?=\s+(?:for|of|from|in)\s+(?:the\s+)?nweek\b|[\s,]*(?:[.!:]|$))",
    ),
    terminals={"INT": "an nweek's number"},
    problems={},
)
