"""Transformer and triggers for grammar/cfi.lark, and the CFI document's sections (rule 125).

Rule 125 (seed 004): "A player may create a CFI as a Game Action by
specifying the contents of it except for the Plaintiff and the Defendant's
Argument": a Title, a Defendant (optionally), the Plaintiff's Argument and a
Resolution ("a list of changes to the game state").  The contents arrive as
one rule 217 block; ``read_document`` splits it into labelled sections, so a
title, a defendant or a resolution written inside the block is read the same
as one written around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token

from bot.games.errors import ActionSyntaxError
from bot.parser.area import ActionReading, Area
from bot.parser.areas.proposals import DocumentTransformer, submission_args

# "Argument:", "Plaintiff's Argument:", "Resolution:", "Defendant:", "Title:"
# at the start of a line or of a sentence; what follows is the section.
SECTION = re.compile(
    r"(?:^[ \t]*|(?<=[.!?])[ \t]+)(?:the[ \t]+)?"
    r"(?P<label>title|defendant|(?:plainti?ff['’]?s[ \t]+)?argument|resolution"
    r"|proposed[ \t]+resolution)[ \t]*:[ \t]*",
    re.IGNORECASE | re.MULTILINE,
)
# One change of a Resolution per bullet ("-", "*", "•") or numbered item ("1.", "2)").
ITEM = re.compile(r"^[ \t]*(?:[-*•]|\d+[.)])[ \t]+", re.MULTILINE)


@dataclass(frozen=True)
class CfiDocument:
    """What the Plaintiff specified (rule 125): everything but the Plaintiff and the defence."""

    title: str
    argument: str
    resolution: tuple[str, ...]
    defendant: str | None = None


class CfiTransformer(DocumentTransformer):
    """Submitting a CFI and the Defendant's Argument, as written."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def against(self, children: list[object]) -> dict[str, str]:
        return {"defendant": str(children[-1])}

    def cfi_number(self, children: list[Token]) -> dict[str, int]:
        return {"number": int(str(children[-1]))}

    def submit(self, children: list[object]) -> ActionReading:
        return ActionReading("cfi.submit", submission_args(children))

    def argue(self, children: list[object]) -> ActionReading:
        args: dict[str, object] = {}
        for child in children:
            if isinstance(child, dict):
                args.update(child)
        return ActionReading("cfi.argue", args)


def read_document(text: str, title: str = "", defendant: str | None = None) -> CfiDocument:
    """The CFI's sections from its block ``text``; ``title``/``defendant`` as written outside it.

    Text before the first label is the Plaintiff's Argument unless an
    "Argument:" section is given.  Raises ``ActionSyntaxError`` when the
    Title, the Argument or the Resolution is missing (rule 125 asks for all
    three) or a section is given twice.
    """
    sections = _sections(text)
    inner_title = sections.get("title", "")
    document = CfiDocument(
        title=title or inner_title,
        argument=sections.get("argument") or sections.get("", ""),
        resolution=resolution_items(sections.get("resolution", "")),
        defendant=defendant or sections.get("defendant") or None,
    )
    _check_complete(document)
    return document


def _sections(text: str) -> dict[str, str]:
    matches = list(SECTION.finditer(text))
    found: dict[str, str] = {"": text[: matches[0].start()].strip() if matches else text.strip()}
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        label = _label(match.group("label"))
        if label in found:
            raise ActionSyntaxError(f'the CFI gives its "{label.title()}" twice', rule="125")
        found[label] = text[match.end() : end].strip()
    return found


def _label(written: str) -> str:
    words = written.lower().split()
    return words[-1] if words[-1] in {"argument", "resolution"} else words[0]


def resolution_items(text: str) -> tuple[str, ...]:
    """The Resolution's list of changes: one per bullet or numbered line, else the whole text."""
    if not text.strip():
        return ()
    starts = [match for match in ITEM.finditer(text)]
    if not starts or text[: starts[0].start()].strip():
        return (" ".join(text.split()),)
    ends = [match.start() for match in starts[1:]] + [len(text)]
    return tuple(
        " ".join(text[match.end() : end].split()) for match, end in zip(starts, ends, strict=True)
    )


def _check_complete(document: CfiDocument) -> None:
    missing = [
        part
        for part, value in (
            ("a Title", document.title),
            ("the Plaintiff's Argument", document.argument),
            ("a Resolution", document.resolution),
        )
        if not value
    ]
    if missing:
        raise ActionSyntaxError(
            "a CFI needs " + " and ".join(missing) + ' (rule 125), as in "I submit a CFI: '
            '{{ __Title__ Argument: ... Resolution: ... }}"',
            rule="125",
        )


AREA = Area(
    namespace="cfi",
    transformer=CfiTransformer,
    triggers=(
        r"submit",
        r"(?:file|raise)\s+(?:a|an|the|this|my)\s+(?:cfi|cfj|call\s+for\s+inquiry)",
        r"call\s+shenanigans",
        r"as\s+(?:the\s+)?defendant",
        r"(?:cfi|cfj|call\s+for\s+inquiry)\s*:\s*\{\{§",
    ),
    terminals={
        "TEXT_BLOCK": "the CFI's text set apart in {{ and }} (rule 217)",
        "TITLE": "a title between __ and __ (rule 217)",
    },
    problems={},
)
