"""How long a rebuild of the public site takes, for the governance nweek's and Go game's databases.

    PYTHONPATH=. python bench/site_build.py [--rounds N]

Each round reads the public record and writes and swaps in a whole new site
(``bot.site.build_site``), as the daemon would after a committed post.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from timing import Timing

from bot.app import App
from bot.site import build_site
from bot.site.build import read_record
from bot.testing import go_game
from bot.testing.governance_week import END
from bot.testing.site_games import play_go_game, play_week


def rounds(label: str, count: int, work: Callable[[], object], repeat: int) -> Timing:
    durations = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        durations.append(time.perf_counter() - start)
    return Timing(label, count, tuple(durations), unit="builds")


def bench_app(name: str, app: App, site: Path, at: datetime, repeat: int) -> None:
    files = 0

    def build() -> None:
        nonlocal files
        folder = build_site(app, site, at=at)
        files = len(list(folder.iterdir()))

    reading = rounds(f"{name}: read the public record", 1, lambda: read_record(app, at), repeat)
    print(reading.line())
    print(rounds(f"{name}: whole rebuild and swap", 1, build, repeat).line())
    size = sum(path.stat().st_size for path in site.resolve().iterdir())
    print(f"{name}: {files} files, {size / 1024:.0f} KiB")


def main(arguments: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args(arguments)
    with tempfile.TemporaryDirectory(prefix="nomicbot-site-bench-") as scratch:
        folder = Path(scratch)
        (folder / "week").mkdir()
        (folder / "go").mkdir()
        week = play_week(folder / "week")
        bench_app("governance nweek", week.app, folder / "week-site", END, options.rounds)
        go = play_go_game(folder / "go")
        bench_app("Political Go game", go, folder / "go-site", go_game.GAME_END, options.rounds)
        week.app.dispose()
        go.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
