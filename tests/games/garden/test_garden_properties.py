"""Random Gardens keep the rules' invariants, and the same draws give the same Gardens.

A seeded ``random.Random`` plays four players for three nweeks (watering, or
not, picking, slowly or not, planting, burning, throwing, permitting), and
every Checkpoint's events run in rule 3 C order.  After every step: a Thorn
Bush exists (1909), every Fruit is on a Plant or held, nobody picked past 5
Fruit (1902 B), and after every Checkpoint no player's Garden holds more than
10 Plants (1902 A).  40 games in well under a second.  The states they end in
survive JSON (``serialize``) exactly.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.games.dice import DrawSource
from bot.games.economy import Moment
from bot.games.errors import ActionError
from bot.games.garden import (
    TOWN_SQUARE,
    GardenState,
    Outcome,
    burn,
    permit_picking,
    pick,
    plant,
    run_timed,
    start,
    state_from_json,
    state_to_json,
    throw,
    water,
)

PLAYERS = ("alice", "bob", "carol", "dave")
SEED = bytes(range(32))
GAMES = 40
NWEEKS = 3


def random_action(state: GardenState, player: str, at: Moment, generator: random.Random) -> Outcome:
    """One action of ``player``, chosen at random; may raise ``ActionError`` (a refusal)."""
    other = generator.choice([p for p in PLAYERS if p != player])
    held = state.fruit_held_by(player)
    choice = generator.choice((0, 0, 0, 1, 1, 2, 3, 3, 4, 5, 5, 5))
    if choice == 0:
        return water(state, player, generator.choice((player, other)), at)
    if choice == 1 and held:
        target = generator.choice((player, other, TOWN_SQUARE))
        return plant(state, player, generator.choice(held).number, target, at)
    if choice == 2 and state.plants_in(player):
        return burn(state, player, generator.choice(state.plants_in(player)).number, at)
    if choice == 3 and held:
        draws = DrawSource(SEED, f"{player}@{at.ndays}.{at.second}")
        free = generator.random() < 0.3
        return throw(state, player, held[0].number, other, at, draws, free_throw=free)
    if choice == 4:
        return permit_picking(state, player, other, at, at.later(generator.randint(1, 12)))
    on_plants = [fruit for fruit in state.fruits if fruit.plant is not None]
    if not on_plants:
        return Outcome(state)
    fruit = generator.choice(on_plants)
    return pick(state, player, fruit.number, at, slowly=generator.random() < 0.2)


def check_invariants(state: GardenState) -> None:
    assert any(plant.kind == "Thorn Bush" for plant in state.plants)  # 1909
    plants = {plant.number for plant in state.plants}
    numbers = [o.number for o in (*state.plants, *state.fruits)]
    assert len(numbers) == len(set(numbers)) and max(numbers) < state.next_number
    for fruit in state.fruits:
        assert (fruit.plant in plants) if fruit.plant is not None else fruit.holder in PLAYERS
    assert all(len(state.fruit_held_by(player)) <= 5 for player in PLAYERS)  # 1902 B


def play_one(number: int) -> tuple[GardenState, int, int]:
    generator = random.Random(number)
    state = start(PLAYERS, Moment.nweek_start(0)).state
    gardens = (*PLAYERS, TOWN_SQUARE, TOWN_SQUARE)
    state = state.with_plants(((("Vine", garden) for garden in gardens)), Moment.at(0, 0, 1))
    refusals = applied = 0
    for ndays in range(NWEEKS * 10):
        nday = Moment(ndays)
        if nday.is_checkpoint and ndays:
            state = run_timed(state, nday, DrawSource(SEED, f"game {number} nday {ndays}")).state
            check_invariants(state)
            assert all(len(state.plants_in(player)) <= 10 for player in PLAYERS)  # 1902 A
        seconds = sorted(generator.randint(1, 86_399) for _ in range(generator.randint(0, 6)))
        for second in seconds:
            at = Moment(ndays, second)
            player = generator.choice(PLAYERS)
            try:
                state = random_action(state, player, at, generator).state
                applied += 1
            except ActionError:
                refusals += 1
            check_invariants(state)
    return state, applied, refusals


def test_random_gardens_keep_the_rules_invariants() -> None:
    totals = [play_one(number)[1:] for number in range(GAMES)]
    # The games did things and were refused things: the invariants were tested on both.
    assert sum(applied for applied, _ in totals) > 20 * GAMES
    assert sum(refused for _, refused in totals) > 5 * GAMES


def test_the_same_draws_give_the_same_gardens() -> None:
    # Randomness is data: the Checkpoints' ties and the throws' dice come from the seed.
    assert play_one(7)[0] == play_one(7)[0]
    assert play_one(7)[0] != play_one(8)[0]


def test_the_state_survives_json_exactly() -> None:
    states = [play_one(number)[0] for number in range(8)]
    assert any(state.effects.items for state in states)  # Stains and Slow Picking too
    assert any(state.quotas.counts for state in states)
    for state in states:
        assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


def test_a_state_in_another_format_is_refused() -> None:
    with pytest.raises(ValueError):
        state_from_json({"format": "gardens/0"})
    broken = state_to_json(play_one(1)[0])
    broken["plants"] = [[1, "Vine"]]
    with pytest.raises(ValueError):
        state_from_json(broken)
