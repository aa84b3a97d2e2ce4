"""Slices of the long B Nomic game, judged by a baseline revision and by this checkout.

    .venv/bin/python bench/history_slices.py --workdir DIR [--posts 100000] [--seed 4]
        [--at 0,30000,40000] [--length 2000] [--baseline REV] [--rounds 2]

Where ``bench/history.py`` replays the whole archive of ``history_plan.py``,
this times a few slices of it side by side, so a change's effect on the cost
of a post at a given age of the game (and number of players) is measured in
one run, on the same machine, against the same databases:

1. the archive (seeded) is generated once into ``--workdir``;
2. for each start ``N`` of ``--at`` (but 0), the posts before it are replayed
   once by the *baseline* (``git archive REV``) into a prefix database kept
   in ``--workdir`` (``--until`` the instant of post ``N``), since the
   baseline cannot read a newer schema;
3. each round, for each slice ``N .. N + length``: a copy of the prefix
   database judges the slice with the baseline's ``nomicbot replay``, then a
   copy brought to this checkout's schema first (its migrations are not
   timed) judges it with this checkout's; the seconds of each replay (the
   command's whole run, its start included) are printed with the medians
   and the ratio baseline / this checkout per slice.

The databases are SQLite; a slice's replies go to a Maildir that is thrown away.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from history import configure, prepare
from runs import ROOT, clean_environment

DEFAULT_BASELINE = "d6a97d8"  # main before issue 14's per-post costs of crowd and age
MBOX_SEPARATOR = re.compile(rb"\nFrom ")


@dataclass(frozen=True)
class Slice:
    start: int
    end: int
    archive: Path  # the slice's posts alone
    until: datetime  # the instant of the post after it (or the game's end)


def post_offsets(archive: Path) -> tuple[bytes, list[int]]:
    """The archive's bytes and where each post starts (the mbox "From " lines)."""
    data = archive.read_bytes()
    offsets = [0, *(found.start() + 1 for found in MBOX_SEPARATOR.finditer(data))]
    return data, [*offsets, len(data)]


def cut(data: bytes, offsets: list[int], start: int, end: int, target: Path) -> Path:
    target.write_bytes(data[offsets[start] : offsets[end]])
    return target


def source_tree(reference: str, folder: Path) -> Path:
    """``reference``'s files (a ``git archive``), kept in ``folder`` for the next run."""
    if not (folder / "bot").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", reference], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def replay(code: Path, config: Path, archive: Path, until: datetime) -> float:
    """Seconds of ``nomicbot replay`` of ``archive`` by the ``bot`` package in ``code``."""
    environment = clean_environment() | {"PYTHONPATH": str(code), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "bot.cli", "--config", str(config), "replay", str(archive)]
    command += ["--outbox", str(config.parent / "outbox"), "--until", until.isoformat()]
    started = time.perf_counter()
    done = subprocess.run(command, env=environment, cwd=code, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"nomicbot replay failed:\n{done.stderr[-3000:]}")
    if " 0 shunted" not in done.stdout:
        raise SystemExit(f"posts were shunted: {done.stdout}")
    return seconds


def upgrade(code: Path, config: Path) -> None:
    """Bring the database of ``config`` to the schema of ``code`` (not timed)."""
    environment = clean_environment() | {"PYTHONPATH": str(code), "PYTHONDONTWRITEBYTECODE": "1"}
    script = (
        "import sys; from bot.config import load_settings; "
        "from bot.app import build_app; build_app(load_settings(sys.argv[1])).dispose()"
    )
    subprocess.run([sys.executable, "-c", script, str(config)], env=environment, check=True)


def fresh_folder(folder: Path, prefix: Path | None) -> Path:
    """A configured folder for one replay, holding a copy of the ``prefix`` database."""
    shutil.rmtree(folder, ignore_errors=True)
    config, _outbox = configure(folder, "")
    if prefix is not None:
        shutil.copy(prefix, folder / "nomicbot.sqlite3")
    return config


def prefix_database(
    workdir: Path, baseline: Path, data: bytes, offsets: list[int], start: int, until: datetime
) -> Path | None:
    """The baseline's database of the posts before ``start``, made once (None for 0)."""
    if start == 0:
        return None
    kept = workdir / f"prefix-{start}" / "nomicbot.sqlite3"
    if kept.exists():
        return kept
    config = fresh_folder(workdir / f"prefix-{start}-making", None)
    archive = cut(data, offsets, 0, start, workdir / f"prefix-{start}.mbox")
    seconds = replay(baseline, config, archive, until)
    print(f"prefix of {start} posts made by the baseline in {seconds:.0f} s")
    kept.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(config.parent / "nomicbot.sqlite3", kept)
    shutil.rmtree(config.parent)
    return kept


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workdir", type=Path, required=True, help="archive and prefixes")
    parser.add_argument("--posts", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--at", default="0,30000,40000", help="the slices' first posts")
    parser.add_argument("--length", type=int, default=2000)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE)
    parser.add_argument("--rounds", type=int, default=2)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    workdir: Path = arguments.workdir
    workdir.mkdir(parents=True, exist_ok=True)
    prepared = prepare(workdir, arguments.posts, arguments.seed)
    posts = prepared.planner.posts
    data, offsets = post_offsets(prepared.archive)
    assert len(offsets) == len(posts) + 1, "one mbox entry per planned post"
    baseline = source_tree(arguments.baseline, workdir / f"baseline-{arguments.baseline}")
    slices = []
    for start in (int(text) for text in arguments.at.split(",")):
        end = min(start + arguments.length, len(posts))
        until = posts[end].at if end < len(posts) else prepared.until
        archive = cut(data, offsets, start, end, workdir / f"slice-{start}.mbox")
        slices.append(
            (
                Slice(start, end, archive, until),
                prefix_database(workdir, baseline, data, offsets, start, posts[start].at),
            )
        )
    times: dict[tuple[int, str], list[float]] = {}
    for round_number in range(1, arguments.rounds + 1):
        for piece, prefix in slices:
            for side, code in (("baseline", baseline), ("this checkout", ROOT)):
                config = fresh_folder(workdir / "run", prefix)
                if side != "baseline" and prefix is not None:
                    upgrade(code, config)
                seconds = replay(code, config, piece.archive, piece.until)
                times.setdefault((piece.start, side), []).append(seconds)
                print(
                    f"round {round_number}: posts {piece.start}-{piece.end} {side}: {seconds:.1f} s"
                )
    print(
        f"\nseconds per slice of {arguments.length} posts, median of {arguments.rounds} rounds "
        f"(baseline {arguments.baseline}):"
    )
    for piece, _prefix in slices:
        before = statistics.median(times[(piece.start, "baseline")])
        after = statistics.median(times[(piece.start, "this checkout")])
        print(
            f"  posts {piece.start:>6}-{piece.end:<6} baseline {before:7.1f}  "
            f"this checkout {after:7.1f}  ratio {before / after:5.2f}"
        )
    shutil.rmtree(workdir / "run", ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
