"""Replay of a long B Nomic game: does the cost per post grow with the game's age?

    .venv/bin/python bench/history.py [--posts 100000] [--seed 4] [--db sqlite|postgres|URL]
        [--workdir DIR] [--budget 3600]

1. Generates a deterministic archive (seeded) of a long B Nomic game (seed 004)
   as list mail (see history_plan.py; the mail as archive_mail.py writes it):
   players joining and leaving (rules 14, 205), proposals with their Ballot
   votes (rules 5, 15, 19, 23), CFIs with their votes (rule 125), the
   Elections of Ministry Rotation (rules 625, 1823), one of them with a crowd
   of new voters, Political Go (rule 1639), dice (rule 9) and chatter.
2. Replays it with the real command line, ``nomicbot --config FILE replay
   ARCHIVE --outbox DIR --until END``, as a subprocess on a fresh database
   (SQLite by default; ``--db postgres`` starts a private PostgreSQL on
   loopback as the tests do, ``--db URL`` uses that database, which must be
   empty).  The command draws its progress bar only on a terminal, so its
   standard error is a pseudo-terminal here, and each redraw of the "judging"
   bar is read with the instant it arrived: that gives the time at which the
   n-th post was judged, without changing the command.
3. Prints the time per 1,000 posts at 10 points along the archive, the total,
   the replay's peak RSS (``wait4``'s rusage of that process), the ratio of
   the last 1,000 posts' time to the first 1,000's (goal <= 1.3), and the time
   per 100 ballots along the big Election's ballots.
4. Checks every ruling, ruling reply and status against the generator's plan
   and prints the disagreements; the exit status is non-zero on any, or when
   the replay did not finish within ``--budget`` seconds (it is then stopped,
   and the curve covers the posts judged so far).
"""

from __future__ import annotations

import argparse
import bisect
import codecs
import fcntl
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import archive_check
from archive_mail import game_end, write_archive, write_config
from history_plan import MINISTRIES, HistoryPlanner, plan_history
from runs import clean_environment, nomicbot_command, workspace
from sqlalchemy.orm import Session

from bot.store.database import make_engine

TARGET_RATIO = 1.3
WINDOW = 1000  # posts per point of the curve
CURVE_POINTS = 10
BAR = re.compile(r"judging:[^\r\n]*?\s(\d+)/(\d+)\s")


@dataclass(frozen=True)
class Prepared:
    archive: Path
    planner: HistoryPlanner
    until: datetime


@dataclass(frozen=True)
class ReplayRun:
    seconds: float
    finished: bool
    summary: str
    peak_rss_mb: float
    progress: list[tuple[float, int]]  # (seconds since start, posts judged)


# --- the archive -------------------------------------------------------------------


def prepare(folder: Path, count: int, seed: int) -> Prepared:
    started = time.perf_counter()
    planner = plan_history(count, seed)
    posts = planner.posts
    archive = folder / "history.mbox"
    write_archive(archive, posts, seed)
    print(
        f"archive: {len(posts)} posts, {archive.stat().st_size / 1e6:.1f} MB, "
        f"{posts[0].at:%Y-%m-%d} to {posts[-1].at:%Y-%m-%d}; "
        f"generated in {time.perf_counter() - started:.1f} s"
    )
    print(f"  posts by kind: {dict(Counter(post.kind for post in posts).most_common())}")
    print(f"  planned rulings: {dict(sorted(planned_rulings(planner).items()))}")
    big = planner.big_election
    big_voters = len(big.voters) if big else 0
    print(
        f"  {len(planner.proposals)} proposals, {len(planner.cfis)} CFIs, "
        f"{len(planner.elections)} Elections (Rotation), the big one with {big_voters} voters"
        f" and {len(planner.big_ballots)} ballots; {len(planner.citizens)} players at the end"
    )
    return Prepared(archive, planner, game_end(posts))


def planned_rulings(planner: HistoryPlanner) -> Counter[str]:
    return Counter(
        f"{item.action} {item.outcome}" for post in planner.posts for item in post.expected
    )


def configure(folder: Path, database_url: str) -> tuple[Path, Path]:
    """The game master's configuration: the players and the Ministries; and the outbox."""
    folder.mkdir(parents=True)
    config = write_config(folder / "nomicbot.toml", folder)
    ministries = "".join(
        f'[[ministries]]\nministry = "{name}"\nholder = "{holder}"\n\n'
        for name, holder in MINISTRIES
    )
    database = f'[database]\nurl = "{database_url}"\n\n' if database_url else ""
    config.write_text(config.read_text(encoding="utf-8") + ministries + database, "utf-8")
    return config, folder / "outbox"


# --- the replay, its progress and its peak memory ------------------------------------


def replay(prepared: Prepared, config: Path, outbox: Path, budget: float) -> ReplayRun:
    """``nomicbot replay`` with a pseudo-terminal for its progress bar; stopped at ``budget``."""
    command = [*nomicbot_command(), "--config", str(config), "replay", str(prepared.archive)]
    command += ["--outbox", str(outbox), "--until", prepared.until.isoformat()]
    leader, follower = pty.openpty()
    # A new terminal is 0 columns wide, and tqdm draws an empty bar on it.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=follower,
        env=clean_environment(),
        start_new_session=True,
    )
    os.close(follower)
    progress: list[tuple[float, int]] = []
    others: list[str] = []
    reader = threading.Thread(
        target=read_progress, args=(leader, started, progress, others), daemon=True
    )
    reader.start()
    finished = wait_within(process, started + budget)
    _pid, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    reader.join(timeout=5)
    os.close(leader)
    summary = process.stdout.read().decode(errors="replace").strip() if process.stdout else ""
    if finished and os.waitstatus_to_exitcode(status) != 0:
        error = "\n".join(others[-40:])
        raise SystemExit(f"nomicbot replay failed ({os.waitstatus_to_exitcode(status)}):\n{error}")
    # ru_maxrss is in kilobytes on Linux.
    return ReplayRun(seconds, finished, summary, usage.ru_maxrss / 1024, progress)


def wait_within(process: subprocess.Popen[bytes], deadline: float) -> bool:
    """Whether ``process`` ended by ``deadline``; stopped (its own group) if not.  Not reaped."""
    while time.perf_counter() < deadline:
        # WNOWAIT leaves the child to be reaped by wait4, which reports its rusage.
        if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return True
        time.sleep(0.2)
    os.killpg(process.pid, 9)
    return False


def read_progress(
    leader: int, started: float, progress: list[tuple[float, int]], others: list[str]
) -> None:
    """Each redraw of the "judging" bar with the instant it was read; the other lines."""
    pending = ""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes with the process (EIO)
            return
        if not chunk:
            return
        instant = time.perf_counter() - started
        pending += decoder.decode(chunk)
        *lines, pending = re.split(r"[\r\n]", pending)
        for line in lines:
            match = BAR.search(line + " ")
            if match:
                progress.append((instant, int(match.group(1))))
            elif line.strip() and not line.startswith("storing:"):
                others.append(line)  # warnings, or the traceback of a failure


# --- the figures -------------------------------------------------------------------


class Curve:
    """The time at which the n-th post was judged, interpolated between bar redraws."""

    def __init__(self, progress: list[tuple[float, int]]) -> None:
        points = sorted({(count, instant) for instant, count in progress})
        self.counts = [count for count, _ in points]
        self.instants = [instant for _, instant in points]

    @property
    def judged(self) -> int:
        return self.counts[-1] if self.counts else 0

    def at(self, count: int) -> float:
        index = bisect.bisect_left(self.counts, count)
        if index == 0:
            return self.instants[0]
        if index >= len(self.counts):
            return self.instants[-1]
        low, high = self.counts[index - 1], self.counts[index]
        share = (count - low) / (high - low)
        return self.instants[index - 1] + share * (self.instants[index] - self.instants[index - 1])

    def span(self, first: int, last: int) -> float:
        """Seconds from the judging of post ``first`` to that of post ``last``."""
        return self.at(last) - self.at(first)


def print_curve(curve: Curve) -> None:
    judged = curve.judged
    if judged < 2 * WINDOW:
        print(f"only {judged} posts judged: too few for the curve")
        return
    starts = [round(step * (judged - WINDOW) / (CURVE_POINTS - 1)) for step in range(CURVE_POINTS)]
    print(f"time per {WINDOW} posts along the archive (posts judged: {judged})")
    for start in starts:
        seconds = curve.span(start, start + WINDOW)
        print(f"  posts {start + 1:>7}-{start + WINDOW:<7} {seconds:8.2f} s")
    first, last = curve.span(0, WINDOW), curve.span(judged - WINDOW, judged)
    ratio = last / first if first > 0 else float("inf")
    verdict = "meets" if ratio <= TARGET_RATIO else "misses"
    print(
        f"RATIO last {WINDOW} / first {WINDOW}: {ratio:.2f}  "
        f"({verdict} the goal of <= {TARGET_RATIO})"
    )


def print_ballots(curve: Curve, planner: HistoryPlanner) -> None:
    """Time per 100 of the big Election's ballots, in tenths of its ballots (posts between
    ballots are judged in the same span, so a tenth's time includes them)."""
    ballots = [number for number in planner.big_ballots if number <= curve.judged]
    if len(ballots) < 2 * CURVE_POINTS:
        print(f"big Election: {len(ballots)} ballots judged, too few for a curve")
        return
    size = len(ballots) // CURVE_POINTS
    print(f"the big Election's {len(ballots)} ballots, by tenths: seconds per 100 ballots")
    rates = []
    for tenth in range(CURVE_POINTS):
        chunk = ballots[tenth * size : (tenth + 1) * size]
        seconds = curve.span(chunk[0] - 1, chunk[-1])
        rates.append(100 * seconds / len(chunk))
        among = chunk[-1] - chunk[0] + 1
        print(
            f"  ballots {tenth * size + 1:>5}-{(tenth + 1) * size:<5} "
            f"(posts {chunk[0]}-{chunk[-1]}, {among} posts): {rates[-1]:7.2f} s"
        )
    print(f"  last tenth / first tenth: {rates[-1] / rates[0]:.2f}")


def check(prepared: Prepared, database_url: str, judged: int) -> bool:
    """Every ruling of the first ``judged`` posts against the plan (all, after a full run)."""
    engine = make_engine(database_url)
    try:
        with Session(engine) as session:
            report = archive_check.check_replay(session, prepared.planner.posts[:judged])
    finally:
        engine.dispose()
    print(f"rulings of the first {judged} posts checked against the generator's plan:")
    print("\n".join(f"  {line}" for line in archive_check.describe(report, show=10)))
    return report.clean


# --- the databases -----------------------------------------------------------------


@contextmanager
def database(choice: str, data: Path) -> Iterator[str]:
    """The URL of a fresh database: SQLite in ``data``, a private PostgreSQL, or as given."""
    if choice == "sqlite":
        yield f"sqlite:///{data / 'nomicbot.sqlite3'}"
        return
    if choice != "postgres":
        yield choice
        return
    from bot.testing.postgres import PostgresServer

    server = PostgresServer(database="nomicbot_history")
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--posts", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--db", default="sqlite", help="sqlite, postgres or a database URL")
    parser.add_argument("--workdir", type=Path, help="keep the archive and database here")
    parser.add_argument(
        "--budget",
        type=float,
        default=3600.0,
        help="seconds the replay may take before it is stopped",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    started = time.perf_counter()
    with workspace(arguments.workdir, "nomicbot-history-") as folder:
        prepared = prepare(folder, arguments.posts, arguments.seed)
        data = folder / f"replay-{arguments.db if '/' not in arguments.db else 'url'}"
        shutil.rmtree(data, ignore_errors=True)
        with database(arguments.db, data) as url:
            config, outbox = configure(data, "" if arguments.db == "sqlite" else url)
            run = replay(prepared, config, outbox, arguments.budget)
            print(f"\nnomicbot replay ({arguments.db}) said: {run.summary or '(stopped)'}")
            state = (
                "finished" if run.finished else f"STOPPED at the {arguments.budget:.0f} s budget"
            )
            print(f"replay {state}: {run.seconds:.1f} s in all; peak RSS {run.peak_rss_mb:.0f} MB")
            curve = Curve(run.progress)
            print_curve(curve)
            print_ballots(curve, prepared.planner)
            # A stopped replay is checked as far as it judged: its posts are judged in order.
            judged = len(prepared.planner.posts) if run.finished else curve.judged
            clean = check(prepared, url, judged) and run.finished
    print(f"\nwhole run: {time.perf_counter() - started:.0f} s")
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
