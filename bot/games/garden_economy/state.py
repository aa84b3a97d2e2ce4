"""One state for the Gardens, the Drinks and the Store (seed 004), and their timed events.

The three pure states each hold objects of the Gardens' one number series:
``GardenState`` the Plants and Fruit, ``DrinksState`` the Drinks, Potions and
Concoctions (wrapping the Gardens, since fermenting, mixing and pouring
change them), ``StoreState`` the Bunnies, Arena Tools and rule 1918's held
objects (acting on the Gardens passed beside it).  ``Economy`` is the
DrinksState and the StoreState over the one GardenState inside the
DrinksState: every action of either is judged against the same Gardens and
numbers its objects from the same ``next_number``.  The tildex given to the
Store (rule 1911) are the engine's ledger's, as every holder's are.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.games.dice import DrawSource
from bot.games.drinks import DrinksState, drink_kind, timers
from bot.games.drinks import run_timed as run_drinks_timed
from bot.games.economy import Happening, Moment, Payment, PlayerKey
from bot.games.errors import IllegalActionError
from bot.games.garden import GardenState
from bot.games.store.giving import give
from bot.games.store.more_plants import mix_huge_seed as mix_store_huge_seed
from bot.games.store.more_plants import next_hatching
from bot.games.store.more_plants import run_timed as run_hatchings
from bot.games.store.rules import RULE_OBJECTS
from bot.games.store.state import Item as StoreItem
from bot.games.store.state import Outcome as StoreOutcome
from bot.games.store.state import StoreState


@dataclass(frozen=True)
class Economy:
    """The Gardens (inside ``drinks``), the Drinks and the Store."""

    drinks: DrinksState = field(default_factory=DrinksState)
    store: StoreState = field(default_factory=StoreState)

    @property
    def garden(self) -> GardenState:
        return self.drinks.garden

    def with_garden(self, garden: GardenState) -> Economy:
        return replace(self, drinks=replace(self.drinks, garden=garden))

    def with_store_outcome(self, done: StoreOutcome) -> Economy:
        return replace(self.with_garden(done.gardens), store=done.store)

    def without_player(self, player: PlayerKey) -> Economy:
        """Rule 14: a player who forfeits loses eir Garden and every object e holds."""
        return replace(
            self,
            drinks=self.drinks.without_player(player),
            store=self.store.without_player(player),
        )


@dataclass(frozen=True)
class EconomyOutcome:
    """The state after an action or event, what happened, and what the ledger pays."""

    state: Economy
    happenings: tuple[Happening, ...] = ()
    payments: tuple[Payment, ...] = ()


def run_timed(economy: Economy, at: Moment, draws: DrawSource) -> EconomyOutcome:
    """Every event due at ``at`` in rule 3 C's order: the Gardens' and the Drinks' (rules
    1902-1915, ``drinks.run_timed``), then rule 1918's Hatchings, by rule number."""
    done = run_drinks_timed(economy.drinks, at, draws)
    hatched = run_hatchings(economy.store, done.state.garden, at, draws)
    state = replace(economy, drinks=replace(done.state, garden=hatched.gardens))
    state = replace(state, store=hatched.store)
    return EconomyOutcome(state, (*done.happenings, *hatched.happenings))


def next_timer(economy: Economy, after: Moment) -> Moment | None:
    """The earliest instant after ``after`` besides the Checkpoints that an event falls on:
    a Rainbow's end (1914 C.2) or a Pod's Hatching (1918 D)."""
    instants = [*timers(economy.drinks)]
    hatching = next_hatching(economy.garden)
    if hatching is not None:
        instants.append(hatching)
    return min((instant for instant in instants if after < instant), default=None)


# -- rule 13: gifts of any object the Gardens, the Drinks or the Store keep --------------


def give_object(
    economy: Economy,
    player: PlayerKey,
    kind: str,
    number: int | None,
    recipient: PlayerKey,
) -> EconomyOutcome:
    """``player`` gives eir ``kind`` (numbered ``number``, or eir oldest) to ``recipient``.

    Rule 13: "Players are capable of possessing any Object and of transferring
    any Object they possess to any entity that can possess that Object."  A
    Fruit held (not one on a Plant) is given as a Drink or a Bunny is.  Raises
    ``IllegalActionError`` citing rule 13.
    """
    garden = economy.garden
    garden.check_player(player)
    garden.check_player(recipient)
    if recipient == player:
        raise IllegalActionError(f"you already hold your {kind}", rule=RULE_OBJECTS)
    wanted = drink_kind(kind)
    for fruit in garden.fruit_held_by(player):
        if fruit.kind == kind.removeprefix("Rotten ") and number in (None, fruit.number):
            given = garden.with_fruit(replace(fruit, holder=recipient))
            return _given(economy.with_garden(given), player, fruit.label(), recipient)
    for item in economy.drinks.held_by(player):
        if drink_kind(item.kind) == wanted and number in (None, item.number):
            items = tuple(
                replace(i, holder=recipient) if i == item else i for i in economy.drinks.items
            )
            state = replace(economy, drinks=replace(economy.drinks, items=items))
            return _given(state, player, item.label(), recipient)
    for held in economy.store.held_by(player):
        if held.kind.casefold() == kind.casefold() and number in (None, held.number):
            done = give(economy.store, garden, player, held.number, recipient, _NO_MOMENT)
            return EconomyOutcome(economy.with_store_outcome(done), done.happenings)
    which = kind if number is None else f"{kind} {number}"
    raise IllegalActionError(
        f"you can transfer only an object you hold, and you hold no {which}", rule=RULE_OBJECTS
    )


def _given(economy: Economy, player: PlayerKey, label: str, recipient: PlayerKey) -> EconomyOutcome:
    return EconomyOutcome(
        economy, (Happening(RULE_OBJECTS, f"{player} gave {label} to {recipient}"),)
    )


_NO_MOMENT = Moment(0)  # ``give`` does not read the moment


# -- rule 1918 D: Alchemy's drinks are the Drinks' ----------------------------------------

# The two Drinks rule 1918 D mixes, made by fermenting (1913) and so kept with the Drinks.
ALCHEMY_DRINKS = ("Lemon Drink", "Blood Spore Drink")


def mix_huge_seed(economy: Economy, player: PlayerKey, at: Moment) -> EconomyOutcome:
    """Rule 1918 D: "Any player who has a Thorn Seed, a Lemon Drink, and a Blood Spore
    Drink may mix the three together, destroying them and creating a Huge Seed."

    The Drinks are the Drinks' objects (fermented, rule 1913), and the Store's
    ``mix_huge_seed`` reads its own objects: eir oldest Drink of each kind is
    handed to it as the Store's object of that number, so the conversion and
    its checks stay the Store's.  Raises ``IllegalActionError`` as that does.
    """
    handed = []
    for kind in ALCHEMY_DRINKS:
        held = [item for item in economy.drinks.held_by(player) if item.kind == kind]
        if held:
            handed.append(held[0])
    numbers = tuple(item.number for item in handed)
    store = replace(
        economy.store,
        items=(
            *economy.store.items,
            *(StoreItem(item.number, item.kind, item.holder, item.created) for item in handed),
        ),
    )
    drinks_left = replace(
        economy.drinks,
        items=tuple(item for item in economy.drinks.items if item.number not in numbers),
    )
    done = mix_store_huge_seed(store, economy.garden, player, at)
    mixed = replace(economy, drinks=drinks_left).with_store_outcome(done)
    return EconomyOutcome(mixed, done.happenings)
