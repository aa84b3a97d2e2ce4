"""A ``GardenState`` as JSON-able data and back, exactly.

Moments are ``[ndays, second]`` (Clock time), the Town Square's key is
null, effects' operations their values; quota counts are lists of
``[player, action, period, count]``.  The engine stores it so a replay of the
archive rebuilds the same Gardens.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.economy import Effect, Effects, Moment, Operation, Permission, Permissions, Quotas
from bot.games.garden.plants import Fruit, Plant
from bot.games.garden.state import ForeignPicks, FreeThrow, GardenState

FORMAT = "gardens/1"


def state_to_json(state: GardenState) -> dict[str, Any]:
    """``state`` as a dictionary of JSON types (str, int, bool, None, list, dict)."""
    return {
        "format": FORMAT,
        "players": list(state.players),
        "plants": [[p.number, p.kind, p.garden, _moment(p.planted)] for p in state.plants],
        "fruits": [_fruit_to_json(fruit) for fruit in state.fruits],
        "watering_period": state.watering_period,
        "watering": [[garden, amount] for garden, amount in state.watering],
        "picks": [[r.player, r.period, list(r.gardens), r.slowly] for r in state.picks],
        "free_throws": [
            [t.owner, t.picker, _moment(t.expires), t.cause] for t in state.free_throws
        ],
        "effects": [_effect_to_json(effect) for effect in state.effects.items],
        "permissions": [_permission_to_json(p) for p in state.permissions.items],
        "quotas": [[*key, count] for key, count in state.quotas.counts.items()],
        "next_number": state.next_number,
    } | ({"more_plants": True} if state.more_plants else {})


def state_from_json(data: Mapping[str, Any]) -> GardenState:
    """The state ``state_to_json`` described; raises ``ValueError`` if ``data`` is not in
    this format."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} state: {data.get('format')!r}")
    try:
        return GardenState(
            players=tuple(str(player) for player in data["players"]),
            plants=tuple(
                Plant(int(n), str(kind), garden, _from_moment(at))
                for n, kind, garden, at in data["plants"]
            ),
            fruits=tuple(_fruit_from_json(fruit) for fruit in data["fruits"]),
            watering_period=int(data["watering_period"]),
            watering=tuple((str(garden), int(amount)) for garden, amount in data["watering"]),
            picks=tuple(
                ForeignPicks(str(player), int(period), tuple(gardens), bool(slowly))
                for player, period, gardens, slowly in data["picks"]
            ),
            free_throws=tuple(
                FreeThrow(str(owner), str(picker), _from_moment(expires), str(cause))
                for owner, picker, expires, cause in data["free_throws"]
            ),
            effects=Effects(tuple(_effect_from_json(effect) for effect in data["effects"])),
            permissions=Permissions(tuple(_permission_from_json(p) for p in data["permissions"])),
            quotas=Quotas(
                {(str(p), str(a), int(period)): int(c) for p, a, period, c in data["quotas"]}
            ),
            next_number=int(data["next_number"]),
            more_plants=bool(data.get("more_plants", False)),  # rule 1918, absent when off
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"malformed {FORMAT} state: {error!r}") from error


def _moment(moment: Moment) -> list[int]:
    return [moment.ndays, moment.second]


def _from_moment(data: Any) -> Moment:
    ndays, second = data
    return Moment(int(ndays), int(second))


def _optional_moment(moment: Moment | None) -> list[int] | None:
    return None if moment is None else _moment(moment)


def _from_optional_moment(data: Any) -> Moment | None:
    return None if data is None else _from_moment(data)


def _fruit_to_json(fruit: Fruit) -> list[Any]:
    return [
        fruit.number,
        fruit.kind,
        _moment(fruit.created),
        fruit.plant,
        fruit.holder,
        fruit.rotten,
    ]


def _fruit_from_json(data: Any) -> Fruit:
    number, kind, created, on_plant, holder, rotten = data
    return Fruit(int(number), str(kind), _from_moment(created), on_plant, holder, bool(rotten))


def _effect_to_json(effect: Effect) -> list[Any]:
    return [
        effect.subject,
        effect.attribute,
        effect.operation.value,
        effect.amount,
        _moment(effect.begins),
        _optional_moment(effect.ends),
        effect.rule,
        effect.cause,
    ]


def _effect_from_json(data: Any) -> Effect:
    subject, attribute, operation, amount, begins, ends, rule, cause = data
    return Effect(
        str(subject),
        str(attribute),
        Operation(operation),
        int(amount),
        _from_moment(begins),
        _from_optional_moment(ends),
        str(rule),
        str(cause),
    )


def _permission_to_json(permission: Permission) -> list[Any]:
    return [
        permission.grantor,
        permission.grantee,
        permission.scope,
        _moment(permission.begins),
        _optional_moment(permission.ends),
    ]


def _permission_from_json(data: Any) -> Permission:
    grantor, grantee, scope, begins, ends = data
    return Permission(
        str(grantor), str(grantee), str(scope), _from_moment(begins), _from_optional_moment(ends)
    )
