"""The Drinks' and the Store's objects and records as rows beside the Gardens' (rules
1911, 1913-1915): an Economy round-trips through the database exactly, and an action
writes only the rows it changed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.app import App
from bot.engine.games.garden_economy import StoredEconomy, economy_of, economy_rows
from bot.games import drinks, store
from bot.games.dice import DrawSource
from bot.games.economy import Moment
from bot.games.garden import GardenState
from bot.games.garden.beginning import start_with_vines
from bot.games.garden_economy import Economy
from bot.store.models import EconomyObjectRow, EconomyRecordRow
from bot.testing.apps import make_app

SEED = bytes(range(32))
PLAYERS = ("alice", "bob")
AT = Moment(2, 3600)


def held_tomatoes(garden: GardenState, holder: str, count: int) -> GardenState:
    """``count`` Tomatoes on the Town Square's Vine, handed to ``holder``."""
    vine = garden.plants_in(None)[-1]
    garden = garden.with_fruit_on(vine, "Tomato", count, Moment(1))
    for fruit in garden.fruit_on(vine.number):
        garden = garden.with_fruit(replace(fruit, plant=None, holder=holder))
    return garden


def economy() -> Economy:
    """Every kind of row at once: Drinks, a BAC, a Bunny and its target, the Store's till."""
    garden = held_tomatoes(start_with_vines(PLAYERS, Moment(0), 1).state, "bob", 3)
    state = Economy().with_garden(garden)
    draws = DrawSource(SEED, "rows")
    drunk = state.drinks
    for fruit in state.garden.fruit_held_by("bob"):
        drunk = drinks.ferment(drunk, "bob", fruit.number, AT, draws).state
    drunk = drinks.drink(drunk, "bob", drunk.items[0].number, AT, draws).state
    state = replace(state, drinks=drunk)
    bought = store.buy(state.store, state.garden, "alice", "Hungry Bunny", AT, quantity=2)
    state = state.with_store_outcome(bought).paid_to_store(bought.payments)
    used = store.use_hungry_bunny(state.store, state.garden, "alice", None, AT, draws)
    return state.with_store_outcome(used)


def test_every_record_round_trips_through_the_rows() -> None:
    state = economy()
    assert state.drinks.items and state.drinks.bac and state.store.items
    assert state.store.targeted and state.till == 200
    assert economy_of(state.garden, store.StoreState(), economy_rows(state)) == state


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    built = make_app(tmp_path_factory.mktemp("economy-rows"))
    yield built
    built.dispose()


def test_the_database_gives_the_economy_back_and_a_drink_writes_its_rows(app: App) -> None:
    state = economy()
    with app.session_factory() as session:
        StoredEconomy().save(session, state)
        session.commit()
    with app.session_factory() as session:
        stored = StoredEconomy()
        assert stored.load(session, store.StoreState()) == state
        draws = DrawSource(SEED, "drink")
        drink = state.drinks.held_by("bob")[0].number
        after = replace(state, drinks=drinks.drink(state.drinks, "bob", drink, AT, draws).state)
        # The Drink's row out, the BAC's row out and in: three rows, whatever else is kept.
        assert stored.save(session, after) == 3
        session.commit()
        objects = session.query(EconomyObjectRow).count()
        records = session.query(EconomyRecordRow).count()
    assert objects == len(after.drinks.items) + len(after.store.items)
    assert objects + records == len(economy_rows(after))
