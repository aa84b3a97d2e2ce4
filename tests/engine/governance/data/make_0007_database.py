"""Build ``governance_0007.sql`` and ``governance_0007_views.json`` with the code of revision 0007.

Run from a checkout of the code before migration 0008 (the proposal and
election books as ``game`` documents, polls and CFIs as ``game`` rows):

    PYTHONPATH=<that checkout> python tests/engine/governance/data/make_0007_database.py

It replays the scripted governance nweek (``bot.testing.governance_week``)
up to nday 8, 15:30, with a third CFI submitted on nday 8 and voted on
once: the Election is voting, two CFIs ruled and one pending, the Ballot
open with its polls voted on (one vote private), and writes the
database as SQL text and the state views as ``nomicbot state --json``
shows them.  ``test_governance_rows_migration`` loads the first, upgrades
it and compares the views with the second.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from pathlib import Path

from bot.outbound.transports import MaildirTransport
from bot.runner import replay_archive
from bot.testing import governance_week as week

HERE = Path(__file__).parent
UNTIL = week.at(8, 15, 30)
PENDING_CFI = (
    "I submit a CFI: {{ __Tea is not Cake__\n"
    "Argument: Tea was served as cake.\n"
    "Resolution:\n"
    "- Tea is not cake\n"
    "}}"
)


def posts() -> tuple[week.WeekPost, ...]:
    """The nweek's posts up to ``UNTIL``, and a CFI left pending (number 102)."""
    scripted = tuple(post for post in week.week_posts() if post.at <= UNTIL)
    extra = (
        week.WeekPost(90, "Carol", week.at(8, 14, 0), PENDING_CFI, False),
        week.WeekPost(91, "Dave", week.at(8, 14, 30), "I vote TRUE on CFI 102", False),
    )
    return tuple(sorted((*scripted, *extra), key=lambda post: post.at))


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        archive = week.write_week_mbox(folder / "week.mbox", posts())
        app = week.week_app(folder / "bot")
        replay_archive(app, archive, MaildirTransport(folder / "out"), until=UNTIL)
        views = week.week_state(app)
        database = app.settings.database_url.removeprefix("sqlite:///")
        app.engine.dispose()
        connection = sqlite3.connect(database)
        dump = "\n".join(connection.iterdump())
        connection.close()
    (HERE / "governance_0007.sql").write_text(dump + "\n")
    text = json.dumps(views, indent=1, sort_keys=True)
    (HERE / "governance_0007_views.json").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
