"""Events due at instants the rules fix: deadlines, resets, rotations, digests.

The scheduler calls every handler here on each advance of the clock, with
the interval ``(after, until]`` it covers, in the order listed.  A handler
finds what fell due in that interval (a poll's deadline, the start of an
nweek, a digest's hour) and acts on it once; because the interval is driven
by the posts' own instants, a replayed archive sees each event between the
same two posts as the live game did.  A handler must be cheap when nothing
is due: it runs before every post.

Adding one is a function with the ``TimedHandler`` signature in its own
module and one line in ``handlers``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from bot.engine.services import Services

TimedHandler = Callable[[Session, "Services", datetime, datetime], None]


def handlers() -> tuple[TimedHandler, ...]:
    """Every timed handler, in the order they run (imported late: they import the engine)."""
    from bot.engine.bandwidth import reset_bandwidth
    from bot.engine.clock_stops import stop_for_recognizer
    from bot.engine.field_schedule import evolve_at_nweek_start
    from bot.engine.governance.ballot import run_ballot
    from bot.engine.governance.cfis import close_due_cfis
    from bot.engine.governance.digests import send_scheduled_digests  # last: sees the rest
    from bot.engine.governance.elections import advance_elections

    return (
        reset_bandwidth,
        advance_elections,
        run_ballot,
        stop_for_recognizer,  # rule 23: after the Ballot's results, which the GM recognises
        close_due_cfis,  # rule 125: CFI polls at their 4th midnight
        evolve_at_nweek_start,
        send_scheduled_digests,
    )
