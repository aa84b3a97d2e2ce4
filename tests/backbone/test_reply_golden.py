"""Golden tests pinning the ruling reply: its body byte for byte, and its headers.

The golden files in ``golden/`` are committed; a changed reply format fails
here until they are regenerated on purpose with::

    NOMICBOT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/backbone/test_reply_golden.py

and the diff reviewed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest

from bot.app import App, build_app
from bot.testing import go_game
from bot.testing.apps import game_settings

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE_VARIABLE = "NOMICBOT_UPDATE_GOLDEN"
CAROL = "Carol <carol@example.test>"
BOB = f"{go_game.BOB[0]} <{go_game.BOB[1]}>"

MIXED_POST = (
    "Good morning.\n\n"
    "I place a stone at E5. I place a stone at J9.\n"
    "If Bob passes, I pass.\n"
    "I place a stone at G33.\n\n"
    "-- \nAlice\n"
)


def reply_to(app: App, records: Any, identifier: str) -> EmailMessage:
    [row] = records.rulings(app, identifier)
    mail = message_from_bytes(row.raw, policy=default)
    assert isinstance(mail, EmailMessage)
    return mail


def body_bytes(mail: EmailMessage) -> bytes:
    part = mail.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content()).encode("utf-8")


def assert_golden(name: str, rendered: bytes) -> None:
    path = GOLDEN / f"{name}.txt"
    if os.environ.get(UPDATE_VARIABLE) == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(rendered)
    assert path.exists(), f"no golden file {path}; run with {UPDATE_VARIABLE}=1 to write it"
    assert rendered == path.read_bytes(), f"reply differs from {path}"


def judged_reply(
    app: App, make_post: Callable[..., bytes], judge: Any, records: Any, sender: str, body: str
) -> EmailMessage:
    identifier = "golden@example.test"
    judge(app, [make_post(identifier, body, sender)])
    return reply_to(app, records, identifier)


def test_applied_rejected_conditional_and_not_understood_with_a_board(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    mail = judged_reply(
        game_app, make_post, judge, records, f"Alice <{go_game.ALICE[1]}>", MIXED_POST
    )
    assert_golden("mixed", body_bytes(mail))


def test_a_dice_roll(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    mail = judged_reply(game_app, make_post, judge, records, BOB, "I roll 3d6.")
    assert_golden("dice", body_bytes(mail))


def test_an_action_by_someone_who_is_not_a_player(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    mail = judged_reply(game_app, make_post, judge, records, CAROL, "I place a stone at C3.")
    assert_golden("non_player", body_bytes(mail))


def test_a_registration(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    body = "I request to become a player with the name Carol."
    mail = judged_reply(game_app, make_post, judge, records, CAROL, body)
    assert_golden("registration", body_bytes(mail))


def test_the_golden_files_are_the_ones_written_here() -> None:
    assert sorted(path.name for path in GOLDEN.glob("*.txt")) == [
        "dice.txt",
        "mixed.txt",
        "non_player.txt",
        "registration.txt",
    ]


def test_a_reply_is_threaded_under_the_post(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    earlier = (
        ("In-Reply-To", "<parent@example.test>"),
        ("References", "<root@example.test> <parent@example.test>"),
    )
    judge(game_app, [make_post("child@example.test", "I roll 1d6.", BOB, earlier)])
    mail = reply_to(game_app, records, "child@example.test")
    assert mail["In-Reply-To"] == "<child@example.test>"
    assert mail["References"] == "<root@example.test> <parent@example.test> <child@example.test>"


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("[Nomic] Political Go", "Re: [Nomic] Political Go"),
        ("Re: [Nomic] Political Go", "Re: [Nomic] Political Go"),
        ("RE: [Nomic] Political Go", "RE: [Nomic] Political Go"),
        ("re:   [Nomic]   Political Go", "re: [Nomic] Political Go"),
        ("[Nomic] Re: Political Go", "[Nomic] Re: Political Go"),
        ("", "Re: (no subject)"),
    ],
)
def test_the_subject_gets_one_re(
    game_app: App,
    make_post: Callable[..., bytes],
    judge: Any,
    records: Any,
    subject: str,
    expected: str,
) -> None:
    post = make_post("subject@example.test", "I roll 1d6.", BOB, (), subject)
    judge(game_app, [post])
    mail = reply_to(game_app, records, "subject@example.test")
    assert mail["Subject"] == expected
    assert not str(mail["Subject"]).lower().startswith("re: re:")


def test_a_reply_is_marked_as_the_bot_s_automatic_mail(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    judge(game_app, [make_post("marks@example.test", "I roll 1d6.", BOB)])
    mail = reply_to(game_app, records, "marks@example.test")
    assert mail["From"] == f"nomicbot <{go_game.BOT_ADDRESS}>"
    assert mail["X-Loop"] == go_game.BOT_ADDRESS
    assert mail["Auto-Submitted"] == "auto-replied"
    assert mail["X-Nomicbot-Kind"] == "ruling"
    assert mail["Message-ID"].endswith("@example.test>")


@pytest.mark.parametrize(
    ("reply_setting", "recipient"),
    [("list", go_game.LIST_ADDRESS), ("sender", go_game.BOB[1])],
)
def test_the_reply_goes_to_the_list_or_the_sender_as_configured(
    tmp_path: Path,
    make_post: Callable[..., bytes],
    judge: Any,
    records: Any,
    reply_setting: str,
    recipient: str,
) -> None:
    settings = game_settings(tmp_path / "bot")
    app = build_app(replace(settings, bot=replace(settings.bot, reply_to=reply_setting)))
    judge(app, [make_post("where@example.test", "I roll 1d6.", BOB)])
    [row] = records.rulings(app, "where@example.test")
    assert row.recipients == [recipient]
    assert message_from_bytes(row.raw, policy=default)["To"] == recipient
    app.dispose()
