"""Stops that last until their cause clears, folded into the Clock (rules 3 A, 23, 205).

Rule 23: "At the end of each nweek, the Clock Stops until the GM recognizes
... the rule changes"; rule 205: "If more than 2/3 of all players are On
Leave, The Clock shall become Off until such time as at least 1/3 of all
players are Off Leave."  With several causes at once the Clock is On only
when none holds (and rule 3 A's switches say On).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.games import ntime
from bot.games.ntime.stops import Stop, stops_at, with_stops

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def day(number: int, hour: int = 0) -> datetime:
    return datetime(2026, 1, number, hour, tzinfo=UTC)


def switches(config: ntime.NtimeConfig) -> list[tuple[datetime, bool]]:
    return [(switch.at, switch.on) for switch in config.switches]


def test_overlapping_stops_keep_the_clock_off_until_the_last_clears() -> None:
    config = ntime.NtimeConfig(epoch=EPOCH)
    stops = [Stop("23", day(11), day(12, 10)), Stop("205", day(12), day(13, 9))]
    folded = with_stops(config, stops)
    assert switches(folded) == [(day(11), False), (day(13, 9), True)]
    assert [cause.cause for cause in stops_at(stops, day(12, 6))] == ["23", "205"]
    assert [cause.cause for cause in stops_at(stops, day(13, 8))] == ["205"]
    assert stops_at(stops, day(13, 9)) == ()  # a stop holds until, not at, its restart


def test_a_stop_that_is_not_cleared_holds_the_clock_off() -> None:
    folded = with_stops(ntime.NtimeConfig(epoch=EPOCH), [Stop("23", day(11))])
    assert switches(folded) == [(day(11), False)]
    assert ntime.next_on_instant(folded, day(20)) is None


def test_a_stop_inside_a_switched_off_period_changes_nothing() -> None:
    """Rule 3 A's switch turned the Clock Off from day 5 to day 9; a stop within adds nothing,
    and one that outlasts the switch keeps the Clock Off until it clears."""
    config = ntime.NtimeConfig(
        epoch=EPOCH, switches=(ntime.Switch(day(5), False), ntime.Switch(day(9), True))
    )
    assert switches(with_stops(config, [Stop("205", day(6), day(7))])) == switches(config)
    longer = with_stops(config, [Stop("205", day(6), day(10, 6))])
    assert switches(longer) == [(day(5), False), (day(10, 6), True)]


def test_a_stop_that_lasts_no_time_is_no_switch() -> None:
    """Rule 23's stop until the Ballot is posted, when the Ballot is posted at that instant."""
    config = ntime.NtimeConfig(epoch=EPOCH)
    assert with_stops(config, [Stop("23", day(8), day(8))]).switches == ()


def test_the_end_of_the_nweek_still_ticks_when_the_clock_stops_there() -> None:
    """The Clock stopped at the end of nweek 1 reads nweek 2, nday 1 until it restarts."""
    folded = with_stops(ntime.NtimeConfig(epoch=EPOCH), [Stop("23", day(11), day(12, 10))])
    assert ntime.describe(folded, day(12, 9)).startswith("nweek 2, nday 1 (Clock Off")
    assert ntime.describe(folded, day(12, 23)) == "nweek 2, nday 1"
    assert ntime.describe(folded, day(13, 1)) == "nweek 2, nday 2"


def test_a_stop_must_not_clear_before_it_began() -> None:
    with pytest.raises(ValueError, match="before it began"):
        Stop("205", day(5), day(4))
