"""Running the pure pipeline stages of upcoming posts in another process.

Decoding, quote stripping and parsing depend on nothing but a post's bytes,
so while the engine judges one post (database work, in order), the stages
of the next posts can run on the machine's other core.  Used when a backlog
is known, as in a replay; the results are the same ``PostContext`` the
engine would compute itself, and a post not prepared in time is simply
prepared inline.  Posts are known by their bytes, which are all the stages
read: a replay hands its archive's first posts over as it reads them, before
they are stored (and before the database is even opened).
"""

from __future__ import annotations

import copyreg
import gc
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import fields
from multiprocessing.connection import wait
from types import MappingProxyType, TracebackType
from typing import Any, Self

from bot.parser.grammar import post_grammar
from bot.pipeline import PipelineSettings, PostContext, run_pipeline

log = logging.getLogger(__name__)

# How many posts ahead of the engine the other process may run.
WINDOW = 64
# Posts sent to the other process per task.  One task per post cost the
# judging process a round trip each (the settings pickled again, the
# executor's threads woken), and left the other process waiting between
# posts for the busy judging process to hand it the next one.
CHUNK = 16


def _mapping_proxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(items)


# Decoded headers and parsed arguments are read-only mappings, which pickle
# does not know how to send between processes.
copyreg.pickle(MappingProxyType, lambda proxy: (_mapping_proxy, (dict(proxy),)))


# What comes back from the other process: the context but for its bytes and
# settings, which this process has already (they were most of what was sent
# back, and unpickling them cost the judging process time).
Prepared = dict[str, Any]
_KEPT_HERE = frozenset({"raw", "settings"})


def _prepare(raw: bytes, settings: PipelineSettings) -> Prepared:
    context = run_pipeline(raw, settings)
    return {
        item.name: getattr(context, item.name)
        for item in fields(context)
        if item.name not in _KEPT_HERE
    }


# The collector's thresholds while many posts are prepared or judged in a
# row: its youngest generation is collected after 10,000 new objects instead
# of 700.  A post makes thousands of short-lived objects (parse trees, ORM
# states), so the default collected several times per post, about 0.35 s of
# each process's time in bench/pipeline.py's replay; this costs a few MB.
FEWER_COLLECTIONS = (10_000, 10, 10)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Within: the collector runs at ``FEWER_COLLECTIONS``; as before after."""
    before = gc.get_threshold()
    gc.set_threshold(*FEWER_COLLECTIONS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _warm_up(settings: PipelineSettings) -> None:
    """Import the stages and build the post grammar, before any post arrives.

    Both take about a second in a new process (the grammar is composed and
    its LALR tables computed once per process), which the judging process
    would otherwise spend waiting for the first posts.  The grammar composed
    by an earlier process is loaded instead (``bot.parser.saved_grammar``).

    Run in the preparing process, which then freezes what it holds (the
    modules, the grammar's tables): its garbage collections, and the one at
    its exit, no longer go through them again (``gc.freeze``), and it
    collects less often (``FEWER_COLLECTIONS``).
    """
    post_grammar(settings.areas, settings.grammar_folder)
    gc.freeze()
    gc.set_threshold(*FEWER_COLLECTIONS)


def _prepare_each(
    prepare: Callable[[bytes, PipelineSettings], Prepared],
    raws: list[bytes],
    settings: PipelineSettings,
) -> list[Prepared | None]:
    """``prepare`` of each post; None for a post whose stages raised.

    Such a post is prepared again by the judging process, which meets the
    same defect there and shunts the post with its traceback.
    """
    results: list[Prepared | None] = []
    for raw in raws:
        try:
            results.append(prepare(raw, settings))
        except Exception:
            results.append(None)
    return results


# The exit status of a preparing process whose parent died.
ORPHANED = 70


def exit_with_parent() -> None:
    """In a preparing process: exit as soon as the process that started it is gone.

    A pool's worker otherwise outlives a parent killed with SIGKILL (or by
    the OOM killer): it holds both ends of its task pipe, so it waits for work
    for ever, and keeps multiprocessing's resource tracker alive with it.
    The spawned child's parent sentinel is a pipe whose other end only the
    parent holds, so it reads end-of-file the instant the parent dies, on
    every platform; a thread waits on it (no polling).
    """
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: nothing to watch
        return
    watcher = threading.Thread(
        target=_exit_when_gone, args=(parent.sentinel,), name="exit-with-parent", daemon=True
    )
    watcher.start()


def _exit_when_gone(sentinel: int) -> None:
    wait([sentinel])
    os._exit(ORPHANED)  # no cleanup to do: the parent that wanted the results is gone


class ParallelPipeline:
    def __init__(self, settings: PipelineSettings, workers: int = 1, depth: int = WINDOW) -> None:
        self.settings = settings
        # How many posts the other process may be given ahead of the judging
        # (``wants_more``): their results wait in memory, a few kB each.
        self.depth = depth
        # "spawn": the parent may hold threads and database connections,
        # which a forked child must not inherit.
        self.pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=exit_with_parent,
        )
        # a post's bytes -> the task preparing it, and the post's place in the task
        self.pending: dict[bytes, tuple[Future[list[Prepared | None]], int]] = {}
        # the message pk of each post ``expect`` named -> its bytes
        self.names: dict[int, bytes] = {}
        self.at_end = False
        self.broken = False
        # Started now, the process gets ready while the caller does other
        # work (a replay stores the rest of its archive); a failure here
        # shows as a broken pool at the first post, which is then prepared inline.
        # One warm-up per process: each is started by a task finding none idle.
        for _process in range(workers):
            self.pool.submit(_warm_up, settings)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exception_type: type[BaseException] | None,
        exception: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """End the preparing process; what is on its way is dropped."""
        # Not waited for: the process ends on its own (its interpreter's exit
        # took a quarter of a second), while the caller goes on (a replay
        # delivers its mails); the interpreter's own exit joins it at the latest.
        self.pool.shutdown(wait=False, cancel_futures=True)

    def submit(self, raws: Iterable[bytes]) -> None:
        """Have the posts ``raws`` prepared, those not already on their way."""
        if self.broken:
            return
        waiting = list(dict.fromkeys(raw for raw in raws if raw not in self.pending))
        try:
            for start in range(0, len(waiting), CHUNK):
                chunk = waiting[start : start + CHUNK]
                # _prepare is passed by name, read here: the other process runs this one.
                future = self.pool.submit(_prepare_each, _prepare, chunk, self.settings)
                for index, raw in enumerate(chunk):
                    self.pending[raw] = (future, index)
        except BrokenExecutor:
            self._give_up("the preparing process died")

    def expect(self, posts: Sequence[tuple[int, bytes]]) -> None:
        """The next stored posts to be judged, in order (message pk, bytes).

        ``take`` finds them by pk; those not yet on their way are submitted.
        Posts named before and not among these (held back, or judged
        elsewhere) are forgotten.
        """
        if self.broken:
            return
        self.names = dict(posts)
        # Fewer than asked for: the queue's end is named, and asking again
        # would read the same last posts once per post.
        self.at_end = len(self.names) < self.depth
        self.submit(self.names.values())

    @property
    def wants_more(self) -> bool:
        """Whether to ``expect`` more: fewer than half of ``depth`` upcoming posts are named,
        and the queue's end is not among them."""
        return not (self.broken or self.at_end) and len(self.names) < self.depth // 2

    def take(self, message_pk: int) -> PostContext | None:
        """The prepared context of a post, or None: then the caller prepares it.

        Any failure here (a dead process, or a defect the stages raised) is
        left to the caller's own run of the stages, which raises the same
        defect in this process, where it is shunted with its traceback.
        """
        raw = self.names.pop(message_pk, None)
        future, index = self.pending.pop(raw, (None, 0)) if raw is not None else (None, 0)
        if raw is None or future is None:
            return None
        try:
            prepared = future.result()[index]
            if prepared is None:
                return None  # the stages raised there: the caller's own run shunts the post
            return PostContext(raw=raw, settings=self.settings, **prepared)
        except BrokenExecutor:
            self._give_up("the preparing process died")
        except Exception:  # reproduced, and shunted, by the caller's own run
            log.debug("preparing a post failed; it is prepared inline")
        return None

    def _give_up(self, why: str) -> None:
        log.warning("%s; the remaining posts are prepared inline", why)
        self.broken = True
        self.pending.clear()
        self.names.clear()
