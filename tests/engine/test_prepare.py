"""The parallel preparer never costs a post: failures fall back to inline."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from bot import runner
from bot.engine import prepare, worker
from bot.engine.prepare import ParallelPipeline
from bot.engine.worker import process_queue
from bot.ingress.ingest import ArrivingPost, ingest_many
from bot.outbound.transports import MaildirTransport
from bot.pipeline import PostContext, run_pipeline
from bot.posts import mbox_from_line
from bot.testing import go_game
from bot.testing.apps import action_log, make_app, message_statuses, write_mbox
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


def test_the_preparing_process_starts_without_the_database_models() -> None:
    # What a new preparing process imports before its first post: the
    # stages, not the store (an admin record's reader imports it when a
    # post carries one).
    program = (
        "import sys, bot.engine.prepare; "
        "print(sorted(name for name in ('sqlalchemy', 'bot.store.models') if name in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],  # this checkout's bot package
    )
    assert result.stdout.strip() == "[]"


def test_an_admin_record_is_still_read_by_the_preparing_stages(tmp_path: Path) -> None:
    # The record's reader is imported where a post carries one: a forged
    # record is refused by the stages, as before.
    app = make_app(tmp_path)
    raw = (
        b"From: someone@example.org\nTo: nomic@lists.example.org\nSubject: x\n"
        b"Content-Type: application/vnd.nomicbot.admin-record\n\nnot a record\n"
    )
    context = run_pipeline(raw, app.services.pipeline_settings)
    assert context.refused
    assert (context.stop_reason or "").startswith("an admin record that is not applied")


def test_a_replay_prepares_its_first_posts_while_it_stores_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Go script's 26 posts stored 4 at a time, the preparing process
    # started after the first 4 and given the first 12 while the rest are
    # stored: the judging finds them prepared, and judges them as inline.
    monkeypatch.setattr(runner, "STORE_BATCH", 4)
    monkeypatch.setattr(runner, "PARALLEL_FROM", 4)
    monkeypatch.setattr(runner, "HEAD_START", 12)
    archive = tmp_path / "go.mbox"
    write_mbox(
        archive,
        [(post.raw(), mbox_from_line(go_game.ALICE[1], post.at)) for post in go_game.SCRIPT],
    )
    ahead: list[int] = []  # the posts given to the preparing process while storing

    def upcoming_while_storing(session: Session, limit: int) -> list[tuple[int, bytes]]:
        posts = worker.upcoming(session, limit)
        ahead.extend(pk for pk, _raw in posts)
        return posts

    prepared: list[int] = []  # the posts the judging found prepared
    real_take = ParallelPipeline.take

    def take(pipeline: ParallelPipeline, message_pk: int) -> PostContext | None:
        context = real_take(pipeline, message_pk)
        if context is not None:
            prepared.append(message_pk)
        return context

    monkeypatch.setattr(runner, "upcoming", upcoming_while_storing)
    monkeypatch.setattr(ParallelPipeline, "take", take)
    app = make_app(tmp_path / "replayed")
    report = runner.replay_archive(app, archive, MaildirTransport(tmp_path / "out"))
    assert report.queue.processed == 26
    assert sorted(set(ahead)) == list(range(1, 13))  # the first 12 posts, in judging order
    assert set(range(1, 13)) <= set(prepared)
    assert action_log(app) == expected_log()
