"""What reading an archive for storing costs: the stdlib's way against the bot's.

    .venv/bin/python bench/store_cost.py [--posts 4000] [--rounds 7] [--seed 1639]
        [--archive MBOX] [--workdir DIR] [--baseline REF]

Generates bench/pipeline.py's archive (the same planner and mail writer, the
same seed), or takes ``--archive``, and times in one process, round after
round and in turn (the order swapped every round, so that machine noise hits
both), the two steps of storing a replay's posts that come before the insert:

* ``read``: the mbox's entries and their From_ lines, with ``mailbox.mbox``
  (``get_bytes(key, from_=True)`` for every key: what the replay did) and
  with ``bot.ingress.mbox_reader.mbox_entries``;
* ``times``: each From_ line's instant, with ``time.strptime`` (what the
  replay did) and with ``bot.ingress.replay.asctime_moment``;
* ``count``: how many posts (the progress bar's total), ``len(mailbox.mbox
  .keys())`` and ``count_entries``;
* ``fields``: each post's Message-ID, List-Post and Received fields, with
  compat32's ``BytesHeaderParser`` over the header block and ``str()`` of
  its values (``fields_of(arrival_headers(raw))``: what storing did) and with
  ``bot.ingress.header_block.arrival_fields``.

Checks in every round that both ways give the same entries and fields, and
prints the median of the rounds for each (ms in all and µs per post) and
the ratio of the medians (stdlib / bot: above 1 the bot is faster).

With ``--baseline REF``, then times storing as ``nomicbot replay`` stores
(``archive_posts``, then ``ingest_many`` by batches into a new in-memory
SQLite database) with this checkout's code and with git revision REF's
(exported to a scratch folder and put first on ``PYTHONPATH``), each in its
own process, in turn, and prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import mailbox
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from archive_game import plan_archive
from archive_mail import write_archive
from pipeline import export_revision
from runs import ROOT, measured_in_child, workspace

if TYPE_CHECKING:
    from bot.ingress.header_block import ArrivalFields

STEPS = ("read", "times", "count", "fields")
STORING = ("archive_posts", "ingest_many")


def stdlib_read(path: Path) -> list[tuple[bytes, bytes]]:
    box = mailbox.mbox(str(path), create=False)
    try:
        return [_split(box.get_bytes(key, from_=True)) for key in box.iterkeys()]
    finally:
        box.close()


def bot_read(path: Path) -> list[tuple[bytes, bytes]]:
    # The bot's modules are imported where used: a --measure-storing child
    # runs this script with an older tree's ``bot`` package, without them.
    from bot.ingress.mbox_reader import mbox_entries

    return [_split(entry) for entry in mbox_entries(path)]


def _split(entry: bytes) -> tuple[bytes, bytes]:
    from_line, _, raw = entry.partition(b"\n")
    return from_line, raw


def asctimes(from_lines: list[bytes]) -> list[str]:
    """The From_ lines' asctime parts, as the replay takes them."""
    parts = [line.decode("latin-1").removeprefix("From ").split() for line in from_lines]
    return [" ".join(words[-5:]) for words in parts]


def stdlib_times(texts: list[str]) -> list[datetime | None]:

    return [_strptime_moment(text) for text in texts]


def _strptime_moment(text: str) -> datetime | None:
    from bot.ingress.replay import ASCTIME

    try:
        parsed = time.strptime(text, ASCTIME)
    except ValueError:
        return None
    return datetime(*parsed[:6], tzinfo=UTC)


def bot_times(texts: list[str]) -> list[datetime | None]:
    from bot.ingress.replay import asctime_moment

    return [asctime_moment(text) for text in texts]


def stdlib_count(path: Path) -> int:
    box = mailbox.mbox(str(path), create=False)
    try:
        return len(box.keys())
    finally:
        box.close()


def bot_count(path: Path) -> int:
    from bot.ingress.mbox_reader import count_entries

    return count_entries(path)


def stdlib_fields(raws: list[bytes]) -> list[ArrivalFields]:
    from bot.ingress.header_block import arrival_headers, fields_of

    return [fields_of(arrival_headers(raw)) for raw in raws]


def bot_fields(raws: list[bytes]) -> list[ArrivalFields]:
    from bot.ingress.header_block import arrival_fields

    return [arrival_fields(raw) for raw in raws]


def timed(action: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def one_round(
    path: Path, raws: list[bytes], texts: list[str], bot_first: bool
) -> dict[str, dict[str, float]]:
    ways: dict[str, dict[str, Callable[[], object]]] = {
        "stdlib": {
            "read": lambda: stdlib_read(path),
            "times": lambda: stdlib_times(texts),
            "count": lambda: stdlib_count(path),
            "fields": lambda: stdlib_fields(raws),
        },
        "bot": {
            "read": lambda: bot_read(path),
            "times": lambda: bot_times(texts),
            "count": lambda: bot_count(path),
            "fields": lambda: bot_fields(raws),
        },
    }
    order = ["bot", "stdlib"] if bot_first else ["stdlib", "bot"]
    seconds: dict[str, dict[str, float]] = {way: {} for way in order}
    for step in STEPS:
        results = {}
        for way in order:
            seconds[way][step], results[way] = timed(ways[way][step])
        if results["bot"] != results["stdlib"]:
            raise SystemExit(f"{step}: the bot's result differs from the stdlib's")
    return seconds


def print_medians(rounds: list[dict[str, dict[str, float]]], posts: int) -> None:
    for step in STEPS:
        medians = {}
        for way in ("stdlib", "bot"):
            values = [result[way][step] for result in rounds]
            medians[way] = statistics.median(values)
            listed = ", ".join(f"{1000 * value:.1f}" for value in values)
            print(
                f"{step:>6} {way:>6}: median {1000 * medians[way]:7.1f} ms, "
                f"{1e6 * medians[way] / posts:6.1f} µs/post (rounds: {listed})"
            )
        paired = statistics.median(
            result["stdlib"][step] / result["bot"][step] for result in rounds
        )
        print(
            f"{step:>6}: stdlib / bot = {medians['stdlib'] / medians['bot']:.2f} of the medians, "
            f"{paired:.2f} the median of each round's"
        )


# --- storing as the replay stores, on this checkout and on a baseline ---------------


def measure_storing(archive: Path) -> dict[str, float]:
    """Seconds to read the archive's posts, then to store them in a new SQLite database.

    Runs in a child with one code tree's ``bot`` package on the path: the
    replay's own loop (``bot.runner.replay_archive``) without the records'
    placing and the judging.
    """
    from sqlalchemy import create_engine
    from sqlalchemy.orm import sessionmaker

    from bot.ingress.ingest import ArrivingPost, ingest_many
    from bot.ingress.replay import archive_posts
    from bot.runner import STORE_BATCH, batched
    from bot.store.models import Base

    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    session_factory = sessionmaker(engine)
    seconds = {}
    seconds["archive_posts"], _ = timed(lambda: sum(1 for _ in archive_posts(archive)))
    started = time.perf_counter()
    for batch in batched(archive_posts(archive), STORE_BATCH):
        with session_factory.begin() as session:
            ingest_many(session, [ArrivingPost(p.raw, p.received_at) for p in batch], "replay")
    seconds["ingest_many"] = time.perf_counter() - started - seconds["archive_posts"]
    return seconds


def storing_rounds(archive: Path, baseline: Path, rounds: int) -> None:
    """Each tree's storing in its own process, in turn, for ``rounds`` rounds."""
    trees = {"checkout": ROOT, "baseline": baseline}
    results: dict[str, list[dict[str, float]]] = {tree: [] for tree in trees}
    for number in range(rounds):
        order = list(trees) if number % 2 == 0 else list(reversed(trees))
        for tree in order:
            results[tree].append(_storing_child(trees[tree], archive))
    for step in STORING:
        medians = {}
        for tree, found in results.items():
            values = [result[step] for result in found]
            medians[tree] = statistics.median(values)
            listed = ", ".join(f"{value:.3f}" for value in values)
            print(f"{step:>13} {tree:>8}: median {medians[tree]:.3f} s (rounds: {listed})")
        print(f"{step:>13}: baseline / checkout = {medians['baseline'] / medians['checkout']:.2f}")


def _storing_child(code: Path, archive: Path) -> dict[str, float]:
    return measured_in_child(__file__, code, ["--measure-storing", str(archive)])


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--posts", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1639)
    parser.add_argument("--archive", type=Path, help="time this mbox instead of a new one")
    parser.add_argument("--workdir", type=Path, help="keep the generated archive here")
    parser.add_argument("--baseline", default="", help="git revision whose storing is also timed")
    parser.add_argument("--measure-storing", type=Path, help=argparse.SUPPRESS)  # in a child
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.measure_storing is not None:
        print(json.dumps(measure_storing(arguments.measure_storing)))
        return 0
    with workspace(arguments.workdir, prefix="nomicbot-store-") as folder:
        path = arguments.archive
        if path is None:
            path = folder / "game.mbox"
            write_archive(path, plan_archive(arguments.posts, arguments.seed), arguments.seed)
        entries = bot_read(path)
        raws = [raw for _, raw in entries]
        texts = asctimes([from_line for from_line, _ in entries])
        print(f"archive: {path}, {len(raws)} posts, {path.stat().st_size / 1e6:.1f} MB")
        # A first pass compiles the patterns and loads the codecs both ways use.
        stdlib_fields(raws[:200])
        bot_fields(raws[:200])
        rounds = [
            one_round(path, raws, texts, number % 2 == 0) for number in range(arguments.rounds)
        ]
        print_medians(rounds, len(raws))
        if arguments.baseline:
            print(
                f"\nstoring the posts as the replay does, this checkout and {arguments.baseline}:"
            )
            baseline = export_revision(arguments.baseline, folder / "baseline-code")
            storing_rounds(path, baseline, arguments.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
