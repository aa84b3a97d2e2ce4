"""Life's Evolve on the bot's own schedule (seed 000 "Life"; rule 25 of seed 004).

Life's Referee performs Evolve once per nweek.  With ``[field_matches]
auto_evolve`` the bot does it as the Referee at the start of every nweek:
a Turn of the Field whose one request is the Referee's Evolve, with its
draws (Teams for players without one) taken in the context
``nweek-N-field-evolve`` from the new nweek's committed seed, and a report
to the list carrying the Turn's record, the board and the draws.

Readings: the scheduled Evolve waits for Initialize (before it, Life has no
Cells and Evolve would only hand out Teams that Initialize redraws), and it
is skipped when the Referee already performed Evolve in that nweek.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.engine.games.field import FieldGame, referee_turn
from bot.games.field import actions_performed, objects_of_kind
from bot.games.field.life.rules import CELL, EVOLVE

if TYPE_CHECKING:
    from bot.engine.services import Services

LIFE_RULES_NAME = "life"


def evolve_at_nweek_start(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """The timed handler: Life's Evolve at each nweek start in ``(after, until]``.

    ``auto_evolve`` and the Referee are the ones in force at that start: a
    setting changed from an instant on (``bot.engine.rule_changes``).
    """
    for change in services.clock.nweek_changes_between(after, until):
        in_force = services.at(change.instant)
        if not in_force.settings.field_matches.auto_evolve:
            continue
        if _evolve_is_due(session, in_force, change.begun):
            referee_turn(
                session,
                in_force,
                "field.evolve",
                change.instant,
                context_id=f"nweek-{change.begun}-field-evolve",
            )


def _evolve_is_due(session: Session, services: Services, nweek: int) -> bool:
    state = FieldGame(session, services).state
    if state.match is None or state.match.rules != LIFE_RULES_NAME:
        return False
    if not objects_of_kind(state, CELL):
        return False  # not initialized yet
    # Field histories count nweeks as displayed (one-based).
    return not actions_performed(state, EVOLVE, nweek=nweek + 1)
