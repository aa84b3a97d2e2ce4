"""``upgrade_database``: a database at the head is left alone, any other is upgraded.

And Alembic's messages go to the ``sys.stdout`` of the moment they are written.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine

from bot.store import database
from bot.store.database import alembic_config, head_revisions, make_engine, upgrade_database


def _stored(engine: Engine) -> frozenset[str]:
    with engine.connect() as connection:
        return frozenset(MigrationContext.configure(connection).get_current_heads())


def test_an_older_database_is_brought_to_the_head(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    command.upgrade(alembic_config(url), "0011")
    engine = make_engine(url)
    try:
        assert _stored(engine) == {"0011"} != head_revisions()
        upgrade_database(engine)
        assert _stored(engine) == head_revisions()
    finally:
        engine.dispose()


def test_an_empty_database_gets_every_migration(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'new.sqlite3'}")
    try:
        upgrade_database(engine)
        assert _stored(engine) == head_revisions()
    finally:
        engine.dispose()


def test_a_database_at_the_head_does_not_run_alembic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'head.sqlite3'}")
    try:
        upgrade_database(engine)

        def refuse(*arguments: object) -> None:
            raise AssertionError("Alembic ran on a database at the head")

        monkeypatch.setattr(command, "upgrade", refuse)
        upgrade_database(engine)  # would raise if it ran the migrations' environment
        assert _stored(engine) == head_revisions()
    finally:
        engine.dispose()


def test_the_head_is_the_newest_migration_script() -> None:
    scripts = sorted(path.name for path in (database.MIGRATIONS / "versions").glob("*.py"))
    assert len(head_revisions()) == 1
    (head,) = head_revisions()
    assert scripts[-1].startswith(head)


def test_alembic_writes_to_the_stdout_of_the_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Alembic's own default is the stdout of when alembic.config was first
    # imported: under pytest, a captured stream that may be closed by now.
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stream)
    config = alembic_config(f"sqlite:///{tmp_path / 'check.sqlite3'}")
    command.upgrade(config, "head")
    command.check(config)
    assert "No new upgrade operations detected." in stream.getvalue()
