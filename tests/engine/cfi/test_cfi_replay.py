"""Replaying an archive of CFI posts gives the same CFIs, ledger and mails (rule 125)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bot.engine.views import game_view
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.testing.apps import maildir_mails, make_app, write_mbox
from bot.testing.go_game import ALICE, BOB, EPOCH, LIST_ADDRESS

CAROL = ("Carol", "carol@example.test")
NOON = EPOCH + timedelta(days=2, hours=12)
POSTS = [
    (CAROL, "I request to become a player with the name Carol.", EPOCH + timedelta(hours=2)),
    (
        ALICE,
        "I submit a CFI against Bob: {{ __Walls__ Bob walked through. Resolution: undo }}",
        NOON,
    ),
    (BOB, "As Defendant in CFI 100 I argue {{ Walls are doors. }}", NOON + timedelta(hours=1)),
    (CAROL, "I vote TRUE on CFI 100", NOON + timedelta(hours=2)),
    (
        BOB,
        "I submit a CFI: {{ __Dice__ Alice rolled twice. Resolution: - reroll }}",
        NOON + timedelta(hours=3),
    ),
    (CAROL, "I vote FALSE on CFI 101", NOON + timedelta(days=1)),
]


def _replay(tmp_path: Path, name: str, until: datetime) -> tuple[Any, list[str]]:
    archive = tmp_path / "archive.mbox"
    if not archive.exists():
        write_mbox(
            archive,
            [
                (
                    compose_post(
                        *who, "[Nomic] CFI", body, f"c{n}@example.test", at, to=LIST_ADDRESS
                    ),
                    mbox_from_line(who[1], at),
                )
                for n, (who, body, at) in enumerate(POSTS)
            ],
        )
    app = make_app(tmp_path / name)
    replay_archive(app, archive, MaildirTransport(tmp_path / f"{name}-out"), until=until)
    with app.session_factory() as session:
        state = (
            game_view(session, app.services, "cfis").data,
            game_view(session, app.services, "polls").data,
            game_view(session, app.services, "holdings").data,
        )
    subjects = [str(mail["Subject"]) for mail in maildir_mails(tmp_path / f"{name}-out")]
    app.dispose()
    return state, subjects


def test_a_replay_gives_the_same_state_and_the_rulings_in_time(tmp_path: Path) -> None:
    until = EPOCH + timedelta(days=9)  # past both deadlines (7 January)
    first, first_mails = _replay(tmp_path, "first", until)
    second, second_mails = _replay(tmp_path, "second", until)
    assert first == second and first_mails == second_mails
    cfis, polls, held = first
    assert cfis == []  # both ruled by ``until``
    assert [poll["closed"] for poll in polls] == [True, True]
    # The Maildir is named by Message-ID, so its order says nothing: compare sorted.
    rulings = sorted(subject for subject in first_mails if subject.startswith("[cfi]"))
    assert rulings == [
        "[cfi] CFI 100 ruled In Favor of the Plaintiff",
        "[cfi] CFI 101 ruled Against the Plaintiff",
    ]


def test_a_replay_stopped_before_the_deadline_leaves_the_cfi_pending(tmp_path: Path) -> None:
    (cfis, _, _), mails = _replay(tmp_path, "early", NOON + timedelta(days=1, hours=1))
    # CFI 100 short-circuited with Carol's vote; CFI 101 has Alice and Carol to vote.
    assert [item["number"] for item in cfis] == [101]
    assert cfis[0]["not_voted"] == ["Alice"] and cfis[0]["votes"][0]["vote"] == "No"
    assert sum(subject.startswith("[cfi]") for subject in mails) == 1
