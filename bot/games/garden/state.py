"""The state of the Gardens: every Garden, Plant and Fruit, and what rules count.

Immutable: the actions (``actions``) and the timed events (``timed``) return
a new state.  Objects are numbered from 1 in the order created, Plants and
Fruit in one series, so a number names one object for good.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from bot.games.economy import Effects, Moment, Permissions, PlayerKey, Quotas
from bot.games.errors import IllegalActionError
from bot.games.garden.plants import TOWN_SQUARE, Fruit, GardenKey, Plant
from bot.games.garden.rules import RULE_GARDENS


@dataclass(frozen=True)
class ForeignPicks:
    """The Gardens ``player`` doesn't own that e picked from in Checking Period ``period``."""

    player: PlayerKey
    period: int
    gardens: tuple[GardenKey, ...] = ()
    slowly: bool = False


@dataclass(frozen=True)
class FreeThrow:
    """Rule 1908 B.3: ``owner`` may throw a Free Throw at ``picker`` until ``expires``."""

    owner: PlayerKey
    picker: PlayerKey
    expires: Moment
    cause: str  # the picking that gave it, in words


@dataclass(frozen=True)
class GardenState:
    """Everything rules 1902, 1908 and 1909 keep.

    ``players``: who has a Garden (every player, 1902 A).  ``watering``: the
    tildex paid for watering each Garden in Checking Period
    ``watering_period`` (1902 A).  ``more_plants``: rule 1918 is kept, so its
    "if at any time no Blood Ferns or Blood Spores exist" holds (an engine
    turns it on when it referees that rule; off, the Gardens are as before).
    """

    players: tuple[PlayerKey, ...] = ()
    plants: tuple[Plant, ...] = ()
    fruits: tuple[Fruit, ...] = ()
    watering_period: int = 0
    watering: tuple[tuple[PlayerKey, int], ...] = ()
    picks: tuple[ForeignPicks, ...] = ()
    free_throws: tuple[FreeThrow, ...] = ()
    effects: Effects = Effects()
    permissions: Permissions = Permissions()
    quotas: Quotas = field(default_factory=Quotas)
    next_number: int = 1
    more_plants: bool = False

    # -- players and gardens --------------------------------------------

    def with_player(self, player: PlayerKey) -> GardenState:
        """Rule 1902 A: "Each player has a Garden"; a new player's is empty."""
        if player in self.players:
            return self
        return replace(self, players=(*self.players, player))

    def without_player(self, player: PlayerKey) -> GardenState:
        """A player who forfeits loses eir Garden, its Plants and eir Fruit (rule 14)."""
        plants = tuple(plant for plant in self.plants if plant.garden != player)
        gone = {plant.number for plant in self.plants if plant.garden == player}
        fruits = tuple(
            fruit for fruit in self.fruits if fruit.holder != player and fruit.plant not in gone
        )
        return replace(
            self,
            players=tuple(key for key in self.players if key != player),
            plants=plants,
            fruits=fruits,
            picks=tuple(record for record in self.picks if record.player != player),
            free_throws=tuple(
                right for right in self.free_throws if player not in (right.owner, right.picker)
            ),
            effects=self.effects.without_subject(player),
            permissions=Permissions(
                tuple(p for p in self.permissions.items if player not in (p.grantor, p.grantee))
            ),
        )

    def without_expired(self, at: Moment) -> GardenState:
        """The records that can no longer matter from ``at`` on forgotten: ended effects and
        permissions, lost Free Throws, the picks of past Checking Periods."""
        period = at.checking_period.index
        return replace(
            self,
            picks=tuple(record for record in self.picks if record.period >= period),
            free_throws=tuple(right for right in self.free_throws if at < right.expires),
            effects=self.effects.without_expired(at),
            permissions=self.permissions.without_expired(at),
        )

    def check_garden(self, garden: GardenKey) -> None:
        """Raises ``IllegalActionError`` unless ``garden`` is a player's or the Town Square."""
        if garden is not None and garden not in self.players:
            raise IllegalActionError(f"{garden} has no Garden", rule=RULE_GARDENS)

    def check_player(self, player: PlayerKey) -> None:
        if player not in self.players:
            raise IllegalActionError(f"{player} is not a player with a Garden", rule=RULE_GARDENS)

    def gardens(self) -> tuple[GardenKey, ...]:
        """Every Garden: the players' in the order they came, then the Town Square."""
        return (*self.players, TOWN_SQUARE)

    # -- plants ----------------------------------------------------------

    def plants_in(self, garden: GardenKey) -> tuple[Plant, ...]:
        return tuple(plant for plant in self.plants if plant.garden == garden)

    def plant(self, number: int) -> Plant:
        for plant in self.plants:
            if plant.number == number:
                return plant
        raise IllegalActionError(f"there is no Plant {number}", rule=RULE_GARDENS)

    def gardening_cost(self, garden: GardenKey) -> int | None:
        """Rule 1902 A: the sum of the Watering Costs; None for the Town Square, which has none.

        Floored at 0: a Waterspout's -8~ (rule 1915) "If this results in negative costs, the
        cost is treated as 0 (so the owner of a Garden containing only Waterspouts does not
        gain Tildex for it)".
        """
        if garden is None:
            return None
        return max(0, sum(plant.watering_cost for plant in self.plants_in(garden)))

    def count_of(
        self, kind: str, garden: GardenKey | None = None, *, anywhere: bool = False
    ) -> int:
        plants = self.plants if anywhere else self.plants_in(garden)
        return sum(1 for plant in plants if plant.kind == kind)

    def places_in(self, garden: GardenKey) -> int:
        """The places ``garden``'s Plants take under the 10-Plant cap: a Lemon Tree two (1918 B)."""
        return sum(plant.type.places for plant in self.plants_in(garden))

    # -- fruit -----------------------------------------------------------

    def fruit(self, number: int) -> Fruit:
        for fruit in self.fruits:
            if fruit.number == number:
                return fruit
        raise IllegalActionError(f"there is no Fruit {number}", rule=RULE_GARDENS)

    def fruit_on(self, plant: int) -> tuple[Fruit, ...]:
        return tuple(fruit for fruit in self.fruits if fruit.plant == plant)

    def fruit_held_by(self, player: PlayerKey) -> tuple[Fruit, ...]:
        return tuple(fruit for fruit in self.fruits if fruit.holder == player)

    def garden_of(self, fruit: Fruit) -> GardenKey:
        """The Garden of the Plant ``fruit`` is on (``fruit`` must be on one)."""
        assert fruit.plant is not None, "a held Fruit is in no Garden"
        return self.plant(fruit.plant).garden

    # -- objects (bot.games.economy.conversions.ObjectStore) -------------

    def has_object(self, number: int) -> bool:
        return any(plant.number == number for plant in self.plants) or any(
            fruit.number == number for fruit in self.fruits
        )

    def without_objects(self, numbers: tuple[int, ...]) -> GardenState:
        """The state without the objects ``numbers``, and without the Fruit on those Plants.

        A destroyed Plant's Fruit goes with it (docs/readings.md, rule 1902).
        """
        gone = set(numbers)
        plants = tuple(plant for plant in self.plants if plant.number not in gone)
        fruits = tuple(
            fruit
            for fruit in self.fruits
            if fruit.number not in gone and (fruit.plant is None or fruit.plant not in gone)
        )
        return replace(self, plants=plants, fruits=fruits)

    def with_plants(self, planted: Iterable[tuple[str, GardenKey]], at: Moment) -> GardenState:
        """New Plants of the given kinds in the given Gardens, numbered in turn."""
        number, plants = self.next_number, list(self.plants)
        for kind, garden in planted:
            plants.append(Plant(number, kind, garden, at))
            number += 1
        return replace(self, plants=tuple(plants), next_number=number)

    def with_fruit_on(self, plant: Plant, kind: str, count: int, at: Moment) -> GardenState:
        numbers = range(self.next_number, self.next_number + count)
        fruits = (*self.fruits, *(Fruit(n, kind, at, plant=plant.number) for n in numbers))
        return replace(self, fruits=fruits, next_number=self.next_number + count)

    def with_held_fruit(self, kind: str, holder: PlayerKey, at: Moment) -> GardenState:
        """A new Fruit of ``kind`` held by ``holder`` (bought from the Store, rule 1911)."""
        fruit = Fruit(self.next_number, kind, at, holder=holder)
        return replace(self, fruits=(*self.fruits, fruit), next_number=self.next_number + 1)

    def with_fruit(self, fruit: Fruit) -> GardenState:
        """``fruit`` replacing the Fruit of its number."""
        fruits = tuple(fruit if old.number == fruit.number else old for old in self.fruits)
        return replace(self, fruits=fruits)

    # -- watering and picking records ------------------------------------

    def paid_for(self, garden: PlayerKey, period: int) -> int:
        """Tildex paid for watering ``garden`` in Checking Period ``period``."""
        if period != self.watering_period:
            return 0
        return sum(amount for key, amount in self.watering if key == garden)

    def with_watering(self, garden: PlayerKey, amount: int, period: int) -> GardenState:
        entries = self.watering if period == self.watering_period else ()
        paid = self.paid_for(garden, period) + amount
        kept = tuple((key, value) for key, value in entries if key != garden)
        return replace(self, watering_period=period, watering=(*kept, (garden, paid)))

    def picks_of(self, player: PlayerKey, period: int) -> ForeignPicks:
        for record in self.picks:
            if record.player == player and record.period == period:
                return record
        return ForeignPicks(player, period)

    def with_picks(self, record: ForeignPicks) -> GardenState:
        kept = tuple(
            old for old in self.picks if old.period == record.period and old.player != record.player
        )
        return replace(self, picks=(*kept, record))
