"""When a refused action becomes possible, in the words and dates a player reads.

A rule that forbids an action only for now (one Go Move per Checking Period,
rule 1639 C; one Go move per 19 hours, A Nomic rule 368) raises
``NotYetError``; the pure rules cannot date "the next Checking Period", so
the engine dates it here, both as the Clock shows it (rule 3 A: nweek and
nday) and in UTC: "Rob may move again from the next Checking Period, nweek
1, nday 4 (2026-01-04 00:00 UTC)".
"""

from __future__ import annotations

from datetime import datetime

from bot.engine.clock import GameClock
from bot.games import ntime
from bot.games.errors import NEXT_CHECKING_PERIOD, ActionError, NotYetError, utc_text


def refusal_reason(error: ActionError, clock: GameClock | None, at: datetime) -> str:
    """``error``'s message; for a ``NotYetError``, with when the action becomes possible."""
    if not isinstance(error, NotYetError) or clock is None:
        return error.message
    when = possible_from(error, clock, at)
    return f"{error.reason}; {error.again} from {when}" if when else error.message


def possible_from(error: NotYetError, clock: GameClock, at: datetime) -> str:
    """When ``error``'s action becomes possible, judged at ``at``; empty if never known."""
    if error.from_instant is not None:
        return f"{clock.reading(error.from_instant).label} ({utc_text(error.from_instant)})"
    # The next Checking Period begins at the next Checkpoint, which the Clock
    # dates (a stop of the Clock moves it: rule 3 A counts only ndays On).
    checkpoint = ntime.next_checkpoint(clock.config, at)
    if checkpoint is None:
        return ""
    when = f"{checkpoint.reading.display()} ({utc_text(checkpoint.instant)})"
    return f"{NEXT_CHECKING_PERIOD}, {when}"
