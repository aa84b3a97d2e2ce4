"""Field Matches, Field states and Turn records as JSON-ready dicts, and back.

A match document is stored and amended as this JSON (seed 003: "A proposal
may create, modify, or destroy a Field Match"), so changing Life's size or
its chance of a null Cell is an edit of data.  Tuples become lists; reading
turns lists back into tuples so values compare equal after a round trip.
Readers raise ``ValueError`` for data the writers could not have produced.
"""

from __future__ import annotations

from typing import Any

from bot.games.field.actions import MatchEnding, Request
from bot.games.field.match import ActionSpec, AttributeSpec, FieldMatch, ObjectType, Parameter
from bot.games.field.objects import Attributes, AttributeValue, FieldObject
from bot.games.field.squares import Adjacency
from bot.games.field.state import ActionRecord, FieldState
from bot.games.field.turning import PriorityEntry, Refusal, TurnRecord


def match_to_json(match: FieldMatch) -> dict[str, Any]:
    return {
        "name": match.name,
        "rules": match.rules,
        "rows": match.rows,
        "columns": match.columns,
        "torus": match.torus,
        "adjacency": match.adjacency.value,
        "communication": match.communication,
        "trophy": match.trophy,
        "object_types": [_object_type_to_json(kind) for kind in match.object_types],
        "field_actions": [_action_to_json(action) for action in match.field_actions],
        "attributes": [_attribute_spec_to_json(spec) for spec in match.attributes],
        "parameters": {name: _plain(value) for name, value in match.parameters},
    }


def match_from_json(data: dict[str, Any]) -> FieldMatch:
    try:
        return FieldMatch(
            name=str(data["name"]),
            rules=str(data["rules"]),
            rows=int(data["rows"]),
            columns=int(data["columns"]),
            torus=bool(data["torus"]),
            adjacency=Adjacency(int(data["adjacency"])),
            communication=str(data["communication"]),
            trophy=str(data.get("trophy", "")),
            object_types=tuple(_object_type_from_json(kind) for kind in data["object_types"]),
            field_actions=tuple(_action_from_json(action) for action in data["field_actions"]),
            attributes=tuple(_attribute_spec_from_json(spec) for spec in data["attributes"]),
            parameters=tuple((str(k), _parameter(v)) for k, v in data["parameters"].items()),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"malformed Field Match: {error!r}") from error


def state_to_json(state: FieldState) -> dict[str, Any]:
    return {
        "match": None if state.match is None else match_to_json(state.match),
        "objects": [_object_to_json(item) for item in state.objects],
        "field_attributes": dict(state.field_attributes.items),
        "player_attributes": {name: dict(found.items) for name, found in state.player_attributes},
        "next_object_id": state.next_object_id,
        "turn_number": state.turn_number,
        "history": [_record_to_json(record) for record in state.history],
    }


def state_from_json(data: dict[str, Any]) -> FieldState:
    try:
        match = data["match"]
        return FieldState(
            match=None if match is None else match_from_json(match),
            objects=tuple(_object_from_json(item) for item in data["objects"]),
            field_attributes=_attributes(data["field_attributes"]),
            player_attributes=tuple(
                (str(name), _attributes(found))
                for name, found in sorted(data["player_attributes"].items())
            ),
            next_object_id=int(data["next_object_id"]),
            turn_number=int(data["turn_number"]),
            history=tuple(_record_from_json(record) for record in data["history"]),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"malformed Field state: {error!r}") from error


def turn_record_to_json(record: TurnRecord) -> dict[str, Any]:
    ending = record.ending
    return {
        "number": record.number,
        "nweek": record.nweek,
        "requests": [_request_to_json(request) for request in record.requests],
        "priority_order": [[entry.object_id, entry.label] for entry in record.priority_order],
        "carried_out": [_record_to_json(done) for done in record.carried_out],
        "refusals": [
            {"request": _request_to_json(r.request), "message": r.message, "rule": r.rule}
            for r in record.refusals
        ],
        "ending": None
        if ending is None
        else {"match": ending.match_name, "winners": list(ending.winners), "reason": ending.reason},
    }


def turn_record_from_json(data: dict[str, Any]) -> TurnRecord:
    try:
        ending = data["ending"]
        return TurnRecord(
            number=int(data["number"]),
            nweek=int(data["nweek"]),
            requests=tuple(_request_from_json(request) for request in data["requests"]),
            priority_order=tuple(
                PriorityEntry(int(entry[0]), str(entry[1])) for entry in data["priority_order"]
            ),
            carried_out=tuple(_record_from_json(done) for done in data["carried_out"]),
            refusals=tuple(
                Refusal(_request_from_json(r["request"]), str(r["message"]), str(r["rule"]))
                for r in data["refusals"]
            ),
            ending=None
            if ending is None
            else MatchEnding(str(ending["match"]), tuple(ending["winners"]), str(ending["reason"])),
        )
    except (KeyError, TypeError, IndexError) as error:
        raise ValueError(f"malformed Turn record: {error!r}") from error


def _plain(value: Parameter) -> Any:
    return [_plain(item) for item in value] if isinstance(value, tuple) else value


def _parameter(value: Any) -> Parameter:
    if isinstance(value, list):
        return tuple(_parameter(item) for item in value)
    if value is None or isinstance(value, str | int | bool):
        return value
    raise TypeError(f"parameter value {value!r} is not text, a number, a flag or a list")


def _attribute_value(value: Any) -> AttributeValue:
    if value is None or isinstance(value, str | int | bool):
        return value
    raise TypeError(f"attribute value {value!r} is not text, a number or a flag")


def _attributes(data: dict[str, Any]) -> Attributes:
    return Attributes.of((str(name), _attribute_value(value)) for name, value in data.items())


def _action_to_json(action: ActionSpec) -> dict[str, Any]:
    return {
        "name": action.name,
        "invokable": action.invokable,
        "ends_match": action.ends_match,
        "on_start": action.on_start,
        "text": action.text,
    }


def _action_from_json(data: dict[str, Any]) -> ActionSpec:
    return ActionSpec(
        name=str(data["name"]),
        invokable=bool(data["invokable"]),
        ends_match=bool(data["ends_match"]),
        on_start=bool(data["on_start"]),
        text=str(data["text"]),
    )


def _object_type_to_json(kind: ObjectType) -> dict[str, Any]:
    return {
        "name": kind.name,
        "size": list(kind.size),
        "actions": [_action_to_json(action) for action in kind.actions],
    }


def _object_type_from_json(data: dict[str, Any]) -> ObjectType:
    rows, columns = data["size"]
    actions = tuple(_action_from_json(action) for action in data["actions"])
    return ObjectType(str(data["name"]), actions, (int(rows), int(columns)))


def _attribute_spec_to_json(spec: AttributeSpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "scope": spec.scope,
        "values": list(spec.values),
        "default": spec.default,
    }


def _attribute_spec_from_json(data: dict[str, Any]) -> AttributeSpec:
    values = tuple(_attribute_value(value) for value in data["values"])
    return AttributeSpec(
        str(data["name"]), str(data["scope"]), values, _attribute_value(data["default"])
    )


def _object_to_json(item: FieldObject) -> dict[str, Any]:
    return {
        "id": item.object_id,
        "kind": item.kind,
        "owner": item.owner,
        "square": item.square,
        "size": list(item.size),
        "attributes": dict(item.attributes.items),
    }


def _object_from_json(data: dict[str, Any]) -> FieldObject:
    rows, columns = data["size"]
    owner, square = data["owner"], data["square"]
    return FieldObject(
        object_id=int(data["id"]),
        kind=str(data["kind"]),
        owner=None if owner is None else str(owner),
        square=None if square is None else int(square),
        size=(int(rows), int(columns)),
        attributes=_attributes(data["attributes"]),
    )


def _record_to_json(record: ActionRecord) -> dict[str, Any]:
    return {
        "turn": record.turn,
        "nweek": record.nweek,
        "action": record.action,
        "invoker": record.invoker,
        "object_id": record.object_id,
        "summary": record.summary,
    }


def _record_from_json(data: dict[str, Any]) -> ActionRecord:
    invoker, object_id = data["invoker"], data["object_id"]
    return ActionRecord(
        turn=int(data["turn"]),
        nweek=int(data["nweek"]),
        action=str(data["action"]),
        invoker=None if invoker is None else str(invoker),
        object_id=None if object_id is None else int(object_id),
        summary=str(data["summary"]),
    )


def _request_to_json(request: Request) -> dict[str, Any]:
    return {
        "invoker": request.invoker,
        "action": request.action,
        "target": request.target,
        "arguments": list(request.arguments),
        "text": request.text,
    }


def _request_from_json(data: dict[str, Any]) -> Request:
    target = data["target"]
    return Request(
        invoker=str(data["invoker"]),
        action=str(data["action"]),
        target=None if target is None else int(target),
        arguments=tuple(str(argument) for argument in data["arguments"]),
        text=str(data["text"]),
    )
