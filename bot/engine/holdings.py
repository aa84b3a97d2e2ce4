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
* Entities that are no players hold currencies too (the Store's tildex,
  rule 1911): ``gain_for_entity``, ``spend_for_entity``.
* Tildex a rule gives "without specifying a source" are the Basin's, which
  may create no more than 10000~ each nweek (21 A.2): ``create_tildex``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import ledger
from bot.games.errors import IllegalActionError
from bot.store.models import LedgerEntry, Message

if TYPE_CHECKING:
    from bot.engine.clock import GameClock

POINTS = "points"
TILDEX = "tildex"
BANDWIDTH = "bandwidth"
MACKS = "macks"
GO_POINTS = "go points"
RENOWN_CATEGORIES = ("Glory", "Honor", "Wisdom")  # rule 1899
RENOWN_CONVERSION = 10  # rule 1899: ten Temporary make one Permanent
WELCOME_POINTS = 1  # rule 14: "that Player receives 1 Point"
ENTRY_TILDEX = 500  # rule 21 A.2: "On entering the game, a Player receives 500~"
BASIN = "the Basin"  # rule 21 A.2: "the Great Tilde Basin and Punctuation Exchange, ..."
BASIN_CAP = 10000  # rule 21 A.2: "no [...] more than 10000 Tildex each nweek"
# Shown in a player's statement even at zero; others once they have entries.
STATEMENT_CURRENCIES = (POINTS, TILDEX, BANDWIDTH)

# How a currency is written in replies and displays.
DISPLAY_NAMES = {
    POINTS: "points",
    TILDEX: "~",
    BANDWIDTH: "BW",
    MACKS: "macks",
    GO_POINTS: "Go Points",
}


@dataclass(frozen=True)
class Cause:
    """What a ledger entry names as its cause."""

    at: datetime
    rule: str
    note: str
    source: str
    message_pk: int | None

    def entry_fields(self) -> dict[str, Any]:
        """The ledger's keywords for this cause (``ledger.record`` and its entity form)."""
        return {
            "occurred_at": self.at,
            "source": self.source,
            "rule": self.rule,
            "note": self.note,
            "message_pk": self.message_pk,
        }


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
    _check_can_pay("you hold", ledger.balance(session, player_id, currency), amount, currency, rule)
    cause = Cause(at, rule, note, source, message_pk)
    _record_change(session, player_id, currency, -amount, cause)


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
    # A negative ``amount`` loses nothing and records nothing; it is returned as given.
    cause = Cause(at, rule, note, source, message_pk)
    _record_change(session, player_id, currency, -max(lost, 0), cause)
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
    _record_change(session, player_id, currency, change, Cause(at, rule, note, source, message_pk))
    return change


def _check_can_pay(holder_holds: str, held: int, amount: int, currency: str, rule: str) -> None:
    """``IllegalActionError`` citing ``rule`` when ``held`` is less than ``amount``."""
    if held < amount:
        name = DISPLAY_NAMES.get(currency, currency)
        raise IllegalActionError(
            f"that costs {amount} {name}, and {holder_holds} {held}", rule=rule
        )


def _record(
    session: Session,
    player_id: int,
    currency: str,
    amount: int,
    cause: Cause,
    basin_nweek: int | None = None,
) -> None:
    ledger.record(
        session, player_id, currency, amount, basin_nweek=basin_nweek, **cause.entry_fields()
    )


def _record_change(
    session: Session, player_id: int, currency: str, change: int, cause: Cause
) -> bool:
    # A change of nothing is no ledger entry: the statement lists only what moved.
    if change:
        _record(session, player_id, currency, change, cause)
    return bool(change)


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


# -- holders that are no players (rule 21 A.2: "any game entity") ----------------


def gain_for_entity(
    session: Session,
    entity: str,
    currency: str,
    amount: int,
    *,
    at: datetime,
    rule: str,
    note: str,
    source: str = "post",
    message_pk: int | None = None,
) -> None:
    """The entity ``entity`` (the Store, ...) receives ``amount`` (> 0)."""
    if amount <= 0:
        raise ValueError(f"a gain is positive, not {amount}")
    _record_for_entity(session, entity, currency, amount, Cause(at, rule, note, source, message_pk))


def spend_for_entity(
    session: Session,
    entity: str,
    currency: str,
    amount: int,
    *,
    at: datetime,
    rule: str,
    note: str,
    source: str = "post",
    message_pk: int | None = None,
) -> None:
    """The entity pays ``amount`` (>= 0); ``IllegalActionError`` citing ``rule`` if it
    holds less."""
    if amount < 0:
        raise ValueError(f"a payment is not negative: {amount}")
    held = ledger.entity_balance(session, entity, currency)
    _check_can_pay(f"{entity} holds", held, amount, currency, rule)
    if amount:
        cause = Cause(at, rule, note, source, message_pk)
        _record_for_entity(session, entity, currency, -amount, cause)


def _record_for_entity(
    session: Session, entity: str, currency: str, amount: int, cause: Cause
) -> None:
    ledger.record_for_entity(session, entity, currency, amount, **cause.entry_fields())


# -- the Basin (rule 21 A.2) -----------------------------------------------------


@dataclass(frozen=True)
class BasinCreation:
    """What a grant without a source asked of the Basin, and what it created."""

    asked: int
    created: int
    nweek: int  # zero-based, as the Clock holds it

    @property
    def withheld(self) -> int:
        """What the cap kept the Basin from creating."""
        return self.asked - self.created

    def shortfall(self) -> str:
        """Why fewer were created, as a ruling says it after "rule 21 A.2: "; "" when all
        were."""
        if not self.withheld:
            return ""
        return (
            f"the Basin may create no more than {format_amount(TILDEX, BASIN_CAP)} each nweek"
            f" and had {format_amount(TILDEX, self.created)} left of nweek {self.nweek + 1}'s,"
            f" so {format_amount(TILDEX, self.withheld)} of the"
            f" {format_amount(TILDEX, self.asked)} were not created"
        )


def create_tildex(
    session: Session,
    player_id: int,
    amount: int,
    *,
    nweek: int,
    at: datetime,
    rule: str,
    note: str,
    source: str = "post",
    message_pk: int | None = None,
) -> BasinCreation:
    """``player_id`` receives ``amount`` (> 0) tildex that a rule gives without a source.

    Rule 21 A.2: "the Basin creates them and gives them to the Player", but
    "under no circumstances may it create more than 10000 Tildex each
    nweek": the grant is cut to what is left of ``nweek``'s 10000~ (perhaps
    nothing), and the result says what was not created.
    """
    if amount <= 0:
        raise ValueError(f"a gain is positive, not {amount}")
    return _create(session, player_id, amount, nweek, Cause(at, rule, note, source, message_pk))


def _create(
    session: Session, player_id: int, amount: int, nweek: int, cause: Cause
) -> BasinCreation:
    room = max(BASIN_CAP - ledger.basin_created(session, nweek), 0)
    created = BasinCreation(amount, min(amount, room), nweek)
    if created.created:
        _record(session, player_id, TILDEX, created.created, cause, basin_nweek=nweek)
    return created


@dataclass(frozen=True)
class StatementLine:
    """One ledger entry as a player's statement shows it."""

    at: datetime
    currency: str
    amount: int
    rule: str
    note: str
    source: str
    message_id: str | None  # the post that caused it, if a post did


@dataclass(frozen=True)
class Statement:
    """What one player holds, and the latest changes with their causes."""

    player: str
    balances: tuple[tuple[str, int], ...]  # (currency, amount), in display order
    latest: tuple[StatementLine, ...]  # newest last


def enter_game(
    session: Session,
    player_id: int,
    bandwidth: int,
    *,
    at: datetime,
    message_pk: int | None,
    nweek: int,
) -> BasinCreation:
    """What a player receives on entering the game (rules 14, 21 A.2 and 212).

    ``bandwidth`` is the rule 212 figure the caller worked out: 4BW, or 0BW
    for one who was a player earlier in the same nweek.  The 500~ come from
    the Basin (``create_tildex``, in ``nweek``): what it created is returned.
    """
    cause = Cause(at, "21 A.2", "entering the game", "post", message_pk)
    welcome = replace(cause, rule="14", note="the Welcome Point")
    _record(session, player_id, POINTS, WELCOME_POINTS, welcome)
    created = _create(session, player_id, ENTRY_TILDEX, nweek, cause)
    change = bandwidth - ledger.balance(session, player_id, BANDWIDTH)
    _record_change(session, player_id, BANDWIDTH, change, replace(cause, rule="212"))
    return created


def strip_holdings(
    session: Session, player_id: int, *, at: datetime, message_pk: int | None
) -> int:
    """Rule 14: one who ceases to be a player loses everything e holds; returns entries made.

    Tildex lost without a destination go back to the Basin (rule 21 A.2).
    """
    cause = Cause(at, "14", "ceasing to be a player", "post", message_pk)
    made = 0
    for currency, amount in balances(session, player_id):
        made += _record_change(session, player_id, currency, -amount, cause)
    return made


def balances(session: Session, player_id: int) -> tuple[tuple[str, int], ...]:
    """Every balance of ``player_id``: the usual three, then any other with entries."""
    return ordered_balances(ledger.player_currencies(session, player_id))


def ordered_balances(sums: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """``sums`` (currency -> balance) as ``balances`` shows them: the usual three, then the rest."""
    held = {**dict.fromkeys(STATEMENT_CURRENCIES, 0), **sums}
    return tuple(sorted(held.items(), key=lambda item: _display_order(item[0])))


def statement(session: Session, player_id: int, name: str, last: int = 10) -> Statement:
    """``name``'s balances and eir ``last`` ledger entries with their causes."""
    rows = session.execute(
        select(LedgerEntry, Message.message_id)
        .outerjoin(Message, Message.id == LedgerEntry.message_pk)
        .where(LedgerEntry.player_id == player_id)
        .order_by(LedgerEntry.id.desc())
        .limit(last)
    ).all()
    latest = [
        StatementLine(
            entry.occurred_at,
            entry.currency,
            entry.amount,
            entry.rule,
            entry.note,
            entry.source,
            message_id,
        )
        for entry, message_id in reversed(rows)
    ]
    return Statement(name, balances(session, player_id), tuple(latest))


def currency_label(currency: str) -> str:
    """How a currency is named in words: "BW", "Temporary Honor", ..."""
    if currency.startswith("renown:"):
        _, category, kind = currency.split(":")
        return f"{kind.capitalize()} {category}"
    return DISPLAY_NAMES.get(currency, currency)


def format_amount(currency: str, amount: int) -> str:
    """An amount as the rules write it: "500~" (21 A.2), "4BW" (212), "3 points"."""
    if currency == TILDEX:
        return f"{amount}~"
    if currency == BANDWIDTH:
        return f"{amount}BW"
    if currency == POINTS and abs(amount) == 1:
        return f"{amount} point"
    return f"{amount} {currency_label(currency)}"


def render_statement(held: Statement) -> str:
    """A player's statement as text: the balances, then the latest entries."""
    lines = [f"{held.player} holds: " + ", ".join(format_amount(c, a) for c, a in held.balances)]
    lines.append("")
    lines.append(
        f"The last {len(held.latest)} change(s), oldest first:"
        if held.latest
        else "No changes recorded yet."
    )
    lines.extend(_statement_line(line) for line in held.latest)
    return "\n".join(lines) + "\n"


def render_holdings(
    table: Sequence[tuple[str, tuple[tuple[str, int], ...]]],
    entities: Sequence[tuple[str, tuple[tuple[str, int], ...]]] = (),
    basin: BasinCount | None = None,
) -> str:
    """The Twiddler's display (rule 21 A.2): one line per player with every balance, then
    one per entity that holds any (the Store, ...), then what the Basin created."""
    lines = [
        f"{name}: " + ", ".join(format_amount(currency, amount) for currency, amount in held)
        for name, held in (*table, *entities)
    ]
    if basin is not None and basin.created:
        lines.append(basin.line())
    return "\n".join(lines) + "\n" if lines else "nobody holds anything yet\n"


@dataclass(frozen=True)
class BasinCount:
    """What the Basin has created in one nweek, against its cap (rule 21 A.2)."""

    nweek: int  # zero-based, as the Clock holds it
    created: int

    def line(self) -> str:
        created, cap = (format_amount(TILDEX, amount) for amount in (self.created, BASIN_CAP))
        return f"{BASIN}: created {created} of its {cap} in nweek {self.nweek + 1} (rule 21 A.2)"

    def to_json(self) -> dict[str, int]:
        return {"created": self.created, "cap": BASIN_CAP, "nweek": self.nweek + 1}


def basin_count(session: Session, nweek: int) -> BasinCount:
    """What the Basin created in ``nweek``: one indexed sum."""
    return BasinCount(nweek, ledger.basin_created(session, nweek))


def basin_count_at(session: Session, clock: GameClock, at: datetime) -> BasinCount:
    """What the Basin created in the nweek of the instant ``at`` (rule 3 A's Clock).

    Before the epoch the Clock has no reading: a display then shows the
    first nweek's, the nweek a post made before the epoch is judged in.
    """
    return basin_count(session, clock.reading(max(at, clock.epoch)).nweek)


def entity_table(session: Session) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """Every entity that holds anything, with its balances in display order."""
    return tuple(
        (entity, tuple(sorted(held.items(), key=lambda item: _display_order(item[0]))))
        for entity, held in ledger.entity_holdings(session).items()
    )


def _statement_line(line: StatementLine) -> str:
    signed = f"{'+' if line.amount > 0 else ''}{format_amount(line.currency, line.amount)}"
    cause = f"rule {line.rule}" if line.rule else line.source
    where = f" <{line.message_id}>" if line.message_id else f" ({line.source})"
    note = f", {line.note}" if line.note else ""
    return f"  {line.at:%Y-%m-%d %H:%M} UTC  {signed:<18} {cause}{note}{where}"


def _display_order(currency: str) -> tuple[int, str]:
    known = (*STATEMENT_CURRENCIES, GO_POINTS, MACKS)
    return (known.index(currency), "") if currency in known else (len(known), currency)
