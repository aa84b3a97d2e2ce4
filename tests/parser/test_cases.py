"""The data-driven table in cases.txt, run through parse_post."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.parser import parse_post
from bot.testing.case_table import Case, in_table_order, load_cases, observed

CASES_FILE = Path(__file__).with_name("cases.txt")
CASES = load_cases(CASES_FILE)


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 80
    assert sum(1 for case in CASES if not case.expected) >= 25  # the negative cases


@pytest.mark.parametrize("case", CASES, ids=[f"line{case.line}" for case in CASES])
def test_case(case: Case) -> None:
    assert observed(case.text, parse_post) == in_table_order(case.expected)
