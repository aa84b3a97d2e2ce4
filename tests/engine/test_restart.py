"""Killing the daemon and starting it again loses and repeats nothing.

The real ``nomicbot run`` reads a real Dovecot mailbox; it is killed with
SIGKILL while it works, more mail arrives (including a post it has already
seen, again), and a second daemon finishes the job.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from bot.store.models import ImapCursor
from bot.testing import go_game
from bot.testing.apps import (
    action_log,
    append_to_mailbox,
    board_text,
    maildir_mails,
    make_app,
    message_statuses,
)
from bot.testing.dovecot import ImapAccount
from bot.testing.go_game import EXPECTED_BOARD, expected_log
from bot.testing.support import wait_until

CHATTER = 300


def chatter(count: int) -> tuple[go_game.ScriptedPost, ...]:
    """Posts with no actions in them, interleaved with the game by arrival time."""
    return tuple(
        go_game.ScriptedPost(
            go_game.ALICE,
            post.at + timedelta(minutes=minute),
            "Good game so far.  I think I will place a stone somewhere soon.",
            1000 + index,
        )
        for index, (post, minute) in enumerate(
            (go_game.SCRIPT[n % 18], n // 18 + 1) for n in range(count)
        )
    )


def start_daemon(config: Path, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "run", "--config", str(config)],
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def rulings(outbox: Path) -> Counter[str]:
    if not (outbox / "new").exists():
        return Counter()
    return Counter(
        str(m["In-Reply-To"]) for m in maildir_mails(outbox) if m["X-Nomicbot-Kind"] == "ruling"
    )


def test_kill_and_restart_loses_and_repeats_nothing(tmp_path: Path, imap_user: ImapAccount) -> None:
    folder = tmp_path / "bot"
    config = go_game_config(folder, imap_user)
    app = make_app(folder)  # the same database and settings, to inspect
    log = tmp_path / "daemon.log"
    # A backlog, so that the kill lands while the daemon is working.
    append_to_mailbox(imap_user, go_game.arrivals(go_game.SCRIPT[:18] + chatter(CHATTER)))
    first = start_daemon(config, log)
    try:
        assert wait_until(lambda: sum(rulings(folder / "outbox").values()) >= 6, timeout=60), (
            log.read_text()
        )
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)
    print(
        f"killed with {Counter(message_statuses(app).values())} and "
        f"{sum(rulings(folder / 'outbox').values())} rulings mailed"
    )
    # The rest of the game, and two posts it has already judged, again.
    append_to_mailbox(imap_user, go_game.arrivals(go_game.SCRIPT[18:] + go_game.SCRIPT[2:4]))
    second = start_daemon(config, log)
    try:
        assert wait_until(lambda: len(rulings(folder / "outbox")) >= 26, timeout=60), (
            log.read_text()
        )
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(30) == 0, log.read_text()
    assert set(message_statuses(app).values()) == {"processed"}
    assert len(message_statuses(app)) == 26 + CHATTER
    assert action_log(app) == expected_log()  # nothing judged twice
    assert set(rulings(folder / "outbox").values()) == {1}  # nothing mailed twice
    assert board_text(app) == EXPECTED_BOARD
    with app.session_factory() as session:
        assert session.scalar(select(ImapCursor.last_uid)) == 28 + CHATTER


def go_game_config(folder: Path, account: ImapAccount) -> Path:
    from bot.testing.apps import write_config

    return write_config(
        folder,
        (
            f'[imap]\nenabled = true\nhost = "{account.host}"\nport = {account.port}\n'
            f'username = "{account.username}"\npassword = "{account.password}"\n'
        ),
    )
