"""The Gardens' timed events, in rule 3 C's order.

At a Checkpoint (rule 3 A), rule 1902 A settles each Garden's watering and
trims it to 10 Plants; at the beginning of each nweek (itself a Checkpoint)
rule 1902 B has every Plant that existed during the preceding nweek bear its
Fruit; one nweek after a Tomato's creation it becomes Rotten, and falls and
is planted if still on its Vine (1908 B.1); a Thorn Seed on its Bush for more
than an nweek is eaten by squirrels (1909).  Rule 3 C runs the events of one
instant in rule precedence: the three rules have Chutzpah 1 (rule 33), so
1902, then 1908, then 1909; rule 1902's own events in the order of its text.
The Gardens' events all fall on Checkpoints: Tomatoes and Thorn Seeds are
created at nweek starts, so their timers end on nweek starts too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from bot.games.dice import DrawSource
from bot.games.economy import (
    Handler,
    Happening,
    Moment,
    TimedEvent,
    Timer,
    in_rule_order,
    run_events,
)
from bot.games.garden.actions import Outcome
from bot.games.garden.invariants import INVARIANTS
from bot.games.garden.plants import PLANT_TYPES, THORN_BUSH, THORN_SEED, TOMATO, VINE, GardenKey
from bot.games.garden.rules import (
    FRUIT_TIMER_NDAYS,
    GARDENING,
    MAXIMUM_PLANTS,
    RULE_FRUITS,
    RULE_GARDENS,
    RULE_THORNS,
    RULE_TOMATOES,
    THORNS,
    TOMATOES,
)
from bot.games.garden.state import GardenState
from bot.games.garden.texts import garden_name, owner_name

WATERING = "watering"  # 1902 A, first paragraph's end
TRIMMING = "trimming"  # 1902 A, "more than 10 Plants"
FRUITING = "fruiting"  # 1902 B
ROTTING = "rotting"  # 1908 B.1
SQUIRRELS = "squirrels"  # 1909

Events = tuple[GardenState, tuple[Happening, ...]]


def events_at(state: GardenState, at: Moment) -> tuple[TimedEvent, ...]:
    """Every event the Gardens' rules fix at ``at``, in rule 3 C's order."""
    events: list[TimedEvent] = []
    if at.is_checkpoint:
        events.append(TimedEvent(at, GARDENING, WATERING, section=1))
        events.append(TimedEvent(at, GARDENING, TRIMMING, section=2))
    if at.is_nweek_start:
        events.append(TimedEvent(at, GARDENING, FRUITING, section=3))
    for fruit in state.fruits:
        timer = Timer(fruit.created, FRUIT_TIMER_NDAYS)
        if fruit.kind == TOMATO.name and not fruit.rotten and timer.is_due(at):
            events.append(TimedEvent(at, TOMATOES, ROTTING, subject=fruit.number))
        # 1909: "more than an nweek" on the Bush: at the nweek start that ends its
        # nweek there, after that instant's other events (docs/readings.md).
        if fruit.kind == THORN_SEED.name and fruit.plant is not None and timer.is_due(at):
            events.append(TimedEvent(at, THORNS, SQUIRRELS, subject=fruit.number))
    return in_rule_order(events)


def run_timed(
    state: GardenState,
    at: Moment,
    draws: DrawSource,
    order: Callable[[Iterable[TimedEvent]], tuple[TimedEvent, ...]] = in_rule_order,
) -> Outcome:
    """Every event due at ``at``, run in ``order`` (rule 3 C's unless a test says otherwise),
    with the invariants restored after each; ties are drawn from ``draws``.  Records that
    ended by ``at`` are forgotten first."""
    state = state.without_expired(at)
    events = order(events_at(state, at))
    state, happenings = run_events(state, events, HANDLERS, INVARIANTS, draws)
    return Outcome(state, happenings)


# -- rule 1902 A ---------------------------------------------------------------


def settle_watering(state: GardenState, event: TimedEvent, draws: DrawSource) -> Events:
    """Rule 1902 A: "At the end of each Checking Period, if the amount of tildex paid for
    watering a garden is less than the Gardening Cost of that Garden, the Plant in that
    Garden with the largest Watering Cost (ties settled at random) is destroyed, and this
    process is repeated" until the payment covers the cost (docs/readings.md)."""
    ended = event.at.checking_period.index - 1
    happenings: list[Happening] = []
    if ended < 0:
        return state, ()  # the Clock's first instant ends no Checking Period
    for garden in state.players:
        paid = state.paid_for(garden, ended)
        while paid < (state.gardening_cost(garden) or 0):
            cost = state.gardening_cost(garden)
            why = f"{garden_name(garden)}: {paid}~ paid for watering, Gardening Cost {cost}~"
            state, lost = _destroy_costliest(state, garden, draws, why)
            happenings.append(Happening(RULE_GARDENS, f"{why}: {lost} is destroyed"))
    return state, tuple(happenings)


def trim_gardens(state: GardenState, event: TimedEvent, draws: DrawSource) -> Events:
    """Rule 1902 A: "If, at the end of a Checking Period, a Garden has more than 10 Plants
    in it, the one with the largest watering and weeding cost (ties settled at random) is
    destroyed" until at most 10 remain; the Town Square too."""
    happenings: list[Happening] = []
    for garden in state.gardens():
        # 1918 B: "With regards to limits on the number of plants in a garden, a Lemon
        # Tree takes up the space of two plants": the cap counts places.
        while state.places_in(garden) > MAXIMUM_PLANTS:
            why = f"{garden_name(garden)}: {_plants_counted(state, garden)}"
            state, lost = _destroy_costliest(state, garden, draws, why)
            happenings.append(Happening(RULE_GARDENS, f"{why}: {lost} is destroyed"))
    return state, tuple(happenings)


def _plants_counted(state: GardenState, garden: GardenKey) -> str:
    """ "11 Plants, more than 10", or with Lemon Trees "10 Plants taking 11 places, ..."."""
    count, places = len(state.plants_in(garden)), state.places_in(garden)
    taking = "" if places == count else f" taking {places} places"
    return f"{count} Plants{taking}, more than {MAXIMUM_PLANTS}"


def _destroy_costliest(
    state: GardenState, garden: GardenKey, draws: DrawSource, why: str
) -> tuple[GardenState, str]:
    """The Plant of ``garden`` with the largest Watering Cost destroyed, ties drawn."""
    plants = state.plants_in(garden)
    largest = max(plant.watering_cost for plant in plants)
    tied = [plant for plant in plants if plant.watering_cost == largest]
    labels = [plant.label() for plant in tied]
    purpose = f"rule 1902 A: {why}, which of the costliest is destroyed"
    chosen = tied[0] if len(tied) == 1 else tied[labels.index(draws.choice(labels, purpose))]
    fruit = state.fruit_on(chosen.number)
    lost = chosen.label() + "".join(f", with {f.label()}" for f in fruit)
    return state.without_objects((chosen.number,)), lost


# -- rule 1902 B -----------------------------------------------------------------


def bear_fruit(state: GardenState, event: TimedEvent, draws: DrawSource) -> Events:
    """Rule 1902 B: "At the beginning of each nweek, every Plant that existed during the
    preceding nweek creates one Fruit of each type of Fruit associated with that Plants";
    a Thorn Bush two (1909)."""
    happenings: list[Happening] = []
    for plant in state.plants:
        if plant.planted >= event.at:
            continue  # planted at this very instant: it did not exist in the preceding nweek
        kind = PLANT_TYPES[plant.kind]
        if not kind.fruit_per_nweek:
            continue  # 1918 C: "Sasquash Pods are Plants with no Fruit"
        state = state.with_fruit_on(plant, kind.fruit, kind.fruit_per_nweek, event.at)
        made = ", ".join(
            str(n) for n in range(state.next_number - kind.fruit_per_nweek, state.next_number)
        )
        plural = kind.fruit if kind.fruit_per_nweek == 1 else f"{kind.fruit}s"
        happenings.append(
            Happening(
                RULE_FRUITS, f"{plant.label()} in {garden_name(plant.garden)} bears {plural} {made}"
            )
        )
    return state, tuple(happenings)


# -- rules 1908 B.1 and 1909 -----------------------------------------------------------


def rot(state: GardenState, event: TimedEvent, draws: DrawSource) -> Events:
    """Rule 1908 B.1: "One nweek after a Tomato's creation, it becomes Rotten [...]  If a
    Tomato becomes Rotten while on a Vine, it falls off the Vine and is planted in the
    Garden the Vine was in."  A Tomato destroyed since the events were listed is skipped."""
    if not state.has_object(event.subject):
        return state, ()
    tomato = state.fruit(event.subject)
    if tomato.plant is None or state.plant(tomato.plant).kind != VINE.name:
        # Only "while on a Vine" does it fall: held, or on a Plant a Waterspout Concoction
        # turned (rule 1915), it rots where it is.
        where = (
            f"held by {tomato.holder}"
            if tomato.plant is None
            else f"on {state.plant(tomato.plant).label()}"
        )
        state = state.with_fruit(replace(tomato, rotten=True))
        return state, (Happening(RULE_TOMATOES, f"{tomato.label()}, {where}, becomes Rotten"),)
    garden = state.garden_of(tomato)
    state = state.without_objects((tomato.number,)).with_plants((("Vine", garden),), event.at)
    text = (
        f"{tomato.label()} becomes Rotten, falls off its Vine and is planted in "
        f"{garden_name(garden)}: a new Vine, Plant {state.next_number - 1}, "
        f"owned by {owner_name(garden)}"
    )
    return state, (Happening(RULE_TOMATOES, text),)


def eaten_by_squirrels(state: GardenState, event: TimedEvent, draws: DrawSource) -> Events:
    """Rule 1909: "If a Thorn Seed stays on a Thorn Bush for more than an nweek, it is
    eaten by squirrels and destroyed"; a Seed picked or destroyed since is skipped."""
    if not state.has_object(event.subject):
        return state, ()
    seed = state.fruit(event.subject)
    bush = seed.plant
    if bush is None or state.plant(bush).kind != THORN_BUSH.name:
        return state, ()  # picked, or on a Plant a Concoction turned (1915): on no Thorn Bush
    garden = state.garden_of(seed)
    state = state.without_objects((seed.number,))
    return state, (
        Happening(RULE_THORNS, f"{seed.label()} in {garden_name(garden)} is eaten by squirrels"),
    )


HANDLERS: dict[str, Handler[GardenState]] = {
    WATERING: settle_watering,
    TRIMMING: trim_gardens,
    FRUITING: bear_fruit,
    ROTTING: rot,
    SQUIRRELS: eaten_by_squirrels,
}
