"""Copies of one post: stored beside each other while waiting, judged once (docs/trust.md).

A Reply-All reaches the bot twice: directly, with no list seal, and through
the list.  ``bot.ingress.ingest`` keeps a differing copy of a post that is
still queued under a copy key; the engine's refusal gives up the bare
Message-ID, so the list's own copy claims it and is judged; an exact
repeat, or any copy of a judged post, is a duplicate.  The first tests use
ingest alone on an in-memory database; the last ones the whole bot.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import dkim
import pytest
from sqlalchemy import create_engine, select, update
from sqlalchemy.orm import Session

from bot.app import App
from bot.config import TrustSettings
from bot.engine.worker import process_queue
from bot.ingress.ingest import (
    COPY_MARK,
    REFUSED_MARK,
    ArrivingPost,
    copy_key,
    ingest,
    ingest_many,
    post_message_id,
)
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import Base, Message, OutboxMessage
from bot.testing import go_game
from bot.testing.apps import make_app
from bot.testing.signing import LIST_SIGNED_HEADERS, signing_key, write_key_file

ARRIVAL = datetime(2026, 1, 1, 1, tzinfo=UTC)
IDENTIFIER = "dice-1@example.test"


@pytest.fixture
def session() -> Iterator[Session]:
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        yield session
    engine.dispose()


def raw_post(*extra: str, identifier: str = IDENTIFIER, body: str = "I roll 1d6.") -> bytes:
    lines = [
        "From: Alice <alice@example.test>",
        "To: nomic@lists.example.test",
        "Subject: Dice",
        f"Message-ID: <{identifier}>",
        *extra,
        "",
        body,
        "",
    ]
    return "\r\n".join(lines).encode()


DIRECT = raw_post("Cc: referee@example.test")
THROUGH_THE_LIST = raw_post("List-Id: <nomic.lists.example.test>")


def stored(session: Session) -> dict[str, str]:
    """Message-ID key -> status of every stored row."""
    query = select(Message.message_id, Message.status)
    return {message_id: status for message_id, status in session.execute(query)}


def judged(session: Session, key: str) -> None:
    session.execute(update(Message).where(Message.message_id == key).values(status="processed"))


# -- ingest ----------------------------------------------------------------------------------


def test_a_differing_copy_of_a_queued_post_is_kept_under_a_copy_key(session: Session) -> None:
    first = ingest(session, DIRECT, "smtp", ARRIVAL)
    second = ingest(session, THROUGH_THE_LIST, "imap", ARRIVAL + timedelta(seconds=5))
    assert first.stored and second.stored
    assert (first.message_id, second.message_id) == (IDENTIFIER, IDENTIFIER)
    assert first.message_pk != second.message_pk
    key = copy_key(IDENTIFIER, THROUGH_THE_LIST)
    assert key.startswith(f"{IDENTIFIER}{COPY_MARK}") and key.endswith(")")
    assert stored(session) == {IDENTIFIER: "queued", key: "queued"}
    copy = session.get(Message, second.message_pk)
    assert copy is not None and copy.raw == THROUGH_THE_LIST and copy.message_id == key


def test_an_identical_copy_is_a_duplicate(session: Session) -> None:
    first = ingest(session, DIRECT, "smtp", ARRIVAL)
    again = ingest(session, DIRECT, "imap", ARRIVAL + timedelta(seconds=5))
    assert not again.stored and again.message_pk == first.message_pk
    assert stored(session) == {IDENTIFIER: "queued"}


def test_a_copy_of_a_copy_is_a_duplicate(session: Session) -> None:
    ingest(session, DIRECT, "smtp", ARRIVAL)
    copy = ingest(session, THROUGH_THE_LIST, "imap", ARRIVAL)
    again = ingest(session, THROUGH_THE_LIST, "imap", ARRIVAL + timedelta(minutes=1))
    assert not again.stored
    assert len(stored(session)) == 2 and copy.stored


def test_three_differing_copies_are_all_kept(session: Session) -> None:
    third = raw_post("List-Id: <nomic.lists.example.test>", "X-Relayed: again")
    results = [ingest(session, raw, "smtp", ARRIVAL) for raw in (DIRECT, THROUGH_THE_LIST, third)]
    assert all(result.stored for result in results)
    assert len({result.message_pk for result in results}) == 3


@pytest.mark.parametrize("status", ["processed", "ignored", "duplicate", "held", "shunted"])
def test_a_copy_arriving_after_the_post_was_taken_up_is_a_duplicate(
    session: Session, status: str
) -> None:
    first = ingest(session, DIRECT, "smtp", ARRIVAL)
    session.execute(update(Message).values(status=status))
    late = ingest(session, THROUGH_THE_LIST, "imap", ARRIVAL + timedelta(hours=1))
    assert not late.stored and late.message_pk == first.message_pk
    assert stored(session) == {IDENTIFIER: status}


def test_a_copy_arriving_after_a_refused_one_takes_the_bare_message_id(
    session: Session,
) -> None:
    refused = ingest(session, DIRECT, "smtp", ARRIVAL)
    refused_key = f"{IDENTIFIER}{REFUSED_MARK}{refused.message_pk})"
    session.execute(
        update(Message).values(message_id=refused_key, status="refused")  # as the engine does
    )
    later = ingest(session, THROUGH_THE_LIST, "imap", ARRIVAL + timedelta(minutes=1))
    assert later.stored
    assert stored(session) == {refused_key: "refused", IDENTIFIER: "queued"}


def test_a_post_without_message_id_is_keyed_by_its_bytes(session: Session) -> None:
    raw = b"From: Alice <alice@example.test>\r\nSubject: Dice\r\n\r\nI roll 1d6.\r\n"
    first = ingest(session, raw, "smtp", ARRIVAL)
    assert first.stored and first.message_id.startswith("sha256-")
    assert first.message_id.endswith("@nomicbot.invalid")
    assert not ingest(session, raw, "smtp", ARRIVAL).stored


# -- post_message_id -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        IDENTIFIER,
        copy_key(IDENTIFIER, DIRECT),
        f"{IDENTIFIER}{REFUSED_MARK}17)",
        f"{copy_key(IDENTIFIER, DIRECT)}{REFUSED_MARK}17)",
    ],
    ids=["bare", "copy", "refused", "refused-copy"],
)
def test_post_message_id_strips_both_marks(key: str) -> None:
    assert post_message_id(key) == IDENTIFIER


def test_post_message_id_keeps_an_id_that_merely_contains_brackets() -> None:
    assert post_message_id("a(copy)b@example.test") == "a(copy)b@example.test"


# -- ingest_many -----------------------------------------------------------------------------


def arriving(*raws: bytes) -> list[ArrivingPost]:
    return [ArrivingPost(raw, ARRIVAL + timedelta(minutes=n)) for n, raw in enumerate(raws)]


def test_ingest_many_keeps_differing_copies_within_a_batch(session: Session) -> None:
    assert ingest_many(session, arriving(DIRECT, THROUGH_THE_LIST, DIRECT), "replay") == 2
    assert stored(session) == {
        IDENTIFIER: "queued",
        copy_key(IDENTIFIER, THROUGH_THE_LIST): "queued",
    }


def test_ingest_many_keeps_a_differing_copy_of_a_stored_queued_post(session: Session) -> None:
    ingest(session, DIRECT, "smtp", ARRIVAL)
    assert ingest_many(session, arriving(THROUGH_THE_LIST), "replay") == 1
    assert copy_key(IDENTIFIER, THROUGH_THE_LIST) in stored(session)


def test_ingest_many_skips_copies_of_a_judged_post(session: Session) -> None:
    ingest(session, DIRECT, "smtp", ARRIVAL)
    judged(session, IDENTIFIER)
    assert ingest_many(session, arriving(DIRECT, THROUGH_THE_LIST), "replay") == 0
    assert stored(session) == {IDENTIFIER: "processed"}


def test_ingest_many_skips_a_copy_already_stored(session: Session) -> None:
    ingest(session, DIRECT, "smtp", ARRIVAL)
    ingest(session, THROUGH_THE_LIST, "smtp", ARRIVAL)
    other = raw_post(identifier="other@example.test")
    assert ingest_many(session, arriving(THROUGH_THE_LIST, other), "replay") == 1
    assert len(stored(session)) == 3


def test_ingest_many_treats_an_identical_repeat_of_a_queued_post_as_a_duplicate(
    session: Session,
) -> None:
    # BUG (bot/ingress/ingest.py, ingest_many): an exact repeat of a post
    # stored earlier and still queued is compared only with the rows of the
    # batch (``_same(rows, ...)``), never with the stored bytes, so it is
    # stored again under a copy key and counted as new; ``ingest`` calls the
    # same bytes a duplicate.  (Replaying one archive twice before the worker
    # ran stores every post twice.)
    ingest(session, DIRECT, "smtp", ARRIVAL)
    assert ingest_many(session, arriving(DIRECT), "replay") == 0
    assert stored(session) == {IDENTIFIER: "queued"}


# -- the whole bot: a Reply-All to the list and the bot --------------------------------------

LIST_DOMAIN = "lists.example.test"


def sealed_by_the_list(raw: bytes) -> bytes:
    key = signing_key(LIST_DOMAIN, "nomic")
    results = "dkim=pass header.d=example.test; dmarc=pass header.from=example.test"
    message = f"Authentication-Results: {LIST_DOMAIN}; {results}\r\n".encode() + raw
    arc_set = dkim.arc_sign(
        message,
        b"nomic",
        LIST_DOMAIN.encode(),
        key.private_pem,
        LIST_DOMAIN.encode(),
        include_headers=[name.lower().encode() for name in LIST_SIGNED_HEADERS],
    )
    return b"".join(arc_set) + message


def reply_all(received: datetime) -> tuple[bytes, bytes]:
    """The copy Alice's provider delivered straight to the bot, and the list's copy."""
    direct = compose_post(
        *go_game.ALICE, "Dice", "I roll 1d6.", IDENTIFIER, received, to=go_game.LIST_ADDRESS
    )
    direct = direct.replace(b"\r\nSubject:", f"\r\nCc: {go_game.BOT_ADDRESS}\r\nSubject:".encode())
    through = direct.replace(
        b"\r\nSubject:", b"\r\nList-Id: <nomic.lists.example.test>\r\nSubject:"
    )
    return direct, sealed_by_the_list(through)


@pytest.fixture
def sealing_bot(tmp_path: Path) -> Iterator[App]:
    key_file = write_key_file(tmp_path / "keys.txt", [signing_key(LIST_DOMAIN, "nomic")])
    trust = TrustSettings(
        list_signature="arc",
        list_signer=LIST_DOMAIN,
        list_selector="nomic",
        key_file=str(key_file),
        dns=False,
    )
    app = make_app(tmp_path / "bot", trust=trust)
    yield app
    app.dispose()


def rows(app: App) -> list[tuple[str, str, str]]:
    with app.session_factory() as session:
        query = select(Message.message_id, Message.status, Message.status_reason)
        return [tuple(row) for row in session.execute(query.order_by(Message.id))]  # type: ignore[misc]


def rulings(app: App) -> list[str]:
    with app.session_factory() as session:
        query = (
            select(Message.message_id)
            .join(OutboxMessage, OutboxMessage.in_reply_to_pk == Message.id)
            .where(OutboxMessage.kind == "ruling")
        )
        return list(session.scalars(query))


@pytest.mark.parametrize("worker_between", [False, True], ids=["both-queued", "one-by-one"])
def test_the_list_s_copy_is_judged_after_the_direct_copy_is_refused(
    sealing_bot: App, worker_between: bool
) -> None:
    at = go_game.EPOCH + timedelta(hours=1)
    direct, through = reply_all(at)
    assert store_message(sealing_bot, direct, "smtp", at).stored
    if worker_between:
        process_queue(sealing_bot.session_factory, sealing_bot.services)
    assert store_message(sealing_bot, through, "imap", at + timedelta(seconds=30)).stored
    process_queue(sealing_bot.session_factory, sealing_bot.services)
    (refused, judged_copy) = rows(sealing_bot)
    assert refused[0] == f"{IDENTIFIER}{REFUSED_MARK}1)"
    assert refused[1:] == (
        "refused",
        f"not carried by the game's list: no ARC seal: the list ({LIST_DOMAIN}) did not carry it",
    )
    assert judged_copy[:2] == (IDENTIFIER, "processed")
    assert rulings(sealing_bot) == [IDENTIFIER]


def test_a_copy_arriving_after_the_list_s_was_judged_is_never_judged(sealing_bot: App) -> None:
    at = go_game.EPOCH + timedelta(hours=1)
    direct, through = reply_all(at)
    store_message(sealing_bot, through, "imap", at)
    process_queue(sealing_bot.session_factory, sealing_bot.services)
    assert not store_message(sealing_bot, direct, "smtp", at + timedelta(minutes=1)).stored
    assert not store_message(sealing_bot, through, "smtp", at + timedelta(minutes=2)).stored
    process_queue(sealing_bot.session_factory, sealing_bot.services)
    assert [row[:2] for row in rows(sealing_bot)] == [(IDENTIFIER, "processed")]
    assert rulings(sealing_bot) == [IDENTIFIER]
