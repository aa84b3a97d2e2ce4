"""The Gardens' timed settlements, view, digest section and renames (seed 004).

At every Checkpoint (rule 3 A) the pure rules run the events of that
instant in rule 3 C's order (``bot.games.garden.timed``): rule 1902 A's
watering settlement and 10-Plant cap, at an nweek's start 1902 B's Fruit,
then 1908 B.1's rot and fall and 1909's squirrels, with rule 1909's Thorn
Bush restored after each.  Ties are drawn from the nweek's seed (rule 9)
under the context ``garden-<nday count>@<bot domain>``; the report mailed
to the list prints each draw's ``draw-v1`` proof line, which ``nomicbot
verify-dice`` re-derives once the seed is revealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.engine.game import DigestSection, rule
from bot.engine.games.garden_clock import moment_of
from bot.engine.games.garden_state import StoredGardens
from bot.engine.players import all_players
from bot.engine.renames import rename_in_json
from bot.engine.rulings import Turn
from bot.engine.scheduler import open_nweek
from bot.engine.views import View
from bot.games import dice, ntime
from bot.games import garden as rules
from bot.games.economy import Happening, Moment, draw_proofs
from bot.games.garden.beginning import start_with_vines
from bot.games.garden.buying import THORN_SEED_PRICE
from bot.outbound.compose import compose_report
from bot.store.models import DiceSeed

if TYPE_CHECKING:
    from bot.engine.services import Services

NAME = "garden"
GARDENING = rule(1902)  # the first of the three rules whose events fall at a Checkpoint
MINISTRY = "Ministry of Forking Paths"  # rule 625 D.4: Chauncey keeps the display


@dataclass(frozen=True)
class GardenSettings:
    """The ``[garden]`` section."""

    thorn_seed_price: int = THORN_SEED_PRICE  # rule 1911: "Thorn Seeds: 130~"
    # Vines in the Town Square when the game starts: no rule creates the first
    # Vine (Tomatoes come only from Vines, Vines only from Rotten Tomatoes), so a
    # game that is to have Tomatoes starts with some (docs/readings.md).
    town_square_vines: int = 0


def synced(
    session: Session, services: Services, stored: StoredGardens, at: Moment
) -> tuple[rules.GardenState, tuple[Happening, ...]]:
    """The stored Gardens with one for every player (rule 1902 A: "Each player has a
    Garden"); the first time, the game's start with its Thorn Bush (1909)."""
    names = tuple(player.name for player in all_players(session))
    state = stored.load(session)
    if state is None:
        vines = services.settings.section(NAME, GardenSettings).town_square_vines
        outcome = start_with_vines(names, at, vines)
        return outcome.state, outcome.happenings
    for name in names:
        state = state.with_player(name)
    return state, ()


# -- the Checkpoints -------------------------------------------------------------------------


def run_checkpoints(session: Session, services: Services, after: datetime, until: datetime) -> None:
    """Every Checkpoint in ``(after, until]``: its events in rule 3 C's order, and a report."""
    for point in services.clock.checkpoints_between(after, until):
        settle(session, services, point.instant, Moment(point.reading.ndays))


def checkpoint_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """The next Checkpoint: at each one the watering of every Garden is settled (1902 A)."""
    point = ntime.next_checkpoint(services.clock.config, after)
    return None if point is None else point.instant


def settle(session: Session, services: Services, instant: datetime, at: Moment) -> None:
    stored = StoredGardens()
    state, started = synced(session, services, stored, at)
    nweek = services.clock.reading(instant).nweek
    source = draw_source(session, services, nweek, f"garden-{at.ndays}@", instant)
    outcome = rules.run_timed(state, at, source)
    stored.save(session, outcome.state)
    happenings = (*started, *outcome.happenings)
    if not happenings:
        return
    proofs = draw_proofs(nweek, source.context_id, source.draws)
    session.add(
        compose_report(
            services,
            "garden-checkpoint",
            str(at.ndays),
            f"[gardens] The Checkpoint of {at.display()}",
            f"{NAME}/checkpoint.txt.j2",
            {
                "when": at.display(),
                "nweek_start": at.is_nweek_start,
                "happenings": [f"{h.text} (rule {h.rule})" for h in happenings],
                "draws": proofs,
                "display": rules.render_gardens(outcome.state, at),
            },
            instant,
        )
    )


def draw_source(
    session: Session, services: Services, nweek: int, context: str, at: datetime
) -> dice.DrawSource:
    """Draws from ``nweek``'s seed (rule 9), its commitment published first if need be;
    a ``context`` ending in "@" gets the bot's domain."""
    if session.get(DiceSeed, nweek) is None:
        open_nweek(session, services, nweek, at)
    if context.endswith("@"):
        context += services.settings.bot_domain
    return dice.DrawSource(dice.nweek_seed(services.master_secret, nweek), context)


def turn_draws(session: Session, services: Services, turn: Turn) -> dice.DrawSource:
    """The draws of one action: its post and position, as every game's per-action draws."""
    context = f"{turn.message_id}#{turn.position}"
    return draw_source(session, services, turn.nweek, context, turn.occurred_at)


# -- the view, the digest and renames --------------------------------------------------------


def _stored_state(session: Session) -> rules.GardenState:
    return StoredGardens().load(session) or rules.GardenState()


def garden_view(session: Session, services: Services, at: datetime | None = None) -> View:
    """Chauncey's display (rule 625 D.4): public information only, as the list sees it."""
    state = _stored_state(session)
    moment = moment_of(services, at or datetime.now(UTC))
    return View(rules.render_gardens(state, moment), rules.state_to_json(state))


def garden_sections(
    session: Session, services: Services, at: datetime
) -> tuple[DigestSection, ...]:
    """Rule 625 D.4: the Minister of Forking Paths maintains the display of the Gardens."""
    text = rules.render_gardens(_stored_state(session), moment_of(services, at))
    return (
        DigestSection(
            MINISTRY, "Gardens, Plants and Fruit (rule 625 D.4)", tuple(text.splitlines())
        ),
    )


def rename_in_gardens(session: Session, services: Services, old: str, new: str) -> tuple[str, ...]:
    """Rule 151: every Garden, Fruit, record and permission naming ``old`` names ``new``."""
    stored = StoredGardens()
    state = stored.load(session)
    if state is None:
        return ()
    renamed = renamed_state(state, old, new)
    if renamed is None:
        return ()
    stored.save(session, renamed)
    return (NAME,)


def renamed_state(state: rules.GardenState, old: str, new: str) -> rules.GardenState | None:
    """``state`` with every player's name ``old`` written ``new`` (None when none is)."""
    renamed = rename_in_json(rules.state_to_json(state), old, new, frozenset({"format"}))
    return None if renamed is None else rules.state_from_json(renamed)
