"""How long a rebuild of the public site takes, whole and incremental, side by side.

    PYTHONPATH=. python bench/site_build.py [--rounds N] [--no-kgs]

For each database (the scripted governance nweek, the scripted Political Go
game, and the longest game of the KGS sample replayed as mail: 389 Moves,
about a year at a Move a day), each round builds the site twice, in turn:

* whole: ``bot.site.build_site``, as ``nomicbot site build`` does: read the
  public record, render and write every page, swap the build in;
* incremental: ``bot.site.IncrementalBuilder.rebuild``, as the daemon does
  after each commit: a page whose inputs did not change since the builder's
  previous build is hard-linked from it (bot/site/incremental.py).

Each round is a minute after the one before, so the pages that show the
time (the front page, the Clock) change as they would after a scheduler
pass; the rest of the record is the same, as it nearly is after one more
post (which adds its ruling's page, a Move's page, and rewrites the lists
and the player's page: some pages more).  The incremental builder is primed
with one build first.  Prints each median, the ratio, and what was written.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from timing import Timing

from bot.app import App, build_app
from bot.config import load_settings
from bot.site import IncrementalBuilder, build_site
from bot.site.build import read_record
from bot.testing import go_game, kgs
from bot.testing.governance_week import END
from bot.testing.site_games import play_go_game, play_week

KGS_SAMPLE = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "go" / "kgs_sample"


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def bench_app(name: str, app: App, folder: Path, at: datetime, repeat: int) -> None:
    builder = IncrementalBuilder(app, folder / "incremental")
    reading: list[float] = []
    whole: list[float] = []
    incremental: list[float] = []
    report = builder.rebuild(at)
    for number in range(1, repeat + 1):
        instant = at + timedelta(minutes=number)
        reading.append(timed(lambda at=instant: read_record(app, at)))
        whole.append(timed(lambda at=instant: build_site(app, folder / "whole", at=at)))
        start = time.perf_counter()
        report = builder.rebuild(instant)
        incremental.append(time.perf_counter() - start)
    site = folder / "whole"
    files = list(site.resolve().iterdir())
    size = sum(path.stat().st_size for path in files)
    print(f"{name}: {len(files)} files, {size / 1024:.0f} KiB")
    for label, durations in (
        ("read the public record", reading),
        ("whole rebuild and swap", whole),
        ("incremental rebuild and swap", incremental),
    ):
        print("  " + Timing(label, 1, tuple(durations), unit="builds").line())
    ratio = statistics.median(incremental) / statistics.median(whole)
    print(
        f"  incremental / whole: {ratio:.2f} (medians); the incremental build wrote "
        f"{report.written} page(s) and linked {report.linked}"
    )


def longest_kgs_game(folder: Path) -> tuple[App, datetime, int]:
    """The longest KGS record of the sample that replays as mail, judged; its end."""
    games = [game for game in kgs.load_games(KGS_SAMPLE) if not game.places_twice_in_a_row]
    longest = max(games, key=lambda game: len(game.placements))
    outcome = kgs.replay_as_mail(str(longest.path), str(folder))
    assert outcome.same_stones and not outcome.refusals, outcome
    app = build_app(load_settings(folder / "bot" / "nomicbot.toml"))
    end = kgs.START.replace(tzinfo=go_game.EPOCH.tzinfo) + kgs.SPACING * (
        len(longest.placements) + 1
    )
    return app, end, len(longest.placements)


def main(arguments: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-kgs", action="store_true", help="leave out the long KGS game")
    options = parser.parse_args(arguments)
    with tempfile.TemporaryDirectory(prefix="nomicbot-site-bench-") as scratch:
        folder = Path(scratch)
        for name in ("week", "go", "kgs", "week-site", "go-site", "kgs-site"):
            (folder / name).mkdir()
        week = play_week(folder / "week")
        bench_app("governance nweek", week.app, folder / "week-site", END, options.rounds)
        week.app.dispose()
        go = play_go_game(folder / "go")
        bench_app("Political Go game", go, folder / "go-site", go_game.GAME_END, options.rounds)
        go.dispose()
        if not options.no_kgs:
            app, end, moves = longest_kgs_game(folder / "kgs")
            name = f"the KGS sample's longest game ({moves} Moves)"
            bench_app(name, app, folder / "kgs-site", end, options.rounds)
            app.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
