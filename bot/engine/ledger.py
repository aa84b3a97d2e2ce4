"""The ledger of holdings: every change to what a holder holds is an entry.

A balance is the sum of a holder's entries in one currency.  It is kept in
a ``balance`` row per holder and currency, written in the same flush as
each entry, so reading one is one row through a unique index and the
Twiddler's display is one row per holder and currency: neither grows with
the entries the game's years add (``bench/ledger_holders.py``).  A holder
is a player, or an entity that is no player ("the Store" of rule 1911: rule
21 A.2 wants "the amount of Tildex any game entity possesses" on a public
display).  Balances never go below zero (callers check ``balance`` first
and refuse the action), and every entry names its cause: the post and the
rule, or an administrator.  The entries of tildex the Basin created carry
the nweek it created them in (rule 21 A.2's cap, ``basin_created``).

Every entry is written here (``record``, ``record_for_entity``,
``set_players_to``), never added to the session elsewhere: an entry
written around this module would leave its holder's balance behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import bindparam, delete, func, insert, select
from sqlalchemy.orm import Session

from bot.store.models import Balance, LedgerEntry, Player

# Built once: a payment reads its payer's balance before it writes.
_PLAYER_BALANCE = select(Balance).where(
    Balance.player_id == bindparam("holder"), Balance.currency == bindparam("currency")
)
_ENTITY_BALANCE = select(Balance).where(
    Balance.entity == bindparam("holder"), Balance.currency == bindparam("currency")
)


def balance(session: Session, player_id: int, currency: str) -> int:
    """What ``player_id`` holds of ``currency`` (0 without entries)."""
    return _amount(_player_row(session, player_id, currency))


def entity_balance(session: Session, entity: str, currency: str) -> int:
    """What the entity ``entity`` (a holder that is no player) holds of ``currency``."""
    return _amount(_entity_row(session, entity, currency))


def player_balances(session: Session, currency: str) -> dict[int, int]:
    """Every player's balance of ``currency`` with entries in it, by player id, in one read.

    A crowd of players is reset each nweek and listed in each digest.
    """
    rows = session.execute(
        select(Balance.player_id, Balance.amount).where(
            Balance.currency == currency, Balance.player_id.is_not(None)
        )
    )
    return {player_id: amount for player_id, amount in rows if player_id is not None}


def player_currencies(session: Session, player_id: int) -> dict[str, int]:
    """Every currency ``player_id`` has had entries in, with eir balance of it."""
    rows = session.execute(
        select(Balance.currency, Balance.amount).where(Balance.player_id == player_id)
    )
    return {currency: amount for currency, amount in rows}


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
    row = _player_row(session, player_id, currency)
    if amount < 0 and _amount(row) + amount < 0:
        raise ValueError(f"{currency} of player {player_id} would go below zero")
    if row is None:
        row = Balance(player_id=player_id, currency=currency, amount=0)
    entry = LedgerEntry(player_id=player_id, basin_nweek=basin_nweek)
    return _add(session, entry, row, currency, amount, occurred_at, source, rule, note, message_pk)


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
    row = _entity_row(session, entity, currency)
    if amount < 0 and _amount(row) + amount < 0:
        raise ValueError(f"{currency} of {entity} would go below zero")
    if row is None:
        row = Balance(entity=entity, currency=currency, amount=0)
    entry = LedgerEntry(entity=entity)
    return _add(session, entry, row, currency, amount, occurred_at, source, rule, note, message_pk)


def set_players_to(
    session: Session,
    player_ids: Sequence[int],
    currency: str,
    amount: int,
    *,
    occurred_at: datetime,
    source: str,
    rule: str,
    note: str,
) -> None:
    """Make each of ``player_ids``' balance of ``currency`` ``amount`` (>= 0), one entry each.

    For a change made to every player at once (the nweek's Bandwidth, rule
    212): the currency's balances are read once and every entry and balance
    written in one flush, not a few statements per player.
    """
    if not player_ids:
        return
    rows = {
        row.player_id: row
        for row in session.scalars(
            select(Balance).where(Balance.currency == currency, Balance.player_id.is_not(None))
        )
    }
    for player_id in player_ids:
        row = rows.get(player_id)
        if row is None:
            row = rows[player_id] = Balance(player_id=player_id, currency=currency, amount=0)
        entry = LedgerEntry(
            player_id=player_id,
            currency=currency,
            amount=amount - row.amount,
            occurred_at=occurred_at,
            source=source,
            rule=rule,
            note=note,
            message_pk=None,
        )
        row.amount = amount
        session.add_all((entry, row))
    session.flush()


def _player_row(session: Session, player_id: int, currency: str) -> Balance | None:
    return session.scalar(_PLAYER_BALANCE, {"holder": player_id, "currency": currency})


def _entity_row(session: Session, entity: str, currency: str) -> Balance | None:
    return session.scalar(_ENTITY_BALANCE, {"holder": entity, "currency": currency})


def _amount(row: Balance | None) -> int:
    return 0 if row is None else row.amount


def _add(
    session: Session,
    entry: LedgerEntry,
    row: Balance,
    currency: str,
    amount: int,
    occurred_at: datetime,
    source: str,
    rule: str,
    note: str,
    message_pk: int | None,
) -> LedgerEntry:
    """``entry``, whose holder is set, completed with the change and its cause, and stored
    with its holder's balance ``row`` changed by as much."""
    entry.currency, entry.amount, entry.occurred_at = currency, amount, occurred_at
    entry.source, entry.rule, entry.note, entry.message_pk = source, rule, note, message_pk
    row.amount += amount
    session.add_all((entry, row))
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
    """Every player's balance in every currency e has entries in: name -> currency -> amount."""
    rows = session.execute(
        select(Player.name, Balance.currency, Balance.amount)
        .join(Player, Player.id == Balance.player_id)
        .order_by(Player.name, Balance.currency)
    )
    table: dict[str, dict[str, int]] = {}
    for name, currency, amount in rows:
        table.setdefault(name, {})[currency] = amount
    return table


def entity_holdings(session: Session) -> dict[str, dict[str, int]]:
    """Every entity's non-zero balances: entity -> currency -> amount, in one statement."""
    rows = session.execute(
        select(Balance.entity, Balance.currency, Balance.amount)
        .where(Balance.entity.is_not(None), Balance.amount != 0)
        .order_by(Balance.entity, Balance.currency)
    )
    table: dict[str, dict[str, int]] = {}
    for entity, currency, amount in rows:
        if entity is not None:
            table.setdefault(entity, {})[currency] = amount
    return table


# Each holder's sum of entries in each currency: the balances, the long way.
_SUMS = select(
    LedgerEntry.player_id, LedgerEntry.entity, LedgerEntry.currency, func.sum(LedgerEntry.amount)
).group_by(LedgerEntry.player_id, LedgerEntry.entity, LedgerEntry.currency)


def summed_balances(session: Session) -> list[tuple[int | None, str | None, str, int]]:
    """Every holder's balance as the sum of its entries: (player id, entity, currency, sum).

    What the ``balance`` rows must equal, read the long way, for audits and tests.
    """
    rows = session.execute(
        _SUMS.order_by(LedgerEntry.player_id, LedgerEntry.entity, LedgerEntry.currency)
    )
    return [(player, entity, currency, int(total)) for player, entity, currency, total in rows]


def rebuild_balances(session: Session) -> None:
    """Write every ``balance`` row again from the sums of the ledger's entries.

    For a ledger whose entries were loaded in bulk, around ``record``
    (``bench/ledger_holders.py`` builds its long histories so), or mended
    by hand; revision 0013 fills the table the same way.
    """
    session.execute(delete(Balance))
    session.execute(
        insert(Balance).from_select(["player_id", "entity", "currency", "amount"], _SUMS)
    )


def kept_balances(session: Session) -> list[tuple[int | None, str | None, str, int]]:
    """Every ``balance`` row: (player id, entity, currency, amount), as ``summed_balances``."""
    rows = session.execute(
        select(Balance.player_id, Balance.entity, Balance.currency, Balance.amount).order_by(
            Balance.player_id, Balance.entity, Balance.currency
        )
    )
    return [(player, entity, currency, amount) for player, entity, currency, amount in rows]
