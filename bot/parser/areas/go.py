"""Transformer and triggers for grammar/go.lark: Political Go.

Rule 1639 of seed 004 (B Nomic) and rules 365-377 of seed 002 (A Nomic) share
one grammar; the engine judges each action under the rule set the game uses.
"""

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

    def place(self, children: list[str | list[str]]) -> ActionReading:
        args: dict[str, object] = {"point": children[0]}
        if len(children) > 1:
            args["capture_order"] = children[1]
        return ActionReading("go.place", args)

    def capture_order(self, children: list[str]) -> list[str]:
        return list(children)

    def pass_turn(self, children: list[object]) -> ActionReading:
        return ActionReading("go.pass", {})

    def ally(self, children: list[str]) -> ActionReading:
        return ActionReading("go.ally", {"player": children[0]})

    def break_alliance(self, children: list[str]) -> ActionReading:
        return ActionReading("go.break_alliance", {"player": children[0]})

    def possessive(self, children: list[Token]) -> str:
        # "Bob's" names Bob.
        return str(children[0])[:-2]

    def offer(self, children: list[str]) -> ActionReading:
        return ActionReading("go.offer", {"player": children[0]})

    def accept(self, children: list[str]) -> ActionReading:
        return ActionReading("go.accept", {"player": children[0]})

    def withdraw(self, children: list[str]) -> ActionReading:
        return ActionReading("go.withdraw", {"player": children[0]})

    def war(self, children: list[str]) -> ActionReading:
        return ActionReading("go.war", {"player": children[0]})

    def stones(self, children: list[int | Token]) -> int:
        # "a stone" is one; "3 stones" and "three stones" are counted.
        counts = [child for child in children if isinstance(child, int)]
        return counts[0] if counts else 1

    def purchase(self, children: list[int]) -> ActionReading:
        return ActionReading("go.purchase", {"count": children[0]})

    def transfer(self, children: list[int | str]) -> ActionReading:
        return ActionReading("go.transfer", {"count": children[0], "player": children[1]})

    def sell(self, children: list[int]) -> ActionReading:
        return ActionReading("go.sell", {"count": children[0]})


AREA = Area(
    namespace="go",
    transformer=GoTransformer,
    triggers=(
        "place",
        "put",
        "play",
        "pass",
        r"(?:form|propose|request|join|enter(?:\s+into)?)\s+(?:an?|the)\s+alliance",
        r"join\s+\w+['’]s\s+alliance",
        r"agree\s+to\s+(?:ally|(?:form\s+|make\s+|enter\s+(?:into\s+)?)?(?:an?|the)\s+alliance)",
        "ally",
        r"consent\s+to",
        r"break\s+(?:off\s+)?(?:(?:my|the|our|an)\s+)?alliance",
        r"dissolve\s+(?:(?:my|the|our|an)\s+)?alliance",
        r"(?:offer|propose)\s+(?:an?\s+)?alliance",
        "accept",
        r"(?:withdraw|retract|revoke)\s+(?:my|the|an?)\s+(?:alliance|offer)",
        r"declare\s+war",
        r"(?:purchase|buy|sell|transfer|give)\s+(?:an?|\d+|\w+)\s+(?:(?:reserve|captured)\s+)?(?:go\s+)?stones?",
    ),
    terminals={"POINT": "a point such as G3"},
    problems={
        "POINT": (
            'I could not read "{word}" as a point on the board'
            " (a point is a column letter and a row number, such as G3)"
        ),
    },
)
