"""Rulings survive any text: non-ASCII subjects, names and bodies round-trip."""

from __future__ import annotations

import re
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from sqlalchemy import select

from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import OutboxMessage
from bot.testing import go_game
from bot.testing.apps import make_app

SUBJECT = "Gö — Überzug ✓ " * 4


def ruling_for(
    tmp_path: Path, subject: str, body: str, author: str = "Ålice"
) -> tuple[bytes, EmailMessage]:
    app = make_app(tmp_path)
    at = go_game.SCRIPT[0].at
    raw = compose_post(author, go_game.ALICE[1], subject, body, "u1@example.test", at)
    store_message(app, raw, "smtp", at)
    process_queue(app.session_factory, app.services)
    with app.session_factory() as session:
        stored = session.scalars(
            select(OutboxMessage.raw).where(OutboxMessage.kind == "ruling")
        ).one()
    mail = message_from_bytes(stored, policy=default)
    assert isinstance(mail, EmailMessage)
    return stored, mail


def test_a_non_ascii_post_gets_a_readable_non_ascii_ruling(tmp_path: Path) -> None:
    stored, mail = ruling_for(tmp_path, SUBJECT, "I roll 2d6. Grüße ✓")
    assert stored.isascii()  # encoded for any transport
    assert str(mail["Subject"]) == "Re: " + SUBJECT.strip()
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None
    assert "Ålice <alice@example.test>" in body.get_content()


def test_an_ascii_ruling_is_plain_seven_bit_text(tmp_path: Path) -> None:
    stored, mail = ruling_for(tmp_path, "Dice", "I roll 2d6.", author="Alice")
    assert mail["Content-Transfer-Encoding"] == "7bit"
    assert b"[verify: nweek=1 dice-v2 message-id=u1@example.test action=1" in stored


def test_a_rolls_verify_index_is_its_item_number_in_the_ruling(tmp_path: Path) -> None:
    # Rule 9's rolls are checked from the archive: the proof line's "action=N"
    # must name the item N it is printed under, repeats counted (rule 1896).
    _, mail = ruling_for(tmp_path, "Dice", "I pass. I roll 1d6 twice.", author="Alice")
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None
    text = str(body.get_content())
    items = re.findall(r"^ {2}(\d+)\. .*\n {5}rolled .* action=(\d+) ", text, re.MULTILINE)
    assert items == [("2", "2"), ("3", "3")]
