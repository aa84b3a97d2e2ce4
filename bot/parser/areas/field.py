"""Transformer and triggers for grammar/field.lark: Field Matches (seeds 003, 000)."""

from __future__ import annotations

import re

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer

DIGITS = re.compile(r"\d+")


class PieceKind(str):
    """A piece's kind as written ("rook"), told apart from a square ("C3")."""


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

    def piece_kind(self, children: list[Token]) -> PieceKind:
        return PieceKind(str(children[0]).lower())

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

    def move(self, children: list[object]) -> ActionReading:
        # Children: the piece's kind if named, its square if named, the target.
        kinds = [child for child in children if isinstance(child, PieceKind)]
        squares = _squares(children)
        args: dict[str, object] = {"to": squares[-1]}
        if len(squares) > 1:
            args["from"] = squares[0]
        if kinds:
            args["piece"] = str(kinds[0])
        return ActionReading("field.move", args)

    def capture(self, children: list[object]) -> ActionReading:
        # "capture [the knight on] D4 with my pawn [at C3]": the captured piece's
        # kind is not kept (the square says which piece), the capturer's is.
        kinds = [child for child in children if isinstance(child, PieceKind)]
        squares = _squares(children)
        args: dict[str, object] = {"to": squares[0], "piece": str(kinds[-1])}
        if len(squares) > 1:
            args["from"] = squares[1]
        return ActionReading("field.capture", args)


def _squares(children: list[object]) -> list[str]:
    # Squares are plain strings; kinds are PieceKind, a match's name a Token.
    return [
        child
        for child in children
        if isinstance(child, str) and not isinstance(child, (PieceKind, Token))
    ]


AREA = Area(
    namespace="field",
    transformer=FieldTransformer,
    triggers=(
        r"(?:select|choose|make)\s+(?:life|b[- ]chess)",
        r"initiali[sz]e\s+the",
        r"evolve\s+the",
        r"perform\s+the\s+(?:initiali[sz]e|evolve)",
        "tweak",
        r"(?:re)?join\s+(?:the\s+(?:current\s+)?field|(?:the\s+)?(?:life|b[- ]chess))",
        r"(?:purchase|buy)\s+an?\s+(?:field|piece)",
        r"move\s+(?:my|the)\s+(?:king|queen|rook|bishop|knight|pawn)",
        r"(?:capture|take)\s+[a-z]\s*-?\s*\d+\s+with",
        r"capture\s+[a-z]\s*-?\s*\d",
        r"(?:capture|take)\s+(?:the\s+|an?\s+|\w+['’]s\s+)?(?:king|queen|rook|bishop|knight|pawn)"
        r"\s+(?:at|on|in)\s+[a-z]\s*-?\s*\d",
    ),
    terminals={"SQUARE": "a square such as B2"},
    problems={
        "SQUARE": (
            'I could not read "{word}" as a square of the Field'
            " (a square is a column letter and a row number, such as B2)"
        ),
    },
)
