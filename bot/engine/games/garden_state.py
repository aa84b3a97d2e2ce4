"""The Gardens' state as rows: Plants, Fruit, permissions, Free Throws and other records.

A post loads the living Plants, the existing Fruit and the records that
still matter (``GardenState.without_expired`` forgets the others at each
Checkpoint), judges with the pure rules (``bot.games.garden``), and writes
back only the rows that changed: a multiset difference of the rows before
and after, so a post's writes are what it did, whatever the game's age.

Each table is a list of ``bot.games.garden.serialize``'s JSON state, one
column per field: ``garden_plant``, ``garden_fruit``, ``garden_permission``
(rule 636: grantor, grantee, scope, from and until when),
``garden_free_throw`` (1908 B.3: owner, picker, until when, why); the
smaller records (a player's Garden, a watering payment, a Checking
Period's picks, a lasting effect, a quota's count, the counters) are
``garden_record`` rows of a ``kind``, their fields as JSON.  The stored
state and the pure one convert exactly; the Town Square's key, None in the
pure rules, is the empty string in a Plant's row.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from bot.games.garden import GardenState, state_from_json, state_to_json
from bot.games.garden.serialize import FORMAT
from bot.store.models import (
    GardenFreeThrowRow,
    GardenFruitRow,
    GardenPermissionRow,
    GardenPlantRow,
    GardenRecordRow,
)

Model = (
    type[GardenPlantRow]
    | type[GardenFruitRow]
    | type[GardenPermissionRow]
    | type[GardenFreeThrowRow]
    | type[GardenRecordRow]
)
Row = GardenPlantRow | GardenFruitRow | GardenPermissionRow | GardenFreeThrowRow | GardenRecordRow
Item = list[Any]  # one item of a list of the JSON state


@dataclass(frozen=True)
class Table:
    """How one list of the JSON state is stored: its model, columns and conversions."""

    model: Model
    columns: tuple[str, ...]
    to_row: Callable[[Item], Item]  # an item as the row's column values, in order
    from_row: Callable[[Item], Item]


def _plant_row(item: Item) -> Item:
    number, kind, garden, (ndays, second) = item
    return [number, kind, "" if garden is None else garden, ndays, second]


def _plant_item(row: Item) -> Item:
    number, kind, garden, ndays, second = row
    return [number, kind, None if garden == "" else garden, [ndays, second]]


def _fruit_row(item: Item) -> Item:
    number, kind, (ndays, second), plant, holder, rotten = item
    return [number, kind, ndays, second, plant, holder, rotten]


def _fruit_item(row: Item) -> Item:
    number, kind, ndays, second, plant, holder, rotten = row
    return [number, kind, [ndays, second], plant, holder, rotten]


def _permission_row(item: Item) -> Item:
    grantor, grantee, scope, (ndays, second), ends = item
    return [grantor, grantee, scope, ndays, second, *(ends or (None, None))]


def _permission_item(row: Item) -> Item:
    grantor, grantee, scope, ndays, second, end_ndays, end_second = row
    ends = None if end_ndays is None else [end_ndays, end_second]
    return [grantor, grantee, scope, [ndays, second], ends]


def _free_throw_row(item: Item) -> Item:
    owner, picker, (ndays, second), cause = item
    return [owner, picker, ndays, second, cause]


def _free_throw_item(row: Item) -> Item:
    owner, picker, ndays, second, cause = row
    return [owner, picker, [ndays, second], cause]


TABLES = {
    "plants": Table(
        GardenPlantRow,
        ("number", "kind", "garden", "planted_ndays", "planted_second"),
        _plant_row,
        _plant_item,
    ),
    "fruits": Table(
        GardenFruitRow,
        ("number", "kind", "created_ndays", "created_second", "plant", "holder", "rotten"),
        _fruit_row,
        _fruit_item,
    ),
    "permissions": Table(
        GardenPermissionRow,
        ("grantor", "grantee", "scope", "begins_ndays", "begins_second")
        + ("ends_ndays", "ends_second"),
        _permission_row,
        _permission_item,
    ),
    "free_throws": Table(
        GardenFreeThrowRow,
        ("owner", "picker", "expires_ndays", "expires_second", "cause"),
        _free_throw_row,
        _free_throw_item,
    ),
}
RECORDS = "records"  # the ``garden_record`` table's key in a ``RowKey``
RECORD_COLUMNS = ("kind", "player", "data")
# The lists of the JSON state kept as ``garden_record`` rows, by their ``kind``.
RECORD_LISTS = ("watering", "picks", "effects", "quotas")
PLAYER, COUNTERS = "player", "counters"

RowKey = tuple[str, str]  # (a key of TABLES or RECORDS, the row's values as canonical JSON)


def _canonical(values: object) -> str:
    return json.dumps(values, sort_keys=True, separators=(",", ":"))


def rows_of(state: GardenState) -> list[RowKey]:
    """Every row ``state`` is stored as."""
    data = state_to_json(state)
    rows = [
        (name, _canonical(table.to_row(item)))
        for name, table in TABLES.items()
        for item in data[name]
    ]
    for position, player in enumerate(data["players"]):
        rows.append((RECORDS, _canonical([PLAYER, player, [player, position]])))
    for kind in RECORD_LISTS:
        rows.extend((RECORDS, _canonical([kind, item[0], item])) for item in data[kind])
    counters = {"next_number": data["next_number"], "watering_period": data["watering_period"]}
    rows.append((RECORDS, _canonical([COUNTERS, "", counters])))
    return rows


def state_of(rows: Iterable[RowKey]) -> GardenState | None:
    """The state stored as ``rows``, in the order given; None when nothing is stored yet."""
    data: dict[str, Any] = {"format": FORMAT, **{name: [] for name in (*TABLES, *RECORD_LISTS)}}
    players: list[tuple[int, str]] = []
    counters: dict[str, int] | None = None
    for name, values in rows:
        row = json.loads(values)
        if name in TABLES:
            data[name].append(TABLES[name].from_row(row))
        elif row[0] == PLAYER:
            players.append((row[2][1], row[2][0]))
        elif row[0] == COUNTERS:
            counters = row[2]
        else:
            data[row[0]].append(row[2])
    if counters is None:
        return None
    data["plants"].sort(key=lambda plant: plant[0])  # Plants and Fruit by number
    data["fruits"].sort(key=lambda fruit: fruit[0])
    data["players"] = [player for _, player in sorted(players)]
    data.update(counters)
    return state_from_json(data)


def _model_and_columns(name: str) -> tuple[Model, tuple[str, ...]]:
    if name == RECORDS:
        return GardenRecordRow, RECORD_COLUMNS
    return TABLES[name].model, TABLES[name].columns


@dataclass
class StoredGardens:
    """The rows a unit of work loaded, by value, with their ids, so a save writes the changes."""

    ids: dict[RowKey, list[int]] = field(default_factory=dict)

    def load(self, session: Session) -> GardenState | None:
        """The stored state (None before the Gardens begin)."""
        self.ids = {}
        for name in (*TABLES, RECORDS):
            model, columns = _model_and_columns(name)
            rows: Iterable[Row] = session.scalars(select(model).order_by(model.id))
            for row in rows:
                values = [getattr(row, column) for column in columns]
                self.ids.setdefault((name, _canonical(values)), []).append(row.id)
        return state_of(key for key, ids in self.ids.items() for _ in ids)

    def save(self, session: Session, state: GardenState) -> int:
        """Delete the rows ``state`` no longer has and add those it gained; how many."""
        before = Counter({key: len(ids) for key, ids in self.ids.items()})
        after = Counter(rows_of(state))
        gone, added = before - after, after - before
        for key, count in gone.items():
            model, _columns = _model_and_columns(key[0])
            for _ in range(count):
                row_id = self.ids[key].pop()
                session.execute(delete(model).where(model.id == row_id))
        for key, count in added.items():
            for _ in range(count):
                self.ids.setdefault(key, []).append(_insert(session, key))
        return gone.total() + added.total()


def _insert(session: Session, key: RowKey) -> int:
    model, columns = _model_and_columns(key[0])
    row: Row = model(**dict(zip(columns, json.loads(key[1]), strict=True)))
    session.add(row)
    session.flush()
    return row.id
