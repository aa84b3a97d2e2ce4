"""The data-driven table in cases.txt, run through parse_post."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.parser import ParsedAction, parse_post

CASES_FILE = Path(__file__).with_name("cases.txt")
ACTION_LINE = re.compile(r"(?P<action>[a-z_]+\.[a-z_]+) (?P<args>\{.*\})(?P<flags>(?: \S+)*)$")


@dataclass(frozen=True)
class Case:
    text: str
    expected: tuple[dict[str, object], ...]
    line: int


def _expectation(line: str) -> dict[str, object] | None:
    if line == "-":
        return None
    if line.startswith("!"):
        return {"not_understood_at": int(line[1:])}
    match = ACTION_LINE.match(line)
    if match is None:
        raise ValueError(f"cannot read expectation {line!r}")
    expected: dict[str, object] = {"action": match["action"], "args": json.loads(match["args"])}
    for flag in match["flags"].split():
        if flag == "conditional":
            expected["conditional"] = True
        elif flag.startswith("repeat="):
            expected["repeat"] = int(flag.removeprefix("repeat="))
        else:
            raise ValueError(f"unknown flag {flag!r} in {line!r}")
    return expected


def load_cases() -> list[Case]:
    cases: list[Case] = []
    text: str | None = None
    expected: list[dict[str, object]] = []
    start = 0
    lines = CASES_FILE.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate([*lines, ""], start=1):
        if line.startswith("  "):
            found = _expectation(line.strip())
            if found is not None:
                expected.append(found)
            continue
        if text is not None:
            cases.append(Case(text=text, expected=tuple(expected), line=start))
            text, expected = None, []
        if line.strip() and not line.startswith("#"):
            text, start = line.replace("\\n", "\n"), number
    return cases


CASES = load_cases()


def _observed(text: str) -> list[dict[str, object]]:
    """The parse result in the table's terms: actions in order, then problems in order."""
    result = parse_post(text)
    actions = [_without_text(action) for action in result.actions]
    problems: list[dict[str, object]] = [
        {"not_understood_at": problem.column} for problem in result.not_understood
    ]
    return actions + problems


def _in_table_order(expected: tuple[dict[str, object], ...]) -> list[dict[str, object]]:
    actions = [entry for entry in expected if "action" in entry]
    problems = [entry for entry in expected if "not_understood_at" in entry]
    return actions + problems


def _without_text(action: ParsedAction) -> dict[str, object]:
    document = action.to_json()
    del document["text"]
    return document


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 80
    assert sum(1 for case in CASES if not case.expected) >= 25  # the negative cases


@pytest.mark.parametrize("case", CASES, ids=[f"line{case.line}" for case in CASES])
def test_case(case: Case) -> None:
    assert _observed(case.text) == _in_table_order(case.expected)
