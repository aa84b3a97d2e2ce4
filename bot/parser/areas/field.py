"""Transformer and triggers for grammar/field.lark: Field Matches (seeds 003, 000)."""

from __future__ import annotations

import re

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer

DIGITS = re.compile(r"\d+")


class FieldTransformer(CommonTransformer):
    """Invokable Actions of the Current Field Match, and selecting the match."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def square(self, children: list[Token]) -> str:
        # "b 2", "B-2" and "B2" name the same square.
        written = str(children[0])
        row = DIGITS.search(written)
        return f"{written[0].upper()}{int(row.group()) if row else ''}"

    def match_name(self, children: list[Token]) -> str:
        name = str(children[0]).lower().replace(" ", "-")
        return {"life": "life", "b-chess": "b-chess"}[name]

    def piece_kind(self, children: list[Token]) -> str:
        return str(children[0]).lower()

    def select_match(self, children: list[str]) -> ActionReading:
        return ActionReading("field.select", {"match": children[0]})

    def initialize(self, children: list[object]) -> ActionReading:
        return ActionReading("field.initialize", {})

    def evolve(self, children: list[object]) -> ActionReading:
        return ActionReading("field.evolve", {})

    def tweak(self, children: list[str]) -> ActionReading:
        return ActionReading("field.tweak", {"square": children[0]})

    def join(self, children: list[object]) -> ActionReading:
        return ActionReading("field.join", {})

    def rejoin(self, children: list[object]) -> ActionReading:
        return ActionReading("field.rejoin", {})

    def purchase(self, children: list[Token]) -> ActionReading:
        offered = [int(str(child)) for child in children if isinstance(child, Token)]
        return ActionReading("field.purchase", {"macks": offered[0]} if offered else {})

    def move(self, children: list[str]) -> ActionReading:
        *kind, origin, target = children
        args: dict[str, object] = {"from": origin, "to": target}
        if kind:
            args["piece"] = kind[0]
        return ActionReading("field.move", args)

    def capture(self, children: list[str]) -> ActionReading:
        target, origin = children
        return ActionReading("field.capture", {"from": origin, "to": target, "piece": "pawn"})


AREA = Area(
    namespace="field",
    transformer=FieldTransformer,
    triggers=(
        r"(?:select|choose|make)\s+(?:life|b[- ]chess)",
        r"initiali[sz]e\s+the",
        r"evolve\s+the",
        r"perform\s+the\s+(?:initiali[sz]e|evolve)",
        "tweak",
        r"(?:re)?join\s+(?:the\s+(?:current\s+)?field|life|b[- ]chess)",
        r"(?:purchase|buy)\s+an?\s+(?:field|piece)",
        r"move\s+(?:my|the)\s+(?:king|queen|rook|bishop|knight|pawn)",
        r"capture\s+[a-z]\s*-?\s*\d",
    ),
    terminals={"SQUARE": "a square such as B2"},
    problems={
        "SQUARE": (
            'I could not read "{word}" as a square of the Field'
            " (a square is a column letter and a row number, such as B2)"
        ),
    },
)
