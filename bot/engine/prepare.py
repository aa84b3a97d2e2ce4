"""Running the pure pipeline stages of upcoming posts in another process.

Decoding, quote stripping and parsing depend on nothing but a post's bytes,
so while the engine judges one post (database work, in order), the stages
of the next posts can run on the machine's other core.  Used when a backlog
is known, as in a replay; the results are the same ``PostContext`` the
engine would compute itself, and a post not prepared in time is simply
prepared inline.
"""

from __future__ import annotations

import copyreg
import logging
import multiprocessing
import os
import threading
from collections.abc import Iterable
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from dataclasses import fields
from multiprocessing.connection import wait
from types import MappingProxyType, TracebackType
from typing import Any, Self

from bot.pipeline import PipelineSettings, PostContext, run_pipeline

log = logging.getLogger(__name__)

# How many posts ahead of the engine the other process may run.
WINDOW = 64


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
    def __init__(self, settings: PipelineSettings, workers: int = 1) -> None:
        self.settings = settings
        # "spawn": the parent may hold threads and database connections,
        # which a forked child must not inherit.
        self.pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=exit_with_parent,
        )
        self.pending: dict[int, tuple[bytes, Future[Prepared]]] = {}
        self.broken = False

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exception_type: type[BaseException] | None,
        exception: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.pool.shutdown(cancel_futures=True)

    def submit(self, posts: Iterable[tuple[int, bytes]]) -> None:
        if self.broken:
            return
        try:
            for message_pk, raw in posts:
                if message_pk not in self.pending:
                    future = self.pool.submit(_prepare, raw, self.settings)
                    self.pending[message_pk] = (raw, future)
        except BrokenExecutor:
            self._give_up("the preparing process died")

    def take(self, message_pk: int) -> PostContext | None:
        """The prepared context of a post, or None: then the caller prepares it.

        Any failure here (a dead process, or a defect the stages raised) is
        left to the caller's own run of the stages, which raises the same
        defect in this process, where it is shunted with its traceback.
        """
        raw, future = self.pending.pop(message_pk, (b"", None))
        if future is None:
            return None
        try:
            return PostContext(raw=raw, settings=self.settings, **future.result())
        except BrokenExecutor:
            self._give_up("the preparing process died")
        except Exception:  # reproduced, and shunted, by the caller's own run
            log.debug("preparing message %s failed; it is prepared inline", message_pk)
        return None

    def _give_up(self, why: str) -> None:
        log.warning("%s; the remaining posts are prepared inline", why)
        self.broken = True
        self.pending.clear()

    @property
    def in_flight(self) -> int:
        return len(self.pending)
