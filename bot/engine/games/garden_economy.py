"""The Drinks' and the Store's state as rows, beside the Gardens' (seed 004).

One ``Economy`` (``bot.games.garden_economy``) is stored as the Gardens' rows
(``garden_state.StoredGardens``) and rows of its own: an ``economy_object``
row per Drink, Potion, Concoction or Store object, an ``economy_record`` row
per player's BAC (1913), Rainbow walk (1914 C.2), Bunny's target this nweek
(1911) and free Water Jet given (1911, 1912).  The Store's tildex (1911) are
the ledger's entries of the Store's (``ledger.entity_balance``).
Rows, not one document, so a post writes only what it changed (issue 14's
reason for the Gardens' rows).  The Inventory and its prices are settings,
not rows: they are rebuilt from the ``[garden]`` section at each load.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from bot.engine.games.garden_state import StoredGardens
from bot.games.drinks import Category, DrinksState, RainbowWalk
from bot.games.drinks import Item as DrinkItem
from bot.games.economy import Moment
from bot.games.garden import GardenState
from bot.games.garden.plants import SASQUASH_POD, Plant
from bot.games.garden_economy import Economy
from bot.games.store import Item as StoreItem
from bot.games.store import StoreState, Target
from bot.store.models import EconomyObjectRow, EconomyRecordRow, GardenPlantRow

STORE_CATEGORY = "Store"  # an ``economy_object`` row of the Store's rules
OBJECT_COLUMNS = ("number", "kind", "category", "holder", "created_ndays", "created_second")
RECORD_COLUMNS = ("kind", "player", "data")
OBJECTS, RECORDS = "objects", "records"
BAC, RAINBOW, TARGET, WATER_JET = "bac", "rainbow", "target", "water_jet"

RowKey = tuple[str, str]  # (OBJECTS or RECORDS, the row's values as canonical JSON)


def _canonical(values: object) -> str:
    return json.dumps(values, sort_keys=True, separators=(",", ":"))


def _moment(at: Moment) -> list[int]:
    return [at.ndays, at.second]


def economy_rows(economy: Economy) -> list[RowKey]:
    """Every row of ``economy`` besides the Gardens' own."""
    objects = [
        [i.number, i.kind, i.category.value, i.holder, *_moment(i.created)]
        for i in economy.drinks.items
    ]
    objects += [
        [i.number, i.kind, STORE_CATEGORY, i.holder, *_moment(i.created)]
        for i in economy.store.items
    ]
    records = [[BAC, player, bac] for player, bac in economy.drinks.bac]
    records += [
        [RAINBOW, w.player, [w.potion, *_moment(w.ends)]] for w in economy.drinks.rainbow_walks
    ]
    store = economy.store
    records += [
        [TARGET, t.key or "", [store.targets_nweek, t.garden, t.key]] for t in store.targeted
    ]
    records += [[WATER_JET, player, player] for player in store.free_water_jets]
    return [(OBJECTS, _canonical(row)) for row in objects] + [
        (RECORDS, _canonical(row)) for row in records
    ]


def economy_of(garden: GardenState, store: StoreState, rows: Iterable[RowKey]) -> Economy:
    """The Economy over ``garden`` stored as ``rows``; ``store`` gives the Inventory."""
    drink_items: list[DrinkItem] = []
    store_items: list[StoreItem] = []
    records: dict[str, list[Any]] = {BAC: [], RAINBOW: [], TARGET: [], WATER_JET: []}
    for name, values in rows:
        row = json.loads(values)
        if name == OBJECTS:
            number, kind, category, holder, ndays, second = row
            created = Moment(ndays, second)
            if category == STORE_CATEGORY:
                store_items.append(StoreItem(number, kind, holder, created))
            else:
                drink_items.append(DrinkItem(number, kind, Category(category), holder, created))
        else:
            records[row[0]].append(row)
    drinks = DrinksState(
        garden=garden,
        items=tuple(sorted(drink_items, key=lambda item: item.number)),
        bac=tuple(sorted((player, bac) for _, player, bac in records[BAC])),
        rainbow_walks=tuple(
            sorted(
                (
                    RainbowWalk(p, data[0], Moment(data[1], data[2]))
                    for _, p, data in records[RAINBOW]
                ),
                key=lambda walk: walk.potion,
            )
        ),
    )
    targets = sorted(records[TARGET], key=lambda row: _canonical(row[2]))
    store = replace(
        store,
        items=tuple(sorted(store_items, key=lambda item: item.number)),
        targets_nweek=targets[0][2][0] if targets else 0,
        targeted=tuple(Target(bool(data[1]), data[2]) for _, _, data in targets),
        free_water_jets=tuple(sorted(player for _, player, _ in records[WATER_JET])),
    )
    return Economy(drinks, store)


def stored_timers(session: Session) -> Economy:
    """An Economy holding only what its timers are read from (``next_timer``): the Rainbow
    walks (1914 C.2) and the Sasquash Pods (1918 C).  The scheduler asks for the next
    event after every post and instant, so it reads these few rows, not every row."""
    walks = tuple(
        RainbowWalk(player, data[0], Moment(data[1], data[2]))
        for player, data in session.execute(
            select(EconomyRecordRow.player, EconomyRecordRow.data).where(
                EconomyRecordRow.kind == RAINBOW
            )
        )
    )
    pods = tuple(
        Plant(number, SASQUASH_POD.name, garden or None, Moment(ndays, second))
        for number, garden, ndays, second in session.execute(
            select(
                GardenPlantRow.number,
                GardenPlantRow.garden,
                GardenPlantRow.planted_ndays,
                GardenPlantRow.planted_second,
            ).where(GardenPlantRow.kind == SASQUASH_POD.name)
        )
    )
    return Economy(DrinksState(garden=GardenState(plants=pods), rainbow_walks=walks))


@dataclass
class StoredEconomy:
    """The rows a unit of work loaded, by value, with their ids, so a save writes the changes."""

    gardens: StoredGardens = field(default_factory=StoredGardens)
    ids: dict[RowKey, list[int]] = field(default_factory=dict)

    def load(self, session: Session, store: StoreState) -> Economy | None:
        """The stored Economy (None before the Gardens begin); ``store``: the Inventory."""
        garden = self.gardens.load(session)
        self.ids = {}
        for name, columns, rows in (
            (OBJECTS, OBJECT_COLUMNS, _rows(session, EconomyObjectRow)),
            (RECORDS, RECORD_COLUMNS, _rows(session, EconomyRecordRow)),
        ):
            for row in rows:
                values = [getattr(row, column) for column in columns]
                self.ids.setdefault((name, _canonical(values)), []).append(row.id)
        if garden is None:
            return None
        return economy_of(garden, store, (key for key, ids in self.ids.items() for _ in ids))

    def save(self, session: Session, economy: Economy) -> int:
        """Write the rows that changed, the Gardens' included; how many."""
        written = self.gardens.save(session, economy.garden)
        before = Counter({key: len(ids) for key, ids in self.ids.items()})
        after = Counter(economy_rows(economy))
        for key, count in (before - after).items():
            model = _model(key[0])
            for _ in range(count):
                session.execute(delete(model).where(model.id == self.ids[key].pop()))
        for key, count in (after - before).items():
            for _ in range(count):
                self.ids.setdefault(key, []).append(_insert(session, key))
        return written + (before - after).total() + (after - before).total()


def _rows(
    session: Session, model: type[EconomyObjectRow] | type[EconomyRecordRow]
) -> list[EconomyObjectRow | EconomyRecordRow]:
    return list(session.scalars(select(model).order_by(model.id)))


def _model(name: str) -> type[EconomyObjectRow] | type[EconomyRecordRow]:
    return EconomyObjectRow if name == OBJECTS else EconomyRecordRow


def _insert(session: Session, key: RowKey) -> int:
    columns = OBJECT_COLUMNS if key[0] == OBJECTS else RECORD_COLUMNS
    row: EconomyObjectRow | EconomyRecordRow = _model(key[0])(
        **dict(zip(columns, json.loads(key[1]), strict=True))
    )
    session.add(row)
    session.flush()
    return row.id
