"""Throughput of ``nomicbot replay`` against bare stdlib mail parsing.

    .venv/bin/python bench/pipeline.py [--posts 10000] [--rounds 3] [--seed 1639]
        [--budget 300] [--profile-posts N] [--profile-out FILE] [--workdir DIR] [--no-profile]
        [--baseline REF]

1. Generates a deterministic archive of a B Nomic game (mbox): eight
   configured players and two who join by rule 14, Political Go Moves spread
   over Checking Periods (rule 1639 C) so that most are legal, rejected
   Moves, dice rolls, conditional and not-understood actions, chatter with
   quoted replies and signatures, HTML-only and multipart mail,
   auto-replies; list headers and footers as Mailman writes them (see
   archive_game.py and archive_mail.py).
2. For up to ``--rounds`` rounds, in turn so that machine noise hits both:
   (a) the real command line, ``nomicbot --config FILE replay ARCHIVE
   --outbox DIR --until END``, as a subprocess on a fresh SQLite database;
   (b) for the same post bytes, ``email.message_from_bytes(raw,
   policy=email.policy.default)`` then ``get_body(('plain', 'html'))
   .get_content()`` per post.  Prints posts/second for both (median round)
   and the ratio of the medians.  Rounds that would overrun ``--budget``
   (seconds for the whole run) are skipped, and the output says so.  With
   ``--baseline REF``, each round also runs the same command on the code of
   git revision REF (exported to a scratch folder and put first on
   ``PYTHONPATH``), in turn with this checkout's, so that both ratios come
   from one run under the same load.  Each command keeps its bytecode in
   the workspace (``PYTHONPYCACHEPREFIX``), compiled by one untimed run
   before the rounds, as an installed package has its modules compiled.
3. Times the command's fixed cost (a replay of an empty archive).
4. Checks round 1's database against the generator's expectations (every
   ruling, every reply, every status; shunted posts with their tracebacks)
   and measures the cost of loading and saving the final Go state.
5. Replays the first posts in-process (``build_app`` + ``replay_archive``),
   once with a timer around each stage (wall-clock breakdown) and once under
   cProfile (breakdown, own time by library, top functions).  As many posts
   as fit in what is left of the budget, or ``--profile-posts``.
"""

from __future__ import annotations

import argparse
import cProfile
import email
import io
import json
import mailbox
import pstats
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from email.policy import default
from pathlib import Path

import archive_check
import stage_profile
from archive_game import PlannedPost, plan_archive
from archive_mail import game_end, write_archive, write_config
from runs import clean_environment, nomicbot_command, workspace
from sqlalchemy import select
from sqlalchemy.orm import Session
from timing import Timing

from bot.app import build_app
from bot.config import load_settings
from bot.games import go
from bot.outbound.transports import MaildirTransport
from bot.runner import replay_archive
from bot.store.database import make_engine
from bot.store.models import GameRecord

TARGET_RATIO = 1.0  # issue "Years of play": at least as fast as the bare decode
# Of the budget, what is kept for the profile after the timed rounds.
PROFILE_SHARE = 0.25
MIN_PROFILE_POSTS = 500


@dataclass(frozen=True)
class Prepared:
    folder: Path
    archive: Path
    posts: list[PlannedPost]
    raws: list[bytes]  # each post's bytes exactly as the replay reads them
    until: datetime
    seed: int


# --- the archive -----------------------------------------------------------------


def prepare(folder: Path, count: int, seed: int) -> Prepared:
    started = time.perf_counter()
    posts = plan_archive(count, seed)
    archive = folder / "game.mbox"
    shapes = write_archive(archive, posts, seed)
    raws = read_back(archive)
    sizes = sorted(len(raw) for raw in raws)
    print(
        f"archive: {len(raws)} posts, {archive.stat().st_size / 1e6:.1f} MB, post size median "
        f"{sizes[len(sizes) // 2]} B (10%: {sizes[len(sizes) // 10]} B, 90%: "
        f"{sizes[len(sizes) * 9 // 10]} B), {posts[0].at:%Y-%m-%d} to {posts[-1].at:%Y-%m-%d}; "
        f"generated in {time.perf_counter() - started:.1f} s"
    )
    print(f"  posts by kind: {dict(Counter(post.kind for post in posts).most_common())}")
    replies = sum(post.text.quote is not None for post in posts)
    print(
        f"  MIME shapes: {dict(shapes.most_common())}; {replies} quote an earlier post; "
        f"{sum(post.expects_reply for post in posts)} should get a ruling reply"
    )
    return Prepared(folder, archive, posts, raws, game_end(posts), seed)


def read_back(archive: Path) -> list[bytes]:
    """Each post's bytes as ``bot.ingress.replay`` reads them (``mailbox.mbox.get_bytes``)."""
    box = mailbox.mbox(str(archive), create=False)
    try:
        return [box.get_bytes(key) for key in box.iterkeys()]
    finally:
        box.close()


# --- (b) the baseline ----------------------------------------------------------------


def parse_bare(raws: Sequence[bytes]) -> int:
    """What the baseline does per post; returns the characters read (so no work is skipped)."""
    characters = 0
    for raw in raws:
        message = email.message_from_bytes(raw, policy=default)
        body = message.get_body(("plain", "html"))
        if body is not None:
            characters += len(body.get_content())
    return characters


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


# --- (a) the command line ------------------------------------------------------------


def fresh_round(prepared: Prepared, name: str) -> tuple[Path, Path]:
    """A new data folder (SQLite database, outbox) and its configuration file."""
    data = prepared.folder / name
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir()
    return write_config(data / "nomicbot.toml", data), data / "outbox"


def cli_replay(
    prepared: Prepared, archive: Path, name: str, code: Path | None = None
) -> tuple[float, str, Path]:
    """Run ``nomicbot replay`` on a fresh database: (seconds, its summary line, data folder).

    ``code``: a folder holding another revision's ``bot`` package, run instead of this one's.
    """
    config, outbox = fresh_round(prepared, name)
    command = [
        *nomicbot_command(),
        "--config",
        str(config),
        "replay",
        str(archive),
        "--outbox",
        str(outbox),
        "--until",
        prepared.until.isoformat(),
    ]
    started = time.perf_counter()
    environment = bytecode_environment(prepared)
    if code is not None:
        environment["PYTHONPATH"] = str(code)
    finished = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
    seconds = time.perf_counter() - started
    if finished.returncode != 0:
        raise SystemExit(f"nomicbot replay failed ({finished.returncode}):\n{finished.stderr}")
    return seconds, finished.stdout.strip(), config.parent


def bytecode_environment(prepared: Prepared) -> dict[str, str]:
    """The command's environment, with its bytecode kept in the workspace.

    An installed nomicbot has its modules compiled (pip compiles a wheel's
    modules as it installs them); a checkout run with PYTHONDONTWRITEBYTECODE
    compiles every module at every start, about a second of a replay that is
    not the bot's.  Here each run reads and writes its bytecode in the
    workspace (PYTHONPYCACHEPREFIX), never in the checkout, and
    ``warm_bytecode`` fills it before the timed rounds, for this checkout's
    code and the baseline's alike.
    """
    environment = clean_environment()
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    environment["PYTHONPYCACHEPREFIX"] = str(prepared.folder / "bytecode")
    return environment


def warm_bytecode(prepared: Prepared, baseline_code: Path | None) -> None:
    """One untimed replay of an empty archive per code tree: their bytecode, compiled once."""
    empty = prepared.folder / "empty.mbox"
    empty.touch()
    for code in (None, baseline_code) if baseline_code is not None else (None,):
        _seconds, _summary, data = cli_replay(prepared, empty, "warm-up", code)
        shutil.rmtree(data)


@dataclass
class Budget:
    """The wall-clock allowance for the whole run; later rounds are skipped to keep it."""

    seconds: float
    started: float = field(default_factory=time.perf_counter)

    def left(self) -> float:
        return self.seconds - (time.perf_counter() - self.started)


@dataclass(frozen=True)
class RoundsResult:
    cli: Timing
    bare: Timing
    summary: str
    first_data: Path  # the database and outbox of round 1, for the checks
    baseline: Timing | None = None  # the baseline revision's command line, in the same rounds


def export_revision(reference: str, folder: Path) -> Path:
    """The files of git revision ``reference`` in ``folder`` (for ``PYTHONPATH``)."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", reference], check=True, capture_output=True
    ).stdout
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def time_rounds(
    prepared: Prepared, rounds: int, budget: Budget, baseline_code: Path | None = None
) -> RoundsResult:
    """CLI replay and bare parsing, in turn, for ``rounds`` rounds or while the budget lasts."""
    cli: list[float] = []
    bare: list[float] = []
    baseline: list[float] = []
    summary, first_data = "", prepared.folder
    for number in range(1, rounds + 1):
        bare.append(timed(lambda: parse_bare(prepared.raws)))
        if baseline_code is not None:
            before, _, data = cli_replay(prepared, prepared.archive, "baseline", baseline_code)
            baseline.append(before)
            shutil.rmtree(data)
        seconds, summary, data = cli_replay(prepared, prepared.archive, f"round-{number}")
        cli.append(seconds)
        if number == 1:
            first_data = data
        else:
            shutil.rmtree(data)
        against = f", baseline's replay {baseline[-1]:.2f} s" if baseline else ""
        print(
            f"  round {number}: nomicbot replay {seconds:.2f} s, bare parse {bare[-1]:.2f} s"
            f"{against}"
        )
        reserve = PROFILE_SHARE * budget.seconds
        spent = seconds + bare[-1] + (baseline[-1] if baseline else 0.0)
        if number < rounds and budget.left() - reserve < spent:
            print(
                f"  rounds {number + 1}-{rounds} skipped to keep within the "
                f"{budget.seconds:.0f} s budget (--budget)"
            )
            break
    count = len(prepared.raws)
    return RoundsResult(
        Timing("(a) nomicbot replay, end to end", count, tuple(cli)),
        Timing("(b) message_from_bytes + get_body + get_content", count, tuple(bare)),
        summary,
        first_data,
        Timing("(a') the baseline's nomicbot replay", count, tuple(baseline)) if baseline else None,
    )


def time_startup(prepared: Prepared, rounds: int) -> Timing:
    empty = prepared.folder / "empty.mbox"
    empty.touch()
    durations = []
    for _ in range(rounds):
        seconds, _summary, data = cli_replay(prepared, empty, "startup")
        durations.append(seconds)
        shutil.rmtree(data)
    return Timing("fixed cost: nomicbot replay of an empty archive", 0, tuple(durations))


def print_result(result: RoundsResult, startup: Timing) -> None:
    cli, bare = result.cli, result.bare
    ratio = cli.rate / bare.rate
    print(f"nomicbot replay said: {result.summary}")
    print(cli.line())
    print(bare.line())
    print(
        f"{startup.label}: median {startup.median:.3f} s "
        f"(rounds: {', '.join(f'{value:.2f}' for value in startup.durations)} s)"
    )
    if result.baseline is not None:
        print(result.baseline.line())
        print(
            f"RATIO (a')/(b), the baseline, same rounds: {result.baseline.rate / bare.rate:.3f}; "
            f"speed-up (a)/(a'): {cli.rate / result.baseline.rate:.2f}x"
        )
    verdict = "meets" if ratio >= TARGET_RATIO else "misses"
    print(f"RATIO (a)/(b) of the medians: {ratio:.3f}  ({verdict} the goal of {TARGET_RATIO})")
    steady = cli.median - startup.median
    if steady > 0:
        print(
            f"(a) without the fixed cost: {cli.count / steady:.1f} posts/s, "
            f"ratio {cli.count / steady / bare.rate:.3f}"
        )


# --- checks on round 1's database ---------------------------------------------------


@contextmanager
def round_session(data: Path) -> Iterator[Session]:
    engine = make_engine(f"sqlite:///{data / 'nomicbot.sqlite3'}")
    try:
        with Session(engine) as session:
            yield session
    finally:
        engine.dispose()


def check_rulings(prepared: Prepared, data: Path) -> None:
    with round_session(data) as session:
        result = archive_check.check_replay(session, prepared.posts)
    outbox = data / "outbox" / "new"
    delivered = len(list(outbox.iterdir())) if outbox.is_dir() else 0
    print(
        f"round 1 checked against the generator's expectations ({delivered} mails in the outbox):"
    )
    print("\n".join(f"  {line}" for line in archive_check.describe(result)))


def measure_go_state(prepared: Prepared, data: Path) -> None:
    """What loading and saving the final Go state costs: paid by every Go post.

    The ko history is kept in its own table (``go_position``), so the JSON
    state stays the size of a board and its legend however long the game.
    """
    with round_session(data) as session:
        record = session.scalar(select(GameRecord).where(GameRecord.name == "go"))
    if record is None:
        return
    text = json.dumps(record.state)
    load = best_of(lambda: go.state_from_json(json.loads(text)))
    state = go.state_from_json(record.state)
    save = best_of(lambda: json.dumps(go.state_to_json(state)))
    loads = sum(loads_go_state(post) for post in prepared.posts)
    saves = sum(changes_go_state(post) for post in prepared.posts)
    print(
        f"Go state at the end: {len(text) / 1000:.1f} kB of JSON; load {1000 * load:.2f} ms "
        f"+ save {1000 * save:.2f} ms; over the archive {loads} posts load it and {saves} "
        f"save it, about {loads * load + saves * save:.2f} s in all."
    )


def loads_go_state(post: PlannedPost) -> bool:
    # Conditional actions and non-players' actions are ruled on before the state is loaded.
    judged = (e for e in post.expected if e.outcome != "not_taken")
    return post.kind != "outsider" and any(e.action.startswith("go.") for e in judged)


def changes_go_state(post: PlannedPost) -> bool:
    return any(e.action.startswith("go.") and e.outcome == "applied" for e in post.expected)


def best_of(action: Callable[[], object], times: int = 5) -> float:
    return min(timed(action) for _ in range(times))


# --- in-process replay of a prefix: the profile ------------------------------------


@dataclass(frozen=True)
class InProcessRun:
    seconds: float  # replay_archive only
    build_seconds: float  # build_app: migrations and configured players


def replay_in_process(prepared: Prepared, archive: Path, name: str) -> InProcessRun:
    """``build_app`` + ``replay_archive`` on a fresh database, as ``nomicbot replay`` does."""
    config, outbox = fresh_round(prepared, name)
    started = time.perf_counter()
    app = build_app(load_settings(config, environ={}))
    built = time.perf_counter()
    try:
        replay_archive(app, archive, MaildirTransport(outbox), until=prepared.until)
        return InProcessRun(time.perf_counter() - built, built - started)
    finally:
        app.dispose()
        shutil.rmtree(config.parent)


def profile_posts_for(prepared: Prepared, result: RoundsResult, budget: Budget) -> int:
    # An unprofiled and a profiled replay (cProfile roughly doubles the time):
    # about three times the command line's time per post.
    per_post = result.cli.median / result.cli.count
    fitting = int(max(budget.left(), 0) / (3 * per_post))
    return max(MIN_PROFILE_POSTS, min(len(prepared.posts), fitting))


def profile_prefix(prepared: Prepared, count: int, profile_out: Path | None) -> None:
    archive = prepared.folder / f"first-{count}.mbox"
    # The same seed writes the same bytes for the first ``count`` posts.
    write_archive(archive, prepared.posts[:count], prepared.seed)
    with stage_profile.stage_clock() as clock:
        plain = replay_in_process(prepared, archive, "in-process")
    profiler = cProfile.Profile()
    profiler.enable()
    profiled = replay_in_process(prepared, archive, "profiled")
    profiler.disable()
    print(
        f"in-process replay_archive of the first {count} posts: {plain.seconds:.2f} s "
        f"({count / plain.seconds:.1f} posts/s; stage timers on) + build_app "
        f"{plain.build_seconds:.2f} s; under cProfile {profiled.seconds:.2f} s"
    )
    stats = pstats.Stats(profiler, stream=io.StringIO())
    if profile_out is not None:
        stats.dump_stats(profile_out)
        print(f"cProfile data written to {profile_out} (pstats format)")
    profiled_stages = stage_profile.stage_times(stats)
    print_stages(clock.stage_times(), plain.seconds, profiled_stages, profiled.seconds, count)
    print_libraries(stats)


def print_stages(
    wall: list[stage_profile.StageTime],
    wall_total: float,
    profiled: list[stage_profile.StageTime],
    profiled_total: float,
    posts: int,
) -> None:
    print(f"\nwhere replay_archive's time goes, by stage ({posts} posts)")
    rows = [("stage (time inside its entry point)", "wall s", "share", "ms/post", "cProfile share")]
    for stage, under_profile in zip(wall, profiled, strict=True):
        rows.append(
            (
                "    " * stage.indent + stage.label,
                f"{stage.seconds:.2f}",
                f"{100 * stage.seconds / wall_total:.1f}%",
                f"{1000 * stage.seconds / posts:.3f}",
                f"{100 * under_profile.seconds / profiled_total:.1f}%",
            )
        )
    accounted = sum(stage.seconds for stage in wall if not stage.indent)
    rows.append(("(not in any stage)", f"{wall_total - accounted:.2f}", "", "", ""))
    print("\n".join(stage_profile.format_table(rows)))


def print_libraries(stats: pstats.Stats) -> None:
    total = stats.total_tt  # type: ignore[attr-defined]
    library_rows = [("cProfile: own time by library (top 14)", "seconds", "share")]
    for name, seconds in stage_profile.own_time_by_library(stats)[:14]:
        library_rows.append((name, f"{seconds:.2f}", f"{100 * seconds / total:.1f}%"))
    print("\n" + "\n".join(stage_profile.format_table(library_rows)))
    function_rows = [("cProfile: top functions by own time", "own s", "cum s", "calls")]
    for row in stage_profile.top_functions(stats, 18):
        cells = (f"{row.own_seconds:.2f}", f"{row.cumulative_seconds:.2f}", str(row.calls))
        function_rows.append((row.name[:90], *cells))
    print("\n" + "\n".join(stage_profile.format_table(function_rows)))


# --- main ------------------------------------------------------------------------


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--posts", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1639)
    parser.add_argument(
        "--budget",
        type=float,
        default=300.0,
        help="seconds for the whole run; later rounds are skipped to keep it",
    )
    parser.add_argument(
        "--profile-posts",
        type=int,
        help="profile the replay of this many first posts (default: what fits)",
    )
    parser.add_argument("--profile-out", type=Path, help="also write the cProfile data here")
    parser.add_argument("--workdir", type=Path, help="keep the archive and databases here")
    parser.add_argument("--no-profile", action="store_true", help="skip the in-process runs")
    parser.add_argument(
        "--baseline", default="", help="git revision also timed in each round, e.g. main"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    budget = Budget(arguments.budget)
    with workspace(arguments.workdir) as folder:
        prepared = prepare(folder, arguments.posts, arguments.seed)
        baseline_code = None
        if arguments.baseline:
            baseline_code = export_revision(arguments.baseline, folder / "baseline-code")
            print(f"baseline: {arguments.baseline}, exported to {baseline_code}")
        warm_bytecode(prepared, baseline_code)
        print("bytecode compiled once before the rounds, as an installed package has it")
        print(f"timing up to {arguments.rounds} round(s) of (a) and (b), in turn")
        result = time_rounds(prepared, arguments.rounds, budget, baseline_code)
        startup = time_startup(prepared, 3)
        print()
        print_result(result, startup)
        print()
        check_rulings(prepared, result.first_data)
        measure_go_state(prepared, result.first_data)
        if not arguments.no_profile:
            count = arguments.profile_posts or profile_posts_for(prepared, result, budget)
            print()
            profile_prefix(prepared, min(count, len(prepared.posts)), arguments.profile_out)
    print(f"\nwhole run: {budget.seconds - budget.left():.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
