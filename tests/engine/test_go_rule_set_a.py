"""Rule set A (A Nomic rules 365-377, seed 002) played by mail, end to end.

Alice and Bob post to the list; the game is configured with ``[go] rules =
"A"`` on a 7x7 board.  Each post goes through the real pipeline, engine and
outbox (an mbox replay), and the rulings, the board mailed back, the ledger,
``nomicbot state go --json`` and ``nomicbot go history`` are checked.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner

from bot.audit import verify_archive
from bot.cli import main
from bot.config import GoSettings, PlayerEntry
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.testing.apps import (
    body_of,
    go_state,
    maildir_mails,
    make_app,
    write_config,
    write_mbox,
)
from bot.testing.go_game import ALICE, BOB

START = datetime(2026, 1, 5, 9, tzinfo=UTC)
SCRIPT = (
    # (hours after START, author, body)
    (0, ALICE, "I place a stone at d4"),
    (1, BOB, "I place a stone at c4"),
    (2, BOB, "I place a stone at e4"),  # 368: within 19 hours of Bob's last move
    (20, ALICE, "I place a stone at e4"),  # the same vertex, now by Alice: legal
    (21, ALICE, "I pass"),  # 368 lists no pass
    (40, BOB, "I offer an alliance to Alice"),
    (41, ALICE, "I accept Bob's alliance offer"),  # exempt from the 19 hours
    (42, ALICE, "I buy a stone. I buy a stone."),  # the first is free, the second costs 4
    (43, ALICE, "I give a stone to Bob"),
    (80, BOB, "I declare war on Alice"),
)


def posts() -> list[tuple[bytes, str]]:
    archive = []
    for number, (hours, (name, address), body) in enumerate(SCRIPT, start=1):
        date = START + timedelta(hours=hours)
        raw = compose_post(name, address, "[Nomic] Go", body, f"a-{number:02d}@example.test", date)
        archive.append((raw, mbox_from_line(address, date)))
    return archive


def play(tmp_path: Path) -> tuple[Path, list[tuple[str, str, str, str]]]:
    write_mbox(tmp_path / "game.mbox", posts())
    app = make_app(tmp_path / "bot", go=GoSettings(rules="A", size=7))
    until = START + timedelta(hours=81)
    replay_archive(app, tmp_path / "game.mbox", MaildirTransport(tmp_path / "out"), until=until)
    from sqlalchemy import select

    from bot.store.models import ActionRecord

    with app.session_factory() as session:
        rows = session.execute(
            select(
                ActionRecord.text, ActionRecord.ruling, ActionRecord.rule, ActionRecord.reason
            ).order_by(ActionRecord.id)
        ).all()
    return tmp_path / "out", [tuple(row) for row in rows]  # type: ignore[misc]


def test_each_action_is_judged_under_rules_365_to_377(tmp_path: Path) -> None:
    _outbox, log = play(tmp_path)
    rulings = [(text, ruling, rule) for text, ruling, rule, _reason in log]
    assert rulings == [
        ("I place a stone at d4", "applied", "368"),
        ("I place a stone at c4", "applied", "368"),
        ("I place a stone at e4", "rejected", "368"),
        ("I place a stone at e4", "applied", "368"),
        ("I pass", "rejected", "368"),
        ("I offer an alliance to Alice", "applied", "368"),
        ("I accept Bob's alliance offer", "applied", "368"),
        ("I buy a stone.", "applied", "374"),
        ("I buy a stone.", "rejected", "374"),
        ("I give a stone to Bob", "applied", "375"),
        ("I declare war on Alice", "applied", "368"),
    ]
    reasons = {text: reason for text, ruling, _rule, reason in log if ruling == "rejected"}
    assert "within 19 hours" in reasons["I place a stone at e4"]
    assert "2026-01-06 05:00 UTC" in reasons["I place a stone at e4"]  # 10:00 + 19 hours
    # The refusal says when, as the Clock shows it too (rule 3 A).
    assert reasons["I place a stone at e4"].endswith(
        "Bob may make a Go move again from nweek 1, nday 6 (2026-01-06 05:00 UTC)"
    )
    assert "no pass" in reasons["I pass"]
    assert "the price is 4 points" in reasons["I buy a stone."]


def test_the_reply_mails_the_a_nomic_board(tmp_path: Path) -> None:
    outbox, _log = play(tmp_path)
    replies = [mail for mail in maildir_mails(outbox) if mail["X-Nomicbot-Kind"] == "ruling"]
    first = next(mail for mail in replies if "a-01@" in str(mail["In-Reply-To"]))
    body = body_of(first)
    assert "Political Go (A Nomic rules 365-377): game 1, after move 1" in body
    assert "4  . . . A . . .  4" in body
    assert "   a b c d e f g" in body


def test_state_and_history_commands(tmp_path: Path) -> None:
    play(tmp_path)
    config = write_config(tmp_path / "bot", '[go]\nrules = "A"\nsize = 7\n')
    runner = CliRunner()
    state = json.loads(
        runner.invoke(main, ["state", "go", "--json", "--config", str(config)]).output
    )
    assert state["rules"] == "A"
    assert state["size"] == 7
    assert state["stones"] == {"d4": "Alice", "c4": "Bob", "e4": "Alice"}
    assert state["alliances"] == []  # war was declared
    assert state["stones_held"]["Bob"]["reserve"] == 1
    assert state["stones_held"]["Alice"]["reserve"] == 0
    history = runner.invoke(main, ["go", "history", "E4", "--config", str(config)])
    assert history.exit_code == 0
    assert "placed: Alice's stone" in history.output
    assert "<a-04@example.test>" in history.output


def test_a_capture_is_divided_and_shows_in_the_history(tmp_path: Path) -> None:
    script = [
        (0, ALICE, "I place a stone at a2"),
        (1, BOB, "I place a stone at a1"),
        (20, ALICE, "I place a stone at b1"),  # captures a1: 369, Alice's only
    ]
    archive = []
    for number, (hours, (name, address), body) in enumerate(script, start=1):
        date = START + timedelta(hours=hours)
        raw = compose_post(name, address, "[Nomic] Go", body, f"c-{number}@example.test", date)
        archive.append((raw, mbox_from_line(address, date)))
    write_mbox(tmp_path / "capture.mbox", archive)
    app = make_app(tmp_path / "bot", go=GoSettings(rules="A", size=7))
    replay_archive(
        app,
        tmp_path / "capture.mbox",
        MaildirTransport(tmp_path / "out"),
        until=START + timedelta(hours=21),
    )
    config = write_config(tmp_path / "bot", '[go]\nrules = "A"\nsize = 7\n')
    runner = CliRunner()
    state = json.loads(
        runner.invoke(main, ["state", "go", "--json", "--config", str(config)]).output
    )
    assert state["stones"] == {"a2": "Alice", "b1": "Alice"}
    assert state["stones_held"]["Alice"]["captured"] == 1
    history = runner.invoke(main, ["go", "history", "a1", "--json", "--config", str(config)])
    changes = [
        (row["change"], row["owner"], row["message_id"]) for row in json.loads(history.output)
    ]
    assert changes == [
        ("placed", "Bob", "c-2@example.test"),
        ("captured", "Bob", "c-3@example.test"),
    ]


def test_setup_stones_under_rule_set_b(tmp_path: Path) -> None:
    config = write_config(tmp_path / "bot")
    runner = CliRunner()
    result = runner.invoke(main, ["go", "setup", "Alice", "C3", "d4", "--config", str(config)])
    assert result.exit_code == 0, result.output
    assert "set-up: Alice's stones placed at C3 D4 (not a move)" in result.output
    state = json.loads(
        runner.invoke(main, ["state", "go", "--json", "--config", str(config)]).output
    )
    assert state["rules"] == "B"
    assert state["stones"] == {"C3": "Alice", "D4": "Alice"}
    history = runner.invoke(main, ["go", "history", "c3", "--config", str(config)])
    assert "set up: Alice's stone" in history.output
    occupied = runner.invoke(main, ["go", "setup", "Bob", "C3", "--config", str(config)])
    assert occupied.exit_code != 0 and "occupied" in occupied.output


def test_a_tied_division_is_drawn_and_verify_dice_rederives_it(tmp_path: Path) -> None:
    # Carol's lone stone on b2 is captured by Bob's c2 with two stones next
    # to it each for Alice and Bob: one Stone, a tie across the cut (369).
    carol = ("Carol", "carol@example.test")
    script = [
        (0, carol, "I place a stone at b2"),
        (1, ALICE, "I place a stone at a2"),
        (2, BOB, "I place a stone at b1"),
        (21, ALICE, "I place a stone at b3"),
        (22, BOB, "I place a stone at c2"),
    ]
    archive = []
    for number, (hours, (name, address), body) in enumerate(script, start=1):
        date = START + timedelta(hours=hours)
        raw = compose_post(name, address, "[Nomic] Go", body, f"t-{number}@example.test", date)
        archive.append((raw, mbox_from_line(address, date)))
    write_mbox(tmp_path / "tie.mbox", archive)
    players = (
        PlayerEntry(ALICE[0], (ALICE[1],)),
        PlayerEntry(BOB[0], (BOB[1],)),
        PlayerEntry(carol[0], (carol[1],)),
    )
    app = make_app(tmp_path / "bot", go=GoSettings(rules="A", size=5), players=players)
    # Until after nweek 1 ends (day 10 of the epoch), when its seed is revealed.
    replay_archive(
        app,
        tmp_path / "tie.mbox",
        MaildirTransport(tmp_path / "out"),
        until=datetime(2026, 1, 12, tzinfo=UTC),
    )
    replies = [m for m in maildir_mails(tmp_path / "out") if m["X-Nomicbot-Kind"] == "ruling"]
    last = " ".join(body_of(next(m for m in replies if "t-5@" in str(m["In-Reply-To"]))).split())
    assert "tie broken by a recorded draw" in last
    assert "draw-v1 context=t-5@example.test#1 number=0 options=Alice|Bob order=" in last
    state = go_state(app)
    assert sorted(state["stones_held"][name]["captured"] for name in ("Alice", "Bob")) == [0, 1]
    report = verify_archive(tmp_path / "out")
    assert report.ok and report.checked == 1, report.lines


def test_points_credited_by_the_administrator_buy_stones(tmp_path: Path) -> None:
    config = write_config(tmp_path / "bot", '[go]\nrules = "A"\nsize = 7\n')
    runner = CliRunner()
    credit = ["ledger", "credit", "Alice", "30", "--reason", "opening grant", "--config"]
    result = runner.invoke(main, [*credit, str(config)])
    assert result.exit_code == 0, result.output
    assert "Alice now holds 30 points" in result.output
    date = START
    raw = compose_post(*ALICE, "[Nomic] Go", "I buy 3 stones", "buy@example.test", date)
    write_mbox(tmp_path / "buy.mbox", [(raw, mbox_from_line(ALICE[1], date))])
    replay = ["replay", str(tmp_path / "buy.mbox"), "--until", date.isoformat(), "--config"]
    assert runner.invoke(main, [*replay, str(config)]).exit_code == 0
    state = runner.invoke(main, ["state", "holdings", "--json", "--config", str(config)])
    # Rule 374: (5^0-1) + (5^1-1) + (5^2-1) = 0 + 4 + 24 = 28 points.  Both
    # hold the 10BW of the nweek the game starts in (rule 212).
    assert json.loads(state.output) == {
        "Alice": {"bandwidth": 10, "points": 2},
        "Bob": {"bandwidth": 10},
    }
    go = json.loads(runner.invoke(main, ["state", "go", "--json", "--config", str(config)]).output)
    assert go["stones_held"]["Alice"]["reserve"] == 3
    # A negative amount follows "--", as for any command line.
    take = ["ledger", "credit", "--reason", "x", "--config", str(config), "--", "Bob", "-1"]
    overdraw = runner.invoke(main, take)
    assert overdraw.exit_code != 0 and "below zero" in overdraw.output
