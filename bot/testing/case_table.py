"""Tables of posts and the actions expected from them, for the parser's tests.

A table is a text file.  A case is an unindented input line (``\\n`` in it
stands for a line break) followed by indented expectation lines, in the
order written in the post::

    <action> <args as JSON> [conditional] [repeat=N]   a ParsedAction
    ! <column>                                         a NotUnderstood at that 1-based column
    ? <column> <readings as a JSON list>               an ambiguous sentence, none taken
    -                                                  nothing at all

Lines starting with ``#`` are comments.  ``observed`` gives what the parser
made of a post in the same terms, actions first, then the rest in order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.parser import ParsedAction, ParseResult

ACTION_LINE = re.compile(r"(?P<action>[a-z_]+\.[a-z_]+) (?P<args>\{.*\})(?P<flags>(?: \S+)*)$")
AMBIGUOUS_LINE = re.compile(r"\?\s*(?P<column>\d+)\s+(?P<readings>\[.*\])$")

# "#" starts a comment, except before a number: "#14 PRESENT" is a ballot line.
COMMENT = re.compile(r"#(?!\s*\d)")

Expectation = dict[str, object]


@dataclass(frozen=True)
class Case:
    text: str
    expected: tuple[Expectation, ...]
    line: int
    source: str = ""


def expectation(line: str) -> Expectation | None:
    """One expectation line read; None for "-" (nothing at all)."""
    if line == "-":
        return None
    if line.startswith("!"):
        return {"not_understood_at": int(line[1:])}
    ambiguous = AMBIGUOUS_LINE.match(line)
    if ambiguous is not None:
        readings = json.loads(ambiguous["readings"])
        return {"not_understood_at": int(ambiguous["column"]), "readings": readings}
    match = ACTION_LINE.match(line)
    if match is None:
        raise ValueError(f"cannot read expectation {line!r}")
    expected: Expectation = {"action": match["action"], "args": json.loads(match["args"])}
    for flag in match["flags"].split():
        if flag == "conditional":
            expected["conditional"] = True
        elif flag.startswith("repeat="):
            expected["repeat"] = int(flag.removeprefix("repeat="))
        else:
            raise ValueError(f"unknown flag {flag!r} in {line!r}")
    return expected


def load_cases(path: Path) -> list[Case]:
    """Every case of the table in ``path``, in order."""
    cases: list[Case] = []
    text: str | None = None
    expected: list[Expectation] = []
    start = 0
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate([*lines, ""], start=1):
        if line.startswith("  "):
            found = expectation(line.strip())
            if found is not None:
                expected.append(found)
            continue
        if text is not None:
            cases.append(Case(text, tuple(expected), start, path.name))
            text, expected = None, []
        if line.strip() and not COMMENT.match(line):
            text, start = line.replace("\\n", "\n"), number
    return cases


def observed(text: str, parse: Callable[[str], ParseResult]) -> list[Expectation]:
    """The parse result in the table's terms: actions in order, then problems in order."""
    result = parse(text)
    actions = [_without_text(action) for action in result.actions]
    problems: list[Expectation] = []
    for problem in result.not_understood:
        found: Expectation = {"not_understood_at": problem.column}
        if problem.readings:
            found["readings"] = list(problem.readings)
        problems.append(found)
    return actions + problems


def in_table_order(expected: tuple[Expectation, ...]) -> list[Expectation]:
    actions = [entry for entry in expected if "action" in entry]
    problems = [entry for entry in expected if "not_understood_at" in entry]
    return actions + problems


def _without_text(action: ParsedAction) -> Expectation:
    document = action.to_json()
    del document["text"]
    return document
