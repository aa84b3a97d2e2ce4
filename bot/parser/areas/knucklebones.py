"""Transformer and triggers for grammar/knucklebones.lark: Knucklebones (seed 001).

Intents to play (rule Knucklebones/Commencement: "one game against one of"
several opponents, or "a game against each"), challenges (an intent naming
one opponent), and the placing of the die the bot rolled for the player
(rule Knucklebones/Turn) in a column.
"""

from __future__ import annotations

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer
from bot.parser.limits import whole_number

Opponents = tuple[str, tuple[str, ...]]  # (mode, names)


class KnucklebonesTransformer(CommonTransformer):
    """Builds ``knucklebones.intend`` and ``knucklebones.place``; the engine resolves names."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def one_of(self, children: list[str]) -> Opponents:
        return ("one_of", tuple(children))

    def each_of(self, children: list[str]) -> Opponents:
        return ("each", tuple(children))

    def anyone(self, children: list[object]) -> Opponents:
        return ("one_of", ())

    def opponents(self, children: list[str]) -> Opponents:
        # "against Bob and Carol" names no mode: the engine asks which was meant.
        return ("one_of" if len(children) == 1 else "", tuple(children))

    def intend(self, children: list[Opponents]) -> ActionReading:
        mode, names = children[0] if children else ("one_of", ())
        return ActionReading(
            "knucklebones.intend", {"opponents": list(names), "mode": mode or None}
        )

    def challenge(self, children: list[str]) -> ActionReading:
        return ActionReading("knucklebones.intend", {"opponents": [children[0]], "mode": "one_of"})

    def value(self, children: list[Token]) -> tuple[str, int]:
        return ("value", whole_number(str(children[-1])))

    def in_game(self, children: list[Token]) -> tuple[str, int]:
        return ("game", whole_number(str(children[0])))

    def place(self, children: list[tuple[str, int] | Token]) -> ActionReading:
        args: dict[str, object] = {}
        for child in children:
            if isinstance(child, Token):
                args["column"] = whole_number(str(child))
            else:
                args[child[0]] = child[1]
        return ActionReading("knucklebones.place", args)


AREA = Area(
    namespace="knucklebones",
    transformer=KnucklebonesTransformer,
    triggers=(
        r"(?:want|wish|intend|would\s+like|['’]d\s+like)\s+to\s+(?:play|start)",
        r"challenge",
        r"place",
        r"put",
        r"insert",
        r"column",
    ),
    terminals={"COLUMN": "a column, 1 to 3", "DIE_VALUE": "the die rolled, 1 to 6"},
    problems={
        "COLUMN": (
            'I could not read "{word}" as a column: a Knucklebones matrix has'
            " columns 1, 2 and 3 (rule Knucklebones/Field)"
        ),
    },
)
