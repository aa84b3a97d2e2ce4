"""Rule 212 (seed 004): "At the beginning of each nweek, the number of Chits
held by each player becomes 10 unless another rule specifies otherwise."

A timed handler (``bot.engine.timed``): for every nweek that begins in the
interval it is given, each player's Bandwidth becomes
``holdings.bandwidth_per_nweek``.  Each reset is one ledger entry at the
nweek's first instant, written even when nothing changes, so a handler run
twice over the same nweek (a replay into a kept database) finds it and does
nothing.

The nweek in which the bot starts is no exception: its beginning is before
the bot's first instant, so ``grant_starting_bandwidth`` (run once, at the
scheduler's first instant) gives the players the configuration lists the
Bandwidth they would have had since that beginning.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import holdings, ledger
from bot.engine.players import all_players
from bot.games import ntime
from bot.store.models import LedgerEntry

if TYPE_CHECKING:
    from bot.engine.services import Services

RULE = "212"


def reset_bandwidth(session: Session, services: Services, after: datetime, until: datetime) -> None:
    """Reset every player's Bandwidth at each nweek start in ``(after, until]``."""
    if after.astimezone(UTC).date() == until.astimezone(UTC).date():
        return  # nweeks begin at 00:00 UTC (rule 3 A): nothing to do, cheaply
    for change in services.clock.nweek_changes_between(after, until):
        # The amount in force as the nweek begins (a recorded change: docs/archive.md).
        amount = services.at(change.instant).settings.holdings.bandwidth_per_nweek
        reset_at_nweek_start(session, change.begun, change.instant, amount)


def grant_starting_bandwidth(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """Rule 212 for the nweek in progress at the scheduler's first instant ``until``.

    The players the configuration lists are players from the start of the
    game (``bot.app.build_app``), so they hold what "the beginning of each
    nweek" gave: recorded at that beginning, so a live start and a replay
    started anywhere in the same nweek write the same entry.
    """
    amount = services.at(until).settings.holdings.bandwidth_per_nweek
    nweek = services.clock.reading(until).nweek
    begun = ntime.nday_start(services.clock.config, ntime.ClockReading(nweek, 0))
    note = f"the game starts in nweek {nweek + 1}: Bandwidth becomes {amount}BW"
    set_bandwidth_of_every_player(session, begun or until, amount, note)


def reset_at_nweek_start(session: Session, nweek: int, at: datetime, amount: int) -> int:
    """Make every player's Bandwidth ``amount`` at ``at``, the start of zero-based ``nweek``.

    Returns how many players were reset now (0 when this nweek's reset was done).
    """
    note = f"nweek {nweek + 1} begins: Bandwidth becomes {amount}BW"
    return set_bandwidth_of_every_player(session, at, amount, note)


def set_bandwidth_of_every_player(session: Session, at: datetime, amount: int, note: str) -> int:
    """One scheduler entry per player at ``at`` making eir Bandwidth ``amount`` (once).

    Returns how many players were set now (0 when it was done at ``at`` already).
    """
    done = _already_reset(session, at)
    players = [player.id for player in all_players(session) if player.id not in done]
    # One read of the balances and one flush, not a few statements per
    # player: a crowd of players is reset each nweek.
    ledger.set_players_to(
        session,
        players,
        holdings.BANDWIDTH,
        amount,
        occurred_at=at,
        source="scheduler",
        rule=RULE,
        note=note,
    )
    return len(players)


def _already_reset(session: Session, at: datetime) -> set[int]:
    rows = session.scalars(
        select(LedgerEntry.player_id).where(
            LedgerEntry.currency == holdings.BANDWIDTH,
            LedgerEntry.source == "scheduler",
            LedgerEntry.rule == RULE,
            LedgerEntry.occurred_at == at,
        )
    )
    return {player_id for player_id in rows if player_id is not None}
