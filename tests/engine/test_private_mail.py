"""Mail sent to the bot alone: recognised, answered privately, and never a public action.

Rule 1896 (seed 004): a Game Action is taken by specifying it "to a Public
Forum".  A Concealable vote (rule 15) is the exception the games declare in
their adapters' ``private_actions``; everything else sent privately is
refused, and the refusal goes to the sender only.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.outbound.transports import MaildirTransport
from bot.pipeline import PipelineSettings, run_pipeline
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.testing.apps import action_log, body_of, maildir_mails, make_app, write_mbox
from bot.testing.go_game import ALICE, BOT_ADDRESS, EPOCH, LIST_ADDRESS

SETTINGS = PipelineSettings(
    bot_addresses=frozenset({BOT_ADDRESS}),
    list_addresses=frozenset({LIST_ADDRESS}),
    required_list_id="nomic.lists.example.test",
)


def mail(to: str, *headers: str) -> bytes:
    raw = compose_post(*ALICE, "Vote", "I roll 1d6.", "private-1@example.test", EPOCH, to=to)
    return b"\r\n".join(header.encode() for header in headers) + (b"\r\n" if headers else b"") + raw


def test_a_mail_to_the_bot_alone_is_private_even_where_a_list_id_is_required() -> None:
    context = run_pipeline(mail(BOT_ADDRESS), SETTINGS)
    assert context.stop_reason is None and context.private


def test_a_list_post_is_not_private() -> None:
    context = run_pipeline(mail(LIST_ADDRESS, "List-Id: <nomic.lists.example.test>"), SETTINGS)
    assert context.stop_reason is None and not context.private


def test_a_mail_to_the_bot_and_the_list_without_list_id_is_still_refused() -> None:
    context = run_pipeline(mail(f"{BOT_ADDRESS}, {LIST_ADDRESS}"), SETTINGS)
    assert context.stop_reason is not None and "List-Id" in context.stop_reason


def test_a_public_action_sent_privately_is_refused_and_answered_to_the_sender(
    tmp_path: Path,
) -> None:
    date = EPOCH + timedelta(hours=3)
    raw = compose_post(
        *ALICE, "Dice", "I roll 1d6.", "private-2@example.test", date, to=BOT_ADDRESS
    )
    write_mbox(tmp_path / "post.mbox", [(raw, mbox_from_line(ALICE[1], date))])
    app = make_app(tmp_path / "bot")
    replay_archive(app, tmp_path / "post.mbox", MaildirTransport(tmp_path / "out"), until=date)
    (reply,) = [m for m in maildir_mails(tmp_path / "out") if m["X-Nomicbot-Kind"] == "ruling"]
    assert reply["To"] == ALICE[1]
    assert "sent to the bot privately" in " ".join(body_of(reply).split())
    assert [(action, ruling) for _, action, ruling, _ in action_log(app)] == [
        ("dice.roll", "rejected")
    ]
