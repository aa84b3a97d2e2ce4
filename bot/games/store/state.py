"""What the Store's rules keep: the Inventory, the objects players hold, the Bunnies' targets.

Immutable: buying (``buying``), using (``tools``, ``bunnies``) and rule
1918's objects (``more_plants``) return a new state.  The objects here are
those players hold that are neither Plants nor Fruit (a Bunny, a Smoke Bomb,
a Huge Seed, a Sasquash); Fruit, a Thorn Seed bought included, are kept with
the Gardens (``bot.games.garden``), since they are picked, planted and stolen
there.  Objects here take their numbers from the Gardens' series
(``GardenState.next_number``), so a number names one object of either for
good: there is one Plant 4 or one Fluffy Bunny 4, never both.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from bot.games.economy import Happening, Moment, Payment, PlayerKey
from bot.games.errors import IllegalActionError
from bot.games.garden import GardenKey, GardenState
from bot.games.store.inventory import StoreInventory
from bot.games.store.rules import RULE_STORE


@dataclass(frozen=True)
class Item:
    """Object ``number`` of type ``kind``, held by ``holder`` since ``created``."""

    number: int
    kind: str
    holder: PlayerKey
    created: Moment

    def label(self) -> str:
        return f"{self.kind} {self.number}"


@dataclass(frozen=True, order=True)
class Target:
    """What a Bunny was used on (rule 1911): a player (``garden`` False) or a Garden.

    ``key`` is the player's or the Garden owner's key; None with ``garden``
    is the Town Square.  A player and eir Garden are two targets.
    """

    garden: bool
    key: PlayerKey | None

    def name(self) -> str:
        if not self.garden:
            return str(self.key)
        return "the Town Square" if self.key is None else f"{self.key}'s Garden"


def garden_target(garden: GardenKey) -> Target:
    return Target(True, garden)


def player_target(player: PlayerKey) -> Target:
    return Target(False, player)


@dataclass(frozen=True)
class StoreState:
    """Everything rules 1911, 1921 and 1918's held objects keep.

    ``targeted``: the targets of Bunnies in nweek ``targets_nweek`` (1911's
    Ninja Bunny).  ``free_water_jets``: the New Players given their free
    Water Jet (1911, 1912).
    """

    inventory: StoreInventory = field(default_factory=StoreInventory)
    items: tuple[Item, ...] = ()
    targets_nweek: int = 0
    targeted: tuple[Target, ...] = ()
    free_water_jets: tuple[PlayerKey, ...] = ()

    # -- objects (bot.games.economy.conversions.ObjectStore) -------------

    def has_object(self, number: int) -> bool:
        return any(item.number == number for item in self.items)

    def without_objects(self, numbers: tuple[int, ...]) -> StoreState:
        gone = set(numbers)
        return replace(self, items=tuple(item for item in self.items if item.number not in gone))

    def with_items(
        self, made: Iterable[tuple[str, PlayerKey]], at: Moment, first: int
    ) -> StoreState:
        """New objects of the given kinds for the given holders, numbered from ``first``."""
        items = tuple(
            Item(first + offset, kind, holder, at) for offset, (kind, holder) in enumerate(made)
        )
        return replace(self, items=(*self.items, *items))

    def held_by(self, player: PlayerKey) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.holder == player)

    def item_held(self, player: PlayerKey, kind: str, number: int | None = None) -> Item:
        """``player``'s ``kind`` numbered ``number``, or eir oldest ("I use my Fluffy Bunny").

        Raises ``IllegalActionError`` when e holds none.
        """
        for item in self.items:
            if item.holder == player and item.kind == kind and number in (None, item.number):
                return item
        which = kind if number is None else f"{kind} {number}"
        raise IllegalActionError(f"you hold no {which}", rule=self.inventory.article(kind).rule)

    # -- the Bunnies' targets (1911) ----------------------------------------

    def targeted_in(self, nweek: int) -> tuple[Target, ...]:
        return self.targeted if nweek == self.targets_nweek else ()

    def with_target(self, target: Target, nweek: int) -> StoreState:
        kept = self.targeted_in(nweek)
        if target in kept:
            return replace(self, targets_nweek=nweek, targeted=kept)
        return replace(self, targets_nweek=nweek, targeted=(*kept, target))

    # -- forfeits (rule 14) ---------------------------------------------------

    def without_player(self, player: PlayerKey) -> StoreState:
        """A player who forfeits "loses all game defined properties" (rule 14): eir objects."""
        return replace(self, items=tuple(item for item in self.items if item.holder != player))


def created(
    store: StoreState,
    gardens: GardenState,
    made: tuple[tuple[str, PlayerKey], ...],
    at: Moment,
) -> tuple[StoreState, GardenState, str]:
    """Objects ``made`` (kind, holder) created, numbered in the Gardens' series; and their
    labels ("Fluffy Bunny 4, Fluffy Bunny 5")."""
    first = gardens.next_number
    store = store.with_items(made, at, first)
    gardens = replace(gardens, next_number=first + len(made))
    return store, gardens, labels(store.items[len(store.items) - len(made) :])


def labels(items: Iterable[Item]) -> str:
    return ", ".join(item.label() for item in items)


@dataclass(frozen=True)
class Outcome:
    """The Store's and the Gardens' states after an action, what happened, what is paid."""

    store: StoreState
    gardens: GardenState
    happenings: tuple[Happening, ...] = ()
    payments: tuple[Payment, ...] = ()


def check_holder(gardens: GardenState, player: PlayerKey) -> None:
    """Only a player may buy or use (rule 1911: "Any player may Buy")."""
    if player not in gardens.players:
        raise IllegalActionError(f"{player} is not a player", rule=RULE_STORE)
