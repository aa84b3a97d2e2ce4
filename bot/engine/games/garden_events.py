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

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.engine import holdings, ledger
from bot.engine.game import DigestSection, rule
from bot.engine.games.garden_clock import instant_of, moment_of
from bot.engine.games.garden_economy import StoredEconomy, stored_timers
from bot.engine.players import all_players
from bot.engine.renames import rename_in_json
from bot.engine.rulings import Turn
from bot.engine.scheduler import open_nweek
from bot.engine.views import View
from bot.games import dice, drinks, ntime, store
from bot.games import garden as rules
from bot.games.economy import Happening, Moment, draw_proofs
from bot.games.garden.beginning import start_with_vines
from bot.games.garden.buying import THORN_SEED_PRICE
from bot.games.garden_economy import Economy, next_timer, run_timed
from bot.games.store import StoreState, set_price
from bot.games.store.inventory import THORN_SEED
from bot.games.store.rules import STORE_HOLDER
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
    # Rule 1918 (More Plants) kept in this game.  Off by default: its Blood Fern
    # invariant (1918 A) puts a Blood Fern in the Town Square, which changes every
    # Garden.  A setting, not a row: a game that turns it on gets its Blood Fern
    # when the invariant is next restored, after its next action or event.
    more_plants: bool = False


def store_of(services: Services) -> StoreState:
    """The Store with its Inventory at the prices the ``[garden]`` section sets (1911)."""
    price = services.settings.section(NAME, GardenSettings).thorn_seed_price
    store = StoreState()
    if price != THORN_SEED_PRICE:
        store, _ = set_price(store, THORN_SEED.name, price, "the [garden] settings")
    return store


def more_plants_of(services: Services) -> bool:
    """Whether the ``[garden]`` section keeps rule 1918 (More Plants)."""
    return services.settings.section(NAME, GardenSettings).more_plants


def with_rule_1918(economy: Economy, services: Services) -> Economy:
    """``economy`` keeping rule 1918 as the settings say (the rows do not store it)."""
    return economy.with_garden(replace(economy.garden, more_plants=more_plants_of(services)))


def synced(
    session: Session, services: Services, stored: StoredEconomy, at: Moment
) -> tuple[Economy, tuple[Happening, ...]]:
    """The stored Gardens, Drinks and Store with a Garden for every player (rule 1902 A:
    "Each player has a Garden"); the first time, the game's start with its Thorn Bush (1909)."""
    names = tuple(player.name for player in all_players(session))
    economy = stored.load(session, store_of(services))
    if economy is None:
        section = services.settings.section(NAME, GardenSettings)
        outcome = start_with_vines(
            names, at, section.town_square_vines, more_plants=section.more_plants
        )
        return Economy(store=store_of(services)).with_garden(outcome.state), outcome.happenings
    garden = with_rule_1918(economy, services).garden
    for name in names:
        garden = garden.with_player(name)
    return economy.with_garden(garden), ()


# -- the Checkpoints -------------------------------------------------------------------------


def run_checkpoints(session: Session, services: Services, after: datetime, until: datetime) -> None:
    """Every Checkpoint and timer (a Rainbow's end, a Hatching) in ``(after, until]``: its
    events in rule 3 C's order, and a report."""
    due = checkpoint_due(session, services, after)
    while due is not None and due <= until:
        settle(session, services, due, moment_of(services, due))
        due = checkpoint_due(session, services, due)


def checkpoint_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """The next Checkpoint (at each one the watering of every Garden is settled, 1902 A),
    or an earlier timer of the Drinks or the Store (1914 C.2, 1918 D)."""
    point = ntime.next_checkpoint(services.clock.config, after)
    instants = [] if point is None else [point.instant]
    timer = next_timer(stored_timers(session), moment_of(services, after))
    instant = None if timer is None else instant_of(services, timer)
    if instant is not None and instant > after:
        instants.append(instant)
    return min(instants, default=None)


def settle(session: Session, services: Services, instant: datetime, at: Moment) -> None:
    stored = StoredEconomy()
    economy, started = synced(session, services, stored, at)
    nweek = services.clock.reading(instant).nweek
    source = draw_source(session, services, nweek, f"garden-{at.ndays}@", instant)
    outcome = run_timed(economy, at, source)
    stored.save(session, outcome.state)
    happenings = (*started, *outcome.happenings)
    if not happenings:
        return
    proofs = draw_proofs(nweek, source.context_id, source.draws)
    session.add(
        compose_report(
            services,
            "garden-checkpoint",
            str(at.ndays) if at.is_checkpoint else f"{at.ndays}.{at.second}",
            f"[gardens] The Checkpoint of {at.display()}"
            if at.is_checkpoint
            else f"[gardens] The events of {at.display()}",
            f"{NAME}/checkpoint.txt.j2",
            {
                "when": at.display(),
                "checkpoint": at.is_checkpoint,
                # Rule 1913 (Chutzpah 3) runs before the Gardens' rules (Chutzpah 1).
                "sobering": any(h.rule == "1913" for h in outcome.happenings),
                "nweek_start": at.is_nweek_start,
                "happenings": [f"{h.text} (rule {h.rule})" for h in happenings],
                "draws": proofs,
                "display": economy_display(outcome.state, at),
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


def _stored_state(session: Session, services: Services) -> Economy:
    economy = StoredEconomy().load(session, store_of(services))
    return (
        Economy(store=store_of(services)) if economy is None else with_rule_1918(economy, services)
    )


def economy_display(economy: Economy, at: Moment) -> str:
    """Chauncey's display of the Gardens (625 D.4), then the Drinks and the Store's
    objects players hold, when there are any."""
    parts = [rules.render_gardens(economy.garden, at)]
    if economy.drinks.items or economy.drinks.bac:
        parts.append(drinks.render_drinks(economy.drinks, at))
    if economy.store.items:
        holders = dict.fromkeys(item.holder for item in economy.store.items)
        held = [store.render_held(economy.store, holder) for holder in holders]
        parts.append("The Store's objects players hold (rule 1911)\n\n" + "\n".join(held))
    return "\n\n".join(part.rstrip("\n") for part in parts) + "\n"


def garden_view(session: Session, services: Services, at: datetime | None = None) -> View:
    """Chauncey's display (rule 625 D.4): public information only, as the list sees it."""
    economy = _stored_state(session, services)
    moment = moment_of(services, at or datetime.now(UTC))
    return View(economy_display(economy, moment), rules.state_to_json(economy.garden))


def store_view(session: Session, services: Services, at: datetime | None = None) -> View:
    """The Store's Inventory and prices (rule 1911), and the tildex it holds."""
    economy = _stored_state(session, services)
    moment = moment_of(services, at or datetime.now(UTC))
    text = store.render_price_list(economy.store, moment).rstrip("\n")
    # Rule 1911: prices are given to the Store, whose tildex are the ledger's (21 A.2).
    till = ledger.entity_balance(session, STORE_HOLDER, holdings.TILDEX)
    text += f"\n\nThe Store holds {till}~ (rule 1911: prices are given to the Store).\n"
    return View(text, {"till": till, **store.state_to_json(economy.store)})


def garden_sections(
    session: Session, services: Services, at: datetime
) -> tuple[DigestSection, ...]:
    """Rule 625 D.4: the Minister of Forking Paths maintains the display of the Gardens."""
    text = economy_display(_stored_state(session, services), moment_of(services, at))
    return (
        DigestSection(
            MINISTRY, "Gardens, Plants and Fruit (rule 625 D.4)", tuple(text.splitlines())
        ),
    )


def rename_in_gardens(session: Session, services: Services, old: str, new: str) -> tuple[str, ...]:
    """Rule 151: every Garden, Fruit, object, record and permission naming ``old`` names
    ``new``."""
    stored = StoredEconomy()
    economy = stored.load(session, store_of(services))
    if economy is None:
        return ()
    renamed = renamed_state(economy, old, new)
    if renamed is None:
        return ()
    stored.save(session, renamed)
    return (NAME,)


def renamed_state(economy: Economy, old: str, new: str) -> Economy | None:
    """``economy`` with every player's name ``old`` written ``new`` (None when none is)."""
    keep = frozenset({"format"})
    garden = rename_in_json(rules.state_to_json(economy.garden), old, new, keep)
    drunk = rename_in_json(drinks.state_to_json(economy.drinks), old, new, keep)
    held = rename_in_json(store.state_to_json(economy.store), old, new, keep)
    if garden is None and drunk is None and held is None:
        return None
    renamed = economy
    if drunk is not None:
        renamed = replace(renamed, drinks=drinks.state_from_json(drunk))
    if held is not None:
        renamed = replace(renamed, store=store.state_from_json(held))
    if garden is not None:
        renamed = renamed.with_garden(rules.state_from_json(garden))
    return renamed
