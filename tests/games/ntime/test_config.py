"""NtimeConfig validation and its JSON round trip."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.games.ntime import ClockReading, NtimeConfig, Switch

EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


def test_json_round_trip_keeps_every_field() -> None:
    config = (
        NtimeConfig(epoch=EPOCH, epoch_reading=ClockReading(88, 4), on_at_epoch=False)
        .turned_on(EPOCH + timedelta(days=1, hours=3, microseconds=17))
        .turned_off(EPOCH + timedelta(days=9))
    )
    text = config.to_json()
    assert NtimeConfig.from_json(text) == config
    assert json.loads(text)["switches"][0] == {"at": "2024-01-02T03:00:00.000017+00:00", "on": True}


def test_json_refuses_other_formats_and_naive_instants() -> None:
    good = json.loads(NtimeConfig(epoch=EPOCH).to_json())
    with pytest.raises(ValueError, match="not an ntime configuration"):
        NtimeConfig.from_json(json.dumps({**good, "format": "something-else"}))
    with pytest.raises(ValueError, match="malformed"):
        NtimeConfig.from_json(json.dumps({**good, "epoch": "2024-01-01T00:00:00"}))
    with pytest.raises(ValueError, match="malformed"):
        NtimeConfig.from_json(json.dumps({k: v for k, v in good.items() if k != "switches"}))


def test_epoch_must_be_an_aware_utc_midnight() -> None:
    with pytest.raises(TypeError, match="naive"):
        NtimeConfig(epoch=datetime(2024, 1, 1))
    with pytest.raises(ValueError, match="not 00:00:00 UTC"):
        NtimeConfig(epoch=EPOCH + timedelta(hours=1))


def test_switches_must_increase_and_alternate() -> None:
    config = NtimeConfig(epoch=EPOCH).turned_off(EPOCH + timedelta(days=2))
    with pytest.raises(ValueError, match="already Off"):
        config.turned_off(EPOCH + timedelta(days=3))
    with pytest.raises(ValueError, match="strictly increasing"):
        config.turned_on(EPOCH + timedelta(days=1))
    with pytest.raises(ValueError, match="strictly increasing"):
        NtimeConfig(epoch=EPOCH, switches=(Switch(EPOCH, False),))
    with pytest.raises(TypeError, match="naive"):
        Switch(datetime(2024, 1, 3), True)


def test_on_at_end_follows_the_last_switch() -> None:
    config = NtimeConfig(epoch=EPOCH)
    assert config.on_at_end
    assert not config.turned_off(EPOCH + timedelta(hours=5)).on_at_end
