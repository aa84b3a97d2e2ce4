"""How the benches run nomicbot: the command, its environment, a scratch folder, a baseline.

Shared by the benches that replay archives with the real command line
(``pipeline.py``, ``history.py``) and those that compare this checkout with
an earlier revision side by side (``election_growth.py``, ``kgs_statements.py``,
``roster_growth.py``); the benches run as scripts, so this folder is on
``sys.path``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
