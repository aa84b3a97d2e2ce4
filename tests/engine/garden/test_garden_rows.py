"""The Gardens stored as rows: exactly the pure state back, and a post writes what it did.

Issue 14: the cost of a post must not grow with the game's age.  Every
record of ``bot.games.garden.GardenState`` (Plants and Fruit, in the
Town Square too, watering, picks, Free Throws, permissions, Stains, quota
counts) round-trips through the rows; after many nweeks of Plants bearing
and rotting, one watering still writes two rows (its payment and nothing
else), and the rows the game keeps are those of the living objects.  The
Drinks' and the Store's objects and records (rules 1911, 1913-1915) are rows
beside them, and a Drink drunk writes only its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bot.app import App
from bot.engine.games.garden_economy import StoredEconomy, economy_of, economy_rows
from bot.engine.games.garden_state import StoredGardens, rows_of, state_of
from bot.games import drinks, store
from bot.games.dice import DrawSource
from bot.games.economy import Moment
from bot.games.garden import (
    TOWN_SQUARE,
    GardenState,
    fruit_to_pick,
    permit_picking,
    pick,
    plant,
    run_timed,
    throw,
    water,
)
from bot.games.garden.beginning import start_with_vines
from bot.games.garden_economy import Economy
from bot.store.models import (
    EconomyObjectRow,
    EconomyRecordRow,
    GardenFreeThrowRow,
    GardenFruitRow,
    GardenPermissionRow,
    GardenPlantRow,
    GardenRecordRow,
)
from bot.testing.apps import make_app

SEED = bytes(range(32))
MODELS = (GardenPlantRow, GardenFruitRow, GardenPermissionRow, GardenFreeThrowRow, GardenRecordRow)
PLAYERS = ("alice", "bob", "carol")


def grown(nweeks: int) -> GardenState:
    """Alice's, Bob's and the Town Square's Vines after ``nweeks`` nweeks, each Garden
    watered every Checking Period; from nweek 2 on Alice picks a Tomato in Bob's Garden
    each nweek and plants it in the Town Square once it is Rotten (the Vines multiply up to
    rule 1902 A's 10-Plant cap)."""
    state = start_with_vines(PLAYERS, Moment(0), 1).state
    state = state.with_plants((("Vine", "alice"), ("Vine", "bob")), Moment(0, 60))
    for nweek in range(nweeks):
        for first in (0, 3, 7):
            at = Moment(nweek * 10 + first)
            if at.ndays:
                state = run_timed(state, at, DrawSource(SEED, f"g{at.ndays}")).state
            for garden in ("alice", "bob"):
                if state.plants_in(garden):
                    state = water(state, garden, garden, Moment(at.ndays, 60)).state
        if nweek:
            during = Moment(nweek * 10, 3600)
            state = pick(state, "alice", fruit_to_pick(state, "bob", "Tomato"), during).state
            rotten = [fruit for fruit in state.fruit_held_by("alice") if fruit.rotten]
            if rotten:
                state = plant(state, "alice", rotten[0].number, TOWN_SQUARE, during).state
    return state


def rich() -> GardenState:
    """Every kind of record at once: picks in the Town Square, a Free Throw, a permission
    with an end, a Stain, quota counts, Fruit held and on Plants."""
    state = grown(3)
    during = Moment(20, 7200)
    state = permit_picking(state, "bob", "carol", during, Moment(30)).state
    state = pick(state, "carol", fruit_to_pick(state, TOWN_SQUARE, "Thorn Seed"), during).state
    state = pick(state, "bob", fruit_to_pick(state, "alice", "Tomato"), during).state
    tomato = state.fruit_held_by("bob")[0].number
    state = throw(state, "bob", tomato, "alice", during, DrawSource(SEED, "t")).state
    return state


def test_every_record_round_trips_through_the_rows() -> None:
    state = rich()
    assert state.picks and state.free_throws and state.permissions.items and state.quotas.counts
    assert any(fruit.holder for fruit in state.fruits) and state.plants_in(TOWN_SQUARE)
    assert state_of(rows_of(state)) == state


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    built = make_app(tmp_path_factory.mktemp("garden-rows"))
    yield built
    built.dispose()


def stored_rows(session: Session) -> int:
    return sum(session.scalar(select(func.count()).select_from(model)) or 0 for model in MODELS)


def test_the_database_gives_the_state_back_and_a_watering_writes_one_row(app: App) -> None:
    for nweeks in (2, 12):
        state = grown(nweeks)
        with app.session_factory() as session:
            for model in MODELS:
                session.query(model).delete()
            StoredGardens().save(session, state)
            session.commit()
        with app.session_factory() as session:
            stored = StoredGardens()
            assert stored.load(session) == state
            # In the Checking Period of the last watering (nday 9 of the last nweek).
            at = Moment(nweeks * 10 - 2, 60)
            watered = water(state, "carol", "bob", at, amount=1).state
            # The watering record of bob's Garden: one row out, one row in.
            assert stored.save(session, watered) == 2
            session.commit()
            # The rows are the living objects and the records in force, not the history.
            assert stored_rows(session) == len(rows_of(watered))
            records = len(rows_of(watered)) - len(watered.plants) - len(watered.fruits)
            assert records <= 10  # 3 players, 2 waterings, a quota count, the counters
            # Rule 1902 A's cap trims each Garden to 10 at every Checkpoint, before that
            # instant's Tomatoes fall and grow (rule 3 C): at most one more per Vine.
            assert all(len(watered.plants_in(garden)) <= 20 for garden in watered.gardens())


def test_permissions_and_free_throws_are_rows_of_their_own(app: App) -> None:
    state = rich()
    with app.session_factory() as session:
        for model in MODELS:
            session.query(model).delete()
        StoredGardens().save(session, state)
        session.commit()
        permissions = session.scalars(select(GardenPermissionRow)).all()
        throws = session.scalars(select(GardenFreeThrowRow)).all()
        assert [(p.grantor, p.grantee, p.scope, p.ends_ndays) for p in permissions] == [
            ("bob", "carol", "pick", 30)
        ]
        assert [(t.owner, t.picker) for t in throws] == [
            (right.owner, right.picker) for right in state.free_throws
        ]
        assert StoredGardens().load(session) == state


# -- the Drinks' and the Store's rows beside the Gardens' (rules 1911, 1913-1915) -----

ECONOMY_AT = Moment(2, 3600)


def held_tomatoes(garden: GardenState, holder: str, count: int) -> GardenState:
    """``count`` Tomatoes on the Town Square's Vine, handed to ``holder``."""
    vine = garden.plants_in(None)[-1]
    garden = garden.with_fruit_on(vine, "Tomato", count, Moment(1))
    for fruit in garden.fruit_on(vine.number):
        garden = garden.with_fruit(replace(fruit, plant=None, holder=holder))
    return garden


def economy() -> Economy:
    """Every kind of row at once: Drinks, a BAC, a Bunny and its target (the Store's tildex
    are the ledger's, not a row of the Economy's)."""
    garden = held_tomatoes(start_with_vines(PLAYERS, Moment(0), 1).state, "bob", 3)
    state = Economy().with_garden(garden)
    draws = DrawSource(SEED, "rows")
    drunk = state.drinks
    for fruit in state.garden.fruit_held_by("bob"):
        drunk = drinks.ferment(drunk, "bob", fruit.number, ECONOMY_AT, draws).state
    drunk = drinks.drink(drunk, "bob", drunk.items[0].number, ECONOMY_AT, draws).state
    state = replace(state, drinks=drunk)
    bought = store.buy(state.store, state.garden, "alice", "Hungry Bunny", ECONOMY_AT, quantity=2)
    state = state.with_store_outcome(bought)
    used = store.use_hungry_bunny(state.store, state.garden, "alice", None, ECONOMY_AT, draws)
    return state.with_store_outcome(used)


def test_every_economy_record_round_trips_through_the_rows() -> None:
    state = economy()
    assert state.drinks.items and state.drinks.bac and state.store.items
    assert state.store.targeted
    assert economy_of(state.garden, store.StoreState(), economy_rows(state)) == state


def test_the_database_gives_the_economy_back_and_a_drink_writes_its_rows(app: App) -> None:
    state = economy()
    with app.session_factory() as session:
        for model in (*MODELS, EconomyObjectRow, EconomyRecordRow):
            session.query(model).delete()
        StoredEconomy().save(session, state)
        session.commit()
    with app.session_factory() as session:
        stored = StoredEconomy()
        assert stored.load(session, store.StoreState()) == state
        draws = DrawSource(SEED, "drink")
        drink = state.drinks.held_by("bob")[0].number
        after = replace(
            state, drinks=drinks.drink(state.drinks, "bob", drink, ECONOMY_AT, draws).state
        )
        # The Drink's row out, the BAC's row out and in: three rows, whatever else is kept.
        assert stored.save(session, after) == 3
        session.commit()
        objects = session.query(EconomyObjectRow).count()
        records = session.query(EconomyRecordRow).count()
    assert objects == len(after.drinks.items) + len(after.store.items)
    assert objects + records == len(economy_rows(after))
