"""The Gardens' state as rows (``garden_plant``, ``garden_fruit``, ``garden_record``).

A post loads the living Plants, the existing Fruit and the records that
still matter (``GardenState.without_expired`` forgets the others at each
Checkpoint), judges with the pure rules (``bot.games.garden``), and writes
back only the rows that changed: a multiset difference of the rows before
and after, so a post's writes are what it did, whatever the game's age.
The rows' values are what ``bot.games.garden.serialize`` writes, so the
stored state and the pure one convert exactly; the Town Square's key,
None in the pure rules, is the empty string in a row.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from bot.games.garden import GardenState, state_from_json, state_to_json
from bot.games.garden.serialize import FORMAT
from bot.store.models import GardenFruitRow, GardenPlantRow, GardenRecordRow

PLANTS, FRUITS, RECORDS = "plant", "fruit", "record"
# The lists of the JSON state kept as ``garden_record`` rows, by their ``kind``.
RECORD_LISTS = ("watering", "picks", "free_throws", "effects", "permissions", "quotas")
PLAYER, COUNTERS = "player", "counters"

RowKey = tuple[str, str]  # (table, the row's values as canonical JSON)


def _canonical(values: object) -> str:
    return json.dumps(values, sort_keys=True, separators=(",", ":"))


def _square_out(garden: str | None) -> str:
    return "" if garden is None else garden


def _square_in(garden: str) -> str | None:
    return None if garden == "" else garden


def rows_of(state: GardenState) -> list[RowKey]:
    """Every row ``state`` is stored as."""
    data = state_to_json(state)
    rows: list[RowKey] = []
    for number, kind, garden, planted in data["plants"]:
        rows.append((PLANTS, _canonical([number, kind, _square_out(garden), *planted])))
    for number, kind, created, plant, holder, rotten in data["fruits"]:
        rows.append((FRUITS, _canonical([number, kind, *created, plant, holder, rotten])))
    for position, player in enumerate(data["players"]):
        rows.append((RECORDS, _canonical([PLAYER, player, [player, position]])))
    for kind in RECORD_LISTS:
        for item in data[kind]:
            owner = item[0] if isinstance(item[0], str) else ""
            rows.append((RECORDS, _canonical([kind, owner, item])))
    counters = {"next_number": data["next_number"], "watering_period": data["watering_period"]}
    rows.append((RECORDS, _canonical([COUNTERS, "", counters])))
    return rows


def state_of(rows: Iterable[RowKey]) -> GardenState | None:
    """The state stored as ``rows``; None when nothing is stored yet."""
    data: dict[str, Any] = {"format": FORMAT, "players": [], "plants": [], "fruits": []}
    data.update({kind: [] for kind in RECORD_LISTS})
    players: list[tuple[int, str]] = []
    counters: Mapping[str, int] | None = None
    for table, values in rows:
        item = json.loads(values)
        if table == PLANTS:
            number, kind, garden, ndays, second = item
            data["plants"].append([number, kind, _square_in(garden), [ndays, second]])
        elif table == FRUITS:
            number, kind, ndays, second, plant, holder, rotten = item
            data["fruits"].append([number, kind, [ndays, second], plant, holder, rotten])
        elif item[0] == PLAYER:
            players.append((item[2][1], item[2][0]))
        elif item[0] == COUNTERS:
            counters = item[2]
        else:
            data[item[0]].append(item[2])
    if counters is None:
        return None
    data["plants"].sort(key=lambda plant: plant[0])
    data["fruits"].sort(key=lambda fruit: fruit[0])
    data["players"] = [player for _, player in sorted(players)]
    data.update(counters)
    return state_from_json(data)


@dataclass
class StoredGardens:
    """The rows a unit of work loaded, by value, with their ids, so a save writes the changes."""

    ids: dict[RowKey, list[int]] = field(default_factory=dict)

    def load(self, session: Session) -> GardenState | None:
        self.ids = {}
        for plant in session.scalars(select(GardenPlantRow).order_by(GardenPlantRow.id)):
            values = [
                plant.number,
                plant.kind,
                plant.garden,
                plant.planted_ndays,
                plant.planted_second,
            ]
            self._remember((PLANTS, _canonical(values)), plant.id)
        for fruit in session.scalars(select(GardenFruitRow).order_by(GardenFruitRow.id)):
            values = [
                fruit.number,
                fruit.kind,
                fruit.created_ndays,
                fruit.created_second,
                fruit.plant,
                fruit.holder,
                fruit.rotten,
            ]
            self._remember((FRUITS, _canonical(values)), fruit.id)
        for record in session.scalars(select(GardenRecordRow).order_by(GardenRecordRow.id)):
            self._remember(
                (RECORDS, _canonical([record.kind, record.player, record.data])), record.id
            )
        return state_of(key for key, ids in self.ids.items() for _ in ids)

    def save(self, session: Session, state: GardenState) -> int:
        """Delete the rows ``state`` no longer has and add those it gained; how many."""
        before = Counter({key: len(ids) for key, ids in self.ids.items()})
        after = Counter(rows_of(state))
        gone, added = before - after, after - before
        for key, count in gone.items():
            for _ in range(count):
                self._delete(session, key, self.ids[key].pop())
        for key, count in added.items():
            for _ in range(count):
                self._remember(key, self._insert(session, key))
        return gone.total() + added.total()

    def _remember(self, key: RowKey, row_id: int) -> None:
        self.ids.setdefault(key, []).append(row_id)

    @staticmethod
    def _delete(session: Session, key: RowKey, row_id: int) -> None:
        if key[0] == PLANTS:
            session.execute(delete(GardenPlantRow).where(GardenPlantRow.id == row_id))
        elif key[0] == FRUITS:
            session.execute(delete(GardenFruitRow).where(GardenFruitRow.id == row_id))
        else:
            session.execute(delete(GardenRecordRow).where(GardenRecordRow.id == row_id))

    @staticmethod
    def _insert(session: Session, key: RowKey) -> int:
        table, values = key
        item = json.loads(values)
        row: GardenPlantRow | GardenFruitRow | GardenRecordRow
        if table == PLANTS:
            number, kind, garden, ndays, second = item
            row = GardenPlantRow(
                number=number,
                kind=kind,
                garden=garden,
                planted_ndays=ndays,
                planted_second=second,
            )
        elif table == FRUITS:
            number, kind, ndays, second, plant, holder, rotten = item
            row = GardenFruitRow(
                number=number,
                kind=kind,
                created_ndays=ndays,
                created_second=second,
                plant=plant,
                holder=holder,
                rotten=rotten,
            )
        else:
            kind, player, data = item
            row = GardenRecordRow(kind=kind, player=player, data=data)
        session.add(row)
        session.flush()
        return row.id
