"""Ministers' digests by mail, through posts and the scheduler (issue 5; rules 625, 1272, 1906).

The scripted week: Alice holds the Ministry of the Board (Bob is eir
Deputy) and the Ministry of the Roster, Bob is Kurt Godel, the Ministry of
Justice is Open.  Alice places a stone, Carol joins, Bob asks for his digest
on the list, Alice asks privately, Carol (no Minister) asks too.  The archive
is replayed up to just after the first Checkpoint (2026-01-04 00:00 UTC).

Golden files in ``golden/`` pin one digest byte for byte; regenerate on
purpose with ``NOMICBOT_UPDATE_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import os
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from bot.app import App
from bot.config import DigestSettings, MinistryEntry
from bot.engine.governance.digests import send_scheduled_digests
from bot.engine.governance.ministries import Ministries, Ministry, save_ministries
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.store.models import OutboxMessage
from bot.testing.apps import body_of, maildir_mails, make_app, write_mbox
from bot.testing.go_game import ALICE, BOB, BOT_ADDRESS, EPOCH, LIST_ADDRESS, RECEIVING_SERVER

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE_VARIABLE = "NOMICBOT_UPDATE_GOLDEN"
CAROL = ("Carol", "carol@example.test")
MINISTRIES = (
    MinistryEntry("Ministry of the Board", ALICE[0], (BOB[0],)),
    MinistryEntry("Meta-Ministry", BOB[0]),
    MinistryEntry("Ministry of the Roster", ALICE[0]),
    MinistryEntry("Ministry of Justice", ""),
)
# (hours after the epoch, author, body, to the bot alone?)
WEEK = (
    (10, ALICE, "I place a stone at E5.", False),
    (29, CAROL, "I request to become a player with the name Carol.", False),
    (51, BOB, "Digest please.", False),
    (52, ALICE, "Please send me my digest.", True),
    (53, CAROL, "digest please", False),
)
UNTIL = EPOCH + timedelta(days=3, hours=1)
FIRST_CHECKPOINT = EPOCH + timedelta(days=3)


def play(
    folder: Path,
    posts: tuple[tuple[int, tuple[str, str], str, bool], ...] = WEEK,
    **sections: object,
) -> tuple[App, list[EmailMessage]]:
    archive = []
    for number, (hours, (name, address), body, private) in enumerate(posts, start=1):
        date = EPOCH + timedelta(hours=hours)
        to = BOT_ADDRESS if private else LIST_ADDRESS
        raw = compose_post(
            name,
            address,
            "[Nomic] week",
            body,
            f"digest-{number}@example.test",
            date,
            to=to,
            # private mail arrives authenticated by the bot's receiving server
            vouched_by=RECEIVING_SERVER if private else "",
        )
        archive.append((raw, mbox_from_line(address, date)))
    write_mbox(folder / "week.mbox", archive)
    app = make_app(folder / "bot", ministries=MINISTRIES, **sections)
    replay_archive(app, folder / "week.mbox", MaildirTransport(folder / "out"), until=UNTIL)
    return app, maildir_mails(folder / "out")


def digests(mails: list[EmailMessage]) -> list[EmailMessage]:
    return [mail for mail in mails if mail["X-Nomicbot-Kind"] == "digest"]


def scheduled(mails: list[EmailMessage]) -> dict[tuple[str, str], EmailMessage]:
    """(Date, To) -> the scheduled digest, leaving out those answering a request."""
    return {
        (mail["Date"], mail["To"]): mail
        for mail in digests(mails)
        if "on request" not in body_of(mail)
    }


def ruling_on(mails: list[EmailMessage], number: int) -> EmailMessage:
    (reply,) = [m for m in mails if m["In-Reply-To"] == f"<digest-{number}@example.test>"]
    return reply


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> list[EmailMessage]:
    _app, mails = play(tmp_path_factory.mktemp("week"))
    return mails


def test_daily_and_checkpoint_digests_reach_the_holders_and_the_deputy(
    week: list[EmailMessage],
) -> None:
    found = scheduled(week)
    days = ("Fri, 02 Jan 2026", "Sat, 03 Jan 2026", "Sun, 04 Jan 2026")
    assert sorted(found) == sorted(
        (f"{day} 00:00:00 +0000", address) for day in days for address in (ALICE[1], BOB[1])
    )
    bob = body_of(found[(f"{days[2]} 00:00:00 +0000", BOB[1])])
    assert "the Checkpoint ending Checking Period 1 of nweek 1" in bob
    assert "== Meta-Ministry (you are its Minister) ==" in bob
    assert "== Ministry of the Board (you are a Deputy, rule 1272) ==" in bob
    alice = body_of(found[(f"{days[0]} 00:00:00 +0000", ALICE[1])])
    assert "the daily digest (00:00 UTC)" in alice
    assert "5| . . . . a . . . . |5" in alice  # the GameKeeper's board (rule 625 D.12)


def test_an_open_ministry_sends_no_digest_and_a_non_minister_gets_none(
    week: list[EmailMessage],
) -> None:
    assert all("== Ministry of Justice" not in body_of(mail) for mail in digests(week))
    assert {mail["To"] for mail in digests(week)} == {ALICE[1], BOB[1]}


def test_the_minister_of_the_roster_is_told_of_the_new_player(week: list[EmailMessage]) -> None:
    # Carol joined on Jan 2 at 05:00: the digest of Jan 3 reports it, Jan 2's does not.
    found = scheduled(week)
    before = body_of(found[("Fri, 02 Jan 2026 00:00:00 +0000", ALICE[1])])
    after = body_of(found[("Sat, 03 Jan 2026 00:00:00 +0000", ALICE[1])])
    assert "carol@example.test" not in before
    assert "2026-01-02 05:00 UTC  carol@example.test: carol@example.test is now a player" in after


def test_digest_please_on_the_list_is_mailed_to_the_minister_alone(
    week: list[EmailMessage],
) -> None:
    reply = ruling_on(week, 3)
    assert reply["To"] == LIST_ADDRESS
    assert "the digest for Ministry of the Board, Meta-Ministry is mailed to Bob alone" in " ".join(
        body_of(reply).split()
    )
    (digest,) = [m for m in digests(week) if m["Date"] == "Sat, 03 Jan 2026 03:00:00 +0000"]
    assert digest["To"] == BOB[1]
    assert "Digest for Bob: on request," in body_of(digest)


def test_a_private_request_is_answered_privately(week: list[EmailMessage]) -> None:
    reply = ruling_on(week, 4)
    assert reply["To"] == ALICE[1]
    assert "APPLIED" in body_of(reply) and "mailed to Alice alone" in body_of(reply)
    (digest,) = [m for m in digests(week) if m["Date"] == "Sat, 03 Jan 2026 04:00:00 +0000"]
    assert digest["To"] == ALICE[1]


def test_a_non_minister_asking_is_refused(week: list[EmailMessage]) -> None:
    body = " ".join(body_of(ruling_on(week, 5)).split())
    assert "Rejected: Carol holds no Ministry and is no Minister's Deputy" in body
    assert "(rule 625 A, 1272)" in body


def test_a_checkpoint_digest_matches_its_golden_file(week: list[EmailMessage]) -> None:
    digest = scheduled(week)[("Sun, 04 Jan 2026 00:00:00 +0000", ALICE[1])]
    assert (
        digest["Subject"]
        == "[digest] Ministry of the Board, Ministry of the Roster: nweek 1, nday 4"
    )
    assert digest["Auto-Submitted"] == "auto-generated"
    assert_golden("alice_first_checkpoint", body_of(digest).encode())


def test_replaying_the_archive_writes_the_same_digests(
    tmp_path: Path, week: list[EmailMessage]
) -> None:
    _app, again = play(tmp_path)
    first = {mail["Message-ID"]: body_of(mail) for mail in digests(week)}
    second = {mail["Message-ID"]: body_of(mail) for mail in digests(again)}
    assert first == second and len(first) == 8  # six scheduled, two requested


def test_a_second_run_over_the_same_interval_adds_nothing(tmp_path: Path) -> None:
    app, _mails = play(tmp_path, WEEK[:1])
    with app.session_factory.begin() as session:
        before = session.query(OutboxMessage).count()
        send_scheduled_digests(session, app.services, EPOCH, UNTIL)
        assert session.query(OutboxMessage).count() == before


def test_a_missed_ministry_rotation_is_flagged_overdue(tmp_path: Path) -> None:
    # The list has been kept since nweek 1 and the Ministry of Justice has been
    # Open since, but no Rotation is on record for nweek 2 (rule 625 B): the
    # bot was started again in nweek 2 on this database.
    app = make_app(tmp_path / "bot", ministries=MINISTRIES, digests=DigestSettings(seal=True))
    items = tuple(
        Ministry(entry.ministry, entry.holder or None, entry.deputies, rotated_nweek=0)
        for entry in MINISTRIES
    )
    with app.session_factory.begin() as session:
        save_ministries(session, None, Ministries(items, created_nweek=0))
    start = EPOCH + timedelta(days=10, hours=5)  # nweek 2, nday 1
    raw = compose_post(
        *ALICE, "[Nomic] Go", "I place a stone at E5.", "late@example.test", start, to=LIST_ADDRESS
    )
    write_mbox(tmp_path / "late.mbox", [(raw, mbox_from_line(ALICE[1], start))])
    replay_archive(
        app,
        tmp_path / "late.mbox",
        MaildirTransport(tmp_path / "out"),
        until=start + timedelta(days=1),
    )
    mails = maildir_mails(tmp_path / "out")
    (bob,) = [m for m in digests(mails) if m["To"] == BOB[1]]
    body = " ".join(body_of(bob).split())
    assert (
        "OVERDUE - Meta-Ministry: Ministry Rotation was not performed for Ministry of Justice "
        "at the beginning of nweek 2 (rule 625 B)"
    ) in body
    # Rule 1906: the Seal declares the Displays up to date, so not for the Meta-Ministry.
    seals = {mail["Subject"] for mail in mails if mail["X-Nomicbot-Kind"] == "seal"}
    assert seals == {
        f"[seal] {name}: the Public Displays are up to date"
        for name in ("Ministry of the Board", "Ministry of the Roster")
    }


def test_the_seal_is_posted_for_each_held_ministry_with_nothing_overdue(tmp_path: Path) -> None:
    _app, mails = play(tmp_path, WEEK[:1], digests=DigestSettings(seal=True))
    seals = [mail for mail in mails if mail["X-Nomicbot-Kind"] == "seal"]
    subjects = {(mail["Date"][:16], mail["Subject"]) for mail in seals}
    held = ("Ministry of the Board", "Meta-Ministry", "Ministry of the Roster")
    days = ("Fri, 02 Jan 2026", "Sat, 03 Jan 2026", "Sun, 04 Jan 2026")
    assert subjects == {
        (day, f"[seal] {name}: the Public Displays are up to date") for day in days for name in held
    }
    assert all(mail["To"] == LIST_ADDRESS for mail in seals)
    board = next(mail for mail in seals if "Ministry of the Board" in mail["Subject"])
    assert "#| Ministry of the Board :: " in body_of(board)
    assert "(B Nomic rule 1906)" in body_of(board)


def assert_golden(name: str, rendered: bytes) -> None:
    path = GOLDEN / f"{name}.txt"
    if os.environ.get(UPDATE_VARIABLE) == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(rendered)
    assert path.exists(), f"no golden file {path}; run with {UPDATE_VARIABLE}=1 to write it"
    assert rendered == path.read_bytes()
