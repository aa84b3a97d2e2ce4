"""Property tests: ntime against a midnight-by-midnight simulation of rule 3 A."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from bot.games.ntime import (
    ClockReading,
    NtimeConfig,
    WatchReading,
    checking_period_at,
    checkpoints_between,
    clock_at,
    watch_at,
)

EPOCH = datetime(2024, 1, 1, tzinfo=UTC)
HORIZON_DAYS = 120
TICK = timedelta(microseconds=1)

# Offsets from the epoch; exact midnights are drawn often because the rule's
# edge cases live there.
offsets = st.builds(
    lambda days, seconds: timedelta(days=days, seconds=seconds),
    st.integers(0, HORIZON_DAYS),
    st.one_of(st.just(0), st.integers(0, 86_399)),
)


@st.composite
def configs(draw: st.DrawFn) -> NtimeConfig:
    on_at_epoch = draw(st.booleans())
    instants = sorted({EPOCH + offset for offset in draw(st.lists(offsets, max_size=12))})
    config = NtimeConfig(epoch=EPOCH, on_at_epoch=on_at_epoch)
    for number, instant in enumerate(i for i in instants if i > EPOCH):
        config = config.turned(on=(number % 2 == 1) == on_at_epoch, at=instant)
    return config


def state_just_before(config: NtimeConfig, midnight: datetime) -> bool:
    earlier = [switch.on for switch in config.switches if switch.at < midnight]
    return earlier[-1] if earlier else config.on_at_epoch


def simulate(config: NtimeConfig, instant: datetime) -> tuple[ClockReading, WatchReading]:
    """Rule 3 A step by step: at each midnight advance the Clock or the Watch."""
    ndays, wdays = config.epoch_reading.ndays, 0
    events: list[tuple[datetime, int, bool]] = [(s.at, 1, s.on) for s in config.switches]
    midnight = EPOCH + timedelta(days=1)
    while midnight <= instant:
        events.append((midnight, 0, state_just_before(config, midnight)))
        midnight += timedelta(days=1)
    for at, kind, on in sorted(events):  # a midnight ticks before a switch at that instant
        if at > instant:
            break
        if kind == 1:
            wdays = wdays if on else 0
        elif on:
            ndays += 1
        else:
            wdays += 1
    return ClockReading.from_ndays(ndays), WatchReading.from_wdays(wdays)


@given(configs(), offsets)
def test_clock_and_watch_match_the_simulation(config: NtimeConfig, offset: timedelta) -> None:
    instant = EPOCH + offset
    assert (clock_at(config, instant), watch_at(config, instant)) == simulate(config, instant)


@given(configs(), offsets, offsets)
def test_checking_period_is_monotonic(
    config: NtimeConfig, first: timedelta, second: timedelta
) -> None:
    earlier, later = sorted((EPOCH + first, EPOCH + second))
    assert checking_period_at(config, earlier) <= checking_period_at(config, later)


@given(configs(), offsets, offsets)
def test_checkpoints_are_exactly_where_the_checking_period_changes(
    config: NtimeConfig, first: timedelta, second: timedelta
) -> None:
    after, until = sorted((EPOCH + first, EPOCH + second))
    midnights = [EPOCH + timedelta(days=n) for n in range(1, HORIZON_DAYS + 1)]
    changes = [
        (m, checking_period_at(config, m - TICK), checking_period_at(config, m))
        for m in midnights
        if after < m <= until
    ]
    expected = [(m, old, new) for m, old, new in changes if old != new]
    found = checkpoints_between(config, after, until)
    assert [(c.instant, c.ending, c.beginning) for c in found] == expected
