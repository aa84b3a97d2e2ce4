"""The Clock, the Watch and Checkpoints of rule 3 (seed 004) read at chosen instants."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.games.ntime import (
    CheckingPeriod,
    Checkpoint,
    ClockReading,
    NtimeConfig,
    WatchReading,
    checking_period_at,
    checkpoints_between,
    clock_at,
    describe,
    is_on,
    next_checkpoint,
    next_on_instant,
    nweek_end,
    nweek_start,
    reading_at,
    watch_at,
)

EPOCH = datetime(2024, 1, 1, tzinfo=UTC)
PLAIN = NtimeConfig(epoch=EPOCH)


def day(number: int, hours: float = 0) -> datetime:
    """``number`` days after the epoch, plus ``hours``."""
    return EPOCH + timedelta(days=number, hours=hours)


def instants(checkpoints: tuple[Checkpoint, ...]) -> list[datetime]:
    return [checkpoint.instant for checkpoint in checkpoints]


def next_checkpoint_instant(config: NtimeConfig, instant: datetime) -> datetime | None:
    found = next_checkpoint(config, instant)
    return None if found is None else found.instant


# A 4-day stop: Off during nday 6 (zero-based 5) of nweek 1, On again 4 midnights later.
FOUR_DAY_STOP = PLAIN.turned_off(day(5, 10)).turned_on(day(9, 10))


def test_one_nday_per_midnight_over_many_days() -> None:
    for number in range(0, 400):
        expected = ClockReading(number // 10, number % 10)
        assert clock_at(PLAIN, day(number)) == expected
        assert clock_at(PLAIN, day(number, 23.999)) == expected


def test_midnight_itself_is_the_new_nday() -> None:
    assert clock_at(PLAIN, day(3) - timedelta(microseconds=1)) == ClockReading(0, 2)
    assert clock_at(PLAIN, day(3)) == ClockReading(0, 3)
    assert clock_at(PLAIN, day(10) - timedelta(microseconds=1)) == ClockReading(0, 9)
    assert clock_at(PLAIN, day(10)) == ClockReading(1, 0)


def test_display_adds_one_to_both_numbers() -> None:
    # Rule 3 A: "displayed ... with the number of nweeks increased by one and
    # the number of ndays increased by one".
    assert clock_at(PLAIN, day(123, 5)) == ClockReading(12, 3)
    assert describe(PLAIN, day(123, 5)) == "nweek 13, nday 4"
    assert ClockReading(0, 0).display() == "nweek 1, nday 1"
    assert ClockReading(0, 9).display() == "nweek 1, nday 10"


def test_nyear_is_ten_nweeks() -> None:
    assert ClockReading(9, 9).nyear == 0
    assert ClockReading(10, 0).nyear == 1
    assert clock_at(PLAIN, day(250)).nyear == 2


def test_timezone_aware_input_in_another_zone_is_converted() -> None:
    two_hours_east = timezone(timedelta(hours=2))
    local_one_am = datetime(2024, 1, 3, 1, 0, tzinfo=two_hours_east)  # 23:00 UTC on Jan 2
    assert clock_at(PLAIN, local_one_am) == ClockReading(0, 1)


def test_naive_datetime_is_refused() -> None:
    with pytest.raises(TypeError, match="naive"):
        clock_at(PLAIN, datetime(2024, 1, 5))
    with pytest.raises(TypeError, match="naive"):
        checkpoints_between(PLAIN, datetime(2024, 1, 1), day(5))


def test_instant_before_the_epoch_is_refused() -> None:
    with pytest.raises(ValueError, match="before the ntime epoch"):
        clock_at(PLAIN, day(-1))


def test_checkpoints_end_the_third_seventh_and_tenth_ndays() -> None:
    found = checkpoints_between(PLAIN, EPOCH, day(30))
    assert instants(found) == [day(n) for n in (3, 7, 10, 13, 17, 20, 23, 27, 30)]
    assert [c.ending.index for c in found] == list(range(9))
    assert [c.reading for c in found][:3] == [
        ClockReading(0, 3),
        ClockReading(0, 7),
        ClockReading(1, 0),
    ]


def test_checking_periods_across_an_nweek_boundary() -> None:
    last_of_nweek_one = checking_period_at(PLAIN, day(9, 23))
    first_of_nweek_two = checking_period_at(PLAIN, day(10))
    assert last_of_nweek_one == CheckingPeriod(2)
    assert last_of_nweek_one.is_voting_period  # rule 23: the third Checking Period
    assert last_of_nweek_one.display() == "Checking Period 3 of nweek 1"
    assert first_of_nweek_two == CheckingPeriod(3)
    assert first_of_nweek_two.display() == "Checking Period 1 of nweek 2"
    assert (first_of_nweek_two.nweek, first_of_nweek_two.position) == (1, 0)
    periods = [checking_period_at(PLAIN, day(n)).index for n in range(0, 21)]
    assert periods == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6]


def test_clock_frozen_and_watch_counting_while_off() -> None:
    assert is_on(FOUR_DAY_STOP, day(5, 9.99))
    assert not is_on(FOUR_DAY_STOP, day(5, 10))
    for number in range(5, 10):
        assert clock_at(FOUR_DAY_STOP, day(number, 9)) == ClockReading(0, 5)
    assert [watch_at(FOUR_DAY_STOP, day(n, 9)).wdays for n in range(5, 10)] == [0, 1, 2, 3, 4]
    assert reading_at(FOUR_DAY_STOP, day(8)).display() == (
        "nweek 1, nday 6 (Clock Off; Watch: wweek 0, wday 3)"
    )


def test_clock_resumes_and_watch_keeps_the_length_of_the_stop() -> None:
    assert is_on(FOUR_DAY_STOP, day(9, 10))
    assert clock_at(FOUR_DAY_STOP, day(9, 11)) == ClockReading(0, 5)
    assert clock_at(FOUR_DAY_STOP, day(10)) == ClockReading(0, 6)
    assert watch_at(FOUR_DAY_STOP, day(30)) == WatchReading(0, 4)


def test_no_checkpoints_while_the_clock_is_off() -> None:
    found = checkpoints_between(FOUR_DAY_STOP, EPOCH, day(21))
    # Clock reads nday 5 from day 5 to day 9; it ticks again on day 10.
    assert instants(found) == [day(3), day(11), day(14), day(17), day(21)]
    assert [c.ending.index for c in found] == [0, 1, 2, 3, 4]
    assert checking_period_at(FOUR_DAY_STOP, day(10, 12)) == CheckingPeriod(1)


def test_watch_is_reset_when_the_clock_is_turned_off_again() -> None:
    config = FOUR_DAY_STOP.turned_off(day(20, 1))
    assert watch_at(config, day(20, 0.5)) == WatchReading(0, 4)
    assert watch_at(config, day(20, 1)) == WatchReading(0, 0)
    assert watch_at(config, day(21)) == WatchReading(0, 1)
    assert watch_at(config, day(32)) == WatchReading(1, 2)


def test_stop_exactly_at_the_end_of_an_nweek() -> None:
    # Rule 23: "At the end of each nweek, the Clock Stops until the GM
    # recognizes ...": the nweek still ends at that midnight.
    config = PLAIN.turned_off(day(10)).turned_on(day(12))
    assert clock_at(config, day(10)) == ClockReading(1, 0)
    assert instants(checkpoints_between(config, EPOCH, day(10)))[-1] == day(10)
    assert clock_at(config, day(12)) == ClockReading(1, 0)  # turned On at midnight: no tick
    assert watch_at(config, day(12)) == WatchReading(0, 2)  # the stop covered two midnights
    assert clock_at(config, day(13)) == ClockReading(1, 1)


def test_next_on_instant_for_actions_posted_while_off() -> None:
    # Rule 3 B: actions posted while the Clock is Off wait until it is back On.
    assert next_on_instant(FOUR_DAY_STOP, day(2)) == day(2)
    assert next_on_instant(FOUR_DAY_STOP, day(7)) == day(9, 10)
    assert next_on_instant(FOUR_DAY_STOP.turned_off(day(20)), day(25)) is None


def test_next_checkpoint() -> None:
    assert next_checkpoint_instant(PLAIN, day(0, 1)) == day(3)
    assert next_checkpoint_instant(PLAIN, day(3)) == day(7)  # strictly after
    assert next_checkpoint_instant(FOUR_DAY_STOP, day(6)) == day(11)
    assert next_checkpoint_instant(PLAIN.turned_off(day(4)), day(4, 1)) is None


def test_nweek_start_and_end() -> None:
    assert nweek_start(PLAIN, 0) == EPOCH
    assert nweek_end(PLAIN, 0) == day(10)
    assert nweek_start(PLAIN, 41) == day(410)
    assert nweek_end(FOUR_DAY_STOP, 0) == day(14)
    assert nweek_end(FOUR_DAY_STOP.turned_off(day(12)), 0) is None


def test_clock_started_from_a_given_reading() -> None:
    config = NtimeConfig(epoch=EPOCH, epoch_reading=ClockReading(88, 4))
    assert describe(config, EPOCH) == "nweek 89, nday 5"
    assert clock_at(config, day(6)) == ClockReading(89, 0)
    assert nweek_start(config, 88) is None  # began before the epoch
    assert nweek_start(config, 89) == day(6)
    found = checkpoints_between(config, EPOCH, day(6))
    assert [(c.instant, c.ending.index) for c in found] == [(day(3), 88 * 3 + 1), (day(6), 266)]


def test_clock_off_at_the_epoch() -> None:
    config = NtimeConfig(epoch=EPOCH, on_at_epoch=False).turned_on(day(2, 6))
    assert clock_at(config, day(2, 7)) == ClockReading(0, 0)
    assert watch_at(config, day(2, 7)) == WatchReading(0, 2)
    assert clock_at(config, day(3)) == ClockReading(0, 1)
    assert next_on_instant(config, day(1)) == day(2, 6)


def test_checkpoints_over_a_thousand_nweeks() -> None:
    found = checkpoints_between(PLAIN, EPOCH, day(10_000))
    assert len(found) == 3000
    assert [c.ending.index for c in found] == list(range(3000))
    gaps = {(b.instant - a.instant).days for a, b in zip(found, found[1:], strict=False)}
    assert gaps == {3, 4}


def test_checkpoints_over_a_long_span_with_many_stops() -> None:
    config = PLAIN
    for number in range(5, 3000, 37):  # Off from noon to 23:00 two days later
        config = config.turned_off(day(number, 12)).turned_on(day(number + 2, 23))
    found = checkpoints_between(config, EPOCH, day(3000))
    stops = len(config.switches) // 2
    stopped_midnights = 2 * stops  # each stop spans two midnights
    expected_ticks = 3000 - stopped_midnights
    assert clock_at(config, day(3000)).ndays == expected_ticks
    assert [c.ending.index for c in found] == list(range(len(found)))
    assert checking_period_at(config, day(3000)) == found[-1].beginning


def test_checkpoints_between_splits_cleanly_and_is_half_open() -> None:
    whole = checkpoints_between(FOUR_DAY_STOP, day(-30), day(100))
    for cut in (day(3), day(11, 5), day(50)):
        parts = checkpoints_between(FOUR_DAY_STOP, day(-30), cut)
        parts += checkpoints_between(FOUR_DAY_STOP, cut, day(100))
        assert parts == whole
    assert checkpoints_between(PLAIN, day(3), day(3)) == ()
    assert checkpoints_between(PLAIN, day(8), day(2)) == ()
    assert instants(checkpoints_between(PLAIN, day(2, 23), day(3))) == [day(3)]
