"""Transformer and triggers for grammar/proposals.lark: rules 19, 216, 217 and 1440.

The text of a proposal arrives as a rule 217 placeholder (``{{§1}}``);
``bot.parser.post`` swaps it for the block's text and title once the whole
post is read, since the transformer is shared by every post.
"""

from __future__ import annotations

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import QUOTES, CommonTransformer


class DocumentTransformer(CommonTransformer):
    """A document submitted as a rule 217 block with a title: proposals and CFIs."""

    def title(self, children: list[Token]) -> str:
        return str(children[0])[2:-2].strip()

    def text_block(self, children: list[Token]) -> dict[str, str]:
        return {"text": str(children[0])}


def submission_args(children: list[object]) -> dict[str, object]:
    """The arguments of a document's submission: its parts, and its title however written."""
    args: dict[str, object] = {}
    for child in children:
        if isinstance(child, dict):
            args.update(child)
        elif isinstance(child, Token) and child.type.endswith("QUOTED"):
            args["title"] = str(child).strip(QUOTES).strip()
        elif isinstance(child, str):
            args["title"] = child  # rule 217: a title before or after the block
    return args


class ProposalsTransformer(DocumentTransformer):
    """Submitting, revising and rescinding proposals."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def rule_noun(self, children: list[Token]) -> dict[str, bool]:
        return {"creates_rule": True}

    def serial(self, children: list[Token]) -> int:
        return int(str(children[0]))

    def submit(self, children: list[object]) -> ActionReading:
        return ActionReading("proposals.submit", submission_args(children))

    def revise(self, children: list[object]) -> ActionReading:
        serial = next(child for child in children if isinstance(child, int))
        block = next(child for child in children if isinstance(child, dict))
        return ActionReading("proposals.revise", {"serial": serial, **block})

    def rescind(self, children: list[object]) -> ActionReading:
        serial = next(child for child in children if isinstance(child, int))
        return ActionReading("proposals.rescind", {"serial": serial})


AREA = Area(
    namespace="proposals",
    transformer=ProposalsTransformer,
    triggers=(
        r"submit",
        r"propose",
        r"issue\s+(?:a|an|the|this|my)\s+(?:\w+\s+)?(?:proposal|prop)",
        r"make\s+(?:a|an|the|this|my)\s+(?:\w+\s+)?(?:proposal|prop)",
        r"revise",
        r"amend",
        r"rescind",
        r"withdraw\s+(?:my\s+|the\s+)?(?:proposal|prop)",
        r"(?:proposal|prop)\s*:\s*\{\{§",
    ),
    terminals={
        "TEXT_BLOCK": "the text set apart in {{ and }} (rule 217)",
        "TITLE": "a title between __ and __ (rule 217)",
    },
    problems={
        "TEXT_BLOCK": (
            'I could not find the text at "{word}": rule 217 sets a proposal\'s text apart'
            ' between {{ and }}, as in "I submit the following proposal: __Title__ {{ text }}"'
        ),
    },
)
