"""Rule 3 B: actions posted while the Clock is Off take effect when it is turned On."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select

from bot.app import build_app
from bot.config import NtimeSettings
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import ActionRecord, Message
from bot.testing import go_game
from bot.testing.apps import game_settings

OFF = "2026-01-02T12:00:00+00:00 off"
ON = "2026-01-06T00:00:00+00:00 on"
POSTED = datetime(2026, 1, 3, 9, 0, tzinfo=UTC)


def post_while_off(folder: Path, switches: tuple[str, ...]) -> object:
    settings = game_settings(
        folder, ntime=NtimeSettings(epoch=go_game.EPOCH.isoformat(), switches=switches)
    )
    app = build_app(settings)
    raw = compose_post(
        "Alice", go_game.ALICE[1], "Go", "I place a stone at E5.", "off-1@example.test", POSTED
    )
    store_message(app, raw, "smtp", POSTED)
    process_queue(app.session_factory, app.services)
    return app


def test_a_post_made_while_the_clock_is_off_is_held(tmp_path: Path) -> None:
    app = post_while_off(tmp_path, (OFF,))
    with app.session_factory() as session:  # type: ignore[attr-defined]
        message = session.scalars(select(Message)).one()
        assert (message.status, message.status_reason) == (
            "held",
            "posted while the Clock is Off (rule 3 B)",
        )
        assert session.scalars(select(ActionRecord)).all() == []


def test_held_posts_take_effect_when_the_clock_is_turned_on(tmp_path: Path) -> None:
    post_while_off(tmp_path, (OFF,))
    app = post_while_off(tmp_path, (OFF, ON))  # the Clock is On again: same database
    with app.session_factory() as session:  # type: ignore[attr-defined]
        record = session.scalars(select(ActionRecord)).one()
        assert (record.action, record.ruling) == ("go.place", "applied")
        assert record.occurred_at == datetime(2026, 1, 6, tzinfo=UTC)
        # The Clock stood still at nday 2 while Off; turned On at a midnight,
        # it first ticks at the next one (rule 3 A, as bot.games.ntime reads it).
        assert record.ntime == "nweek 1, nday 2"
