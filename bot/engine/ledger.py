"""The ledger of holdings: every change to what a player holds is an entry.

A balance is the sum of a player's entries in one currency.  Points never go
below zero (callers check ``balance`` first and refuse the action), and every
entry names its cause: the post and the rule, or an administrator.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bot.store.models import LedgerEntry, Player


def balance(session: Session, player_id: int, currency: str) -> int:
    """What ``player_id`` holds of ``currency`` (0 without entries)."""
    total = session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
            LedgerEntry.player_id == player_id, LedgerEntry.currency == currency
        )
    )
    return int(total or 0)


def record(
    session: Session,
    player_id: int,
    currency: str,
    amount: int,
    *,
    occurred_at: datetime,
    source: str,
    rule: str = "",
    note: str = "",
    message_pk: int | None = None,
) -> LedgerEntry:
    """Add one entry; ``ValueError`` if it would take the balance below zero."""
    if amount < 0 and balance(session, player_id, currency) + amount < 0:
        raise ValueError(f"{currency} of player {player_id} would go below zero")
    entry = LedgerEntry(
        player_id=player_id,
        currency=currency,
        amount=amount,
        message_pk=message_pk,
        source=source,
        rule=rule,
        note=note,
        occurred_at=occurred_at,
    )
    session.add(entry)
    session.flush()
    return entry


def holdings(session: Session) -> dict[str, dict[str, int]]:
    """Every player's balance in every currency e has entries in: name -> currency -> sum."""
    rows = session.execute(
        select(Player.name, LedgerEntry.currency, func.sum(LedgerEntry.amount))
        .join(Player, Player.id == LedgerEntry.player_id)
        .group_by(Player.name, LedgerEntry.currency)
        .order_by(Player.name, LedgerEntry.currency)
    )
    table: dict[str, dict[str, int]] = {}
    for name, currency, total in rows:
        table.setdefault(name, {})[currency] = int(total)
    return table
