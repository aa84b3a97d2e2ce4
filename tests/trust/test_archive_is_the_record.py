"""The list archive is the record: a game through a real Mailman 3 list, rebuilt from its archive.

The world (``bot.testing.trust_world``) is DNS, Postfix, Mailman 3 and
Dovecot on loopback, set up by deploy/GUIDE.md; the referee of the list
that munges From plays a game with its players (posts signed by their
domains, sealed by the list) and with its administrator (console acts,
which become records the bot signs and mails to the list).  Mailman's own
archiver keeps what the list distributed.  Then ``nomicbot replay
--list-archive`` reads that archive alone into a fresh database: every
``state`` view must be equal, and the bot must have composed the same
mails in the same order.  A record changed on its way (an attacker's copy
posted to the list) is refused both live and in the replay, with the reason.
"""

from __future__ import annotations

import base64
import difflib
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP, default
from email.utils import format_datetime, formatdate
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from bot.app import App, build_app
from bot.cli import main
from bot.config import load_settings
from bot.engine.admin_records import RECORD_TYPE
from bot.engine.refusals import refused_posts
from bot.engine.scheduler import CLOCK_MARK_ID
from bot.engine.views import game_view
from bot.runner import queue_record, wait_until_judged
from bot.store.models import ClockMark, OutboxMessage
from bot.testing.apps import TEST_SECRET
from bot.testing.fixtures import failing_when_unavailable
from bot.testing.support import wait_until
from bot.testing.trust_world import (
    LIST_DOMAIN,
    MUNGED_LIST,
    PEOPLE,
    History,
    MailWorld,
    Referee,
    mail_world,
)
from bot.trust.bot_key import GENERATED_RECORD, load_bot_key

# The trust world binds the DNS port 53 of a fixed loopback address: one at a time.
pytestmark = [pytest.mark.xdist_group("trust-world"), pytest.mark.long_running]

VIEWS = (
    "go",
    "field",
    "players",
    "dice",
    "holdings",
    "ministries",
    "elections",
    "proposals",
    "ballot",
    "polls",
    "cfis",
    "digests",
)
ALICE, BOB, CAROL, MALLORY = (PEOPLE[name] for name in ("Alice", "Bob", "Carol", "Mallory"))
_numbers = count(1)


@dataclass
class Played:
    world: MailWorld
    referee: Referee
    posts: list[str]  # Message-IDs of the players' posts
    tampered: str  # Message-ID of the changed record Mallory posted
    private: str  # Message-ID of Bob's private vote


CAKE = (
    "I submit the following proposal:\n\n__More Cake__\n\n"
    "{{\nEvery player receives one cake at the start of each nweek.\n}}\n"
)


def history() -> History:
    """The game began a week ago; yesterday Carol submitted a proposal, so that today, in
    the Voting Period (nday 8, rule 23), its Ballot is open to votes, private ones too.

    A Voting Period begins only at a UTC midnight (rule 3 A), which a test cannot
    wait for: the week's first posts are in the list's archive already, as
    Mailman's archiver keeps a post (the list's results on top, its stamp below).
    """
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    yesterday = today - timedelta(hours=12)
    lines = [
        f"Authentication-Results: {LIST_DOMAIN}; dkim=pass header.d=a.example "
        "header.i=@a.example; dmarc=pass header.from=a.example",
        f"Received: from [127.0.0.1] by mx.{LIST_DOMAIN} (Postfix) with ESMTP id 1A2B3C4D5E",
        f"\tfor <{MUNGED_LIST}>; {format_datetime(yesterday)}",
        f"From: Carol <{CAROL}>",
        f"To: {MUNGED_LIST}",
        "Subject: [Nomic] Cake",
        f"Date: {format_datetime(yesterday)}",
        "Message-ID: <history-1@a.example>",
        "MIME-Version: 1.0",
        'Content-Type: text/plain; charset="utf-8"',
        "List-Id: <nomic.lists.example.test>",
        f"List-Post: <mailto:{MUNGED_LIST}>",
        "",
        CAKE,
    ]
    return History(today - timedelta(days=7), ("\r\n".join(lines).encode(),))


HISTORY_POSTS = history().posts


@pytest.fixture(scope="module")
def played() -> Iterator[Played]:
    with failing_when_unavailable("the mail world"), mail_world(history()) as world:
        referee = world.referees[MUNGED_LIST]
        yield play(world, referee)


def post(world: MailWorld, referee: Referee, sender: str, body: str) -> str:
    """A player's post to the list, signed by eir domain; judged before this returns."""
    message_id = send(world, sender, referee.list_address, body)
    assert world.wait_settled(referee, [message_id], 90), f"{body!r} was not judged"
    return message_id


def send(
    world: MailWorld,
    sender: str,
    to: str,
    body: str,
    *,
    label: str = "archive",
    subject: str = "A move",
) -> str:
    """A mail from ``sender`` to ``to``, signed by the sender's domain; its Message-ID."""
    domain = sender.rpartition("@")[2]
    message_id = f"{label}-{next(_numbers)}@{domain}"
    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate()
    message["Message-ID"] = f"<{message_id}>"
    message.set_content(body)
    world.send(world.sign(message.as_bytes(), domain), sender, [to])
    return message_id


def private_vote(world: MailWorld, referee: Referee, sender: str, body: str) -> str:
    """A vote mailed to the referee alone, signed by the sender's domain; judged on return."""
    message_id = send(world, sender, referee.address, body, label="private", subject="My vote")
    assert world.wait_settled(referee, [message_id], 90), f"{body!r} was not judged"
    (row,) = world.judged(referee, message_id)
    assert row.status == "processed", row.status_reason
    return message_id


def proposal_number(referee: Referee) -> str:
    with referee.app.session_factory() as session:
        (proposal,) = game_view(session, referee.app.services, "proposals").data
    return str(proposal["serial"])


def post_waiting(world: MailWorld, referee: Referee, sender: str, body: str) -> str:
    """A post the referee holds (the Clock is Off); its Message-ID once it is held."""
    message_id = send(world, sender, referee.list_address, body)

    def held() -> bool:
        return any(row.status == "held" for row in world.judged(referee, message_id))

    assert wait_until(held, 90, interval=0.25), f"{body!r} was not held"
    return message_id


def admin(
    referee: Referee, command: str, arguments: dict[str, Any], *, changes_a_rule: bool = False
) -> str:
    """An administrator's console act, applied by the running daemon; its record's Message-ID.

    A rule change takes effect as it is made, as ``nomicbot clock`` and
    ``nomicbot setting set`` do without ``--at``.
    """
    app = referee.app
    now = datetime.now(UTC)
    if changes_a_rule:
        arguments = {**arguments, "effective_at": now.isoformat()}
    settings = app.settings
    key = load_bot_key(
        settings.bot.dkim_key_file,
        settings.bot.dkim_selector,
        settings.bot_domain,
        settings.data_path,
    )
    message_id = queue_record(app, key, command, arguments, now)
    referee.daemon.work_ready.set()
    judged = wait_until_judged(app, message_id, 60)
    assert judged is not None and judged[0] == "processed", judged
    return message_id


def tampered_copy(raw: bytes, message_id: str) -> bytes:
    """A genuine record mail with the amount inside its signed record changed."""
    outer = message_from_bytes(raw, policy=default)
    (part,) = [p for p in outer.walk() if p.get_content_type() == RECORD_TYPE]
    signed = part.get_payload(decode=True)
    assert isinstance(signed, bytes)
    changed = re.sub(rb'"amount": \d+', b'"amount": 500', signed)
    assert changed != signed
    part.set_payload(base64.encodebytes(changed).decode("ascii"))
    del outer["Message-ID"], outer["From"]
    outer["Message-ID"] = f"<{message_id}>"
    outer["From"] = MALLORY
    return outer.as_bytes()


def play(world: MailWorld, referee: Referee) -> Played:
    # Answered into the old list's outbox when the history was judged.
    earlier = {mail.message_id for mail in world.outbox(referee)}
    posts = [
        post(world, referee, ALICE, "I place a stone at E5."),
        post(world, referee, BOB, "I place a stone at C3."),
    ]
    credit = admin(
        referee,
        "ledger.credit",
        {"player": "Carol", "amount": 7, "currency": "points", "reason": "a prize"},
    )
    posts.append(post(world, referee, ALICE, "I form an alliance with Bob."))
    admin(referee, "go.setup", {"player": "Carol", "points": ["G7"]})
    posts.append(post(world, referee, CAROL, "I roll 2d6. I place a stone at J9."))
    admin(referee, "player.address.add", {"player": "Dave", "address": "dave2@nodmarc.example"})
    posts.append(post(world, referee, BOB, "I form an alliance with Alice."))
    admin(referee, "setting.set", {"setting": "go.sale_price", "value": 3}, changes_a_rule=True)
    # Rule 3 B: while the Clock is Off a post waits, and takes effect when it is On.
    admin(referee, "clock.switch", {"on": False}, changes_a_rule=True)
    time.sleep(1.1)  # a post's instant is the list's Received stamp, in whole seconds
    held = post_waiting(world, referee, CAROL, "I roll 1d20.")
    admin(referee, "clock.switch", {"on": True}, changes_a_rule=True)

    def released() -> bool:
        return any(row.status == "processed" for row in world.judged(referee, held))

    assert wait_until(released, 90, interval=0.25), "the held post was not judged"
    posts.append(held)

    # Rule 15 B: on the Ballot's Concealable poll Bob votes privately, Alice on the list.
    proposal = proposal_number(referee)
    private = private_vote(world, referee, BOB, f"I vote AGAINST {proposal}.")
    posts.append(post(world, referee, ALICE, f"I vote FOR {proposal}."))

    # Mallory posts a copy of the credit with eir own amount, through the list.
    (record,) = [m for m in world.outbox(referee) if m.message_id == credit]
    tampered = f"tampered-{next(_numbers)}@evil.example"
    raw = world.sign(tampered_copy(record.raw, tampered), "evil.example")
    world.send(raw, MALLORY, [referee.list_address])
    assert world.wait_settled(referee, [tampered], 90)

    # Everything the bot composed for the list has reached it, and its archive.
    def all_sent() -> bool:
        return all(mail.status == "sent" for mail in world.outbox(referee))

    assert wait_until(all_sent, 90, interval=0.5)
    to_list = [
        mail
        for mail in world.outbox(referee)
        if referee.list_address in mail.recipients and mail.message_id not in earlier
    ]
    # The history, the posts, Mallory's copy, the bot's mails.
    expected = len(HISTORY_POSTS) + len(posts) + 1 + len(to_list)
    assert world.mailman.wait_for_archive(referee.list_address, expected, 90), (
        f"the archive did not reach {expected} mails"
    )
    return Played(world, referee, posts, tampered, private)


# -- the replay -------------------------------------------------------------------------


@dataclass
class Replayed:
    app: App
    output: str


@pytest.fixture(scope="module")
def replayed(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Replayed:
    """A fresh database filled from Mailman's archive alone (``replay --list-archive``)."""
    live = played.referee.app.settings
    folder = tmp_path_factory.mktemp("auditor")
    # The auditor's keys: the list's, as published, and the bot's, as published.
    keys = folder / "keys.txt"
    list_keys = Path(live.trust.key_file).read_text()
    keys.write_text(list_keys + (live.data_path / GENERATED_RECORD).read_text())
    config = folder / "nomicbot.toml"
    text = (Path(live.trust.key_file).parent / "nomicbot.toml").read_text()
    config.write_text(text.replace(live.trust.key_file, str(keys)))
    with played.referee.app.session_factory() as session:
        mark = session.get(ClockMark, CLOCK_MARK_ID)
        assert mark is not None
        until = mark.handled_until
    environ = {
        "NOMICBOT_BOT_DATA_DIR": str(folder / "var"),
        "NOMICBOT_BOT_MASTER_SECRET": TEST_SECRET,
        "NOMICBOT_NTIME_EPOCH": live.ntime.epoch,
    }
    archive = played.world.mailman.archive_dir / played.referee.list_address
    result = CliRunner(env=environ).invoke(
        main,
        [
            "replay",
            str(archive),
            "--list-archive",
            "--outbox",
            str(folder / "outbox"),
            "--until",
            until.isoformat(),
            "--config",
            str(config),
        ],
    )
    assert result.exit_code == 0, result.output
    app = build_app(load_settings(config, environ=environ))
    return Replayed(app, result.output)


def views(app: App, at: datetime) -> dict[str, Any]:
    with app.session_factory() as session:
        return {name: game_view(session, app.services, name, at=at).data for name in VIEWS}


def differences(live: Any, again: Any) -> str:
    """A unified diff of two views' data, live first."""
    texts = [json.dumps(data, indent=1, sort_keys=True, default=str) for data in (live, again)]
    lines = difflib.unified_diff(*(text.splitlines() for text in texts), "live", "replay")
    return "\n".join(lines)


def composed(app: App) -> list[tuple[str, str, str, str]]:
    """The mails the bot composed, in order: (kind, Message-ID, Subject, body); records aside."""
    with app.session_factory() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
        mails = []
        for row in rows:
            if row.kind == "admin-record":
                continue  # the records themselves: the archive carries them
            if app.settings.bot.list_address not in row.recipients:
                continue  # a private answer (to a private vote): not the list's
            message = message_from_bytes(row.raw, policy=default)
            body = message.get_body(("plain",))
            text = body.get_content() if body is not None else ""
            mails.append((row.kind, row.message_id, str(message["Subject"]), text))
        return mails


def test_every_state_view_is_rebuilt_from_the_list_archive_alone(
    played: Played, replayed: Replayed
) -> None:
    at = datetime.now(UTC) + timedelta(minutes=1)
    live, again = views(played.referee.app, at), views(replayed.app, at)
    differing = [name for name in VIEWS if live[name] != again[name]]
    assert differing == [], "\n".join(differences(live[name], again[name]) for name in differing)
    holdings = live["holdings"]
    assert "7" in str(holdings) and "Carol" in str(holdings)
    assert "dave2@nodmarc.example" in str(live["players"])


def test_the_replay_composes_the_same_mails_in_the_same_order(
    played: Played, replayed: Replayed
) -> None:
    live, again = composed(played.referee.app), composed(replayed.app)
    assert len(live) >= len(played.posts)
    assert [mail[:3] for mail in again] == [mail[:3] for mail in live]
    for mine, theirs in zip(live, again, strict=True):
        assert mine == theirs, differences(mine, theirs)


def test_a_changed_record_is_refused_live_and_in_the_replay_with_the_reason(
    played: Played, replayed: Replayed
) -> None:
    for app in (played.referee.app, replayed.app):
        with app.session_factory() as session:
            reasons = {row.message_id: row.reason for row in refused_posts(session)}
        assert "does not verify" in reasons.get(played.tampered, ""), reasons
    with replayed.app.session_factory() as session:
        holdings = game_view(session, replayed.app.services, "holdings").data
    assert "500" not in str(holdings)


def test_the_private_vote_is_in_the_archive_as_a_commitment_that_hides_it(
    played: Played, replayed: Replayed
) -> None:
    archive = played.world.mailman.archive_dir / played.referee.list_address
    texts = [path.read_bytes() for path in sorted((archive / "new").iterdir())]
    commitments = [raw for raw in texts if b"private.commit" in raw or b"private vote" in raw]
    assert commitments, "no commitment reached the list's archive"
    # The Ballot's own instructions name every option ("I vote AGAINST 100"); it
    # is mailed before any vote, so only the other mails could give the vote away.
    after_the_ballot = [raw for raw in texts if b"X-Nomicbot-Kind: ballot" not in raw]
    leaks = [raw for raw in after_the_ballot if b"AGAINST" in raw]
    assert not leaks, f"the private vote's word is public: {leaks[:1]!r}"
    for app in (played.referee.app, replayed.app):
        with app.session_factory() as session:
            polls = game_view(session, app.services, "ballot").data
        assert "'withheld': 1" in str(polls), polls
