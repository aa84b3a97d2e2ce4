"""The longest KGS game replayed as mail: time, SQL statements and the scheduler's share per post.

    .venv/bin/python bench/kgs_statements.py [--rounds 3] [--corpus DIR] [--baseline REF]

Replays the longest playable record of ``go/kgs_sample`` (shared corpora,
read in place; ``$NOMICBOT_CORPORA`` or ``../shared/corpora``) as
``tests/engine/test_kgs_as_mail.py`` does (``bot.testing.kgs.replay_as_mail``:
``go setup``, ``nomicbot replay``, ``state go``), in this process, on a
scratch folder in memory where the machine has one.  An SQLAlchemy
``before_cursor_execute`` listener counts every statement, and among them
the look-ups of a ``game`` row by name and the ``LIKE`` scans of the
``game`` table.  Each round's time is divided by the game's placements;
the median round is printed.  One more round runs under cProfile to print
the share of the time spent in the scheduler's timed handlers
(``bot.engine.scheduler._run``) and in the whole advance of the clock
(``advance_clock``: the handlers, the next due instants asked to skip them,
the Clock's refresh).  ``--baseline REF`` runs the same on the
code of git revision REF first (exported to a scratch folder), so the two
are printed side by side from one run.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from runs import run_baseline

ROOT = Path(__file__).resolve().parents[1]


def default_corpus() -> Path:
    corpora = Path(os.environ.get("NOMICBOT_CORPORA", ROOT.parent / "shared" / "corpora"))
    return corpora / "go" / "kgs_sample"


def kind_of(statement: str) -> str:
    """The class a statement is counted in."""
    flat = " ".join(statement.split())
    if "FROM game WHERE game.name LIKE" in flat:
        return "game LIKE scans"
    if "FROM game WHERE game.name =" in flat:
        return "game rows by name"
    return "other"


def run_here(corpus: Path, rounds: int) -> None:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from bot.testing import kgs

    games = [game for game in kgs.load_games(corpus) if not game.places_twice_in_a_row]
    game = max(games, key=lambda item: len(item.placements))
    posts = len(game.placements)
    counts: Counter[str] = Counter()

    def count(*arguments: Any) -> None:
        counts[kind_of(arguments[2])] += 1

    event.listen(Engine, "before_cursor_execute", count)
    durations: list[float] = []
    per_round: list[Counter[str]] = []
    with (
        tempfile.TemporaryDirectory(prefix="nomicbot-kgs-bench-") as fallback,
        kgs.scratch_folder(Path(fallback)) as scratch,
    ):
        for number in range(rounds):
            counts.clear()
            started = time.perf_counter()
            outcome = kgs.replay_as_mail(str(game.path), str(scratch / f"round-{number}"))
            durations.append(time.perf_counter() - started)
            per_round.append(Counter(counts))
            if outcome.applied != posts or not outcome.same_stones:
                raise SystemExit(f"{game.name}: not replayed as planned: {outcome}")
        profiler = cProfile.Profile()
        profiler.enable()
        kgs.replay_as_mail(str(game.path), str(scratch / "profiled"))
        profiler.disable()
    event.remove(Engine, "before_cursor_execute", count)
    median = statistics.median(durations)
    statements = per_round[0]
    total = sum(statements.values())
    print(f"  {game.name}: {posts} posts; rounds {', '.join(f'{d:.2f}' for d in durations)} s")
    print(f"  median {median:.2f} s: {median / posts * 1000:.2f} ms per post")
    print(
        f"  statements per post: {total / posts:.2f} in all, "
        f"{statements['game rows by name'] / posts:.2f} game rows by name, "
        f"{statements['game LIKE scans'] / posts:.2f} game LIKE scans"
    )
    print(
        f"  scheduler's timed handlers: {scheduler_share(profiler, '_run'):.1%} of the profiled "
        f"time; the whole advance of the clock (handlers, next due instants, the Clock's "
        f"refresh): {scheduler_share(profiler, 'advance_clock'):.1%}"
    )


def scheduler_share(profiler: cProfile.Profile, function: str) -> float:
    """The cumulative time of ``bot.engine.scheduler.<function>`` over the whole profile."""
    stats: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in stats.values())  # every function's own time
    spent = sum(
        entry[3]
        for (filename, _line, name), entry in stats.items()
        if name == function and filename.endswith(os.path.join("engine", "scheduler.py"))
    )
    return spent / total if total else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--baseline", default="", help="git revision to run first, e.g. main")
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    arguments = ["--rounds", str(options.rounds), "--corpus", str(options.corpus)]
    if options.baseline and not options.here:
        print(f"baseline ({options.baseline}):", flush=True)
        run_baseline(Path(__file__), options.baseline, arguments)
    if not options.here:
        print("this checkout:", flush=True)
    run_here(options.corpus, options.rounds)


if __name__ == "__main__":
    main()
