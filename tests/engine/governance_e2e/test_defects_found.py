"""Two defects the governance nweek found, fixed, and kept as regression tests.

1. Configured players once joined at the wall-clock time of start-up, so
   ``nomicbot state players --json`` differed between a live database and
   its replay; they now join at the ntime epoch.
2. The scheduler once ran each timed handler over a whole long interval, so
   a digest dated at an earlier midnight showed the state at the interval's
   end; ``advance_clock`` now handles the interval midnight by midnight.
"""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default
from email.utils import parsedate_to_datetime
from pathlib import Path

from sqlalchemy import select

from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.runner import advance_to, store_message
from bot.store.models import OutboxMessage
from bot.testing.go_game import EPOCH
from bot.testing.governance_week import END, at, week_app, week_posts


def test_configured_players_join_at_the_same_instant_in_every_database(tmp_path: Path) -> None:
    views = []
    for name in ("first", "second"):
        app = week_app(tmp_path / name)
        with app.session_factory() as session:
            views.append(game_view(session, app.services, "players").data)
        app.dispose()
    assert views[0] == views[1]


def test_a_midnight_digest_goes_to_the_ministers_of_that_midnight(tmp_path: Path) -> None:
    # The nweek without its nday-10 posts: the scheduler goes from nday 9,
    # 13:00 to the end in one advance, over the Election's close (nday 10, 10:00).
    app = week_app(tmp_path / "bot")
    advance_to(app, EPOCH)
    for post in week_posts()[:-2]:
        store_message(app, post.raw(), "script", post.at)
        process_queue(app.session_factory, app.services)
    advance_to(app, END)
    with app.session_factory() as session:
        raws = session.scalars(select(OutboxMessage.raw).where(OutboxMessage.kind == "digest"))
        mails = [message_from_bytes(raw, policy=default) for raw in raws]
    erin = "erin@example.test"
    to_erin = [parsedate_to_datetime(str(m["Date"])) for m in mails if m["To"] == erin]
    seated = at(10, 10)  # Erin wins the Election for the Ministry of Twiddles then
    assert to_erin and all(date > seated for date in to_erin)
