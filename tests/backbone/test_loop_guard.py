"""The bot never acts on its own mail, auto-replies or bounces, but does act on list posts.

Every post below carries a roll of the dice in its text, so a post the bot
wrongly acted on would show up as a ruling; the ones it must ignore are
recorded as "ignored" with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App
from bot.outbound.transports import MaildirTransport
from bot.posts import mbox_from_line
from bot.runner import replay_archive
from bot.store.models import Player
from bot.testing import go_game
from bot.testing.apps import action_log, maildir_mails, make_app, write_mbox
from bot.testing.go_game import GAME_END

ROLL = "I roll 1d6."
BOT = go_game.BOT_ADDRESS
LIST = go_game.LIST_ADDRESS
ALICE = go_game.ALICE[1]

# name -> (sender, extra headers, a word the recorded reason must contain)
IGNORED: dict[str, tuple[str, tuple[tuple[str, str], ...], str]] = {
    "from-the-bot": (f"nomicbot <{BOT}>", (), "own post"),
    "x-nomicbot-kind": (f"Alice <{ALICE}>", (("X-Nomicbot-Kind", "ruling"),), "own post"),
    "x-loop": (f"Alice <{ALICE}>", (("X-Loop", BOT),), "loop"),
    "auto-replied": (f"Alice <{ALICE}>", (("Auto-Submitted", "auto-replied"),), "automatic"),
    "auto-generated": (f"Alice <{ALICE}>", (("Auto-Submitted", "auto-generated"),), "automatic"),
    "precedence-bulk": (f"Alice <{ALICE}>", (("Precedence", "bulk"),), "automatic"),
    "precedence-junk": (f"Alice <{ALICE}>", (("Precedence", "junk"),), "automatic"),
    "precedence-junk-on-list": (
        f"Alice <{ALICE}>",
        (("Precedence", "junk"), ("List-Id", "<nomic.lists.example.test>")),
        "automatic",
    ),
    "x-autoreply": (f"Alice <{ALICE}>", (("X-Autoreply", "yes"),), "auto-responder"),
    # A list's Precedence: bulk is no excuse: an automatic answer relayed by a
    # list (Majordomo, Mailman 2) is still automatic.
    "precedence-bulk-on-list": (
        f"Alice <{ALICE}>",
        (("Precedence", "bulk"), ("List-Id", "Nomic <nomic.lists.example.test>")),
        "automatic",
    ),
    "precedence-auto-reply": (f"Alice <{ALICE}>", (("Precedence", "auto_reply"),), "automatic"),
    "mailer-daemon": ("Mail Delivery System <MAILER-DAEMON@mx.example.test>", (), "bounce"),
    "postmaster": ("postmaster@mx.example.test", (), "bounce"),
    "empty-return-path": (f"Alice <{ALICE}>", (("Return-Path", "<>"),), "bounce"),
}

# name -> (sender, extra headers): posts a person wrote, which the bot must judge.
ACTED_ON: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "auto-submitted-no": (f"Alice <{ALICE}>", (("Auto-Submitted", "no"),)),
    "mailman-list-post": (
        f"Alice <{ALICE}>",
        (("Precedence", "list"), ("List-Id", "<nomic.lists.example.test>")),
    ),
}

# name -> (sender, extra headers): a list rewrote From (DMARC mitigation).
REWRITTEN: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "reply-to": (f"Alice via Nomic <{LIST}>", (("Reply-To", f"Alice <{ALICE}>"),)),
    "cc": (f"Alice via Nomic <{LIST}>", (("Reply-To", LIST), ("Cc", f"Alice <{ALICE}>"))),
}


def dsn_bounce(identifier: str) -> bytes:
    """A delivery status notification (RFC 3464) quoting a post with an action."""
    return (
        "From: Mail Delivery Subsystem <mailer@mx.example.test>\r\n"
        f"To: {BOT}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: <{identifier}>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"\r\n\r\n'
        "--b1\r\nContent-Type: text/plain\r\n\r\n"
        f"Your message could not be delivered.\r\n\r\n{ROLL}\r\n\r\n"
        "--b1\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example.test\r\n\r\n"
        "Final-Recipient: rfc822; gone@example.test\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n"
        "--b1--\r\n"
    ).encode()


@pytest.fixture(scope="module")
def judged(
    tmp_path_factory: pytest.TempPathFactory, make_post: Callable[..., bytes], judge: Any
) -> Iterator[App]:
    """One bot that has judged every case of this module, in one queue."""
    app = make_app(tmp_path_factory.mktemp("loop") / "bot")
    posts = [dsn_bounce("case-dsn@example.test")]
    for cases in (IGNORED, ACTED_ON, REWRITTEN):
        for name, (sender, headers, *_reason) in cases.items():
            posts.append(make_post(f"case-{name}@example.test", ROLL, sender, headers))
    judge(app, posts)
    yield app
    app.dispose()


def alice_id(app: App) -> int:
    with app.session_factory() as session:
        player = session.scalar(select(Player.id).where(Player.name == "Alice"))
        assert player is not None
        return player


@pytest.mark.parametrize("name", [*IGNORED, "dsn"])
def test_automatic_mail_is_ignored_with_a_reason(judged: App, records: Any, name: str) -> None:
    identifier = f"case-{name}@example.test"
    message = records.message(judged, identifier)
    assert message.status == "ignored"
    expected = IGNORED[name][2] if name in IGNORED else "report"
    assert expected in message.status_reason
    assert records.rulings(judged, identifier) == []
    assert records.actions(judged, identifier) == []


@pytest.mark.parametrize("name", [*ACTED_ON, *REWRITTEN])
def test_a_person_s_post_is_judged_as_alice_s(judged: App, records: Any, name: str) -> None:
    identifier = f"case-{name}@example.test"
    assert records.message(judged, identifier).status == "processed"
    assert len(records.rulings(judged, identifier)) == 1
    [action] = records.actions(judged, identifier)
    assert (action.action, action.ruling, action.player_id) == (
        "dice.roll",
        "applied",
        alice_id(judged),
    )


def test_its_own_ruling_is_known_by_its_message_id_when_a_list_strips_the_marks(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    # A list that munges From and drops X-Loop, Auto-Submitted and
    # X-Nomicbot-Kind still keeps the Message-ID the bot made.
    own = f"ruling.{'0123456789abcdef' * 2}@{BOT.rpartition('@')[2]}"
    judge(game_app, [make_post(own, ROLL, f"nomicbot via Nomic <{LIST}>", ())])
    message = records.message(game_app, own)
    assert (message.status, message.status_reason) == (
        "ignored",
        "the bot's own post (its Message-ID), not acted on",
    )
    assert records.rulings(game_app, own) == []


def test_an_x_original_from_alone_names_nobody(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    # X-Original-From is a header anybody can write: it is never read.
    post = make_post(
        "x-original-from@example.test",
        ROLL,
        f"Alice via Nomic <{LIST}>",
        (("X-Original-From", f"Alice <{ALICE}>"),),
    )
    judge(game_app, [post])
    [message] = records.refused(game_app, "x-original-from@example.test")
    assert "the author is not guessed" in message.reason
    assert records.actions(game_app, "x-original-from@example.test") == []
    assert records.rulings(game_app, "x-original-from@example.test") == []


def test_via_in_a_display_name_does_not_borrow_the_reply_to_address(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    # Only the list's own address in From marks a rewrite; otherwise anyone
    # could act as Alice by naming her in Reply-To.
    forged = make_post(
        "forged@example.test",
        ROLL,
        "Mallory via Nomic <mallory@example.test>",
        (("Reply-To", f"Alice <{ALICE}>"),),
    )
    judge(game_app, [forged])
    [action] = records.actions(game_app, "forged@example.test")
    assert (action.ruling, action.rule, action.player_id) == ("rejected", "14", None)
    assert records.message(game_app, "forged@example.test").sender == "mallory@example.test"


def mailman_post(corpora: Path, body: bytes | None = None) -> bytes:
    """The real Mailman 3 list post by alice@example.test, its text optionally replaced."""
    raw = (corpora / "email" / "mailman3_list_post.eml").read_bytes()
    if body is None:
        return raw
    original = b"I vote FOR 1234 and AGAINST 1235"
    assert original in raw
    return raw.replace(original, body)


def test_the_real_mailman_list_post_is_acted_on(
    corpora: Path, game_app: App, judge: Any, records: Any
) -> None:
    identifier = "179526824506.28033.8886480351272411110@example.test"
    judge(game_app, [mailman_post(corpora, b"I roll 2d6.")])
    message = records.message(game_app, identifier)
    assert (message.status, message.sender) == ("processed", ALICE)
    [action] = records.actions(game_app, identifier)
    assert (action.action, action.ruling, action.player_id) == (
        "dice.roll",
        "applied",
        alice_id(game_app),
    )
    [ruling] = records.rulings(game_app, identifier)
    assert ruling.recipients == [LIST]


def test_the_unchanged_mailman_post_passes_the_guard_and_its_votes_are_judged(
    corpora: Path, game_app: App, judge: Any, records: Any
) -> None:
    # "I vote FOR 1234 and AGAINST 1235": a player's post, read and answered;
    # this game has no proposals 1234 and 1235, so both votes are rejected.
    identifier = "179526824506.28033.8886480351272411110@example.test"
    judge(game_app, [mailman_post(corpora)])
    message = records.message(game_app, identifier)
    assert (message.status, message.status_reason) == ("processed", "2 action(s) judged")
    actions = records.actions(game_app, identifier)
    assert [(a.action, a.ruling, a.rule) for a in actions] == [
        ("polls.vote", "rejected", "19"),
        ("polls.vote", "rejected", "19"),
    ]
    assert len(records.rulings(game_app, identifier)) == 1


def as_the_list_relays(raw: bytes, strip_x_headers: bool) -> bytes:
    """The bot's mail as a DMARC-mitigating Mailman delivers it back to the bot."""
    mail = message_from_bytes(raw, policy=default)
    assert isinstance(mail, EmailMessage)
    mail.replace_header("From", f"nomicbot via Nomic <{LIST}>")
    mail["Reply-To"] = BOT
    mail["List-Id"] = "<nomic.lists.example.test>"
    mail["Precedence"] = "list"
    if strip_x_headers:  # a list that drops unknown X- headers leaves Auto-Submitted
        for name in ("X-Loop", "X-Nomicbot-Kind"):
            del mail[name]
    return mail.as_bytes()


@pytest.fixture
def played(tmp_path: Path) -> Iterator[tuple[App, Path]]:
    """The scripted game replayed, its replies in an outbox Maildir."""
    archive = tmp_path / "game.mbox"
    write_mbox(archive, [(p.raw(), mbox_from_line(p.author[1], p.at)) for p in go_game.SCRIPT])
    app = make_app(tmp_path / "bot")
    replay_archive(app, archive, MaildirTransport(tmp_path / "out"), until=GAME_END)
    yield app, tmp_path / "out"
    app.dispose()


@pytest.mark.parametrize("relay", ["verbatim", "munged-by-list", "munged-and-stripped"])
def test_the_bot_s_own_mail_fed_back_makes_no_reply(
    played: tuple[App, Path], tmp_path: Path, records: Any, relay: str
) -> None:
    app, outbox = played
    mails = maildir_mails(outbox)
    before = (records.outbox_count(app), action_log(app))
    loop = tmp_path / "loop.mbox"
    later = GAME_END + timedelta(hours=1)
    raws = [mail.as_bytes() for mail in mails]
    if relay != "verbatim":
        raws = [as_the_list_relays(raw, relay == "munged-and-stripped") for raw in raws]
    write_mbox(loop, [(raw, mbox_from_line(LIST, later)) for raw in raws])
    report = replay_archive(app, loop, MaildirTransport(tmp_path / "loop-out"), until=later)
    counts = (report.stored, report.queue.processed, report.queue.shunted)
    assert counts == (len(mails), len(mails), 0)
    for mail in mails:
        identifier = str(mail["Message-ID"]).strip("<>")
        assert records.message(app, identifier).status == "ignored"
    assert (records.outbox_count(app), action_log(app)) == before
    assert report.delivery.sent == 0


def test_the_scripted_game_is_unchanged_by_its_own_echo(played: tuple[App, Path]) -> None:
    # Guard against a vacuous loop test: the game did produce rulings to echo.
    _app, outbox = played
    kinds = [str(mail["X-Nomicbot-Kind"]) for mail in maildir_mails(outbox)]
    assert kinds.count("ruling") == len(go_game.SCRIPT)
