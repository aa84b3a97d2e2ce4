"""The ledger of holdings: every change to what a holder holds is an entry.

A balance is the sum of a holder's entries in one currency, read through an
index (the player's or the entity's, and the currency), so it costs the same
however long the game has run.  A holder is a player, or an entity that is
no player ("the Store" of rule 1911: rule 21 A.2 wants "the amount of Tildex
any game entity possesses" on a public display).  Balances never go below
zero (callers check ``balance`` first and refuse the action), and every
entry names its cause: the post and the rule, or an administrator.  The
entries of tildex the Basin created carry the nweek it created them in
(rule 21 A.2's cap, ``basin_created``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from bot.store.models import LedgerEntry, Player


def balance(session: Session, player_id: int, currency: str) -> int:
    """What ``player_id`` holds of ``currency`` (0 without entries)."""
    return _sum(session, LedgerEntry.player_id == player_id, currency)


def entity_balance(session: Session, entity: str, currency: str) -> int:
    """What the entity ``entity`` (a holder that is no player) holds of ``currency``."""
    return _sum(session, LedgerEntry.entity == entity, currency)


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
    basin_nweek: int | None = None,
) -> LedgerEntry:
    """Add one entry; ``ValueError`` if it would take the balance below zero.

    ``basin_nweek``: the nweek the Basin created these tildex in (rule 21 A.2).
    """
    if amount < 0 and balance(session, player_id, currency) + amount < 0:
        raise ValueError(f"{currency} of player {player_id} would go below zero")
    entry = LedgerEntry(player_id=player_id, basin_nweek=basin_nweek)
    return _add(session, entry, currency, amount, occurred_at, source, rule, note, message_pk)


def record_for_entity(
    session: Session,
    entity: str,
    currency: str,
    amount: int,
    *,
    occurred_at: datetime,
    source: str,
    rule: str = "",
    note: str = "",
    message_pk: int | None = None,
) -> LedgerEntry:
    """Add one entry of the entity ``entity``; ``ValueError`` below zero, as ``record``."""
    if amount < 0 and entity_balance(session, entity, currency) + amount < 0:
        raise ValueError(f"{currency} of {entity} would go below zero")
    entry = LedgerEntry(entity=entity)
    return _add(session, entry, currency, amount, occurred_at, source, rule, note, message_pk)


def _sum(session: Session, holder: ColumnElement[bool], currency: str) -> int:
    """One holder's balance: an indexed sum over its entries in ``currency``."""
    total = session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
            holder, LedgerEntry.currency == currency
        )
    )
    return int(total or 0)


def _add(
    session: Session,
    entry: LedgerEntry,
    currency: str,
    amount: int,
    occurred_at: datetime,
    source: str,
    rule: str,
    note: str,
    message_pk: int | None,
) -> LedgerEntry:
    """``entry``, whose holder is set, completed with the change and its cause, and stored."""
    entry.currency, entry.amount, entry.occurred_at = currency, amount, occurred_at
    entry.source, entry.rule, entry.note, entry.message_pk = source, rule, note, message_pk
    session.add(entry)
    session.flush()
    return entry


def basin_created(session: Session, nweek: int) -> int:
    """The tildex the Basin created in ``nweek`` (zero-based), gross: what it destroyed
    gives no room back (rule 21 A.2)."""
    total = session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
            LedgerEntry.basin_nweek == nweek
        )
    )
    return int(total or 0)


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


def entity_holdings(session: Session) -> dict[str, dict[str, int]]:
    """Every entity's non-zero balances: entity -> currency -> sum, in one statement."""
    rows = session.execute(
        select(LedgerEntry.entity, LedgerEntry.currency, func.sum(LedgerEntry.amount))
        .where(LedgerEntry.entity.is_not(None))
        .group_by(LedgerEntry.entity, LedgerEntry.currency)
        .order_by(LedgerEntry.entity, LedgerEntry.currency)
    )
    table: dict[str, dict[str, int]] = {}
    for entity, currency, total in rows:
        if entity is not None and total:
            table.setdefault(entity, {})[currency] = int(total)
    return table
