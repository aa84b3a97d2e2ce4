"""After SIGKILL of ``nomicbot replay``, its helper processes do not outlive it.

A replay of more than a few hundred posts prepares posts in a second process
(``bot.engine.prepare``), and multiprocessing starts a resource tracker
beside it.  Killed with SIGKILL (or by the OOM killer), the replay used to
leave both behind for good: the preparer waited for work on a pipe it held
both ends of, and the tracker waited for the preparer.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

from bot.posts import compose_post, mbox_from_line
from bot.runner import PARALLEL_FROM
from bot.testing import go_game
from bot.testing.apps import write_config, write_mbox

POSTS = 2000  # well past PARALLEL_FROM, and several seconds of judging
BODIES = ("Good morning.\n\nI roll 1d6.\n\nI roll 2d6.\n", "I pass.\n\n-- \nBob\n")


def write_archive(path: Path) -> None:
    templates = [
        compose_post(*author, "[Nomic] dice", body, "p00000@example.test", go_game.EPOCH, to=to)
        for author, body, to in (
            (go_game.ALICE, BODIES[0], go_game.LIST_ADDRESS),
            (go_game.BOB, BODIES[1], go_game.LIST_ADDRESS),
        )
    ]
    posts = []
    for number in range(POSTS):
        at = go_game.EPOCH + timedelta(minutes=number)
        raw = templates[number % 2].replace(b"p00000@", b"p%05d@" % number)
        posts.append((raw, mbox_from_line(go_game.ALICE[1], at)))
    write_mbox(path, posts)


def stat_of(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, or None when it no longer exists."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def children_of(parent: int) -> Iterator[int]:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            found = stat_of(int(entry.name))
            if found is not None and found[1] == parent:
                yield int(entry.name)


def alive(pid: int) -> bool:
    found = stat_of(pid)
    return found is not None and found[0] not in ("Z", "X")  # a zombie has exited


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def wait_for_preparer(replay: subprocess.Popen[bytes], deadline: float) -> list[int]:
    while time.monotonic() < deadline and replay.poll() is None:
        helpers = list(children_of(replay.pid))
        if any("spawn_main" in command_line(pid) for pid in helpers):
            return helpers
        time.sleep(0.1)
    raise AssertionError(f"no preparing process appeared (replay exit {replay.poll()})")


def test_helpers_die_with_a_killed_replay(tmp_path: Path) -> None:
    assert POSTS > PARALLEL_FROM
    archive = tmp_path / "archive.mbox"
    write_archive(archive)
    config = write_config(tmp_path / "bot")
    until = (go_game.EPOCH + timedelta(days=30)).isoformat()
    command = [sys.executable, "-m", "bot.cli", "--config", str(config), "replay", str(archive)]
    command += ["--outbox", str(tmp_path / "out"), "--until", until]
    with open(tmp_path / "replay.log", "wb") as log:
        replay = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    helpers: list[int] = []
    try:
        helpers = wait_for_preparer(replay, time.monotonic() + 120)
        assert all("multiprocessing" in command_line(pid) for pid in helpers)
        time.sleep(1.0)  # well into judging, with posts in flight
        assert replay.poll() is None, "the replay ended before it could be killed"
        replay.send_signal(signal.SIGKILL)
        replay.wait(timeout=10)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and any(alive(pid) for pid in helpers):
            time.sleep(0.1)
        survivors = {pid: command_line(pid) for pid in helpers if alive(pid)}
        assert not survivors, f"helpers outlived the killed replay: {survivors}"
    finally:
        if replay.poll() is None:
            replay.kill()
            replay.wait()
        for pid in helpers:  # only the helpers this test's replay started
            if alive(pid) and "multiprocessing" in command_line(pid):
                os.kill(pid, signal.SIGKILL)
