"""Rule changes and the Referee's console acts are admin records in the list archive.

A Clock switch (rule 3 A), a changed board size or price (rules 366, 374)
and a Bandwidth amount (rule 212) take effect at the instant their record
names, never before; the Referee's console acts (seeds 003, 000) take
effect at their place.  Each game is played live, then its list archive
alone is replayed into a fresh database: the rulings and every ``state``
view are the same, and posts before a change are judged with the old value
in the replay too.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import event, select

from bot.app import App, build_app
from bot.cli import main
from bot.config import GoSettings, NtimeSettings, load_settings
from bot.engine import holdings, ledger
from bot.engine.players import find_player_by_name
from bot.engine.refusals import refused_posts
from bot.store.models import RuleChange
from bot.testing import go_game
from bot.testing.apps import game_settings, write_config
from bot.testing.field_matches import field_app_settings
from bot.testing.records import RecordedGame, recording_app, rulings, tampered, views

ALICE, BOB = go_game.ALICE, go_game.BOB
GO_VIEWS = ("go", "players", "holdings", "dice")


def day(number: int, hour: int = 0, minute: int = 0) -> datetime:
    """Day ``number`` of January 2026 (the game's epoch is the 1st), at ``hour``."""
    return datetime(2026, 1, number, hour, minute, tzinfo=UTC)


def switch(on: bool, effective_at: datetime) -> dict[str, Any]:
    return {"on": on, "effective_at": effective_at.isoformat()}


def setting(name: str, value: int, effective_at: datetime) -> dict[str, Any]:
    return {"setting": name, "value": value, "effective_at": effective_at.isoformat()}


def balance(app: App, name: str, currency: str) -> int:
    with app.session_factory() as session:
        return ledger.balance(session, find_player_by_name(session, name).id, currency)


def test_clock_switches_take_effect_at_their_instant_live_and_in_replay(tmp_path: Path) -> None:
    play_with_clock_switches(tmp_path, "")


def test_clock_switches_on_postgresql_replay_the_same_into_sqlite(
    tmp_path: Path, fresh_postgres_url: str
) -> None:
    play_with_clock_switches(tmp_path, fresh_postgres_url)


def play_with_clock_switches(tmp_path: Path, database_url: str) -> None:
    game = RecordedGame(recording_app(game_settings(tmp_path / "live", database_url)))
    assert game.post(day(2, 10), ALICE, "I roll 1d6.") == "processed"
    status, reason = game.act(day(2, 12), "clock.switch", switch(False, day(4)))
    assert (status, reason) == (
        "processed",
        "admin record applied: the Clock is turned Off at 2026-01-04T00:00:00+00:00 (rule 3 A)",
    )
    # Recorded, but not in force before its instant: this post takes effect at once.
    assert game.post(day(3, 9), BOB, "I place a stone at E5.") == "processed"
    assert game.post(day(4, 9), ALICE, "I place a stone at C3.") == "held"  # rule 3 B
    status, reason = game.act(day(5, 12), "clock.switch", switch(True, day(6)))
    assert reason.endswith("1 post(s) held while it was Off now take effect")
    assert game.post(day(6, 9), BOB, "I place a stone at G7.") == "processed"
    live = rulings(game.app)
    assert [(action, ruling, instant) for action, ruling, _, _, instant in live] == [
        ("dice.roll", "applied", day(2, 10).isoformat()),
        ("go.place", "applied", day(3, 9).isoformat()),
        ("go.place", "applied", day(6).isoformat()),  # Alice's, held until the Clock was On
        ("go.place", "applied", day(6, 9).isoformat()),
    ]
    clock = game.app.services.clock
    assert [clock.reading(day(n, 12)).is_on for n in (3, 4, 5, 6)] == [True, False, False, True]

    fresh = game.replay_into(game_settings(tmp_path / "fresh"), until=day(7))
    assert rulings(fresh) == live
    assert views(fresh, *GO_VIEWS) == views(game.app, *GO_VIEWS)
    assert fresh.services.clock.config == game.app.services.clock.config


def test_a_board_size_and_a_price_change_at_their_instant_not_before(tmp_path: Path) -> None:
    """Rule set A on a 9x9 board: go.size 13 and a purchase base of 3 from day 3 on."""
    settings = game_settings(tmp_path / "live", go=GoSettings(rules="A", size=9))
    game = RecordedGame(recording_app(settings))
    grant = {"player": "Alice", "amount": 100, "currency": "points", "reason": "a grant"}
    game.act(day(2, 9), "ledger.credit", grant)
    game.act(day(2, 10), "setting.set", setting("go.size", 13, day(3)))
    game.act(day(2, 11), "setting.set", setting("go.purchase_base", 3, day(3)))
    game.act(day(2, 11, 30), "setting.set", setting("holdings.bandwidth_per_nweek", 7, day(5)))
    game.post(day(2, 12), ALICE, "I place a stone at k10.")  # off the 9x9 board still
    game.post(day(2, 13), ALICE, "I buy a stone. I buy a stone.")  # (5^n)-1: 0 and 4
    game.post(day(3, 12), ALICE, "I place a stone at k10.")  # the game begins on 13x13
    game.post(day(3, 13), ALICE, "I buy a stone.")  # (3^2)-1 = 8
    game.post(day(12, 9), BOB, "I roll 1d6.")  # nweek 2 began on day 11: 7BW (rule 212)
    live = rulings(game.app)
    outcomes = [(action, ruling) for action, ruling, *_ in live]
    assert outcomes == [
        ("go.place", "rejected"),
        ("go.purchase", "applied"),
        ("go.purchase", "applied"),
        ("go.place", "applied"),
        ("go.purchase", "applied"),
        ("dice.roll", "applied"),
    ]
    assert "K10 is not on the 9x9 board" in live[0][2]
    assert balance(game.app, "Alice", "points") == 100 - 0 - 4 - 8
    assert balance(game.app, "Bob", holdings.BANDWIDTH) == 7
    assert views(game.app, "go")["go"]["size"] == 13

    fresh = game.replay_into(
        game_settings(tmp_path / "fresh", go=GoSettings(rules="A", size=9)), until=day(13)
    )
    assert rulings(fresh) == live  # day 2's posts judged with the old values here too
    assert views(fresh, *GO_VIEWS) == views(game.app, *GO_VIEWS)
    assert balance(fresh, "Alice", "points") == 88


def test_under_rule_set_b_a_new_board_size_waits_for_the_next_game(tmp_path: Path) -> None:
    """Rule 1639 G resets the board when a game ends: the reset board takes the new size."""
    game = RecordedGame(recording_app(game_settings(tmp_path / "live")))
    game.post(day(1, 10), ALICE, "I place a stone at A1.")
    game.post(day(1, 11), BOB, "I place a stone at I9.")
    game.act(day(2, 9), "setting.set", setting("go.size", 13, day(5)))
    game.post(day(4, 10), ALICE, "I pass.")
    game.post(day(6, 10), BOB, "I place a stone at K10.")  # the game in progress keeps 9x9
    game.post(day(14, 10), ALICE, "I place a stone at K10.")  # day 13's Checkpoint ended it
    live = rulings(game.app)
    assert [(action, ruling) for action, ruling, *_ in live][-2:] == [
        ("go.place", "rejected"),
        ("go.place", "applied"),
    ]
    assert "not on the 9x9 board" in live[-2][2]
    assert views(game.app, "go")["go"]["size"] == 13

    fresh = game.replay_into(game_settings(tmp_path / "fresh"), until=day(15))
    assert rulings(fresh) == live
    assert views(fresh, *GO_VIEWS) == views(game.app, *GO_VIEWS)


def test_the_referees_console_acts_replay_at_their_place(tmp_path: Path) -> None:
    game = RecordedGame(recording_app(field_app_settings(tmp_path / "live")))
    assert game.act(day(3, 9), "field.select", {"match": "life"})[0] == "processed"
    refused = game.act(day(3, 9, 30), "field.select", {"match": "b-chess"})
    assert refused[0] == "ignored" and "Life is already the Current Field Match" in refused[1]
    assert game.act(day(3, 10), "field.initialize", {})[0] == "processed"
    game.post(day(3, 11), ALICE, "I roll 2d6.")
    evolved = game.act(day(4, 9), "field.evolve", {})
    assert evolved[0] == "processed" and "Evolve by the Referee (Turn 2)" in evolved[1]

    fresh = game.replay_into(field_app_settings(tmp_path / "fresh"), until=day(5))
    field_views = ("field", "players", "holdings", "dice")
    assert views(fresh, *field_views) == views(game.app, *field_views)
    assert views(fresh, "field")["field"]["turn_count"] == 2
    assert rulings(fresh) == rulings(game.app)


def test_a_change_with_a_changed_body_is_refused_by_replay(tmp_path: Path) -> None:
    game = RecordedGame(recording_app(game_settings(tmp_path / "live")))
    game.act(day(2, 10), "setting.set", setting("holdings.bandwidth_per_nweek", 7, day(5)))
    raw, at = game.archive[0]
    game.archive[0] = (tampered(raw, b'"value": 7', b'"value": 70'), at)
    fresh = game.replay_into(game_settings(tmp_path / "fresh"), until=day(12))
    with fresh.session_factory() as session:
        [refused] = refused_posts(session)
        assert session.scalars(select(RuleChange)).all() == []
    assert "signature does not verify" in refused.reason
    assert balance(fresh, "Bob", holdings.BANDWIDTH) == 10  # the starting value stands


def test_a_change_that_would_take_effect_before_it_was_made_is_refused(tmp_path: Path) -> None:
    game = RecordedGame(recording_app(game_settings(tmp_path / "live")))
    status, reason = game.act(day(3), "clock.switch", switch(False, day(2)))
    assert status == "ignored" and "a change may not rewrite the past" in reason
    status, reason = game.act(day(3), "clock.switch", switch(True, day(4)))
    assert status == "ignored" and "already On" in reason
    status, reason = game.act(day(3), "setting.set", setting("go.size", 40, day(4)))
    assert status == "ignored" and "out of bounds" in reason
    assert game.archive == []  # nothing refused was mailed to the list


def test_settings_are_read_once_per_unit_of_work(tmp_path: Path) -> None:
    """Refreshing costs one indexed query whatever the game's age; rows are read on change."""
    game = RecordedGame(recording_app(game_settings(tmp_path / "live")))
    game.act(day(2, 10), "setting.set", setting("holdings.bandwidth_per_nweek", 7, day(5)))
    rules = game.app.services.rules
    statements: list[str] = []

    def count(*arguments: Any) -> None:
        statements.append(str(arguments[2]))

    event.listen(game.app.engine, "before_cursor_execute", count)
    with game.app.session_factory() as session:
        rules.refresh(session)
        rules.refresh(session)
    # Each refresh is one look at the newest row; nothing changed, so no row is read.
    assert len(statements) == 2 and all("LIMIT" in statement for statement in statements)
    assert rules.value_at("holdings.bandwidth_per_nweek", day(4)) == 10
    assert rules.value_at("holdings.bandwidth_per_nweek", day(5)) == 7


def console(config: Path, *words: str) -> Any:
    return CliRunner().invoke(main, [*words, "--config", str(config)])


def test_the_console_commands_record_changes_now_or_later_only(tmp_path: Path) -> None:
    config = write_config(tmp_path / "bot")
    now = datetime.now(UTC)
    later = (now + timedelta(days=2)).replace(microsecond=0)
    past = console(config, "clock", "off", "--at", (now - timedelta(hours=1)).isoformat())
    assert past.exit_code != 0 and "is in the past" in past.output
    off = console(config, "clock", "off", "--at", later.isoformat())
    assert off.exit_code == 0, off.output
    assert f"the Clock is turned Off at {later.isoformat()}" in off.output
    size = console(config, "setting", "set", "go.size", "13", "--at", later.isoformat())
    assert size.exit_code == 0 and "go.size becomes 13" in size.output
    unknown = console(config, "setting", "set", "bot.name", "3")
    assert unknown.exit_code != 0 and "not changeable" in unknown.output
    listed = json.loads(console(config, "setting", "list", "--json").output)
    assert [(c["setting"], c["value"]) for c in listed] == [("ntime.clock", False), ("go.size", 13)]
    # A post judged at a later instant fixes that past: a change may not reach before it.
    game = RecordedGame(recording_app(load_settings(config)))
    game.post(later + timedelta(days=1), ALICE, "I roll 1d6.")
    behind = console(config, "clock", "on", "--at", (later + timedelta(hours=1)).isoformat())
    assert behind.exit_code != 0 and "would rewrite that past" in behind.output


def test_configured_switches_must_come_before_the_recorded_ones(tmp_path: Path) -> None:
    game = RecordedGame(recording_app(game_settings(tmp_path / "live")))
    game.act(day(2, 12), "clock.switch", switch(False, day(4)))
    edited = NtimeSettings(epoch=go_game.EPOCH.isoformat(), switches=("2026-01-05T00:00:00Z off",))
    with pytest.raises(ValueError, match="do not make one history"):
        build_app(game_settings(tmp_path / "live", ntime=edited))


def test_a_change_another_process_recorded_is_read_by_the_next_unit_of_work(
    tmp_path: Path,
) -> None:
    """The daemon's app was built before the console recorded a switch on the same database."""
    settings = game_settings(tmp_path / "live")
    daemon = RecordedGame(recording_app(settings))
    console = RecordedGame(recording_app(settings))
    console.act(day(2, 12), "clock.switch", switch(False, day(4)))
    assert daemon.app.services.clock.reading(day(5)).is_on  # not read yet: no unit of work
    assert daemon.post(day(4, 9), ALICE, "I place a stone at C3.") == "held"
    assert not daemon.app.services.clock.reading(day(5)).is_on
