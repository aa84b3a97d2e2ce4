"""Rule 212 (seed 004): "At the beginning of each nweek, the number of Chits
held by each player becomes 10 unless another rule specifies otherwise."

A timed handler (``bot.engine.timed``): for every nweek that begins in the
interval it is given, each player's Bandwidth becomes
``holdings.bandwidth_per_nweek``.  Each reset is one ledger entry at the
nweek's first instant, written even when nothing changes, so a handler run
twice over the same nweek (a replay into a kept database) finds it and does
nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import holdings, ledger
from bot.engine.players import active_players
from bot.store.models import LedgerEntry

if TYPE_CHECKING:
    from bot.engine.services import Services

RULE = "212"


def reset_bandwidth(session: Session, services: Services, after: datetime, until: datetime) -> None:
    """Reset every player's Bandwidth at each nweek start in ``(after, until]``."""
    if after.astimezone(UTC).date() == until.astimezone(UTC).date():
        return  # nweeks begin at 00:00 UTC (rule 3 A): nothing to do, cheaply
    amount = services.settings.holdings.bandwidth_per_nweek
    for change in services.clock.nweek_changes_between(after, until):
        reset_at_nweek_start(session, change.begun, change.instant, amount)


def reset_at_nweek_start(session: Session, nweek: int, at: datetime, amount: int) -> int:
    """Make every player's Bandwidth ``amount`` at ``at``, the start of zero-based ``nweek``.

    Returns how many players were reset now (0 when this nweek's reset was done).
    """
    done = _already_reset(session, at)
    note = f"nweek {nweek + 1} begins: Bandwidth becomes {amount}BW"
    reset = 0
    for player in active_players(session):
        if player.id in done:
            continue
        change = amount - ledger.balance(session, player.id, holdings.BANDWIDTH)
        ledger.record(
            session,
            player.id,
            holdings.BANDWIDTH,
            change,
            occurred_at=at,
            source="scheduler",
            rule=RULE,
            note=note,
        )
        reset += 1
    return reset


def _already_reset(session: Session, at: datetime) -> set[int]:
    rows = session.scalars(
        select(LedgerEntry.player_id).where(
            LedgerEntry.currency == holdings.BANDWIDTH,
            LedgerEntry.source == "scheduler",
            LedgerEntry.rule == RULE,
            LedgerEntry.occurred_at == at,
        )
    )
    return set(rows)
