"""Transformer and triggers for grammar/contests.lark: A Nomic's contests (rules 336-343).

Challenges, answers (sent privately, rule 336), Mediocrity's quantities,
the Contestmaster's judgement and the start of a Mediocrity game (343).
Names are resolved, and legality judged, in the engine.
"""

from __future__ import annotations

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer
from bot.parser.limits import whole_number

Parameter = tuple[str, int]


def _text(children: list[object]) -> str:
    # "is: red" and ": red" read as "red"; the grammar keeps the colon out.
    text = str(next(child for child in reversed(children) if isinstance(child, Token)))
    return text.strip().lstrip(":").strip().rstrip(".").strip()


def _contest(children: list[object]) -> str | None:
    return next((child for child in children if isinstance(child, ContestWord)), None)


class ContestWord(str):
    """The contest a sentence names: "similarity", "poetry" or "mediocrity"."""


class ContestsTransformer(CommonTransformer):
    """Builds ``contests.*`` readings; the engine resolves players and contests."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def similarity(self, children: list[object]) -> ContestWord:
        return ContestWord("similarity")

    def poetry(self, children: list[object]) -> ContestWord:
        return ContestWord("poetry")

    def mediocrity(self, children: list[object]) -> ContestWord:
        return ContestWord("mediocrity")

    def challenge(self, children: list[object]) -> ActionReading:
        return ActionReading(
            "contests.challenge", {"contest": _contest(children), "text": _text(children)}
        )

    def answer(self, children: list[object]) -> ActionReading:
        return ActionReading(
            "contests.answer", {"contest": _contest(children), "answer": _text(children)}
        )

    def quantity(self, children: list[object]) -> ActionReading:
        return ActionReading(
            "contests.answer", {"contest": "mediocrity", "answer": _text(children)}
        )

    def best(self, children: list[object]) -> str:
        return "best"

    def incomplete(self, children: list[object]) -> str:
        return "incomplete"

    def judge(self, children: list[object]) -> ActionReading:
        names = [
            str(child).removesuffix("'s").removesuffix("’s")
            for child in children
            if isinstance(child, Token) and child.type.endswith("POSSESSIVE")
        ]
        names += [
            child
            for child in children
            if type(child) is str and child not in ("best", "incomplete")
        ]
        verdict = next(c for c in children if c in ("best", "incomplete"))
        return ActionReading(
            "contests.judge",
            {"contest": _contest(children), "players": names, "verdict": verdict},
        )

    def level(self, children: list[Token]) -> Parameter:
        return ("level", whole_number(str(children[-1])))

    def players(self, children: list[Token]) -> Parameter:
        return ("players", whole_number(str(children[-1])))

    def sub_games(self, children: list[Token]) -> Parameter:
        return ("sub_games", whole_number(str(children[0])))

    def parameter(self, children: list[Parameter]) -> Parameter:
        return children[0]

    def start_mediocrity(self, children: list[object]) -> ActionReading:
        args = {child[0]: child[1] for child in children if isinstance(child, tuple)}
        return ActionReading("contests.start", args)


AREA = Area(
    namespace="contests",
    transformer=ContestsTransformer,
    triggers=(
        r"(?:post|set|issue|announce|pose|publish)\s+(?:(?:the|a|this|next|new|my)\s+)*"
        r"(?:similarity|poetry|mediocrity)",
        r"my\s+(?:answer|response|poem|entry|quantity)",
        r"answer\s+the\s+(?:similarity|poetry|mediocrity)",
        r"submit\s+(?:the\s+|my\s+)?quantity",
        r"judge",
        r"start\s+(?:a\s+|the\s+)?(?:new\s+)?(?:mediocrity|game\s+of\s+mediocrity)",
    ),
    terminals={"TEXT": "the text after the colon", "POSSESSIVE": "a player's name with 's"},
)
