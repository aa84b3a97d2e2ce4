"""The election timetable, the Field's Referee and the Seal change from an instant on.

Rule 1823 A (docs/readings.md): each period of an Election takes the
length in force when it begins, so an Election called before a change
keeps its nomination period, its voting takes the length in force when the
voting opens, and no deadline already announced moves.  The Field's
Referee (seed 003) and the automatic Evolve (seed 000, rule 25) are the
ones in force at each Turn and at each nweek start.  Each game is played
live, then its list archive alone is replayed into a fresh database: the
rulings and the ``state`` views are the same.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from sqlalchemy import select

from bot.app import App
from bot.cli import main
from bot.config import DigestSettings, MinistryEntry, Settings
from bot.store.models import OutboxMessage
from bot.testing import field_matches, go_game
from bot.testing.apps import game_settings, write_config
from bot.testing.field_matches import field_app_settings
from bot.testing.records import RecordedGame, recording_app, rulings, views

ALICE, BOB = go_game.ALICE, go_game.BOB
MINISTRIES = (
    MinistryEntry("Meta-Ministry", "Alice"),
    MinistryEntry("Ministry of Justice"),
    MinistryEntry("Ministry of Twiddles"),
)
ELECTION_VIEWS = ("elections", "ministries", "players")


def day(number: int, hour: int = 0, minute: int = 0) -> datetime:
    """Day ``number`` of January 2026 (the game's epoch is the 1st), at ``hour``."""
    return datetime(2026, 1, number, hour, minute, tzinfo=UTC)


def setting(name: str, value: Any, effective_at: datetime) -> dict[str, Any]:
    return {"setting": name, "value": value, "effective_at": effective_at.isoformat()}


def election_settings(folder: Path) -> Settings:
    """Alice holds the Meta-Ministry (so gets digests); two Ministries are Open."""
    return game_settings(folder, ministries=MINISTRIES, digests=DigestSettings(seal=False))


def by_ministry(app: App) -> dict[str, dict[str, Any]]:
    return {item["ministry"]: item for item in views(app, "elections")["elections"]}


def test_each_election_period_takes_the_length_in_force_when_it_begins(tmp_path: Path) -> None:
    game = RecordedGame(recording_app(election_settings(tmp_path / "live")))
    game.act(day(1, 9), "setting.set", setting("elections.nomination_ndays", 2, day(2, 12)))
    game.act(day(1, 9, 30), "setting.set", setting("elections.voting_ndays", 2, day(3)))
    # Called before the shorter nominations take effect: it keeps its five ndays.
    assert game.post(day(2, 10), BOB, "I call an election for the Ministry of Justice.") == (
        "processed"
    )
    assert game.post(day(2, 13), BOB, "I call an election for the Ministry of Twiddles.") == (
        "processed"
    )
    game.post(day(3, 10), ALICE, "I nominate myself for Minister of Justice.")
    game.post(day(3, 11), BOB, "I nominate myself for Minister of Twiddles.")
    # The voting of Justice opens on day 7; this change is in force before it and
    # outlasts its start only after it began: the length it took stays.
    game.act(day(7, 12), "setting.set", setting("elections.voting_ndays", 6, day(8)))
    game.post(day(8, 9), BOB, "I vote Alice for Minister of Justice.")
    elections = by_ministry(game.app)
    justice, twiddles = elections["Ministry of Justice"], elections["Ministry of Twiddles"]
    assert (justice["nomination_ndays"], justice["voting_ndays"]) == (5, 2)
    assert justice["voting_started_at"] == day(7, 10).isoformat()  # five ndays after the call
    assert justice["deadline"] == day(9, 10).isoformat()  # two ndays: not moved by the 6
    assert (twiddles["nomination_ndays"], twiddles["voting_ndays"]) == (2, 2)
    assert twiddles["voting_started_at"] == day(4, 13).isoformat()
    assert (twiddles["phase"], twiddles["closed_at"]) == ("closed", day(6, 13).isoformat())
    assert twiddles["winner"] == "Bob"
    outcomes = [(action, ruling) for action, ruling, *_ in rulings(game.app)]
    assert outcomes == [
        ("elections.call", "applied"),
        ("elections.call", "applied"),
        ("elections.nominate", "applied"),
        ("elections.nominate", "applied"),
        ("elections.vote", "applied"),
    ]
    # The Meta-Minister's digest on day 8, as the 6 takes effect, shows the stored deadline.
    assert "voting until 2026-01-09 10:00:00 UTC" in digest_to(game, ALICE[1], day(8))

    fresh = game.replay_into(election_settings(tmp_path / "fresh"), until=day(10))
    assert rulings(fresh) == rulings(game.app)
    assert views(fresh, *ELECTION_VIEWS) == views(game.app, *ELECTION_VIEWS)
    closed = by_ministry(fresh)["Ministry of Justice"]
    assert (closed["phase"], closed["closed_at"]) == ("closed", day(9, 10).isoformat())


def digest_to(game: RecordedGame, address: str, at: datetime) -> str:
    from email import message_from_bytes
    from email.message import EmailMessage
    from email.policy import default

    with game.app.session_factory() as session:
        rows = session.scalars(
            select(OutboxMessage.raw).where(OutboxMessage.kind == "digest")
        ).all()
    for raw in rows:
        mail = message_from_bytes(raw, policy=default)
        assert isinstance(mail, EmailMessage)
        body = mail.get_body(preferencelist=("plain",))
        text = str(body.get_content()) if body is not None else ""
        if address in str(mail["To"]) and at.strftime("%Y-%m-%d %H:%M:%S") in text:
            return text
    raise AssertionError(f"no digest to {address} at {at}")


def test_the_seal_is_posted_only_while_it_is_in_force(tmp_path: Path) -> None:
    """Rule 1906: the Seal announcement from the instant the record names on."""
    game = RecordedGame(recording_app(election_settings(tmp_path / "live")))
    game.act(day(1, 9), "setting.set", setting("digests.seal", True, day(3, 12)))
    game.post(day(4, 9), BOB, "I roll 1d6.")

    def seals(app: App) -> list[str]:
        with app.session_factory() as session:
            query = select(OutboxMessage.message_id).where(OutboxMessage.kind == "seal")
            return sorted(session.scalars(query))

    live = seals(game.app)
    assert len(live) == 1  # day 4's digest; days 2 and 3 were before the change
    fresh = game.replay_into(election_settings(tmp_path / "fresh"), until=day(4, 10))
    assert seals(fresh) == live


def test_the_referee_and_the_automatic_evolve_change_at_their_instant(tmp_path: Path) -> None:
    rita, alice = field_matches.RITA, field_matches.ALICE
    game = RecordedGame(recording_app(field_app_settings(tmp_path / "live")))
    assert game.post(day(3, 9), rita, "I select Life as the Current Field Match.") == "processed"
    status, reason = game.act(
        day(3, 10), "setting.set", setting("field_matches.referee", "alice", day(4))
    )
    assert (status, reason) == (
        "processed",
        "admin record applied: field_matches.referee becomes Alice at "
        "2026-01-04T00:00:00+00:00 (rule 003-2, 625)",
    )
    game.post(day(3, 12), rita, "I initialize the field.")  # Rita is the Referee until day 4
    game.post(day(5, 9), rita, "I evolve the field.")  # no longer
    game.post(day(5, 10), alice, "I evolve the field.")
    # Recorded before nweek 2 begins on day 11, in force only from day 15 on.
    game.act(day(6), "setting.set", setting("field_matches.auto_evolve", False, day(15)))
    game.post(day(22, 9), alice, "I roll 1d6.")
    outcomes = [(action, ruling) for action, ruling, *_ in rulings(game.app)]
    assert outcomes == [
        ("field.select", "applied"),
        ("field.initialize", "applied"),
        ("field.evolve", "rejected"),
        ("field.evolve", "applied"),
        ("dice.roll", "applied"),
    ]
    history = views(game.app, "field")["field"]["history"]
    evolves = [
        (entry["nweek"], entry["invoker"]) for entry in history if entry["action"] == "Evolve"
    ]
    # Alice's on day 5, and the bot's at nweek 2's start as Referee Alice; none at nweek 3.
    assert evolves == [(1, "Alice"), (2, "Alice")]

    fresh = game.replay_into(field_app_settings(tmp_path / "fresh"), until=day(23))
    field_views = ("field", "players", "dice")
    assert rulings(fresh) == rulings(game.app)
    assert views(fresh, *field_views) == views(game.app, *field_views)


def test_out_of_bounds_and_unknown_values_are_refused(tmp_path: Path) -> None:
    game = RecordedGame(recording_app(field_app_settings(tmp_path / "live")))
    refused = {
        ("elections.voting_ndays", 101): "out of bounds",
        ("elections.nomination_ndays", 0): "out of bounds (1 to 100)",
        ("field_matches.referee", "Zoe"): "no player is named 'Zoe'",
        ("field_matches.auto_evolve", "yes"): "true or false is needed",
        ("digests.seal", 1): "true or false is needed",
    }
    for (name, value), reason in refused.items():
        status, said = game.act(day(3), "setting.set", setting(name, value, day(4)))
        assert status == "ignored" and reason in said, (name, said)
    assert game.archive == []  # nothing refused was mailed to the list


def console(config: Path, *words: str) -> Any:
    return CliRunner().invoke(main, [*words, "--config", str(config)])


def test_the_console_reads_each_kind_of_value(tmp_path: Path) -> None:
    config = write_config(tmp_path / "bot")
    later = "2030-01-01T00:00:00+00:00"
    evolve = console(config, "setting", "set", "field_matches.auto_evolve", "off", "--at", later)
    assert evolve.exit_code == 0 and "auto_evolve becomes False" in evolve.output, evolve.output
    nobody = console(config, "setting", "set", "field_matches.referee", "", "--at", later)
    assert nobody.exit_code == 0, nobody.output
    wrong = console(config, "setting", "set", "elections.voting_ndays", "four", "--at", later)
    assert wrong.exit_code != 0 and "a whole number is needed" in wrong.output
    listed = console(config, "setting", "list")
    assert "elections.voting_ndays\t(rule 625 B, 1823 A)" in listed.output


def test_a_rotation_election_takes_the_moderator_in_force_when_it_is_called(
    tmp_path: Path,
) -> None:
    """Rule 625 B: with nobody Kurt Godel, the configured Moderator; a change names another
    for the Elections called after it, and those called before keep theirs."""
    nobody_godel = (MinistryEntry("Meta-Ministry"), MinistryEntry("Ministry of Justice"))

    def settings(folder: Path) -> Settings:
        return game_settings(folder, ministries=nobody_godel, digests=DigestSettings(seal=False))

    game = RecordedGame(recording_app(settings(tmp_path / "live")))
    game.act(day(1, 9), "setting.set", setting("elections.moderator", "Bob", day(5)))
    game.post(day(12, 9), ALICE, "I roll 1d6.")  # past nweek 2's start (day 11)
    called = sorted(
        (item["called_at"], item["moderator"]) for item in views(game.app, "elections")["elections"]
    )
    before = {moderator for at, moderator in called if at < day(5).isoformat()}
    after = {moderator for at, moderator in called if at >= day(5).isoformat()}
    assert after == {"Bob"}, called
    assert "Bob" not in before, called
    fresh = game.replay_into(settings(tmp_path / "fresh"), until=day(12, 10))
    assert views(fresh, *ELECTION_VIEWS) == views(game.app, *ELECTION_VIEWS)
