"""Field Matches as Game Documents (seed 003, "Field Matches").

A ``FieldMatch`` is data only: its name, the Field's size, torus and
adjacency, its attributes, object types and actions (by name, in the order
the document lists them, which is the order Turning the Field uses), its
means of communication and its parameters (costs, weights, tables).  A
proposal that amends a match amends this value; the code of a match is the
``MatchRules`` that ``rules`` names, looked up by the engine.

Readings:

* "Specify one action whose effect [is] to cause the end of that Field
  Match": at least one action is marked ``ends_match``.
* "including at least one Invokable Action": anywhere in the match, on The
  Field or on an object type.
* Actions run "when that Field Match becomes current" are the Field actions
  marked ``on_start``, carried out in listed order; neither seed match has
  one (both Initialize actions are invoked by the Referee).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from bot.games.field.objects import AttributeValue
from bot.games.field.squares import Adjacency, FieldGeometry

Parameter: TypeAlias = str | int | bool | None | tuple["Parameter", ...]

SCOPE_FIELD = "Field"
SCOPE_PLAYERS = "Players"


@dataclass(frozen=True)
class ActionSpec:
    """An action as the document lists it; its Trigger and Effect are in ``text``."""

    name: str
    invokable: bool = False
    ends_match: bool = False
    on_start: bool = False
    text: str = ""


@dataclass(frozen=True)
class ObjectType:
    """A type of Field Object with its actions in listed order and its Size."""

    name: str
    actions: tuple[ActionSpec, ...] = ()
    size: tuple[int, int] = (1, 1)


@dataclass(frozen=True)
class AttributeSpec:
    """An attribute the match defines: ``scope`` is "Field", "Players" or an object type.

    ``values`` is the Range (None stands for "null"); empty means any value.
    """

    name: str
    scope: str
    values: tuple[AttributeValue, ...] = ()
    default: AttributeValue = None


@dataclass(frozen=True)
class FieldMatch:
    """A Field Match document.  ``rules`` names the code that implements its actions."""

    name: str
    rules: str
    rows: int
    columns: int
    communication: str
    object_types: tuple[ObjectType, ...] = ()
    field_actions: tuple[ActionSpec, ...] = ()
    attributes: tuple[AttributeSpec, ...] = ()
    torus: bool = True
    adjacency: Adjacency = Adjacency.FOUR
    trophy: str = ""
    parameters: tuple[tuple[str, Parameter], ...] = ()

    @property
    def geometry(self) -> FieldGeometry:
        """The Field this match specifies; ``ValueError`` if its size is impossible."""
        return FieldGeometry(self.rows, self.columns, self.torus, self.adjacency)

    def parameter(self, name: str) -> Parameter:
        """The parameter ``name``; ``KeyError`` if the document lacks it (a defect)."""
        for key, value in self.parameters:
            if key == name:
                return value
        raise KeyError(f"Field Match {self.name!r} has no parameter {name!r}")

    def object_type(self, name: str) -> ObjectType | None:
        return next((kind for kind in self.object_types if kind.name == name), None)

    def attribute_spec(self, name: str, scope: str) -> AttributeSpec | None:
        return next(
            (spec for spec in self.attributes if spec.name == name and spec.scope == scope),
            None,
        )

    def all_actions(self) -> tuple[ActionSpec, ...]:
        """The Field's actions, then each object type's, in document order."""
        return self.field_actions + tuple(
            action for kind in self.object_types for action in kind.actions
        )


def validate_match(match: FieldMatch) -> tuple[str, ...]:
    """Why ``match`` is not a valid Field Match (seed 003), or () if it is.

    A finding is an outcome, not a defect, so nothing is raised.
    """
    problems: list[str] = []
    if not match.name.strip():
        problems.append("it has no name")
    problems.extend(_size_problems(match))
    if not match.object_types:
        problems.append("it describes no type of Field Object")
    actions = match.all_actions()
    if not any(action.invokable for action in actions):
        problems.append("it has no Invokable Action")
    if not any(action.ends_match for action in actions):
        problems.append("no action's effect ends the match")
    if not match.communication.strip():
        problems.append("it specifies no means of communication for Invokable Actions")
    problems.extend(_duplicate_problems(match))
    return tuple(problems)


def _size_problems(match: FieldMatch) -> list[str]:
    try:
        match.geometry  # noqa: B018 - constructing it validates the size
    except ValueError as error:
        return [f"its size is impossible: {error}"]
    return []


def _duplicate_problems(match: FieldMatch) -> list[str]:
    problems: list[str] = []
    kinds = [kind.name for kind in match.object_types]
    problems.extend(f"object type {name} is described twice" for name in _repeated(kinds))
    owners = [(SCOPE_FIELD, match.field_actions)] + [
        (kind.name, kind.actions) for kind in match.object_types
    ]
    for owner, actions in owners:
        names = [action.name for action in actions]
        problems.extend(f"{owner} has two actions named {name}" for name in _repeated(names))
    for action in match.all_actions():
        if action.on_start and action not in match.field_actions:
            problems.append(f"start-up action {action.name} is not an action of The Field")
    return problems


def _repeated(names: list[str]) -> list[str]:
    return sorted({name for name in names if names.count(name) > 1})
