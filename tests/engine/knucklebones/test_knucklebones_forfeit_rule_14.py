"""A player who forfeits the nomic (rule 14) leaves no intent to play Knucklebones behind."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.config import DEFAULT_GAMES, GamesSettings
from bot.engine.views import game_view
from bot.runner import advance_to
from bot.testing import go_game
from bot.testing.apps import game_settings
from bot.testing.records import RecordedGame, recording_app, rulings

ALICE, BOB = go_game.ALICE, go_game.BOB


def at(day: int, hour: int = 0) -> datetime:
    return datetime(2026, 1, day, hour, tzinfo=UTC)


def test_a_lost_souls_intents_lapse_and_no_game_starts(tmp_path: Path) -> None:
    games = GamesSettings(enabled=(*DEFAULT_GAMES, "knucklebones"))
    game = RecordedGame(recording_app(game_settings(tmp_path, games=games)))
    assert game.post(at(1, 9), ALICE, "I want to play Knucklebones against Bob.") == "processed"
    assert game.post(at(1, 10), BOB, "I want to play Knucklebones.") == "processed"
    assert game.post(at(1, 11), ALICE, "I forfeit the game.") == "processed"
    forfeit = rulings(game.app)[-1]
    assert forfeit[:2] == ("roster.forfeit", "applied")
    assert "Alice's intents to play Knucklebones lapse" in forfeit[2]
    advance_to(game.app, at(2, 1))
    with game.app.session_factory() as session:
        data = game_view(session, game.app.services, "knucklebones").data
    assert data["games"] == []
    assert [intent["player"] for intent in data["intents"]] == []  # Bob's lapsed unpaired
