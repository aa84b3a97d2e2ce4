"""A refusal says when the action becomes possible: nweek, nday and UTC (rule 3 A).

Rule 3 A: "whenever the current value of The Clock is displayed or referred
to, it shall be displayed or referred to with the number of nweeks increased
by one and the number of ndays increased by one".
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine.clock import GameClock
from bot.engine.not_yet import refusal_reason
from bot.games.errors import IllegalActionError, NotYetError

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
ONCE_PER_PERIOD = NotYetError(
    "Rob cannot pass: e has already made a Move in this Checking Period",
    rule="1639 C",
    again="Rob may move again",
)


def test_the_next_checking_period_is_dated_by_the_clock() -> None:
    clock = GameClock(EPOCH, ())
    at = datetime(2026, 1, 2, 15, tzinfo=UTC)  # nweek 1, nday 2: Checking Period 1
    assert refusal_reason(ONCE_PER_PERIOD, clock, at) == (
        "Rob cannot pass: e has already made a Move in this Checking Period; Rob may move "
        "again from the next Checking Period, nweek 1, nday 4 (2026-01-04 00:00 UTC)"
    )
    # Without the engine's Clock the rules still say when, in their own words.
    assert ONCE_PER_PERIOD.message.endswith("Rob may move again from the next Checking Period")


def test_a_clock_stopped_over_the_checkpoint_moves_the_date() -> None:
    # Off from 2 January 12:00 to 5 January 12:00: three days that are no ndays.
    switches = (
        (datetime(2026, 1, 2, 12, tzinfo=UTC), False),
        (datetime(2026, 1, 5, 12, tzinfo=UTC), True),
    )
    clock = GameClock(EPOCH, switches)
    at = datetime(2026, 1, 2, 9, tzinfo=UTC)
    assert refusal_reason(ONCE_PER_PERIOD, clock, at).endswith(
        "from the next Checking Period, nweek 1, nday 4 (2026-01-07 00:00 UTC)"
    )


def test_an_instant_is_given_with_its_nday() -> None:
    later = datetime(2026, 1, 3, 19, tzinfo=UTC)
    error = NotYetError(
        "Ann cannot place a stone: eir last Go move was less than 19 hours ago",
        rule="368",
        again="Ann may make a Go move again",
        from_instant=later,
    )
    assert refusal_reason(error, GameClock(EPOCH, ()), EPOCH) == (
        "Ann cannot place a stone: eir last Go move was less than 19 hours ago; Ann may make "
        "a Go move again from nweek 1, nday 3 (2026-01-03 19:00 UTC)"
    )


def test_other_refusals_are_left_as_they_are() -> None:
    error = IllegalActionError("E5 is occupied", rule="1639 C")
    assert refusal_reason(error, GameClock(EPOCH, ()), EPOCH) == "E5 is occupied"
