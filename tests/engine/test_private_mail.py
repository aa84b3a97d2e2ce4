"""Mail sent to the bot alone: recognised, answered privately, and never a public action.

Rule 1896 (seed 004): a Game Action is taken by specifying it "to a Public
Forum".  A Concealable vote (rule 15) is the exception the games declare in
their adapters' ``private_actions``; everything else sent privately is
refused, and the refusal goes to the sender only.

A private mail counts only from an authenticated sender (docs/trust.md):
here, as in a real deployment, the bot's own receiving server
(``RECEIVING_SERVER``, the tests' ``[trust] authserv_ids``) vouches for it
with the topmost Authentication-Results.  The same mail without that
header, or with it forged below another server's, is refused: recorded for
the administrator with its reason, judged not at all, answered to nobody.
"""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.app import App
from bot.engine.private_secrets import UNAUTHENTICATED_PRIVATE_MAIL
from bot.engine.refusals import refused_posts
from bot.outbound.transports import MaildirTransport
from bot.pipeline import PipelineSettings, run_pipeline
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.store.models import OutboxMessage
from bot.testing.apps import action_log, body_of, maildir_mails, make_app, write_mbox
from bot.testing.go_game import ALICE, BOT_ADDRESS, EPOCH, LIST_ADDRESS, RECEIVING_SERVER

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


PRIVATE_ID = "private-2@example.test"
ARRIVAL = EPOCH + timedelta(hours=3)


def private_roll(vouched_by: str = RECEIVING_SERVER, above: str = "") -> bytes:
    """Alice's "I roll 1d6." to the bot alone; ``above``: a header a later server put on top."""
    raw = compose_post(
        *ALICE, "Dice", "I roll 1d6.", PRIVATE_ID, ARRIVAL, to=BOT_ADDRESS, vouched_by=vouched_by
    )
    return (above.encode() + b"\r\n" if above else b"") + raw


def replayed(folder: Path, raw: bytes) -> tuple[App, list[EmailMessage]]:
    """A fresh bot fed ``raw`` from an archive; every mail it delivered."""
    write_mbox(folder / "post.mbox", [(raw, mbox_from_line(ALICE[1], ARRIVAL))])
    app = make_app(folder / "bot")
    replay_archive(app, folder / "post.mbox", MaildirTransport(folder / "out"), until=ARRIVAL)
    out = folder / "out"
    return app, maildir_mails(out) if out.exists() else []


def outbox_kinds(app: App) -> list[tuple[str, list[str]]]:
    with app.session_factory() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
        return [(row.kind, list(row.recipients)) for row in rows]


def test_a_public_action_sent_privately_is_refused_and_answered_to_the_sender(
    tmp_path: Path,
) -> None:
    app, mails = replayed(tmp_path, private_roll())
    (reply,) = [m for m in mails if m["X-Nomicbot-Kind"] == "ruling"]
    assert reply["To"] == ALICE[1]
    text = " ".join(body_of(reply).split())
    assert "sent to the bot privately" in text
    assert (
        f"Sender authenticated: dmarc=pass header.from=example.test, "
        f"by the receiving server {RECEIVING_SERVER}." in text
    )
    assert [(action, ruling) for _, action, ruling, _ in action_log(app)] == [
        ("dice.roll", "rejected")
    ]
    with app.session_factory() as session:
        assert refused_posts(session) == []


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        # The same mail as above, but no receiving server of the bot's vouches for it.
        pytest.param(private_roll(vouched_by=""), UNAUTHENTICATED_PRIVATE_MAIL, id="unvouched"),
        # The sender typed the bot's receiving server's results emself: RFC 8601
        # counts only the topmost header, here written by some other server.
        pytest.param(
            private_roll(above="Authentication-Results: relay.example.net; dkim=none; dmarc=none"),
            UNAUTHENTICATED_PRIVATE_MAIL,
            id="forged-below-another",
        ),
        # The bot's receiving server vouches, but for another domain than the From's.
        pytest.param(
            private_roll(
                vouched_by="",
                above=f"Authentication-Results: {RECEIVING_SERVER}; dkim=pass "
                "header.d=evil.example; dmarc=pass header.from=evil.example",
            ),
            UNAUTHENTICATED_PRIVATE_MAIL,
            id="another-domain",
        ),
        # The bot's receiving server says the From domain failed DMARC.
        pytest.param(
            private_roll(
                vouched_by="",
                above=f"Authentication-Results: {RECEIVING_SERVER}; dkim=none; "
                "dmarc=fail header.from=example.test",
            ),
            "private mail refused: the receiving server reports dmarc=fail for the From domain",
            id="dmarc-fail",
        ),
    ],
)
def test_a_private_mail_nobody_vouches_for_is_refused_and_answered_to_nobody(
    tmp_path: Path, raw: bytes, reason: str
) -> None:
    app, mails = replayed(tmp_path, raw)
    assert action_log(app) == []
    assert [m for m in mails if m["X-Nomicbot-Kind"] == "ruling"] == []
    assert all(ALICE[1] not in str(m["To"]) for m in mails)
    # Only the nweek's dice commitment, which the bot mails to the list at the epoch.
    assert outbox_kinds(app) == [("dice-commitment", [LIST_ADDRESS])]
    with app.session_factory() as session:
        (refused,) = refused_posts(session)
    assert (refused.message_id, refused.claimed_sender) == (PRIVATE_ID, ALICE[1])
    assert refused.reason == reason
