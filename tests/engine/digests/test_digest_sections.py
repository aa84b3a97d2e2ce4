"""The parts of a digest: the request's grammar, the schedule, and the Chairman's section.

Rule 15 B (seed 004): a vote sent privately to a Concealable poll is never
shown before the poll closes, not even to the Chairman in eir digest.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.config import DigestSettings, MinistryEntry
from bot.engine.governance.digest_sections import rotation_overdue
from bot.engine.governance.digests import (
    DAILY,
    assign_sections,
    digest_instants,
    previous_digest,
)
from bot.engine.governance.election_state import ElectionBook
from bot.engine.governance.ministries import Ministries, Ministry
from bot.outbound.transports import MaildirTransport
from bot.parser.post import parse_post
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.testing.apps import body_of, maildir_mails, make_app, write_mbox
from bot.testing.go_game import ALICE, BOB, BOT_ADDRESS, EPOCH, LIST_ADDRESS, RECEIVING_SERVER


@pytest.mark.parametrize(
    "text",
    [
        "digest please",
        "Digest, please.",
        "My digest please!",
        "Please send me my digest.",
        "please mail me the digest",
        "I request my digest.",
        "Hello.\n\nShow me my digest.\n",
    ],
)
def test_a_request_for_the_digest_is_read(text: str) -> None:
    parsed = parse_post(text)
    assert [action.action for action in parsed.actions] == ["digest.request"]
    assert parsed.not_understood == ()


@pytest.mark.parametrize(
    "text",
    ["The digest of the week is long.", "Digest of the week: nothing new", "I read the digest."],
)
def test_prose_about_a_digest_is_no_request(text: str) -> None:
    parsed = parse_post(text)
    assert parsed.actions == () and parsed.not_understood == ()


def test_send_me_my_holdings_still_reads_as_the_roster_statement() -> None:
    assert [a.action for a in parse_post("Send me my holdings.").actions] == ["roster.holdings"]


def test_digests_fall_daily_and_on_checkpoints_once_per_instant(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    instants = digest_instants(app.services, EPOCH, EPOCH + timedelta(days=4))
    assert [at.day for at, _occasion in instants] == [2, 3, 4, 5]
    assert instants[2][1] == "the Checkpoint ending Checking Period 1 of nweek 1"
    assert {occasion for _at, occasion in instants} - {instants[2][1]} == {DAILY}


def test_checkpoint_digests_alone_fall_on_checkpoints_only(tmp_path: Path) -> None:
    app = make_app(tmp_path, digests=DigestSettings(daily=False))
    instants = digest_instants(app.services, EPOCH, EPOCH + timedelta(days=10))
    assert [at.day for at, _occasion in instants] == [4, 8, 11]
    # "Since the last digest" is the last scheduled instant before, not the last day.
    assert previous_digest(app.services, datetime(2026, 1, 6, 12, tzinfo=UTC)).day == 4


def test_the_rotation_is_overdue_only_after_an_nweek_the_bot_saw_begin() -> None:
    ministries = Ministries(
        (Ministry("Ministry of Justice", None, rotated_nweek=0), Ministry("Meta-Ministry", "Bob")),
        created_nweek=0,
    )
    assert rotation_overdue(ministries, ElectionBook(), 0) == ()
    (overdue,) = rotation_overdue(ministries, ElectionBook(), 1)
    assert overdue.rule == "625 B" and "Ministry of Justice" in overdue.what


def test_the_chairman_sees_the_running_tally_without_the_private_vote(tmp_path: Path) -> None:
    # nweek 2: Alice proposes (she holds Bandwidth from the nweek's reset,
    # rule 212); the Ballot is called at its Voting Period (rule 23), Alice
    # votes on the list and Bob privately.
    posts = (
        (10, ALICE, "I place a stone at E5.", LIST_ADDRESS),
        (245, ALICE, "I submit the following proposal: __Go__ {{ Go is fun. }}", LIST_ADDRESS),
        (17 * 24 + 5, ALICE, "I vote FOR 100.", LIST_ADDRESS),
        (17 * 24 + 6, BOB, "I vote AGAINST 100.", BOT_ADDRESS),
    )
    archive = []
    for number, (hours, (name, address), body, to) in enumerate(posts, start=1):
        date = EPOCH + timedelta(hours=hours)
        # Bob's private vote arrives authenticated by the bot's receiving server.
        vouched_by = RECEIVING_SERVER if to == BOT_ADDRESS else ""
        raw = compose_post(
            name,
            address,
            "Ballot",
            body,
            f"chair-{number}@example.test",
            date,
            to,
            vouched_by=vouched_by,
        )
        archive.append((raw, mbox_from_line(address, date)))
    write_mbox(tmp_path / "ballot.mbox", archive)
    app = make_app(tmp_path / "bot", ministries=(MinistryEntry("Ministry of Change", "Alice"),))
    out = tmp_path / "out"
    replay_archive(
        app,
        tmp_path / "ballot.mbox",
        MaildirTransport(out),
        until=EPOCH + timedelta(days=18, hours=1),
    )
    (digest,) = [
        mail
        for mail in maildir_mails(out)
        if mail["X-Nomicbot-Kind"] == "digest" and mail["Date"].startswith("Mon, 19 Jan 2026")
    ]
    body = body_of(digest)
    assert "100/0 Go by Alice: on the Ballot" in body
    assert "Tally of 100/0: Yes 1; 1 private" in body
    assert "Bob" not in body and "No 1" not in body and "AGAINST" not in body


def test_the_attorney_generalist_sees_pending_cfis_and_who_has_not_voted(tmp_path: Path) -> None:
    # Rule 625 D.3: the Attorney Generalist keeps the display of pending CFIs.
    cfi = "I submit a CFI: {{ __Stones__ Argument: E5 was taken. Resolution: E5 is freed }}"
    date = EPOCH + timedelta(hours=10)
    raw = compose_post(*ALICE, "CFI", cfi, "ag-1@example.test", date, LIST_ADDRESS)
    write_mbox(tmp_path / "cfi.mbox", [(raw, mbox_from_line(ALICE[1], date))])
    app = make_app(tmp_path / "bot", ministries=(MinistryEntry("Ministry of Justice", "Bob"),))
    out = tmp_path / "out"
    replay_archive(
        app, tmp_path / "cfi.mbox", MaildirTransport(out), until=EPOCH + timedelta(days=1, hours=1)
    )
    (digest,) = [mail for mail in maildir_mails(out) if mail["X-Nomicbot-Kind"] == "digest"]
    assert digest["To"] == BOB[1]
    body = " ".join(body_of(digest).split())
    assert "Pending CFIs (rule 625 D.3)" in body
    assert "CFI 100 Stones by Alice" in body and "not voted: Bob" in body


def test_a_digest_runs_only_the_providers_of_configured_ministries(tmp_path: Path) -> None:
    # Only the Chairman is configured: the Roster's, Kurt Godel's and the
    # Twiddler's sections would be mailed to nobody, so a digest does not make
    # them; the configured Ministry's sections are the same either way.
    app = make_app(tmp_path / "bot", ministries=(MinistryEntry("Ministry of Change", "Alice"),))
    at = EPOCH + timedelta(days=1)
    try:
        with app.session_factory() as session:
            everything = assign_sections(session, app.services, at)
            digested = assign_sections(session, app.services, at, configured_only=True)
    finally:
        app.dispose()
    assert digested.by_ministry == everything.by_ministry
    assert {section.ministry for section in everything.unassigned} >= {
        "Ministry of the Roster",
        "Ministry of Twiddles",
        "Meta-Ministry",
    }
    assert not {section.ministry for section in digested.unassigned} & {
        "Ministry of the Roster",
        "Ministry of Twiddles",
        "Meta-Ministry",
    }
