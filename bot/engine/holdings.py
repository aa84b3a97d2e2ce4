"""What players hold, by rule: gaining, spending and losing through the ledger.

Every change is a ledger entry naming its cause (the post and the rule, the
scheduler, or an administrator), so a player's statement and the Twiddler's
display are sums over entries (rules 21, 212 and 1899 of seed 004).

* Points (rule 21 A.1) never go below zero: losing more than one holds
  loses what there is (``lose``).
* Tildex (21 A.2), Bandwidth (212), macks and Go Points are plain balances
  that an action must be able to pay for (``spend``).
* Renown (1899) is kept per category and type; ten Temporary Renown of a
  category become one Permanent Renown at once (``gain``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import ledger
from bot.games.errors import IllegalActionError
from bot.store.models import Message

POINTS = "points"
TILDEX = "tildex"
BANDWIDTH = "bandwidth"
MACKS = "macks"
RENOWN_CATEGORIES = ("Glory", "Honor", "Wisdom")  # rule 1899
RENOWN_CONVERSION = 10  # rule 1899: ten Temporary make one Permanent

# How a currency is written in replies and displays.
DISPLAY_NAMES = {POINTS: "points", TILDEX: "~", BANDWIDTH: "BW", MACKS: "macks"}


@dataclass(frozen=True)
class Cause:
    """What a ledger entry names as its cause."""

    at: datetime
    rule: str
    note: str
    source: str
    message_pk: int | None


def renown(category: str, permanent: bool) -> str:
    """The ledger currency of one category and type of Renown, e.g. "renown:Honor:temporary"."""
    if category not in RENOWN_CATEGORIES:
        raise ValueError(f"no Renown category {category!r} (rule 1899)")
    return f"renown:{category}:{'permanent' if permanent else 'temporary'}"


def message_pk_of(session: Session, message_id: str) -> int | None:
    """The stored post a change is caused by, for the ledger entry's reference."""
    return session.scalar(select(Message.id).where(Message.message_id == message_id))


def gain(
    session: Session,
    player_id: int,
    currency: str,
    amount: int,
    *,
    at: datetime,
    rule: str,
    note: str,
    source: str = "post",
    message_pk: int | None = None,
) -> None:
    """``player_id`` receives ``amount`` (> 0); Temporary Renown converts at ten (1899)."""
    if amount <= 0:
        raise ValueError(f"a gain is positive, not {amount}")
    cause = Cause(at, rule, note, source, message_pk)
    _record(session, player_id, currency, amount, cause)
    if currency.startswith("renown:") and currency.endswith(":temporary"):
        _convert_renown(session, player_id, currency, cause)


def spend(
    session: Session,
    player_id: int,
    currency: str,
    amount: int,
    *,
    at: datetime,
    rule: str,
    note: str,
    source: str = "post",
    message_pk: int | None = None,
) -> None:
    """Pay ``amount`` (>= 0); ``IllegalActionError`` citing ``rule`` if the player holds less."""
    if amount < 0:
        raise ValueError(f"a payment is not negative: {amount}")
    held = ledger.balance(session, player_id, currency)
    if held < amount:
        name = DISPLAY_NAMES.get(currency, currency)
        raise IllegalActionError(f"that costs {amount} {name}, and you hold {held}", rule=rule)
    if amount:
        _record(session, player_id, currency, -amount, Cause(at, rule, note, source, message_pk))


def lose(
    session: Session,
    player_id: int,
    currency: str,
    amount: int,
    *,
    at: datetime,
    rule: str,
    note: str,
    source: str = "post",
    message_pk: int | None = None,
) -> int:
    """Lose up to ``amount``, never going below zero (rule 21 A.1); returns what was lost."""
    lost = min(amount, ledger.balance(session, player_id, currency))
    if lost > 0:
        _record(session, player_id, currency, -lost, Cause(at, rule, note, source, message_pk))
    return lost


def set_to(
    session: Session,
    player_id: int,
    currency: str,
    amount: int,
    *,
    at: datetime,
    rule: str,
    note: str,
    source: str = "scheduler",
    message_pk: int | None = None,
) -> int:
    """Make the balance exactly ``amount`` (Bandwidth's reset, rule 212); returns the change."""
    change = amount - ledger.balance(session, player_id, currency)
    if change:
        _record(session, player_id, currency, change, Cause(at, rule, note, source, message_pk))
    return change


def _record(session: Session, player_id: int, currency: str, amount: int, cause: Cause) -> None:
    ledger.record(
        session,
        player_id,
        currency,
        amount,
        occurred_at=cause.at,
        source=cause.source,
        rule=cause.rule,
        note=cause.note,
        message_pk=cause.message_pk,
    )


def _convert_renown(session: Session, player_id: int, temporary: str, cause: Cause) -> None:
    # Rule 1899: "If a player has 10 points of Temporary Renown in a given
    # category, that player loses all points of Temporary Renown in that
    # category and gains one point of Permanent Renown in that category."
    held = ledger.balance(session, player_id, temporary)
    if held < RENOWN_CONVERSION:
        return
    converted = replace(cause, rule="1899", note="ten Temporary Renown become one Permanent")
    _record(session, player_id, temporary, -held, converted)
    permanent = temporary.removesuffix(":temporary") + ":permanent"
    _record(session, player_id, permanent, 1, converted)
