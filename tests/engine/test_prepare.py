"""The parallel preparer never costs a post: failures fall back to inline."""

from __future__ import annotations

import os
from pathlib import Path

from bot.engine import prepare
from bot.engine.prepare import ParallelPipeline
from bot.engine.worker import process_queue
from bot.ingress.ingest import ArrivingPost, ingest_many
from bot.testing import go_game
from bot.testing.apps import action_log, make_app, message_statuses
from bot.testing.go_game import expected_log


def store_script(app: object) -> None:
    with app.session_factory.begin() as session:  # type: ignore[attr-defined]
        posts = [ArrivingPost(post.raw(), post.at) for post in go_game.SCRIPT]
        ingest_many(session, posts, "replay")


def _die(raw: bytes, settings: object) -> object:
    os._exit(3)  # the preparing process dies abruptly


def test_a_dead_preparing_process_costs_no_post(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    app = make_app(tmp_path)
    store_script(app)
    with ParallelPipeline(app.services.pipeline_settings) as pipeline:
        monkeypatch.setattr(prepare, "_prepare", _die)
        report = process_queue(app.session_factory, app.services, pipeline=pipeline)
        assert pipeline.broken
    assert (report.processed, report.shunted) == (26, 0)
    assert action_log(app) == expected_log()
    assert set(message_statuses(app).values()) == {"processed"}


def test_prepared_posts_are_judged_as_inline_ones(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    store_script(app)
    with ParallelPipeline(app.services.pipeline_settings) as pipeline:
        report = process_queue(app.session_factory, app.services, pipeline=pipeline)
        assert not pipeline.broken
    assert (report.processed, report.shunted) == (26, 0)
    assert action_log(app) == expected_log()
