"""Migration 0008 moves the governance documents into rows, and the game goes on.

``data/governance_0007.sql`` is a database written by the code of revision
0007 (``data/make_0007_database.py``): the scripted governance nweek up to
nday 8, 15:30, with the proposal and election books as ``game`` documents
and the polls and CFIs as ``game`` rows.  Upgraded, every state view reads
as it did (``data/governance_0007_views.json``), and the rest of the nweek
replayed on it ends as a replay of the whole nweek on a new database does.
"""

from __future__ import annotations

import importlib.util
import json
import sqlite3
from pathlib import Path
from types import ModuleType
from typing import Any

from sqlalchemy import func, select

from bot.app import App
from bot.outbound.transports import MaildirTransport
from bot.runner import replay_archive
from bot.store.models import (
    Base,
    CfiRow,
    ElectionRow,
    GameRecord,
    PollRow,
    ProposalBallotRow,
    ProposalRow,
)
from bot.testing import governance_week as week

DATA = Path(__file__).parent / "data"


def _fixture_maker() -> ModuleType:
    """The script the database was made with: its posts are the ones replayed here."""
    spec = importlib.util.spec_from_file_location("make_0007", DATA / "make_0007_database.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _upgraded_0007(folder: Path) -> App:
    (folder / "bot").mkdir(parents=True)
    connection = sqlite3.connect(folder / "bot" / "nomicbot.sqlite3")
    connection.executescript((DATA / "governance_0007.sql").read_text())
    connection.close()
    return week.week_app(folder / "bot")  # building the app upgrades the database


def _row_counts(app: App) -> dict[str, int]:
    tables: tuple[type[Base], ...] = (
        ProposalRow,
        ProposalBallotRow,
        PollRow,
        CfiRow,
        ElectionRow,
    )
    with app.session_factory() as session:
        return {
            table.__tablename__: session.scalar(select(func.count()).select_from(table)) or 0
            for table in tables
        }


def _replayed(app: App, folder: Path, posts: tuple[week.WeekPost, ...]) -> dict[str, Any]:
    archive = week.write_week_mbox(folder / "posts.mbox", posts)
    replay_archive(app, archive, MaildirTransport(folder / "out"), until=week.END)
    return week.week_state(app)


def test_the_state_views_read_the_same_after_the_upgrade(tmp_path: Path) -> None:
    app = _upgraded_0007(tmp_path)
    expected = json.loads((DATA / "governance_0007_views.json").read_text())
    assert week.week_state(app) == expected
    # Two proposals, one open Ballot, five polls, three CFIs, one Election.
    assert _row_counts(app) == {
        "proposal": 2,
        "proposal_ballot": 1,
        "poll": 5,
        "cfi": 3,
        "election": 1,
    }
    with app.session_factory() as session:
        left = set(session.scalars(select(GameRecord.name)))
    # The counters and the other games' rows stay; the documents are gone.
    assert left == {"ministries", "cfis", "polls", "private-poll-3", "private-poll-4"}


def test_the_rest_of_the_nweek_on_the_upgraded_database_ends_as_a_whole_replay(
    tmp_path: Path,
) -> None:
    maker = _fixture_maker()
    posts: tuple[week.WeekPost, ...] = maker.posts()
    rest = tuple(post for post in week.week_posts() if post.at > maker.UNTIL)
    continued = _replayed(_upgraded_0007(tmp_path / "upgraded"), tmp_path / "upgraded", rest)
    fresh = week.week_app(tmp_path / "fresh" / "bot")
    whole = _replayed(fresh, tmp_path / "fresh", (*posts, *rest))
    assert continued == whole
    assert [item["phase"] for item in whole["elections"]] == ["closed"]
