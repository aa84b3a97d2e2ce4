"""Rule 1918's objects that players hold: Huge Seeds (C, D) and Sasquashes (C).

Rule 1918 C: "Huge Seeds are Game Objects; a Huge Seed may be planted in any
Garden to create a Sasquash Pod in that Garden (doing so destroys the
seed)."  "One nweek after a Sasquash Pod becomes Mature, it Hatches,
destroying it and giving its owner a Sasquash.  If no player owns it, it is
simply destroyed."  Rule 1918 D: "Any player who has a Thorn Seed, a Lemon
Drink, and a Blood Spore Drink may mix the three together, destroying them
and creating a Huge Seed."

They touch both the Gardens (the Pod, the Thorn Seed) and the objects kept
here (the Huge Seed, the drinks, the Sasquash), so each function takes and
returns both.  The Hatching is a per-object timer; rule 3 C runs it after
the Gardens' own events of the same instant (1918 after 1902, 1908, 1909:
equal Chutzpah, higher number), so the engine runs ``bot.games.garden``'s
``run_timed`` first, then this one.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.dice import DrawSource
from bot.games.economy import (
    Conversion,
    Happening,
    Moment,
    PlayerKey,
    TimedEvent,
    convert,
    in_rule_order,
    restore_invariants,
    run_events,
)
from bot.games.errors import IllegalActionError
from bot.games.garden import THORN_SEED, GardenKey, GardenState
from bot.games.garden.invariants import INVARIANTS
from bot.games.garden.more_plants import check_more_plants, hatch, hatching_due, pods_hatching
from bot.games.garden.plants import SASQUASH_POD
from bot.games.garden.rules import RULE_ALCHEMY, RULE_SASQUASH
from bot.games.garden.texts import garden_name
from bot.games.store.inventory import BLOOD_SPORE_DRINK, HUGE_SEED, LEMON_DRINK, SASQUASH
from bot.games.store.rules import MORE_PLANTS
from bot.games.store.state import Item, Outcome, StoreState, check_holder, created

HATCHING = "hatching"  # 1918 C
_END_OF_TIME = Moment(2**62)  # later than any Pod's Hatching


def plant_huge_seed(
    store: StoreState, gardens: GardenState, player: PlayerKey, garden: GardenKey, at: Moment
) -> Outcome:
    """``player`` plants eir oldest Huge Seed in ``garden`` (any Garden): a Young Sasquash Pod.

    Raises ``IllegalActionError``.
    """
    check_more_plants(gardens)
    check_holder(gardens, player)
    gardens.check_garden(garden)
    seed = store.item_held(player, HUGE_SEED.name)
    conversion: Conversion[object] = Conversion(RULE_SASQUASH, (seed.number,))
    store = convert(store, conversion, (), lambda s, _made: s)
    gardens = gardens.with_plants(((SASQUASH_POD.name, garden),), at)
    text = (
        f"{player} planted {seed.label()} in {garden_name(garden)}: a Young Sasquash Pod, "
        f"Plant {gardens.next_number - 1}"
    )
    return _finished(store, gardens, at, (Happening(RULE_SASQUASH, text),))


def mix_huge_seed(
    store: StoreState, gardens: GardenState, player: PlayerKey, at: Moment
) -> Outcome:
    """Rule 1918 D: eir oldest Thorn Seed, Lemon Drink and Blood Spore Drink destroyed, a Huge
    Seed created for em.  All three are checked before anything changes; raises
    ``IllegalActionError`` naming what is missing."""
    check_more_plants(gardens)
    check_holder(gardens, player)
    seeds = [f for f in gardens.fruit_held_by(player) if f.kind == THORN_SEED.name]
    drinks = [_to_mix(store, player, kind.name) for kind in (LEMON_DRINK, BLOOD_SPORE_DRINK)]
    if not seeds:
        raise IllegalActionError("you hold no Thorn Seed to mix", rule=RULE_ALCHEMY)
    conversion = Conversion(
        RULE_ALCHEMY, tuple(drink.number for drink in drinks), ((HUGE_SEED.name, player),)
    )
    store = convert(store, conversion, (), lambda s, _made: s)
    gardens = gardens.without_objects((seeds[0].number,))
    store, gardens, made = created(store, gardens, conversion.creates, at)
    used = ", ".join((seeds[0].label(), *(drink.label() for drink in drinks)))
    text = f"{player} mixed {used} together: {made}"
    return _finished(store, gardens, at, (Happening(RULE_ALCHEMY, text),))


def _to_mix(store: StoreState, player: PlayerKey, kind: str) -> Item:
    """Eir oldest ``kind`` for Alchemy; the refusal cites 1918 D, the rule that mixes, not
    the rule that made the Drink (1913)."""
    try:
        return store.item_held(player, kind)
    except IllegalActionError:
        raise IllegalActionError(f"you hold no {kind} to mix", rule=RULE_ALCHEMY) from None


def _finished(
    store: StoreState, gardens: GardenState, at: Moment, happenings: tuple[Happening, ...]
) -> Outcome:
    gardens, restored = restore_invariants(gardens, at, INVARIANTS)
    return Outcome(store, gardens, (*happenings, *restored))


# -- the Hatching (1918 C) ----------------------------------------------------------


@dataclass(frozen=True)
class Holdings:
    """The two states a Hatching changes: the Pod's Garden and the owner's Sasquash."""

    store: StoreState
    gardens: GardenState


def hatching_events(gardens: GardenState, at: Moment) -> tuple[TimedEvent, ...]:
    """Every Hatching due at or before ``at``, each at its own instant, in rule 3 C's order."""
    return in_rule_order(
        TimedEvent(hatching_due(pod), MORE_PLANTS, HATCHING, subject=pod.number)
        for pod in pods_hatching(gardens, at)
    )


def next_hatching(gardens: GardenState) -> Moment | None:
    """When the next Pod Hatches (None: no Pod grows), for the engine to run ``run_timed``
    at that instant: a Pod planted mid-nday Hatches mid-nday, between Checkpoints."""
    return min((hatching_due(pod) for pod in pods_hatching(gardens, _END_OF_TIME)), default=None)


def run_timed(store: StoreState, gardens: GardenState, at: Moment, draws: DrawSource) -> Outcome:
    """Every Hatching due by ``at``; the Gardens' invariants restored after each."""
    events = hatching_events(gardens, at)
    holdings, happenings = run_events(
        Holdings(store, gardens), events, {HATCHING: _hatch}, (_gardens_invariants,), draws
    )
    return Outcome(holdings.store, holdings.gardens, happenings)


def _hatch(
    holdings: Holdings, event: TimedEvent, draws: DrawSource
) -> tuple[Holdings, tuple[Happening, ...]]:
    gardens, hatching, happening = hatch(holdings.gardens, event.subject)
    store = holdings.store
    if hatching.owner is not None:
        made = ((SASQUASH.name, hatching.owner),)
        store, gardens, sasquash = created(store, gardens, made, hatching.at)
        happening = Happening(happening.rule, f"{happening.text}: {sasquash}")
    return Holdings(store, gardens), (happening,)


def _gardens_invariants(holdings: Holdings, at: Moment) -> tuple[Holdings, tuple[Happening, ...]]:
    gardens, restored = restore_invariants(holdings.gardens, at, INVARIANTS)
    return Holdings(holdings.store, gardens), restored
