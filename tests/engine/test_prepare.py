"""The parallel preparer never costs a post: failures fall back to inline."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

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


def _write_go_archive(path: Path) -> Path:
    write_mbox(
        path, [(post.raw(), mbox_from_line(go_game.ALICE[1], post.at)) for post in go_game.SCRIPT]
    )
    return path


def test_a_replay_prepares_its_first_posts_before_it_stores_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Go script's 26 posts, the preparing process started once 4 are
    # read and given the first 12 before any is stored: the judging finds
    # them prepared, and judges them as inline.
    monkeypatch.setattr(runner, "STORE_BATCH", 4)
    monkeypatch.setattr(runner, "PARALLEL_FROM", 4)
    monkeypatch.setattr(runner, "HEAD_START", 12)
    archive = _write_go_archive(tmp_path / "go.mbox")
    events: list[tuple[str, int]] = []  # ("submit" | "store", how many posts), in order
    real_submit, real_ingest = ParallelPipeline.submit, runner.ingest_many

    def submit(pipeline: ParallelPipeline, raws: Iterable[bytes]) -> None:
        given = list(raws)
        events.append(("submit", len(given)))
        real_submit(pipeline, given)

    def ingest_many(session: Session, posts: Sequence[ArrivingPost], source: str) -> int:
        events.append(("store", len(posts)))
        return real_ingest(session, posts, source)

    prepared: list[int] = []  # the posts the judging found prepared
    real_take = ParallelPipeline.take

    def take(pipeline: ParallelPipeline, message_pk: int) -> PostContext | None:
        context = real_take(pipeline, message_pk)
        if context is not None:
            prepared.append(message_pk)
        return context

    monkeypatch.setattr(ParallelPipeline, "submit", submit)
    monkeypatch.setattr(runner, "ingest_many", ingest_many)
    monkeypatch.setattr(ParallelPipeline, "take", take)
    app = make_app(tmp_path / "replayed")
    report = runner.replay_archive(app, archive, MaildirTransport(tmp_path / "out"))
    assert report.queue.processed == 26
    assert events[:2] == [("submit", 4), ("submit", 8)]  # the first 12, before any is stored
    assert events[2][0] == "store"
    assert set(range(1, 13)) <= set(prepared)
    assert action_log(app) == expected_log()


def test_an_archive_read_ahead_with_other_settings_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Posts prepared under other settings (here another list address) would
    # be judged by those: the replay leaves them, and prepares the archive anew.
    monkeypatch.setattr(runner, "PARALLEL_FROM", 4)
    archive = _write_go_archive(tmp_path / "go.mbox")
    app = make_app(tmp_path / "replayed")
    other = replace(app.services.pipeline_settings, list_addresses=frozenset({"x@example.org"}))
    with runner.ArchiveAhead(archive, other) as ahead:
        assert ahead.pipeline is not None
        report = runner.replay_archive(
            app, archive, MaildirTransport(tmp_path / "out"), ahead=ahead
        )
        assert ahead.pipeline.pending  # given the archive, never asked for it
        assert not ahead.pipeline.names
    assert report.queue.processed == 26
    assert action_log(app) == expected_log()


def test_a_small_archive_starts_no_preparing_process(tmp_path: Path) -> None:
    archive = _write_go_archive(tmp_path / "go.mbox")
    app = make_app(tmp_path / "replayed")
    assert len(go_game.SCRIPT) < runner.PARALLEL_FROM
    with runner.ArchiveAhead(archive, app.services.pipeline_settings) as ahead:
        assert ahead.pipeline is None
        assert len(list(ahead.posts())) == len(go_game.SCRIPT)


def test_a_replay_leaves_the_collector_as_it_found_it(tmp_path: Path) -> None:
    # Fewer collections while the posts are stored and judged, the
    # process's own thresholds after (a test run, a daemon's console).
    archive = _write_go_archive(tmp_path / "go.mbox")
    app = make_app(tmp_path / "replayed")
    before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    real_process_queue = runner.process_queue

    def process_queue_noting(*arguments: Any, **keywords: Any) -> worker.QueueReport:
        seen.append(gc.get_threshold())
        return real_process_queue(*arguments, **keywords)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "process_queue", process_queue_noting)
        runner.replay_archive(app, archive, MaildirTransport(tmp_path / "out"))
    assert seen == [prepare.FEWER_COLLECTIONS]
    assert gc.get_threshold() == before
