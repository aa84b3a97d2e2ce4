"""ntime: The Clock, The Watch, Checkpoints and Checking Periods (B Nomic rule 3, seed 004).

Pure: the current instant is always passed in as a timezone-aware datetime.
``NtimeConfig`` holds the stored facts (epoch and Clock switches); the
functions derive readings from it.  Readings are zero-based like The Clock;
their ``display()`` methods add one as rule 3 A requires.
"""

from bot.games.ntime.clock import (
    checking_period_at,
    checkpoints_between,
    clock_at,
    describe,
    is_on,
    nday_start,
    next_checkpoint,
    next_on_instant,
    nweek_end,
    nweek_start,
    reading_at,
    watch_at,
)
from bot.games.ntime.config import NtimeConfig, Switch, require_utc
from bot.games.ntime.readings import (
    CheckingPeriod,
    Checkpoint,
    ClockReading,
    NtimeReading,
    WatchReading,
)

__all__ = [
    "CheckingPeriod",
    "Checkpoint",
    "ClockReading",
    "NtimeConfig",
    "NtimeReading",
    "Switch",
    "WatchReading",
    "checking_period_at",
    "checkpoints_between",
    "clock_at",
    "describe",
    "is_on",
    "nday_start",
    "next_checkpoint",
    "next_on_instant",
    "nweek_end",
    "nweek_start",
    "reading_at",
    "require_utc",
    "watch_at",
]
