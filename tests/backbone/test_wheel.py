"""A wheel built from the repository works from any directory (Trust II, item 14).

``python -m build`` (an sdist, then the wheel built from it), the wheel
installed into a fresh virtualenv, and ``nomicbot`` run from a folder that
is not the checkout: the grammar, the templates and the migrations must come
from inside the installed package, never from the repository.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.posts import mbox_from_line
from bot.testing import go_game
from bot.testing.apps import maildir_mails, write_config, write_mbox

REPOSITORY = Path(__file__).resolve().parents[2]
POST = b"Hello all.\n\nI place a stone at E5. I roll 2d6 twice.\nI place a stone at G33.\n"
# Building the sdist and the wheel and installing the dependencies from the
# local wheel cache takes about a minute on the shared 2-core machine.
TIMEOUT = 600


def run(command: list[str | Path], cwd: Path, stdin: bytes = b"") -> str:
    # Without PYTHONPATH nothing of the checkout can leak into the installed bot.
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        timeout=TIMEOUT,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-4000:]
    return done.stdout.decode()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh virtualenv with the built wheel installed."""
    folder = tmp_path_factory.mktemp("wheel")
    dist = folder / "dist"
    run([sys.executable, "-m", "build", "--outdir", dist, REPOSITORY], cwd=folder)
    [wheel] = dist.glob("nomicbot-*.whl")
    run([sys.executable, "-m", "venv", folder / "venv"], cwd=folder)
    bin_folder = folder / "venv" / "bin"
    run([bin_folder / "python", "-m", "pip", "install", "--quiet", wheel], cwd=folder)
    return bin_folder


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A working folder that is neither the checkout nor inside it."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def test_the_installed_package_is_not_the_checkout(installed: Path, elsewhere: Path) -> None:
    where = run([installed / "python", "-c", "import bot; print(bot.__file__)"], cwd=elsewhere)
    assert Path(where.strip()).is_relative_to(installed.parent)


def test_demo_prints_posts_and_rulings(installed: Path, elsewhere: Path) -> None:
    output = run([installed / "nomicbot", "demo"], cwd=elsewhere)
    assert "===== post 1: Alice" in output
    assert "Subject: [dice] Commitment for nweek 1" in output
    assert "Alice placed a stone at E5 (rule 1639 C)" in output


def test_parse_prints_json_actions(installed: Path, elsewhere: Path) -> None:
    output = run([installed / "nomicbot", "parse", "-"], cwd=elsewhere, stdin=POST)
    items = [json.loads(line) for line in output.splitlines()]
    assert [item.get("action") for item in items] == ["go.place", "dice.roll", None]
    assert items[1]["repeat"] == 2
    assert 'could not read "G33"' in items[2]["message"]


def test_replay_judges_an_archive_into_an_outbox(installed: Path, elsewhere: Path) -> None:
    posts = go_game.SCRIPT[:3]
    archive = elsewhere / "game.mbox"
    write_mbox(archive, [(post.raw(), mbox_from_line(post.author[1], post.at)) for post in posts])
    config = write_config(elsewhere / "bot")
    outbox = elsewhere / "outbox"
    output = run(
        [installed / "nomicbot", "replay", archive, "--outbox", outbox, "--config", config],
        cwd=elsewhere,
    )
    assert "3 post(s) in the archive: 3 stored, 0 already known; 3 judged, 0 shunted" in output
    rulings = [mail for mail in maildir_mails(outbox) if mail["Subject"].startswith("Re: ")]
    assert len(rulings) == 3
    bodies = [mail.get_content() for mail in rulings]
    assert any("Alice placed a stone at E5 (rule 1639 C)" in body for body in bodies)
    assert any('REJECTED\n  1. "I place a stone at C2."' in body for body in bodies)


def test_db_upgrade_creates_the_schema(installed: Path, elsewhere: Path) -> None:
    url = f"sqlite:///{elsewhere / 'fresh.sqlite3'}"
    output = run([installed / "nomicbot", "db", "upgrade", "--db", url], cwd=elsewhere)
    assert "is at the newest schema" in output
    with sqlite3.connect(elsewhere / "fresh.sqlite3") as connection:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}
    assert {"message", "outbox", "action_log", "alembic_version"} <= tables


def test_site_build_finds_its_templates(installed: Path, elsewhere: Path) -> None:
    config = write_config(elsewhere / "bot")
    target = elsewhere / "site"
    output = run(
        [installed / "nomicbot", "site", "build", target, "--config", config], cwd=elsewhere
    )
    assert f"{target} now shows it" in output
    assert "<h1>The game now</h1>" in (target / "index.html").read_text()
    assert (target / "site.css").is_file() and (target / "view-go.json").is_file()
