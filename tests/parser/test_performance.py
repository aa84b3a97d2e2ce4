"""A guard against accidentally quadratic parsing: a 50 KB post parses quickly.

The bound is two orders of magnitude above the measured time (about 15 ms),
so it only fails on a real regression, not on a slow machine.
"""

from __future__ import annotations

import time

from bot.parser import parse_post

PROSE = (
    "I have been thinking about the state of the game for a while, and e.g. the\n"
    "lower left corner looks weak to me. Mr. Smith disagrees, and he has 3.5 points.\n"
)
# Each line with how many actions (conditional ones included) it states.
ACTIONS = (
    ("I place a stone at G3 and roll 2d6.\n", 2),
    ("If Bob passes, I pass.\n", 1),
    ("I will roll 3d6 tomorrow.\n", 0),
    ("I form an alliance with Bob the Voting Fish.\n", 1),
)


def mixed_post(size: int) -> tuple[str, int]:
    """About ``size`` characters of prose and action lines, and the number of actions."""
    parts: list[str] = []
    lines = actions = 0
    while sum(map(len, parts)) < size:
        line, count = ACTIONS[lines % len(ACTIONS)]
        parts.extend([PROSE * 3, line, "\n"])
        lines += 1
        actions += count
    return "".join(parts), actions


def test_a_50_kb_post_parses_in_well_under_a_second() -> None:
    post, written = mixed_post(50_000)
    parse_post(post)  # build the grammar outside the timing
    started = time.perf_counter()
    result = parse_post(post)
    elapsed = time.perf_counter() - started
    assert elapsed < 1.5
    assert len(result.actions) == written
    assert result.not_understood == ()
