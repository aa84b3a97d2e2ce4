"""Transformer and triggers for grammar/go.lark: Political Go, rule 1639 (seed 004)."""

from __future__ import annotations

import re

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer

ROW = re.compile(r"\d+")


class GoTransformer(CommonTransformer):
    """Rule 1639 C: a Move is placing a Stone, forming or breaking an Alliance, or passing."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def point(self, children: list[Token]) -> str:
        # "g - 3" and "G3" name the same point: upper-case column, row as a number.
        written = str(children[0])
        row = ROW.search(written)
        return f"{written[0].upper()}{int(row.group()) if row else ''}"

    def player(self, children: list[str]) -> str:
        return children[0]

    def place(self, children: list[str]) -> ActionReading:
        return ActionReading("go.place", {"point": children[0]})

    def pass_turn(self, children: list[object]) -> ActionReading:
        return ActionReading("go.pass", {})

    def ally(self, children: list[str]) -> ActionReading:
        return ActionReading("go.ally", {"player": children[0]})

    def break_alliance(self, children: list[str]) -> ActionReading:
        return ActionReading("go.break_alliance", {"player": children[0]})


AREA = Area(
    namespace="go",
    transformer=GoTransformer,
    triggers=(
        "place",
        "put",
        "play",
        "pass",
        r"form\s+an?\s+alliance",
        "ally",
        r"consent\s+to",
        r"break\s+(?:off\s+)?(?:(?:my|the|our|an)\s+)?alliance",
        r"dissolve\s+(?:(?:my|the|our|an)\s+)?alliance",
    ),
    terminals={"POINT": "a point such as G3"},
    problems={
        "POINT": (
            'I could not read "{word}" as a point on the board'
            " (a point is a column letter and a row from 1 to 19, such as G3)"
        ),
    },
)
