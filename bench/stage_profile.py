"""Where a replay spends its time: by pipeline stage and by library.

Each stage is the function that runs it, named where its caller looks it up
(``module:attribute``), so the same list serves two measurements:

* ``stage_clock`` wraps those functions with a timer for one unprofiled run
  (a few timer calls per post, so the figures are wall-clock time);
* ``stage_times`` reads the cumulative time of the same functions from a
  cProfile run (exact for functions that do not recurse, as none of these
  do; but cProfile inflates call-heavy pure-Python code, such as the
  ``email`` header parser, far more than C code such as sqlite3).

"Queue query + flush + commit" is what the worker's entry points
(``process_next``, and ``process_batch`` in a replay) spend outside the
stages: the queue query, the flush of every row the post wrote (the Go
state's JSON is encoded there) and the commits; the wait for the posts
prepared in the other process is a stage of its own.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pstats
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

# (file, line, function name) -> (primitive calls, calls, own time, cumulative time, callers)
FunctionKey = tuple[str, int, str]
StatsRow = tuple[int, int, float, float, object]


@dataclass(frozen=True)
class StageSpec:
    label: str
    targets: tuple[str, ...]  # "module:attribute[.attribute]" or "bot.pipeline:STAGES/name"
    indent: int = 0  # 1: part of the stage above


PREPARED_TAKE = "bot.engine.prepare:ParallelPipeline.take"

STAGES: tuple[StageSpec, ...] = (
    StageSpec("read the mbox (bot.ingress.mbox_reader)", ("bot.runner:archive_posts",)),
    StageSpec("count posts (bot.ingress.mbox_reader)", ("bot.runner:count_posts",)),
    StageSpec("store raw posts (ingest, a commit per batch)", ("bot.runner:ingest_many",)),
    StageSpec("scheduler: nweek events before each post", ("bot.engine.worker:advance_clock",)),
    StageSpec(
        "pipeline: decode", ("bot.pipeline:STAGES/decode", "bot.pipeline:STAGES/decode_body")
    ),
    StageSpec(
        "pipeline: loop guard + author",
        ("bot.pipeline:STAGES/guard_loops", "bot.pipeline:STAGES/find_author"),
    ),
    StageSpec("pipeline: visible text", ("bot.pipeline:STAGES/extract_visible_text",)),
    StageSpec("pipeline: parse actions", ("bot.pipeline:STAGES/parse_actions",)),
    StageSpec("engine: judge (players, state, rules)", ("bot.engine.unit:judge_post",)),
    StageSpec("Go state load (JSON to GoState)", ("bot.engine.games.go:load_game",), 1),
    StageSpec("player by address", ("bot.engine.unit:player_for_address",), 1),
    StageSpec(
        "board render, incl. autoflush", ("bot.engine.games.go:GoAdapter.changed_boards",), 1
    ),
    StageSpec(
        "Go rules (bot.games.go moves)",
        tuple(
            f"bot.games.go:{name}"
            for name in ("place_stone", "pass_move", "consent_to_alliance", "break_alliance")
        ),
        1,
    ),
    StageSpec("dice rolls", ("bot.engine.games.dice:DiceAdapter.apply",), 1),
    StageSpec("engine: record rulings", ("bot.engine.unit:_record_rulings",)),
    StageSpec("reply rendering (Jinja + MIME)", ("bot.engine.unit:compose_ruling_reply",)),
    StageSpec("outbox delivery (Maildir)", ("bot.runner:deliver",)),
    # The judging process waits here when the preparing one is behind.
    StageSpec("waiting for the preparing process", (PREPARED_TAKE,)),
)
QUEUE_LABEL = "queue query + flush + commit"
WORKER_ENTRIES = ("bot.engine.worker:process_next", "bot.engine.worker:process_batch")
QUEUE_INSIDE = (
    "bot.engine.worker:process_message",
    "bot.engine.worker:advance_clock",
    PREPARED_TAKE,
)


@dataclass(frozen=True)
class StageTime:
    label: str
    seconds: float
    indent: int = 0


@dataclass(frozen=True)
class FunctionTime:
    name: str
    own_seconds: float
    cumulative_seconds: float
    calls: int


# --- finding and replacing the stage functions ------------------------------------


def resolve(target: str) -> Callable[..., Any]:
    module_name, _, path = target.partition(":")
    owner: Any = importlib.import_module(module_name)
    if "/" in path:
        attribute, _, name = path.partition("/")
        stage: Callable[..., Any] = next(
            item for item in getattr(owner, attribute) if item.__name__ == name
        )
        return stage
    for name in path.split("."):
        owner = getattr(owner, name)
    function: Callable[..., Any] = owner
    return function


def replace_target(target: str, replacement: Callable[..., Any]) -> None:
    module_name, _, path = target.partition(":")
    owner: Any = importlib.import_module(module_name)
    if "/" in path:
        attribute, _, name = path.partition("/")
        stages = getattr(owner, attribute)
        setattr(owner, attribute, tuple(replacement if s.__name__ == name else s for s in stages))
        return
    *parents, name = path.split(".")
    for parent in parents:
        owner = getattr(owner, parent)
    setattr(owner, name, replacement)


@dataclass
class StageClock:
    """Wall-clock time inside each stage function, summed over the run."""

    totals: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))

    def timed(self, target: str, function: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.isgeneratorfunction(function):
            return self._timed_generator(target, function)

        @functools.wraps(function)
        def wrapper(*arguments: Any, **keywords: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*arguments, **keywords)
            finally:
                self.totals[target] += time.perf_counter() - started

        return wrapper

    def _timed_generator(self, target: str, function: Callable[..., Any]) -> Callable[..., Any]:
        # Only the time spent producing each item counts, not the consumer's.
        @functools.wraps(function)
        def wrapper(*arguments: Any, **keywords: Any) -> Iterator[Any]:
            iterator = function(*arguments, **keywords)
            while True:
                started = time.perf_counter()
                try:
                    item = next(iterator)
                except StopIteration:
                    return
                finally:
                    self.totals[target] += time.perf_counter() - started
                yield item

        return wrapper

    def stage_times(self) -> list[StageTime]:
        return _stage_times(lambda target: self.totals[target])


def all_targets() -> list[str]:
    return [t for spec in STAGES for t in spec.targets] + [*WORKER_ENTRIES, *QUEUE_INSIDE]


@contextmanager
def stage_clock() -> Iterator[StageClock]:
    """Time every stage function while the block runs; the originals are put back after."""
    clock = StageClock()
    originals = {target: resolve(target) for target in dict.fromkeys(all_targets())}
    try:
        for target, function in originals.items():
            replace_target(target, clock.timed(target, function))
        yield clock
    finally:
        for target, function in originals.items():
            replace_target(target, function)


# --- reading a cProfile run ----------------------------------------------------------


def raw_stats(stats: pstats.Stats) -> Mapping[FunctionKey, StatsRow]:
    table: Mapping[FunctionKey, StatsRow] = stats.stats  # type: ignore[attr-defined]
    return table


def profile_key(function: Callable[..., Any]) -> FunctionKey:
    code = inspect.unwrap(function).__code__
    return code.co_filename, code.co_firstlineno, code.co_name


def stage_times(stats: pstats.Stats) -> list[StageTime]:
    table = raw_stats(stats)

    def cumulative(target: str) -> float:
        row = table.get(profile_key(resolve(target)))
        return row[3] if row else 0.0

    return _stage_times(cumulative)


def _stage_times(seconds_in: Callable[[str], float]) -> list[StageTime]:
    times = [
        StageTime(spec.label, sum(seconds_in(target) for target in spec.targets), spec.indent)
        for spec in STAGES
    ]
    inside = sum(seconds_in(target) for target in QUEUE_INSIDE)
    outside = sum(seconds_in(target) for target in WORKER_ENTRIES) - inside
    return [*times, StageTime(QUEUE_LABEL, outside)]


def library_of(path: str, name: str) -> str:
    """The library a profiled function belongs to: bot.<package>, a site package or stdlib."""
    path = path.replace("\\", "/")
    if path == "~":
        return _builtin_library(name)
    site = re.search(r"site-packages/([A-Za-z0-9_]+)", path)
    if site:
        return site.group(1)
    if "/bot/" in path:
        pieces = path.rsplit("/bot/", 1)[1].split("/")
        return "bot." + (".".join(pieces[:-1]) or pieces[0].removesuffix(".py"))
    stdlib = re.search(r"python3\.\d+/([A-Za-z0-9_]+)", path)
    return f"stdlib {stdlib.group(1)}" if stdlib else path


def _builtin_library(name: str) -> str:
    for marker, library in (
        ("sqlite3", "sqlite3 (C)"),
        ("fsync", "os.fsync"),
        ("_json", "json (C)"),
        ("re.Pattern", "re (C)"),
        ("_sre", "re (C)"),
    ):
        if marker in name:
            return library
    return "builtins (C)"


def own_time_by_library(stats: pstats.Stats) -> list[tuple[str, float]]:
    totals: defaultdict[str, float] = defaultdict(float)
    for (path, _line, name), row in raw_stats(stats).items():
        totals[library_of(path, name)] += row[2]
    return sorted(totals.items(), key=lambda item: -item[1])


def top_functions(stats: pstats.Stats, count: int, by_own: bool = True) -> list[FunctionTime]:
    rows = [
        FunctionTime(_short_name(key), row[2], row[3], row[1])
        for key, row in raw_stats(stats).items()
    ]
    rows.sort(key=lambda row: -(row.own_seconds if by_own else row.cumulative_seconds))
    return rows[:count]


def _short_name(key: FunctionKey) -> str:
    path, line, name = key
    if path == "~":
        return name
    path = path.replace("\\", "/")
    for marker in ("site-packages/", "/main/", "python3.11/"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{path}:{line} {name}"


def format_table(rows: Iterable[tuple[str, ...]]) -> list[str]:
    rows = list(rows)
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(width) if index == 0 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
