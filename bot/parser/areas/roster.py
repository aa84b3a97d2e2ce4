"""Transformer and triggers for grammar/roster.lark: joining and forfeiting, rule 14."""

from __future__ import annotations

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer


class RosterTransformer(CommonTransformer):
    """Rule 14 (seed 004): a request to become a player with a name; forfeiting."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def new_name(self, children: list[str]) -> str:
        return children[0]

    def register(self, children: list[str]) -> ActionReading:
        # Without a name the request is incomplete; bot.parser.post looks for the
        # name elsewhere in the post ("My name is Alice.") before giving up.
        return ActionReading("roster.register", {"name": children[0]} if children else {})

    def forfeit(self, children: list[object]) -> ActionReading:
        return ActionReading("roster.forfeit", {})


REQUEST = r"(?:request|wish|want|ask|apply|would\s+like|['’]d\s+like)\s+to\s+"
BECOME = (
    r"(?:become\s+an?\s+(?:new\s+)?player|be\s+an?\s+(?:new\s+)?player|join|register|sign\s+up)"
)

AREA = Area(
    namespace="roster",
    transformer=RosterTransformer,
    triggers=(
        "forfeit",
        REQUEST + BECOME,
        r"become\s+an?\s+(?:new\s+)?player",
        r"join\s+(?:the\s+game|the\s+nomic|b\s+nomic|the\s+b\s+nomic|us|as)",
        r"register\s+(?:me|as)",
        r"sign\s+up",
    ),
    problems={},
)
