"""A post whose processing raises is shunted whole, listed, re-queued and later judged.

The defect is planted in our own code (the Go adapter's apply raises for one
post).  That post registers Carol before the crash, so a kept registration
would show that part of the failed transaction survived.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App
from bot.engine.games.go import GoAdapter
from bot.engine.rulings import Ruling, Turn
from bot.engine.worker import QueueReport, process_queue
from bot.parser import ParsedAction
from bot.runner import store_message
from bot.store.models import Player, Shunt
from bot.testing import go_game
from bot.testing.apps import go_state, make_app, nomicbot, write_config

DEFECT = "defect planted in the Go adapter"
CAROL_POST = go_game.ScriptedPost(
    ("Carol", "carol@example.test"),
    go_game.SCRIPT[0].at + timedelta(hours=1),
    "I request to become a player with the name Carol.\nI place a stone at C3.",
    700,
)
POSTS = (go_game.SCRIPT[0], CAROL_POST, go_game.SCRIPT[3])


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "bot"


@pytest.fixture
def app(folder: Path) -> Iterator[App]:
    built = make_app(folder)
    yield built
    built.dispose()


@pytest.fixture
def defective(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    original = GoAdapter.apply

    def apply(self: GoAdapter, action: ParsedAction, turn: Turn) -> Ruling:
        if turn.message_id == CAROL_POST.message_id:
            raise RuntimeError(DEFECT)
        return original(self, action, turn)

    monkeypatch.setattr(GoAdapter, "apply", apply)
    return monkeypatch


def judge_all(app: App) -> QueueReport:
    for post in POSTS:
        store_message(app, post.raw(), "replay", post.at)
    return process_queue(app.session_factory, app.services)


def player_names(app: App) -> list[str]:
    with app.session_factory() as session:
        return list(session.scalars(select(Player.name).order_by(Player.id)))


def shunts(app: App) -> list[Shunt]:
    with app.session_factory() as session:
        return list(session.scalars(select(Shunt)))


def test_a_crashing_post_is_shunted_with_nothing_of_it_kept(
    app: App, defective: pytest.MonkeyPatch, records: Any
) -> None:
    assert judge_all(app) == QueueReport(processed=2, shunted=1)
    message = records.message(app, CAROL_POST.message_id)
    assert message.status == "shunted"
    assert message.status_reason == f"RuntimeError: {DEFECT}"
    [shunt] = shunts(app)
    assert shunt.message_pk == message.id and shunt.requeued_at is None
    assert "Traceback (most recent call last)" in shunt.traceback
    assert f"RuntimeError: {DEFECT}" in shunt.traceback
    assert player_names(app) == ["Alice", "Bob"]  # the registration was rolled back
    assert records.actions(app, CAROL_POST.message_id) == []
    assert records.rulings(app, CAROL_POST.message_id) == []
    assert "C3" not in go_state(app)["stones"]


def test_later_posts_are_still_judged(
    app: App, defective: pytest.MonkeyPatch, records: Any
) -> None:
    judge_all(app)
    for post in (go_game.SCRIPT[0], go_game.SCRIPT[3]):
        assert records.message(app, post.message_id).status == "processed"
        assert len(records.rulings(app, post.message_id)) == 1
    assert go_state(app)["stones"] == {"E5": "Alice", "A2": "Alice"}


def test_the_command_line_lists_and_requeues_it_and_it_is_judged_once_mended(
    app: App, folder: Path, defective: pytest.MonkeyPatch, records: Any
) -> None:
    config = write_config(folder)
    judge_all(app)
    pk = records.message(app, CAROL_POST.message_id).id
    listed = nomicbot(config, "shunted")
    assert listed.stdout.startswith(f"{pk}\t<{CAROL_POST.message_id}>\t")
    assert listed.stdout.rstrip().endswith(f"RuntimeError: {DEFECT}")
    assert "1 shunted message(s)" in listed.stderr
    assert "1 message(s) re-queued" in nomicbot(config, "shunted", "requeue", str(pk)).stdout
    defective.undo()  # the defect is mended
    assert process_queue(app.session_factory, app.services) == QueueReport(1, 0)
    assert records.message(app, CAROL_POST.message_id).status == "processed"
    assert [a.ruling for a in records.actions(app, CAROL_POST.message_id)] == ["applied"] * 2
    assert player_names(app) == ["Alice", "Bob", "Carol"]
    assert go_state(app)["stones"]["C3"] == "Carol"
    assert shunts(app)[0].requeued_at is not None
    assert "0 shunted message(s)" in nomicbot(config, "shunted", "list").stderr


def test_requeueing_a_message_that_is_not_shunted_changes_nothing(
    app: App, folder: Path, records: Any
) -> None:
    config = write_config(folder)
    judge_all(app)
    pk = records.message(app, CAROL_POST.message_id).id
    assert "0 message(s) re-queued" in nomicbot(config, "shunted", "requeue", str(pk)).stdout
    assert process_queue(app.session_factory, app.services) == QueueReport(0, 0)
