"""Hostile mail shapes, end to end: too deep to read, and Message-IDs too long to store.

* A post whose body is nested deeper than the decoder follows used to be
  recorded as "no actions" and never answered; now its ruling says the body
  was not read and nothing was taken from it.
* ``Message.message_id`` is String(998): two posts whose Message-IDs share
  their first 998 characters used to be one post (the second a duplicate,
  never judged).  Long ones are kept as a prefix and a SHA-256 of the whole,
  the same way whether the post is stored live or replayed from an archive.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.app import App
from bot.engine.worker import process_queue
from bot.ingress.ingest import (
    COPY_MARK,
    MAX_KEPT_ID,
    REFUSED_MARK,
    ArrivingPost,
    ingest_many,
    message_id_of,
)
from bot.mail.decode import MAX_MIME_DEPTH
from bot.outbound.transports import MaildirTransport
from bot.posts import mbox_from_line
from bot.runner import replay_archive
from bot.store.models import Message
from bot.testing import go_game
from bot.testing.apps import make_app, write_mbox
from tests.backbone.conftest import ALICE_FROM, FIRST_ARRIVAL, compose

LONG_PREFIX = "x" * 1100  # past the 998 characters the column holds


def ruling_body(app: App, records: Any, identifier: str) -> str:
    return " ".join(records.ruling_text(app, identifier).split())


def nested_post(identifier: str, depth: int) -> bytes:
    plain = compose(identifier, "I roll 1d6.")
    head, _, body = plain.partition(b"\r\n\r\n")
    kept = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"content-")]
    inner = b"Content-Type: text/plain\r\n\r\n" + body
    for level in range(depth):
        boundary = b"level%d" % level
        inner = (
            b'Content-Type: multipart/mixed; boundary="' + boundary + b'"\r\n\r\n'
            b"--" + boundary + b"\r\n" + inner + b"\r\n--" + boundary + b"--\r\n"
        )
    return b"\r\n".join(kept) + b"\r\n" + inner


def test_a_post_nested_too_deep_gets_a_ruling_saying_it_was_not_read(
    game_app: App, judge: Any, records: Any
) -> None:
    judge(game_app, [nested_post("deep@example.test", MAX_MIME_DEPTH + 8)])
    assert records.actions(game_app, "deep@example.test") == []
    body = ruling_body(game_app, records, "deep@example.test")
    assert "APPLIED (none) REJECTED (none) NOT TAKEN (none) NOTES" in body
    assert (
        "The body of this post is nested more than 32 MIME parts deep, deeper than the "
        "referee reads, so it was not read and no action was taken from it" in body
    )


def test_a_post_at_the_depth_limit_is_judged_as_usual(
    game_app: App, judge: Any, records: Any
) -> None:
    judge(game_app, [nested_post("shallow@example.test", MAX_MIME_DEPTH)])
    [action] = records.actions(game_app, "shallow@example.test")
    assert (action.action, action.ruling) == ("dice.roll", "applied")
    assert "NOTES" not in ruling_body(game_app, records, "shallow@example.test")


def long_id_posts() -> list[bytes]:
    return [
        compose(f"{LONG_PREFIX}.{tail}@example.test", body, ALICE_FROM)
        for tail, body in (("one", "I roll 1d6."), ("two", "I roll 2d6."))
    ]


def test_long_message_ids_sharing_a_beginning_are_two_posts_live(
    game_app: App, judge: Any, records: Any
) -> None:
    first, second = long_id_posts()
    report = judge(game_app, [first, second])
    assert report.processed == 2
    keys = [message_id_of(first), message_id_of(second)]
    assert keys[0] != keys[1]
    assert all(len(key) <= MAX_KEPT_ID for key in keys)
    # A copy's or a refused copy's mark still fits in the column.
    assert all(len(f"{key}{COPY_MARK}0123456789abcdef)") <= 998 for key in keys)
    assert all(len(f"{key}{REFUSED_MARK}{2**63})") <= 998 for key in keys)
    counts = [[row.args["count"] for row in records.actions(game_app, key)] for key in keys]
    assert counts == [[1], [2]]
    assert all(len(records.rulings(game_app, key)) == 1 for key in keys)


def test_long_message_ids_get_the_same_keys_in_a_replay(tmp_path: Path) -> None:
    posts = long_id_posts()
    app = make_app(tmp_path / "bot")
    with app.session_factory.begin() as session:
        stored = ingest_many(session, [ArrivingPost(raw, FIRST_ARRIVAL) for raw in posts], "replay")
    assert stored == 2
    report = process_queue(app.session_factory, app.services)
    assert report.processed == 2
    archive = tmp_path / "archive.mbox"
    write_mbox(archive, [(raw, mbox_from_line(go_game.ALICE[1], FIRST_ARRIVAL)) for raw in posts])
    again = make_app(tmp_path / "again")
    replay_archive(again, archive, MaildirTransport(tmp_path / "out"), until=FIRST_ARRIVAL)
    for each in (app, again):
        with each.session_factory() as session:
            keys = sorted(session.scalars(select(Message.message_id)))
        assert keys == sorted(message_id_of(raw) for raw in posts)


def test_a_short_message_id_is_kept_as_written(make_post: Callable[..., bytes]) -> None:
    identifier = "y" * (MAX_KEPT_ID - len("@example.test")) + "@example.test"
    assert message_id_of(make_post(identifier, "I pass.")) == identifier
