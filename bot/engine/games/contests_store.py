"""The contests' stored state, settings and points (A Nomic rules 336-343, seed 002).

Shared by the adapter and timed events (``bot.engine.games.contests``) and
the records of private answers (``bot.engine.games.contests_records``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import holdings
from bot.engine.holdings import POINTS
from bot.engine.players import find_player_by_name
from bot.games.contests.rules import (
    DEFINITIONS,
    Contest,
    ContestDefinition,
)
from bot.games.contests.serialize import state_from_json, state_to_json
from bot.games.contests.state import (
    ContestsState,
    new_state,
)
from bot.games.contests.transfers import Transfer
from bot.games.errors import ActionError
from bot.store.models import GameRecord

if TYPE_CHECKING:
    from bot.engine.services import Services
NAME = "contests"
SEED = "002"
ANSWER = "contests.answer"


@dataclass(frozen=True)
class ContestsSettings:
    """The ``[contests]`` section."""

    # The first Contestmasters the rules name (337, 339) were players of A
    # Nomic in 2001; a nomic playing these rules names its own.
    similarity_contestmaster: str = "Benjamin"
    poetry_contestmaster: str = "M'cachessilnath"
    # Each challenge's period of duration, in hours (docs/readings.md, 336).
    similarity_period_hours: int = 7 * 24
    poetry_period_hours: int = 7 * 24
    mediocrity_period_hours: int = 3 * 24  # 343: "three days"
    # 336: "like 2 days at most"; the reminder is mailed then.
    judging_reminder_hours: int = 48
    # The largest Mediocrity game (z^x challenges) this referee plays.
    mediocrity_most_challenges: int = 64


def settings_of(services: Services) -> ContestsSettings:
    return services.settings.section(NAME, ContestsSettings)


def definitions(services: Services) -> dict[Contest, ContestDefinition]:
    """The contests as this nomic plays them: the rules' attributes with its settings."""
    settings = settings_of(services)
    hours = {
        Contest.SIMILARITY: settings.similarity_period_hours,
        Contest.POETRY: settings.poetry_period_hours,
        Contest.MEDIOCRITY: settings.mediocrity_period_hours,
    }
    masters = {
        Contest.SIMILARITY: settings.similarity_contestmaster,
        Contest.POETRY: settings.poetry_contestmaster,
    }
    made = {}
    for contest, definition in DEFINITIONS.items():
        definition = definition.with_period(timedelta(hours=hours[contest]))
        if contest in masters:
            definition = definition.with_first_contestmaster(masters[contest])
        made[contest] = definition
    return made


# -- the stored state ------------------------------------------------------------------------


def load_record(session: Session, services: Services) -> GameRecord:
    record = session.scalar(select(GameRecord).where(GameRecord.name == NAME))
    if record is None:
        first = {
            contest: definition.first_contestmaster or None
            for contest, definition in definitions(services).items()
        }
        record = GameRecord(name=NAME, state=state_to_json(new_state(first)), version=0)
        session.add(record)
    return record


def load_state(session: Session, services: Services) -> ContestsState:
    return state_from_json(load_record(session, services).state)


def save_state(session: Session, services: Services, state: ContestsState) -> None:
    record = load_record(session, services)
    record.state = state_to_json(state)
    record.version += 1


# -- points ----------------------------------------------------------------------------------


def carry_out(
    session: Session,
    transfers: Sequence[Transfer],
    at: datetime,
    source: str,
    message_pk: int | None,
) -> tuple[str, ...]:
    """Move the points of ``transfers`` in the ledger; what was said of each.

    An entry fee is paid in full or refused (``IllegalActionError``: the
    answer is not submitted, docs/readings.md).  A refund or a prize is paid
    from what the payer holds (never below zero, rule 21 A.1).
    """
    said = []
    for transfer in transfers:
        cause = holdings.Cause(at, transfer.rule, transfer.note, source, message_pk)
        paid = _take(session, transfer, cause)
        if transfer.payee is not None and paid > 0:
            try:
                payee = find_player_by_name(session, transfer.payee).id
            except ActionError:
                said.append(f"{transfer.describe()}: {transfer.payee} is no player (rule 14)")
                continue
            holdings.gain(
                session,
                payee,
                POINTS,
                paid,
                at=at,
                rule=cause.rule,
                note=cause.note,
                source=source,
                message_pk=message_pk,
            )
        short = "" if paid == transfer.amount else f" ({paid} paid: all the payer held)"
        said.append(transfer.describe() + short)
    return tuple(said)


def _take(session: Session, transfer: Transfer, cause: holdings.Cause) -> int:
    """Take the points from the payer (a player, or a game's collection); how many."""
    if transfer.payer is None:
        return transfer.amount
    try:
        payer = find_player_by_name(session, transfer.payer).id
    except ActionError:
        if transfer.entry_fee:
            raise
        return 0  # the payer has forfeited: a Lost Soul holds nothing (rule 14)
    if transfer.entry_fee:
        holdings.spend(
            session,
            payer,
            POINTS,
            transfer.amount,
            at=cause.at,
            rule=cause.rule,
            note=cause.note,
            source=cause.source,
            message_pk=cause.message_pk,
        )
        return transfer.amount
    return holdings.lose(
        session,
        payer,
        POINTS,
        transfer.amount,
        at=cause.at,
        rule=cause.rule,
        note=cause.note,
        source=cause.source,
        message_pk=cause.message_pk,
    )
