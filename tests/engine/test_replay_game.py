"""The scripted 26-post Political Go game, replayed from an mbox archive."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.outbound.transports import MaildirTransport
from bot.runner import replay_archive
from bot.testing import go_game
from bot.testing.apps import (
    action_log,
    board_text,
    body_of,
    go_state,
    maildir_mails,
    make_app,
    write_config,
)
from bot.testing.go_game import EXPECTED_BOARD, GAME_END, expected_log


def test_replay_judges_every_action_as_the_rules_say(tmp_path: Path, game_mbox: Path) -> None:
    app = make_app(tmp_path / "bot")
    report = replay_archive(app, game_mbox, MaildirTransport(tmp_path / "out"), until=GAME_END)
    assert (report.posts, report.stored, report.queue.processed) == (26, 26, 26)
    assert action_log(app) == expected_log()
    assert board_text(app) == EXPECTED_BOARD
    state = go_state(app)
    assert state["scores"] == go_game.FINAL_SCORES
    assert {p for p, owner in state["stones"].items() if owner == "Alice"} == go_game.FINAL_ALICE
    assert {p for p, owner in state["stones"].items() if owner == "Bob"} == go_game.FINAL_BOB


def test_every_post_gets_one_threaded_ruling(tmp_path: Path, game_mbox: Path) -> None:
    app = make_app(tmp_path / "bot")
    replay_archive(app, game_mbox, MaildirTransport(tmp_path / "out"), until=GAME_END)
    rulings = [m for m in maildir_mails(tmp_path / "out") if m["X-Nomicbot-Kind"] == "ruling"]
    answered = sorted(str(mail["In-Reply-To"]).strip("<>") for mail in rulings)
    assert answered == sorted(post.message_id for post in go_game.SCRIPT)
    for mail in rulings:
        assert mail["Subject"] == "Re: [Nomic] Political Go"
        assert mail["To"] == go_game.LIST_ADDRESS
        assert mail["Auto-Submitted"] == "auto-replied"
        assert str(mail["References"]).endswith(str(mail["In-Reply-To"]))


def test_the_last_ruling_mails_the_final_board(tmp_path: Path, game_mbox: Path) -> None:
    app = make_app(tmp_path / "bot")
    replay_archive(app, game_mbox, MaildirTransport(tmp_path / "out"), until=GAME_END)
    last = go_game.SCRIPT[-1].message_id
    reply = next(m for m in maildir_mails(tmp_path / "out") if last in str(m["In-Reply-To"]))
    assert EXPECTED_BOARD in body_of(reply)


def test_replaying_the_same_archive_twice_changes_nothing(tmp_path: Path, game_mbox: Path) -> None:
    app = make_app(tmp_path / "bot")
    replay_archive(app, game_mbox, MaildirTransport(tmp_path / "out"), until=GAME_END)
    again = replay_archive(app, game_mbox, MaildirTransport(tmp_path / "out"), until=GAME_END)
    assert (again.stored, again.duplicates, again.queue.processed) == (0, 26, 0)
    assert len(action_log(app)) == len(expected_log())


def nomicbot(*arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_replay_command_reaches_the_same_state(tmp_path: Path, game_mbox: Path) -> None:
    config = write_config(tmp_path / "cli")
    out = nomicbot(
        "replay",
        str(game_mbox),
        "--config",
        str(config),
        "--outbox",
        str(tmp_path / "cli-out"),
        "--until",
        GAME_END.isoformat(),
    )
    assert "26 post(s) in the archive: 26 stored" in out
    assert nomicbot("state", "go", "--config", str(config)) == EXPECTED_BOARD
    assert (
        len([m for m in maildir_mails(tmp_path / "cli-out") if m["X-Nomicbot-Kind"] == "ruling"])
        == 26
    )


def test_the_ko_history_is_kept_in_its_own_table(tmp_path: Path, game_mbox: Path) -> None:
    from sqlalchemy import select

    from bot.engine.games.go import occupancy_key
    from bot.store.models import GameRecord, GoPosition

    app = make_app(tmp_path / "bot")
    replay_archive(app, game_mbox, MaildirTransport(tmp_path / "out"), until=GAME_END)
    with app.session_factory() as session:
        state = session.scalars(select(GameRecord.state).where(GameRecord.name == "go")).one()
        positions = session.scalars(select(GoPosition).order_by(GoPosition.id)).all()
    assert "history" not in state  # the JSON state does not grow with every Move
    assert positions[0].board == "." * 81  # the empty board the game began with
    final = positions[-1]
    assert final.move_number == 22
    assert sum(mark != "." for mark in final.board) == 19
    assert final.occupancy == occupancy_key(bytes(mark != "." for mark in final.board))
