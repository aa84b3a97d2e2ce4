"""The end of a game, run by the scheduler: B Nomic 1639 F/G and A Nomic 365.

Rule 1639 F ends a game at a Checkpoint once the last Move was a Pass and no
stone was placed for more than an nweek; G scores it, credits positive Go
Points as Nomic points (in the ledger) and resets.  A Nomic's rule 365 ends a
game when an nweek passes with no stone placed; 370 scores and 371 clears.
Both are mailed to the list as a report.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import select

from bot.config import GoSettings
from bot.engine import ledger
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.store.models import LedgerEntry, Player
from bot.testing.apps import body_of, go_state, maildir_mails, make_app, write_mbox
from bot.testing.go_game import ALICE, BOB, EPOCH


def archive(path: Path, script: list[tuple[datetime, tuple[str, str], str]]) -> Path:
    posts = []
    for number, (date, (name, address), body) in enumerate(script, start=1):
        raw = compose_post(name, address, "[Nomic] Go", body, f"end-{number}@example.test", date)
        posts.append((raw, mbox_from_line(address, date)))
    write_mbox(path, posts)
    return path


def end_reports(outbox: Path) -> list[str]:
    return [body_of(mail) for mail in maildir_mails(outbox) if mail["X-Nomicbot-Kind"] == "go-end"]


def test_rule_1639_f_and_g_end_score_and_reset_at_a_checkpoint(tmp_path: Path) -> None:
    day = timedelta(days=1)
    mbox = archive(
        tmp_path / "b.mbox",
        [
            (EPOCH + timedelta(hours=10), ALICE, "I place a stone at A1"),
            (EPOCH + timedelta(hours=11), BOB, "I place a stone at I9"),
            (EPOCH + 3 * day + timedelta(hours=10), ALICE, "I pass"),
        ],
    )
    app = make_app(tmp_path / "bot")
    # Stones in period 0 (ndays 1-3), the pass in period 1; rule 1639 F: the
    # Checkpoint closing period 3 (ndays 1-3 of nweek 2, at day 13) ends it.
    replay_archive(app, mbox, MaildirTransport(tmp_path / "out"), until=EPOCH + 12 * day)
    assert end_reports(tmp_path / "out") == []
    replay_archive(app, mbox, MaildirTransport(tmp_path / "out"), until=EPOCH + 13 * day)
    (report,) = end_reports(tmp_path / "out")
    assert "has ended (rule 1639 F)" in report
    # One stone each: the 79 empty points border both, 2*79//2 = 79 each.
    assert "Alice: Go Score 0 + territory 79 = 79; Nomic points gained: 79" in report
    assert go_state(app)["stones"] == {}
    with app.session_factory() as session:
        alice = session.scalar(select(Player).where(Player.name == "Alice"))
        assert alice is not None
        assert ledger.balance(session, alice.id, "points") == 79
        entry = session.scalar(
            select(LedgerEntry).where(
                LedgerEntry.player_id == alice.id, LedgerEntry.currency == "points"
            )
        )
        assert entry is not None and (entry.rule, entry.source) == ("1639 G", "scheduler")


def test_rule_365_ends_an_a_nomic_game_after_a_quiet_nweek(tmp_path: Path) -> None:
    day = timedelta(days=1)
    mbox = archive(
        tmp_path / "a.mbox",
        [
            (EPOCH + timedelta(hours=10), ALICE, "I place a stone at a1"),
            (EPOCH + timedelta(hours=40), BOB, "I place a stone at b2"),
        ],
    )
    app = make_app(tmp_path / "bot", go=GoSettings(rules="A", size=5))
    # Placements in nweek 1 (ndays 1-10); nweek 2 passes without one, so
    # the game ends as nweek 3 begins (day 20).
    replay_archive(app, mbox, MaildirTransport(tmp_path / "out"), until=EPOCH + 19 * day)
    assert end_reports(tmp_path / "out") == []
    assert go_state(app)["stones"] == {"a1": "Alice", "b2": "Bob"}
    replay_archive(app, mbox, MaildirTransport(tmp_path / "out"), until=EPOCH + 20 * day)
    (report,) = end_reports(tmp_path / "out")
    assert "nweek 2 passed with no stone placed (rule 365)" in report
    state = go_state(app)
    assert state["stones"] == {} and state["game"] == 2
    # Rule 371: each Go player's stone In Play joined eir Captured Stones.
    assert state["stones_held"]["Alice"]["captured"] >= 1
