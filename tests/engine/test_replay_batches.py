"""A replay's batches of posts (many posts per transaction) change no result.

The same posts judged one transaction per post (the live daemon) and many
per transaction (``process_queue(batch=...)``, as a replay does) leave the
same rulings, replies, statuses and shunts, also when a post raises in the
middle of a batch or a timed event due before a post raises.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App
from bot.engine import bandwidth, worker
from bot.engine.worker import QueueReport, process_queue
from bot.ingress.ingest import ingest
from bot.runner import store_message
from bot.store.models import ActionRecord, Message, OutboxMessage, Shunt, ShuntedEvent
from bot.testing import go_game
from bot.testing.apps import make_app

POSTS = go_game.SCRIPT[:16]
BROKEN_POST = POSTS[5].message_id  # a Move of period 2
DEFECT = "defect planted in the judging of one post"


def judged(
    folder: Path, batch: int, posts: tuple[go_game.ScriptedPost, ...] = POSTS
) -> tuple[App, QueueReport]:
    app = make_app(folder)
    for post in posts:
        store_message(app, post.raw(), "replay", post.at)
    return app, process_queue(app.session_factory, app.services, batch=batch)


def fingerprint(app: App) -> dict[str, Any]:
    """What a replay leaves: statuses, the action log, the outbox, the shunts."""
    with app.session_factory() as session:
        statuses = session.execute(
            select(
                Message.message_id,
                Message.status,
                Message.status_reason,
                Message.sender,
                Message.subject,
                Message.processed_at.is_not(None),
            ).order_by(Message.id)
        ).all()
        records = session.execute(
            select(
                ActionRecord.message_pk,
                ActionRecord.position,
                ActionRecord.action,
                ActionRecord.ruling,
                ActionRecord.summary,
                ActionRecord.reason,
                ActionRecord.draws,
                ActionRecord.effects,
            ).order_by(ActionRecord.id)
        ).all()
        outbox = session.execute(
            select(
                OutboxMessage.kind,
                OutboxMessage.in_reply_to_pk,
                OutboxMessage.message_id,
                OutboxMessage.raw,
            ).order_by(OutboxMessage.id)
        ).all()
        shunts = session.execute(select(Shunt.message_pk).order_by(Shunt.id)).all()
        events = session.execute(
            select(ShuntedEvent.handler, ShuntedEvent.due_after, ShuntedEvent.due_until)
        ).all()
    return {
        "statuses": [tuple(row) for row in statuses],
        "records": [tuple(row) for row in records],
        "outbox": [tuple(row) for row in outbox],
        "shunts": [tuple(row) for row in shunts],
        "events": [tuple(row) for row in events],
    }


def dispose_both(*apps: App) -> None:
    for app in apps:
        app.dispose()


def test_batches_leave_what_one_transaction_per_post_leaves(tmp_path: Path) -> None:
    single, single_report = judged(tmp_path / "single", 1)
    batched, batched_report = judged(tmp_path / "batched", 5)  # several batches, one short
    try:
        assert batched_report == single_report == QueueReport(len(POSTS), 0)
        assert fingerprint(batched) == fingerprint(single)
    finally:
        dispose_both(single, batched)


# Posts that change nothing but their own row: chatter from a player and from
# a list member who is no player, and a post whose only "action" is quoted.
CHATTER = (
    (go_game.ALICE, "Good game so far, Bob.\n\n-- \nAlice"),
    (("Carol", "carol@example.test"), "Who is winning?"),
    (go_game.BOB, "> I place a stone at E6.\n\nNice one."),
)


def with_chatter() -> tuple[go_game.ScriptedPost, ...]:
    chatter = [
        go_game.ScriptedPost(author, post.at + timedelta(minutes=5), body, 100 + number)
        for number, (post, (author, body)) in enumerate(zip(POSTS[::3], CHATTER * 2, strict=False))
    ]
    return tuple(sorted((*POSTS, *chatter), key=lambda post: post.at))


def test_posts_that_change_only_their_own_row_leave_it_as_a_flush_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch writes such a post's row with one statement; the row is the same."""
    original = worker._write_own_row_only
    written: list[str] = []

    def counted(session: Any, message: Message) -> bool:
        if original(session, message):
            written.append(message.message_id)
            return True
        return False

    monkeypatch.setattr(worker, "_write_own_row_only", counted)
    posts = with_chatter()
    single, single_report = judged(tmp_path / "single", 1, posts)
    assert written == []  # one transaction per post: the flush, as the live daemon does
    batched, batched_report = judged(tmp_path / "batched", 7, posts)
    try:
        assert batched_report == single_report == QueueReport(len(posts), 0)
        assert len(written) == len(posts) - len(POSTS)  # every chatter post, no Move
        found = fingerprint(batched)
        assert found == fingerprint(single)
        chatter = [row for row in found["statuses"] if row[0] in written]
        assert {row[1:3] for row in chatter} == {("processed", "no actions")}
        # Its sender, subject and time of judging were written with the status.
        assert all(row[3] and row[4] == "[Nomic] Political Go" and row[5] for row in chatter)
    finally:
        dispose_both(single, batched)


# Rule 205: Bob goes On Leave and comes back by acting, twice, between the
# Moves; a batch remembers who he is, and whether he is On Leave, only until
# a roster row is written.
LEAVE = (
    (go_game.BOB, "I go On Leave."),
    (go_game.BOB, "I roll 1d6."),
    (go_game.BOB, "I go On Leave."),
    (go_game.BOB, "I roll 1d6. I roll 1d4."),
    (go_game.BOB, "I go On Leave. I roll 1d6."),  # back within the post
)


def with_leave() -> tuple[go_game.ScriptedPost, ...]:
    leave = [
        go_game.ScriptedPost(author, post.at + timedelta(minutes=5), body, 200 + number)
        for number, (post, (author, body)) in enumerate(zip(POSTS[1::3], LEAVE, strict=False))
    ]
    return tuple(sorted((*POSTS, *leave), key=lambda post: post.at))


def test_going_on_and_off_leave_in_a_batch_is_judged_as_without_batches(tmp_path: Path) -> None:
    posts = with_leave()
    single, single_report = judged(tmp_path / "single", 1, posts)
    batched, batched_report = judged(tmp_path / "batched", 50, posts)
    try:
        assert batched_report == single_report == QueueReport(len(posts), 0)
        found = fingerprint(batched)
        assert found == fingerprint(single)
        off = [row for row in found["records"] if "is now Off Leave (rule 205)" in row[4]]
        assert len(off) == 3  # Bob's first game action after each leave
    finally:
        dispose_both(single, batched)


def planted_defect(monkeypatch: pytest.MonkeyPatch) -> None:
    original: Callable[..., None] = worker.process_message

    def process_message(session: Any, message: Message, *arguments: Any) -> None:
        original(session, message, *arguments)  # its writes are made, then undone
        if message.message_id == BROKEN_POST:
            raise RuntimeError(DEFECT)

    monkeypatch.setattr(worker, "process_message", process_message)


def test_a_post_that_raises_in_a_batch_is_shunted_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planted_defect(monkeypatch)
    single, single_report = judged(tmp_path / "single", 1)
    batched, batched_report = judged(tmp_path / "batched", 50)
    try:
        assert batched_report == single_report == QueueReport(len(POSTS) - 1, 1)
        found = fingerprint(batched)
        assert found == fingerprint(single)
        broken = [row[:3] for row in found["statuses"] if row[0] == BROKEN_POST]
        assert broken == [(BROKEN_POST, "shunted", f"RuntimeError: {DEFECT}")]
        [(broken_pk,)] = found["shunts"]
        assert broken_pk not in {row[1] for row in found["outbox"]}  # its reply was undone
        assert broken_pk not in {row[0] for row in found["records"]}  # and its rulings
    finally:
        dispose_both(single, batched)


@pytest.mark.shunts_events
def test_a_timed_event_that_raises_in_a_batch_is_settled_as_without_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def reset_at_nweek_start(*_arguments: object) -> int:
        raise RuntimeError("defect planted in the Bandwidth reset")

    monkeypatch.setattr(bandwidth, "reset_at_nweek_start", reset_at_nweek_start)
    single, single_report = judged(tmp_path / "single", 1)
    batched, batched_report = judged(tmp_path / "batched", 50)
    try:
        assert batched_report == single_report == QueueReport(len(POSTS), 0)
        found = fingerprint(batched)
        assert found == fingerprint(single)
        assert [handler for handler, *_ in found["events"]] == [
            "bot.engine.bandwidth.reset_bandwidth"
        ]
    finally:
        dispose_both(single, batched)


def test_a_post_that_queues_another_before_the_rest_is_followed_by_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch reads its posts in one query; judging one may queue another (a private
    vote's record, rule 15 B; posts held while the Clock was Off, rule 3 B), which
    must come next as it does when each post is a transaction of its own."""
    queuing, added = POSTS[2], go_game.SCRIPT[-1]
    original: Callable[..., None] = worker.process_message
    judging_order: list[str] = []

    def process_message(session: Any, message: Message, *arguments: Any) -> None:
        judging_order.append(message.message_id)
        if message.message_id == queuing.message_id:
            ingest(session, added.raw(), "replay", queuing.at + timedelta(seconds=1))
        original(session, message, *arguments)

    monkeypatch.setattr(worker, "process_message", process_message)
    single, single_report = judged(tmp_path / "single", 1)
    single_order, judging_order[:] = list(judging_order), []
    batched, batched_report = judged(tmp_path / "batched", 50)
    try:
        assert single_order[3] == added.message_id
        assert judging_order == single_order
        assert batched_report == single_report == QueueReport(len(POSTS) + 1, 0)
        assert fingerprint(batched) == fingerprint(single)
    finally:
        dispose_both(single, batched)
