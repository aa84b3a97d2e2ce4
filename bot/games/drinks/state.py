"""The state of the Drinks: the Gardens they are made from, the objects, BAC and timers.

Immutable: the actions and the timed events return a new state.  The Gardens
(``bot.games.garden``) are part of it, because fermenting and mixing destroy
Fruit and pouring changes a Plant, and because their lasting effects (``garden.effects``)
are the one lookup every rule reads ("what is AvPower now"): a Bloody Harry's
AvPower, a Stain and a failed check's bar live side by side.  New objects take
the Gardens' next number, so Fruit, Plants, Drinks and Potions share one series.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.games.drinks.items import Category, Item
from bot.games.drinks.rules import RULE_ALCOHOL
from bot.games.economy import Effect, Happening, Moment, Payment, PlayerKey
from bot.games.errors import IllegalActionError
from bot.games.garden import GardenState


@dataclass(frozen=True)
class RainbowWalk:
    """Rule 1914 C.2: ``player`` drank Rainbow Potion ``potion``, Following the Rainbow
    until ``ends``; the Pot of Gold is found when e no longer Follows it."""

    player: PlayerKey
    potion: int
    ends: Moment


@dataclass(frozen=True)
class DrinksState:
    """Everything rules 1913, 1914 and 1915 keep, with the Gardens they act on.

    ``bac``: each player's Blood Alcohol Content (1913), only those not Sober
    (BAC 0) listed, in the order they first drank.
    """

    garden: GardenState = GardenState()
    items: tuple[Item, ...] = ()
    bac: tuple[tuple[PlayerKey, int], ...] = ()
    rainbow_walks: tuple[RainbowWalk, ...] = ()

    # -- players -----------------------------------------------------------

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        return self.garden.players

    def check_player(self, player: PlayerKey) -> None:
        self.garden.check_player(player)

    def without_player(self, player: PlayerKey) -> DrinksState:
        """A player who forfeits loses eir objects and eir BAC with eir Garden (rule 14)."""
        return replace(
            self,
            garden=self.garden.without_player(player),
            items=tuple(item for item in self.items if item.holder != player),
            bac=tuple(entry for entry in self.bac if entry[0] != player),
            rainbow_walks=tuple(walk for walk in self.rainbow_walks if walk.player != player),
        )

    def without_expired(self, at: Moment) -> DrinksState:
        return replace(self, garden=self.garden.without_expired(at))

    # -- BAC (1913) --------------------------------------------------------

    def bac_of(self, player: PlayerKey) -> int:
        """Rule 1913: "A Player's BAC is initially 0"."""
        return next((value for key, value in self.bac if key == player), 0)

    def with_bac(self, player: PlayerKey, value: int) -> DrinksState:
        entries = list(self.bac)
        keys = [key for key, _ in entries]
        if player in keys:
            entries[keys.index(player)] = (player, value)
        else:
            entries.append((player, value))
        return replace(self, bac=tuple(entry for entry in entries if entry[1] != 0))

    # -- objects (bot.games.economy.conversions.ObjectStore) -----------------

    def item(self, number: int) -> Item:
        for item in self.items:
            if item.number == number:
                return item
        raise IllegalActionError(f"there is no Drink or Potion {number}", rule=RULE_ALCOHOL)

    def held_by(self, player: PlayerKey, category: Category | None = None) -> tuple[Item, ...]:
        return tuple(
            item
            for item in self.items
            if item.holder == player and (category is None or item.category is category)
        )

    def has_object(self, number: int) -> bool:
        return self.garden.has_object(number) or any(i.number == number for i in self.items)

    def without_objects(self, numbers: tuple[int, ...]) -> DrinksState:
        """The state without the objects ``numbers``: Fruit, Plants, Drinks or Potions."""
        gone = set(numbers)
        return replace(
            self,
            garden=self.garden.without_objects(numbers),
            items=tuple(item for item in self.items if item.number not in gone),
        )

    def with_items(
        self, made: Iterable[tuple[str, Category]], holder: PlayerKey, at: Moment
    ) -> DrinksState:
        """New objects of the given kinds held by ``holder``, numbered in the Gardens' series."""
        number, items = self.garden.next_number, list(self.items)
        for kind, category in made:
            items.append(Item(number, kind, category, holder, at))
            number += 1
        return replace(self, items=tuple(items), garden=replace(self.garden, next_number=number))

    def with_effect(self, effect: Effect) -> DrinksState:
        return replace(self, garden=replace(self.garden, effects=self.garden.effects.added(effect)))

    def last_number(self) -> int:
        """The number the latest object created took."""
        return self.garden.next_number - 1


@dataclass(frozen=True)
class Outcome:
    """The state after an action or event, what happened, and what the ledger pays.

    ``performed`` is False when a nonsober player's attempt failed its 1d10
    (rule 1913): nothing was done but the bar it leaves, which ``state`` holds.
    """

    state: DrinksState
    happenings: tuple[Happening, ...] = ()
    payments: tuple[Payment, ...] = ()
    performed: bool = True
