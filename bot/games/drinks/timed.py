"""The Drinks' timed events, run with the Gardens' in one rule 3 C order.

Rule 1913: "At the end of each Checking Period, the BAC of each Player who
is not Sober is decremented by 1."  Rule 1914 C.2: "When you are no longer
Following the Rainbow, you find (get) a Pot of Gold."  Rule 1913 has
Chutzpah 3 (rule 33), so at a Checkpoint BAC falls before any of the
Gardens' events (Chutzpah 1: 1902, 1908, 1909), and a Rainbow ending at the
same instant comes after them (1914).  The Gardens' handlers and invariants
are lifted onto ``DrinksState``, so one run gives one order for all.  A
failed check's bar and a Potion's effects simply end (``Effect.ends``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from bot.games.dice import DrawSource
from bot.games.drinks.rules import ALCOHOL, POTIONS, RULE_ALCOHOL, RULE_RAINBOW_POTIONS
from bot.games.drinks.state import DrinksState, Outcome
from bot.games.economy import (
    Handler,
    Happening,
    Invariant,
    Moment,
    TimedEvent,
    in_rule_order,
    run_events,
)
from bot.games.garden import HANDLERS as GARDEN_HANDLERS
from bot.games.garden import GardenState
from bot.games.garden import events_at as garden_events_at
from bot.games.garden.invariants import INVARIANTS as GARDEN_INVARIANTS

SOBERING = "sobering"  # 1913
RAINBOW_ENDS = "rainbow ends"  # 1914 C.2
POT_OF_GOLD = "pot of gold found"  # a Happening's kind: Pots of Gold (1917) are kept elsewhere

Events = tuple[DrinksState, tuple[Happening, ...]]


def events_at(state: DrinksState, at: Moment) -> tuple[TimedEvent, ...]:
    """Every event the Gardens' and the Drinks' rules fix at ``at``, in rule 3 C's order."""
    events = list(garden_events_at(state.garden, at))
    if at.is_checkpoint and at.checking_period.index > 0:
        events.append(TimedEvent(at, ALCOHOL, SOBERING))
    for player in state.players:
        ending = _rainbow_ending(state, player, at)
        if ending:
            events.append(TimedEvent(at, POTIONS, RAINBOW_ENDS, subject=ending))
    return in_rule_order(events)


def _rainbow_ending(state: DrinksState, player: str, at: Moment) -> int:
    """The number of ``player``'s last Rainbow Potion when e stops Following the Rainbow
    by ``at`` (no walk of eirs goes on past it), or 0."""
    walks = [walk for walk in state.rainbow_walks if walk.player == player]
    if not walks or any(at < walk.ends for walk in walks):
        return 0
    return max(walks, key=lambda walk: (walk.ends, walk.potion)).potion


def timers(state: DrinksState) -> tuple[Moment, ...]:
    """The instants besides Checkpoints and the Gardens' own that events fall on (a
    Rainbow's end), for the caller to run ``run_timed`` at."""
    return tuple(sorted({walk.ends for walk in state.rainbow_walks}))


def run_timed(
    state: DrinksState,
    at: Moment,
    draws: DrawSource,
    order: Callable[[Iterable[TimedEvent]], tuple[TimedEvent, ...]] = in_rule_order,
) -> Outcome:
    """Every event due at ``at`` (the Gardens' included), in ``order``, with the Gardens'
    invariants restored after each; records that ended by ``at`` are forgotten first."""
    state = state.without_expired(at)
    events = order(events_at(state, at))
    state, happenings = run_events(state, events, HANDLERS, INVARIANTS, draws)
    return Outcome(state, happenings)


def sober_up(state: DrinksState, event: TimedEvent, draws: DrawSource) -> Events:
    """Rule 1913: every player not Sober has eir BAC decremented by 1."""
    happenings = []
    for player, bac in state.bac:
        state = state.with_bac(player, bac - 1)
        text = f"the Checking Period ended: {player}'s BAC falls from {bac} to {bac - 1}"
        happenings.append(Happening(RULE_ALCOHOL, text))
    return state, tuple(happenings)


def find_pots_of_gold(state: DrinksState, event: TimedEvent, draws: DrawSource) -> Events:
    """Rule 1914 C.2: a player no longer Following the Rainbow finds a Pot of Gold for
    each Rainbow Potion e drank (docs/readings.md); 1917 C keeps the Pots."""
    player = next(w.player for w in state.rainbow_walks if w.potion == event.subject)
    ended = [w for w in state.rainbow_walks if w.player == player and w.ends <= event.at]
    happenings = tuple(
        Happening(
            RULE_RAINBOW_POTIONS,
            f"{player} is no longer Following the Rainbow and finds (gets) a Pot of Gold "
            f"(Rainbow Potion {walk.potion})",
            POT_OF_GOLD,
        )
        for walk in ended
    )
    walks = tuple(w for w in state.rainbow_walks if w not in ended)
    return replace(state, rainbow_walks=walks), happenings


def _lift_handler(handler: Handler[GardenState]) -> Handler[DrinksState]:
    def lifted(state: DrinksState, event: TimedEvent, draws: DrawSource) -> Events:
        garden_state, happenings = handler(state.garden, event, draws)
        return replace(state, garden=garden_state), happenings

    return lifted


def _lift_invariant(invariant: Invariant[GardenState]) -> Invariant[DrinksState]:
    def lifted(state: DrinksState, at: Moment) -> Events:
        garden_state, happenings = invariant(state.garden, at)
        return replace(state, garden=garden_state), happenings

    return lifted


HANDLERS: dict[str, Handler[DrinksState]] = {
    **{kind: _lift_handler(handler) for kind, handler in GARDEN_HANDLERS.items()},
    SOBERING: sober_up,
    RAINBOW_ENDS: find_pots_of_gold,
}
INVARIANTS: tuple[Invariant[DrinksState], ...] = tuple(
    _lift_invariant(invariant) for invariant in GARDEN_INVARIANTS
)
