"""When the Battle Phases of Knucklebones begin (docs/readings.md, "Knucklebones")."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine.games.knucklebones import midnights


def at(day: int, hour: int = 0) -> datetime:
    return datetime(2026, 1, day, hour, tzinfo=UTC)


def test_a_battle_phase_begins_at_every_midnight_in_the_interval() -> None:
    assert list(midnights(at(1, 9), at(3), 1)) == [at(2), at(3)]
    assert list(midnights(at(2), at(2, 23), 1)) == []  # (after, until]: not at its start


def test_every_other_day_counted_from_1970() -> None:
    # 2026-01-01 is day 20454 since 1970-01-01, an even day.
    assert list(midnights(at(1, 1), at(6), 2)) == [at(3), at(5)]
