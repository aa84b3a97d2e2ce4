"""Every message file of the email corpora, stored with ingest() and judged by the worker.

The corpora hold malformed, huge, wrongly labelled, HTML-only and bounced
mail.  None of it may crash the worker (a shunt), bounces and auto-replies
must be ignored with a reason, and exactly the posts in which the pipeline
reads an action get exactly one ruling.  The first pass runs the corpus
interleaved with the scripted Political Go game, which must end exactly as
it does alone.

Several corpus files share a Message-ID (copies of one fixture, or variants
of one message); ingest() rightly stores such a file once, so the files that
repeat an earlier Message-ID are judged in further passes on fresh bots.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App
from bot.engine.worker import QueueReport, process_queue
from bot.ingress.ingest import message_id_of, post_message_id
from bot.pipeline import run_pipeline
from bot.runner import store_message
from bot.store.models import Message
from bot.testing import go_game
from bot.testing.apps import action_log, board_text, make_app
from bot.testing.go_game import EXPECTED_BOARD, expected_log

NOT_MESSAGES = frozenset({"PROVENANCE.md", "expectations.json", ".gitignore"})

# Delivery and disposition reports, abuse reports and auto-replies, picked
# out by reading each file (not by the loop guard's rules).
AUTOMATIC = frozenset(
    {
        "cpython_test_email/msg_05.txt",
        "cpython_test_email/msg_16.txt",
        "cpython_test_email/msg_25.txt",
        "cpython_test_email/msg_43.txt",
        "flanker/tests/fixtures/messages/bounce/broken-mime.eml",
        "flanker/tests/fixtures/messages/bounce/delayed-broken.eml",
        "flanker/tests/fixtures/messages/bounce/delayed.eml",
        "flanker/tests/fixtures/messages/bounce/gmail-invalid-address.eml",
        "flanker/tests/fixtures/messages/bounce/gmail-no-dns.eml",
        "flanker/tests/fixtures/messages/bounce/mailbox-full.eml",
        "flanker/tests/fixtures/messages/bounce/no-mx.eml",
        "flanker/tests/fixtures/messages/bounce/office365.eml",
        "flanker/tests/fixtures/messages/bounce/zed.eml",
        "flanker/tests/fixtures/messages/complaints/aol.eml",
        "flanker/tests/fixtures/messages/complaints/yahoo.eml",
        "flanker/tests/fixtures/messages/disposition-notification.eml",
        "mail_parser/tests/mails/mail_malformed_2",
    }
)

# 2000-era posts people wrote to a mailing list (Majordomo's), which the
# list stamped "Precedence: bulk": an auto-responder's answer looks the same,
# so they are not acted on (the trust model, docs/trust.md: "Precedence:
# bulk|junk|auto_reply (whoever relayed it)"); a list that stamps bulk on
# every post must be set to "list" (Mailman 3 and 2.1 do).
BULK_LIST_POSTS = frozenset(
    {
        "cpython_test_email/msg_32.txt",
        "cpython_test_email/msg_33.txt",
        "flanker/tests/fixtures/messages/apache-message-news-mime.eml",
        "flanker/tests/fixtures/messages/from-encoding.eml",
        "flanker/tests/fixtures/messages/message-external-body.eml",
    }
)
# A post a person wrote to a mailing list that stamps "Precedence: list"
# (Mailman 3): read, never ignored.
LIST_POSTS = frozenset({"mailman3_list_post.eml"})


@dataclass(frozen=True)
class CorpusPost:
    name: str  # path below the corpora's email/ folder
    raw: bytes
    message_id: str


def corpus_posts(corpora: Path) -> list[CorpusPost]:
    root = corpora / "email"
    paths = sorted(p for p in root.rglob("*") if p.is_file() and p.name not in NOT_MESSAGES)
    return [
        CorpusPost(str(path.relative_to(root)), raw, message_id_of(raw))
        for path in paths
        for raw in (path.read_bytes(),)
    ]


def passes(posts: list[CorpusPost]) -> list[list[CorpusPost]]:
    """Pass n holds each Message-ID's n-th file, so no pass repeats a Message-ID."""
    seen: dict[str, int] = defaultdict(int)
    rounds: list[list[CorpusPost]] = []
    for post in posts:
        number = seen[post.message_id]
        seen[post.message_id] += 1
        if number == len(rounds):
            rounds.append([])
        rounds[number].append(post)
    return rounds


def expects_ruling(app: App, raw: bytes) -> bool:
    """What the stages alone say: a post with any action (or garbled one) gets a ruling."""
    context = run_pipeline(raw, app.services.pipeline_settings)
    if context.stop_reason is not None or context.parsed is None:
        return False
    return bool(context.parsed.actions or context.parsed.not_understood)


def arrivals(count: int) -> Iterator[datetime]:
    # Spread over the scripted game's weeks, between its posts.
    span = go_game.GAME_END - go_game.EPOCH
    for index in range(count):
        yield go_game.EPOCH + span * (index + 0.5) / count + timedelta(seconds=17)


@dataclass(frozen=True)
class Judged:
    app: App
    posts: list[CorpusPost]
    stored: dict[str, bool]  # corpus file name -> ingest() stored it
    queue: QueueReport


def judge_pass(folder: Path, posts: list[CorpusPost], with_game: bool) -> Judged:
    app = make_app(folder)
    stored = {}
    for post, at in zip(posts, arrivals(len(posts)), strict=True):
        stored[post.name] = store_message(app, post.raw, "replay", at).stored
    if with_game:
        for scripted in go_game.SCRIPT:
            store_message(app, scripted.raw(), "replay", scripted.at)
    return Judged(app, posts, stored, process_queue(app.session_factory, app.services))


@pytest.fixture(scope="module")
def first_pass(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Judged]:
    posts = corpus_posts(corpora)
    judged = judge_pass(tmp_path_factory.mktemp("corpus") / "bot", passes(posts)[0], True)
    yield judged
    judged.app.dispose()


@pytest.fixture(scope="module")
def later_passes(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Judged]]:
    rounds = passes(corpus_posts(corpora))[1:]
    judged = [
        judge_pass(tmp_path_factory.mktemp(f"corpus-{number}") / "bot", posts, False)
        for number, posts in enumerate(rounds, start=1)
    ]
    yield judged
    for each in judged:
        each.app.dispose()


def statuses(app: App) -> dict[str, tuple[str, str]]:
    with app.session_factory() as session:
        rows = session.execute(select(Message.message_id, Message.status, Message.status_reason))
        # A copy refused as possibly forged gives up its Message-ID (docs/trust.md).
        return {post_message_id(row.message_id): (row.status, row.status_reason) for row in rows}


def test_the_corpus_holds_every_kind_of_file(corpora: Path) -> None:
    posts = corpus_posts(corpora)
    names = {post.name for post in posts}
    assert len(posts) >= 200
    assert names.issuperset(AUTOMATIC | LIST_POSTS | BULK_LIST_POSTS)
    assert max(len(post.raw) for post in posts) > 1_000_000  # the huge ones are there


def test_every_file_is_stored_once_per_message_id(corpora: Path, first_pass: Judged) -> None:
    firsts = {post.name for post in first_pass.posts}
    assert all(first_pass.stored[name] for name in firsts)
    assert len(first_pass.posts) == len({post.message_id for post in corpus_posts(corpora)})


def check_pass(judged: Judged, records: Any) -> None:
    assert judged.queue.shunted == 0
    found = statuses(judged.app)
    for post in judged.posts:
        status, reason = found[post.message_id]
        assert status in {"processed", "ignored", "refused"}, (post.name, status, reason)
        assert reason, post.name
        assert status != "processed" or post.name not in AUTOMATIC | BULK_LIST_POSTS, post.name
        assert status == "processed" or post.name not in LIST_POSTS, (post.name, reason)
        rulings = len(records.rulings(judged.app, post.message_id))
        assert rulings == int(expects_ruling(judged.app, post.raw)), post.name


def test_no_corpus_file_is_shunted_and_each_gets_its_due(first_pass: Judged, records: Any) -> None:
    check_pass(first_pass, records)


def test_repeated_message_ids_judged_on_their_own(later_passes: list[Judged], records: Any) -> None:
    assert later_passes, "the corpus has files repeating a Message-ID"
    for judged in later_passes:
        check_pass(judged, records)


def test_the_game_amid_the_corpus_ends_as_it_does_alone(first_pass: Judged, records: Any) -> None:
    app = first_pass.app
    assert first_pass.queue.processed == len(first_pass.posts) + len(go_game.SCRIPT)
    game_posts = {post.message_id for post in go_game.SCRIPT}
    log = action_log(app)
    assert [entry for entry in log if entry[0] in game_posts] == expected_log()
    # Whatever the corpus posts ask for is judged apart from the game: the one
    # real vote ("I vote FOR 1234 and AGAINST 1235") names no proposal here.
    assert {entry[1:] for entry in log if entry[0] not in game_posts} <= {
        ("polls.vote", "rejected", "19")
    }
    assert board_text(app) == EXPECTED_BOARD
    replies = [len(records.rulings(app, post.message_id)) for post in go_game.SCRIPT]
    assert replies == [1] * len(go_game.SCRIPT)
    assert records.outbox_count(app, "ruling") == len(go_game.SCRIPT) + sum(
        expects_ruling(app, post.raw) for post in first_pass.posts
    )
