"""Events due at instants the rules fix: deadlines, resets, rotations, digests.

The scheduler calls every timed handler on each advance of the clock, with
the interval ``(after, until]`` it covers.  A handler finds what fell due in
that interval (a poll's deadline, the start of an nweek, a digest's hour)
and acts on it once; because the interval is driven by the posts' own
instants, a replayed archive sees each event between the same two posts as
the live game did.  A handler must be cheap when nothing is due: it runs
before every post.

A game adds one as a ``bot.engine.game.TimedEvent`` in its declaration,
naming the rule that fixes the event's time: the scheduler runs the events
in the order of rule 3 C (``bot.engine.scheduler``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from bot.engine.services import Services

TimedHandler = Callable[[Session, "Services", datetime, datetime], None]
