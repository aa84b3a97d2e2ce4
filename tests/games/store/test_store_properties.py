"""Random games of the Store and the Gardens keep the rules' invariants, and replay exactly.

A seeded ``random.Random`` plays four players for three nweeks with rule 1918 kept:
buying (rule 1911), the three Bunnies on random targets, importing Lemon Trees (1918 B),
watering, picking and planting (1902, 1918 A), and every Checkpoint's events, the
Gardens' then the Hatching's (rule 3 C).  After every step: a Thorn Bush exists (1909), a
Blood Fern or Blood Spore exists (1918 A), one number names one object across the
Gardens and the Store, no Bunny destroyed a Lemon Tree (1918 B), and no nweek records a
Bunny's target twice (1911).  The states survive JSON exactly, and the same seed gives
the same games.  20 games in well under a second.
"""

from __future__ import annotations

import json
import random

from bot.games.dice import DrawSource
from bot.games.economy import Moment
from bot.games.errors import ActionError
from bot.games.garden import (
    TOWN_SQUARE,
    GardenState,
    import_lemon_tree,
    pick,
    plant,
    start,
    water,
)
from bot.games.garden import run_timed as run_garden_timed
from bot.games.garden import state_from_json as gardens_from_json
from bot.games.garden import state_to_json as gardens_to_json
from bot.games.store import (
    OnFruit,
    OnGarden,
    OnPlant,
    Outcome,
    StoreState,
    UseTarget,
    buy,
    run_timed,
    state_from_json,
    state_to_json,
    use,
)

PLAYERS = ("alice", "bob", "carol", "dave")
SEED = bytes(range(32))
GAMES = 20
NWEEKS = 3
BUNNIES = ("Fluffy Bunny", "Hungry Bunny", "Ninja Bunny")


def random_target(gardens: GardenState, generator: random.Random) -> UseTarget:
    choice = generator.randrange(3)
    if choice == 0 and gardens.plants:
        return OnPlant(generator.choice(gardens.plants).number)
    if choice == 1 and gardens.fruits:
        return OnFruit(generator.choice(gardens.fruits).number)
    return OnGarden(generator.choice((*PLAYERS, TOWN_SQUARE)))


def random_action(
    store: StoreState, gardens: GardenState, player: str, at: Moment, generator: random.Random
) -> Outcome:
    """One action of ``player``, chosen at random; may raise ``ActionError`` (a refusal)."""
    other = generator.choice([p for p in PLAYERS if p != player])
    choice = generator.choice((0, 0, 1, 1, 1, 2, 3, 3, 4, 5))
    if choice == 0:
        kind = generator.choice((*BUNNIES, *BUNNIES, "Thorn Seed", "Smoke Bomb", "Water Jet"))
        return buy(store, gardens, player, kind, at, new_player=generator.random() < 0.2)
    if choice == 1:
        draws = DrawSource(SEED, f"{player}@{at.ndays}.{at.second}")
        target = random_target(gardens, generator)
        return use(store, gardens, player, generator.choice(BUNNIES), target, at, draws)
    if choice == 2:
        garden = generator.choice((player, other, TOWN_SQUARE))
        return Outcome(store, import_lemon_tree(gardens, player, garden, at).state)
    if choice == 3:
        return Outcome(store, water(gardens, player, generator.choice((player, other)), at).state)
    held = gardens.fruit_held_by(player)
    if choice == 4 and held:
        garden = generator.choice((player, other, TOWN_SQUARE))
        return Outcome(store, plant(gardens, player, held[0].number, garden, at).state)
    on_plants = [fruit for fruit in gardens.fruits if fruit.plant is not None]
    if not on_plants:
        return Outcome(store, gardens)
    return Outcome(store, pick(gardens, player, generator.choice(on_plants).number, at).state)


def check_invariants(store: StoreState, gardens: GardenState) -> None:
    assert any(plant.kind == "Thorn Bush" for plant in gardens.plants)  # 1909
    assert any(plant.kind == "Blood Fern" for plant in gardens.plants) or any(
        fruit.kind == "Blood Spore" for fruit in gardens.fruits
    )  # 1918 A
    numbers = [o.number for o in (*gardens.plants, *gardens.fruits, *store.items)]
    assert len(numbers) == len(set(numbers)) and max(numbers) < gardens.next_number
    assert all(item.holder in PLAYERS for item in store.items)
    assert len(store.targeted) == len(set(store.targeted))  # 1911


def lemon_trees(gardens: GardenState) -> set[int]:
    return {plant.number for plant in gardens.plants if plant.kind == "Lemon Tree"}


def play_one(number: int) -> tuple[StoreState, GardenState, int, int]:
    generator = random.Random(number)
    gardens = start(PLAYERS, Moment.nweek_start(0), more_plants=True).state
    store, refusals, applied = StoreState(), 0, 0
    for ndays in range(NWEEKS * 10):
        nday = Moment(ndays)
        if nday.is_checkpoint and ndays:
            draws = DrawSource(SEED, f"game {number} nday {ndays}")
            gardens = run_garden_timed(gardens, nday, draws).state
            hatched = run_timed(store, gardens, nday, draws)
            store, gardens = hatched.store, hatched.gardens
            check_invariants(store, gardens)
        for second in sorted(generator.randint(1, 86_399) for _ in range(generator.randint(0, 6))):
            player = generator.choice(PLAYERS)
            before = lemon_trees(gardens)
            try:
                outcome = random_action(store, gardens, player, Moment(ndays, second), generator)
            except ActionError:
                refusals += 1
                continue
            applied += 1
            assert before <= lemon_trees(outcome.gardens)  # 1918 B: no Bunny destroys one
            store, gardens = outcome.store, outcome.gardens
            check_invariants(store, gardens)
    return store, gardens, applied, refusals


def test_random_games_keep_the_rules_invariants() -> None:
    totals = [play_one(number)[2:] for number in range(GAMES)]
    assert sum(applied for applied, _ in totals) > 20 * GAMES
    assert sum(refused for _, refused in totals) > 5 * GAMES


def test_the_same_draws_give_the_same_games_and_they_survive_json() -> None:
    first, again, other = play_one(3), play_one(3), play_one(4)
    assert first[:2] == again[:2] and first[:2] != other[:2]
    for store, gardens, *_ in (first, other):
        assert state_from_json(json.loads(json.dumps(state_to_json(store)))) == store
        assert gardens_from_json(json.loads(json.dumps(gardens_to_json(gardens)))) == gardens
