"""How the benches run nomicbot: the command, its environment, a scratch folder, a baseline.

Shared by the benches that replay archives with the real command line
(``pipeline.py``, ``history.py``) and those that compare this checkout with
an earlier revision side by side (``election_growth.py``, ``kgs_statements.py``,
``roster_growth.py``); the benches run as scripts, so this folder is on
``sys.path``.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def nomicbot_command() -> list[str]:
    """The installed ``nomicbot`` script, or the module when it is not installed."""
    script = Path(sys.executable).parent / "nomicbot"
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


def clean_environment() -> dict[str, str]:
    """This environment but NOMICBOT_* variables: they would override the configuration."""
    return {name: value for name, value in os.environ.items() if not name.startswith("NOMICBOT_")}


@contextmanager
def workspace(path: Path | None, prefix: str = "nomicbot-bench-") -> Iterator[Path]:
    """``path`` (kept afterwards), or a temporary folder removed at the end."""
    if path is not None:
        path.mkdir(parents=True, exist_ok=True)
        yield path
        return
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_baseline(bench: Path, reference: str, arguments: list[str]) -> None:
    """The bench script ``bench`` run with ``--here`` on the code of git revision ``reference``.

    A child process runs this checkout's script with ``reference``'s ``bot``
    package (a ``git archive`` of it on ``PYTHONPATH``), so both sides of a
    comparison measure the same way.
    """
    with tempfile.TemporaryDirectory(prefix="nomicbot-baseline-") as scratch:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", reference], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", scratch], input=archive, check=True)
        environment = os.environ | {"PYTHONPATH": scratch, "PYTHONDONTWRITEBYTECODE": "1"}
        command = [sys.executable, str(bench.resolve()), "--here", *arguments]
        subprocess.run(command, check=True, env=environment, cwd=scratch)


def measured_in_child(script: str, code: Path, arguments: Sequence[str]) -> dict[str, Any]:
    """The JSON that bench ``script`` prints last, run with ``arguments`` in a new process
    with ``code``'s ``bot`` package on the path (one side of a comparison)."""
    environment = clean_environment() | {"PYTHONPATH": str(code)}
    command = [sys.executable, script, *arguments]
    finished = subprocess.run(
        command, capture_output=True, text=True, env=environment, cwd=code, check=False
    )
    if finished.returncode != 0:
        raise SystemExit(f"measuring with {code} failed:\n{finished.stderr}")
    result: dict[str, Any] = json.loads(finished.stdout.strip().splitlines()[-1])
    return result


def print_per_post_medians(
    rounds: Mapping[str, Sequence[Mapping[str, Any]]], names: Sequence[str], posts: int, digits: int
) -> dict[str, dict[str, float]]:
    """Each tree's median of each measure (seconds in ``rounds``), printed in ms per post."""
    medians: dict[str, dict[str, float]] = {}
    for tree, results in rounds.items():
        medians[tree] = {}
        for name in names:
            values = [1000 * result[name] / posts for result in results]
            medians[tree][name] = statistics.median(values)
            listed = ", ".join(f"{value:.{digits}f}" for value in values)
            print(
                f"{tree:>9} {name:>8}: median {medians[tree][name]:.{digits}f} ms/post ({listed})"
            )
    return medians


def print_speed_ups(
    rounds: Mapping[str, Sequence[Mapping[str, Any]]],
    medians: Mapping[str, Mapping[str, float]],
    names: Sequence[str],
    digits: int,
) -> None:
    """Baseline over checkout for each measure: of the medians, and the median of each round's.

    Each round's two runs are next to each other in time, so their ratio is
    less exposed to a load that changes between rounds.
    """
    for name in names:
        ratio = medians["baseline"][name] / medians["checkout"][name]
        paired = statistics.median(
            before[name] / after[name]
            for before, after in zip(rounds["baseline"], rounds["checkout"], strict=True)
        )
        print(
            f"{name}: baseline / checkout = {ratio:.{digits}f} of the medians, {paired:.{digits}f} "
            "the median of each round's (above 1: this checkout is faster)"
        )
