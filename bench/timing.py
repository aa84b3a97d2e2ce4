"""Timed rounds as the benches print them: median, rate and every round.

Shared by ``bench/pipeline.py`` (posts) and ``bench/go.py`` (moves), and
the percentiles of ``bench/latency.py`` and ``bench/site_latency.py``; the
benches run as scripts, so this folder is on ``sys.path``.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """``count`` items (``unit``) done once per round, in ``durations`` seconds."""

    label: str
    count: int
    durations: tuple[float, ...]
    unit: str = "posts"

    @property
    def median(self) -> float:
        return statistics.median(self.durations)

    @property
    def rate(self) -> float:
        return self.count / self.median

    def line(self) -> str:
        rounds = ", ".join(f"{seconds:.3f}" for seconds in self.durations)
        return (
            f"{self.label}: {self.rate:10.1f} {self.unit}/s  (median {self.median:.3f} s for "
            f"{self.count} {self.unit}; rounds: {rounds} s)"
        )


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` fall (nearest rank, no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
