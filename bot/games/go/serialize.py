"""A ``GoState`` as JSON-able data and back, exactly.

Stones are keyed by point name ("G3") for readability.  Positions in the ko
history are strings of marks, one character per point from A1 along each row
up to the top right, "." for empty; player marks are unique and stored, so
this is exact and half the size of hex.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from bot.games.go.parameters import GoParameters
from bot.games.go.state import (
    Alliance,
    GoState,
    History,
    PlayerRecord,
    PositionRecord,
    with_position_recorded,
)

FORMAT = "political-go/1"
_EMPTY_MARK = "."
# The fields stored, in the order ``dataclasses.asdict`` lists them.
_PARAMETER_FIELDS = tuple(field.name for field in fields(GoParameters))
_PLAYER_FIELDS = tuple(field.name for field in fields(PlayerRecord))


def state_to_json(state: GoState, *, include_history: bool = True) -> dict[str, Any]:
    """``state`` as a dictionary of JSON types (str, int, None, list, dict).

    Without ``include_history`` the ko history is left out (a store may keep
    it elsewhere, one row per position: see ``position_to_json``).
    """
    names = state.parameters.point_names
    owners = [record.name for record in state.players]
    # As ``state.stones`` lists them, by point, named as ``format_point`` writes.
    stones = {names[point]: owners[code - 1] for point, code in enumerate(state.board) if code}
    data = {
        "format": FORMAT,
        "parameters": _fields_to_json(state.parameters, _PARAMETER_FIELDS),
        "players": [_fields_to_json(record, _PLAYER_FIELDS) for record in state.players],
        "stones": stones,
        "alliances": _alliances_to_json(state.alliances),
        "pending_consents": sorted([list(pair) for pair in state.pending_consents]),
        "move_number": state.move_number,
        "last_move_was_pass": state.last_move_was_pass,
        "stones_quiet_since": state.stones_quiet_since,
    }
    if include_history:
        data["history"] = [position_to_json(state, record) for record in _history_records(state)]
    return data


def state_from_json(data: Mapping[str, Any]) -> GoState:
    """The state ``state_to_json`` described; raises ``ValueError`` if ``data``
    is not in this format."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a Political Go state in format {FORMAT}: {data.get('format')!r}")
    parameters = GoParameters(**data["parameters"])
    players = tuple(PlayerRecord(**record) for record in data["players"])
    codes = {record.name: code for code, record in enumerate(players, start=1)}
    board = bytearray(parameters.point_count)
    points = parameters.points_by_name
    for name, owner in data["stones"].items():
        # Stored names are ``format_point``'s, found in the table; any other
        # text is read (or refused) as a player's would be.
        point = points.get(name)
        board[parameters.parse_point(name) if point is None else point] = codes[owner]
    return GoState(
        parameters=parameters,
        board=bytes(board),
        players=players,
        alliances=_alliances_from_json(data["alliances"]),
        pending_consents=frozenset((first, second) for first, second in data["pending_consents"]),
        move_number=data["move_number"],
        history=_history_from_json(data.get("history", ()), players),
        # Absent from JSON stored before rule 1639 F was implemented; the
        # defaults say "no pass last, no stone period known yet".
        last_move_was_pass=data.get("last_move_was_pass", False),
        stones_quiet_since=data.get("stones_quiet_since"),
    )


def _fields_to_json(value: object, names: tuple[str, ...]) -> dict[str, Any]:
    """A dataclass of plain values (str, int, bool, None) as a dictionary, fields in order.

    What ``dataclasses.asdict`` gives for such values, without its deep copy
    of each (a copy of a str or an int is itself).
    """
    return {name: getattr(value, name) for name in names}


def _alliances_to_json(alliances: frozenset[Alliance]) -> list[list[str]]:
    return sorted(sorted(pair) for pair in alliances)


def _alliances_from_json(pairs: Sequence[Sequence[str]]) -> frozenset[Alliance]:
    return frozenset(frozenset(pair) for pair in pairs)


def _history_records(state: GoState) -> list[PositionRecord]:
    # Grouped by occupancy key, in the order the keys were first seen; loading
    # rebuilds the same groups in the same order.
    return [record for records in state.history.values() for record in records]


def history_records(state: GoState) -> list[PositionRecord]:
    """Every position in the ko history, in the order the keys were first seen."""
    return _history_records(state)


def position_to_json(state: GoState, record: PositionRecord) -> dict[str, Any]:
    """One history position: the board as a string of marks, the alliances and,
    when known, the number of the Move after which it arose."""
    marks = (_EMPTY_MARK, *(player.mark for player in state.players))
    data: dict[str, Any] = {
        "board": "".join(marks[code] for code in record.board),
        "alliances": _alliances_to_json(record.alliances),
    }
    if record.move_number is not None:
        data["move_number"] = record.move_number
    return data


def _history_from_json(
    positions: Sequence[Mapping[str, Any]], players: Sequence[PlayerRecord]
) -> History:
    codes = {_EMPTY_MARK: 0} | {record.mark: code for code, record in enumerate(players, start=1)}
    history: History = {}
    for position in positions:
        board = bytes(codes[mark] for mark in position["board"])
        alliances = _alliances_from_json(position["alliances"])
        record = PositionRecord(board, alliances, position.get("move_number"))
        history = with_position_recorded(history, record)
    return history
