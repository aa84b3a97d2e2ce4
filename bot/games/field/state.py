"""The state of The Field: the Current Field Match, its objects and attributes.

``FieldState.objects`` is kept in Priority List order (seed 003, "Field
Matches"): the Priority List is "a list of all Field Objects currently in
existence", so holding the objects in that order makes the two impossible to
disagree.  Effects create and destroy objects with the helpers here; Turning
the Field (``turning``) then moves each batch of new objects to the bottom in
a recorded random order.

``history`` holds every action carried out in the current match, because
triggers ask about the past: Life's "has not already performed the Tweak
action during the current nweek", B-Chess's "has never been invoked before in
the current Field Match".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.games.field.match import SCOPE_FIELD, SCOPE_PLAYERS, FieldMatch
from bot.games.field.objects import (
    Attributes,
    AttributeValue,
    FieldObject,
    ObjectId,
    PlayerId,
    squares_occupied,
)
from bot.games.field.squares import FieldGeometry, Square
from bot.games.lost_souls import lost_soul_label


@dataclass(frozen=True)
class ActionRecord:
    """One action carried out: in which Turn and nweek, by whose request, on what.

    ``invoker`` is the Outsider whose request triggered it (None when its
    trigger is a condition of the state); ``object_id`` the Field Object whose
    action it is (None for an action of The Field).
    """

    turn: int
    nweek: int
    action: str
    invoker: PlayerId | None
    object_id: ObjectId | None
    summary: str


@dataclass(frozen=True)
class FieldState:
    """The Field, its objects (in Priority List order) and the match's attributes."""

    match: FieldMatch | None = None
    objects: tuple[FieldObject, ...] = ()
    field_attributes: Attributes = Attributes()
    player_attributes: tuple[tuple[PlayerId, Attributes], ...] = ()
    next_object_id: ObjectId = 1
    turn_number: int = 0
    history: tuple[ActionRecord, ...] = ()

    @property
    def current_match(self) -> FieldMatch:
        """The Current Field Match; ``ValueError`` if there is none (callers check first)."""
        if self.match is None:
            raise ValueError("there is no Current Field Match")
        return self.match

    @property
    def geometry(self) -> FieldGeometry:
        return self.current_match.geometry

    @property
    def priority_list(self) -> tuple[ObjectId, ...]:
        return tuple(field_object.object_id for field_object in self.objects)


def object_by_id(state: FieldState, object_id: ObjectId) -> FieldObject | None:
    return next((item for item in state.objects if item.object_id == object_id), None)


def objects_at(state: FieldState, square: Square) -> tuple[FieldObject, ...]:
    """The placed objects covering ``square``, in Priority List order."""
    geometry = state.geometry
    return tuple(item for item in state.objects if square in squares_occupied(item, geometry))


def objects_of_kind(state: FieldState, kind: str) -> tuple[FieldObject, ...]:
    return tuple(item for item in state.objects if item.kind == kind)


def create_object(
    state: FieldState,
    kind: str,
    *,
    owner: PlayerId | None = None,
    square: Square | None = None,
    attributes: Iterable[tuple[str, AttributeValue]] = (),
) -> tuple[FieldState, FieldObject]:
    """A new object of ``kind`` at the bottom of the Priority List.

    Attributes the match defines for ``kind`` start at their defaults.
    Raises ``ValueError`` if the match has no such object type (a defect).
    """
    match = state.current_match
    object_type = match.object_type(kind)
    if object_type is None:
        raise ValueError(f"Field Match {match.name} has no object type {kind!r}")
    defaults = [(spec.name, spec.default) for spec in match.attributes if spec.scope == kind]
    created = FieldObject(
        object_id=state.next_object_id,
        kind=kind,
        owner=owner,
        square=square,
        size=object_type.size,
        attributes=Attributes.of([*defaults, *attributes]),
    )
    for name, value in created.attributes.items:
        _check_value(match, kind, name, value)
    new_state = replace(
        state, objects=(*state.objects, created), next_object_id=state.next_object_id + 1
    )
    return new_state, created


def destroy_object(state: FieldState, object_id: ObjectId) -> FieldState:
    """``state`` without the object (and so without it on the Priority List)."""
    kept = tuple(item for item in state.objects if item.object_id != object_id)
    if len(kept) == len(state.objects):
        raise ValueError(f"no Field Object {object_id} to destroy")
    return replace(state, objects=kept)


def replace_object(state: FieldState, changed: FieldObject) -> FieldState:
    """``state`` with ``changed`` in place of the object with its id, keeping its priority."""
    if object_by_id(state, changed.object_id) is None:
        raise ValueError(f"no Field Object {changed.object_id} to change")
    for name, value in changed.attributes.items:
        _check_value(state.current_match, changed.kind, name, value)
    objects = tuple(
        changed if item.object_id == changed.object_id else item for item in state.objects
    )
    return replace(state, objects=objects)


def field_attribute(state: FieldState, name: str) -> AttributeValue:
    """An attribute of The Field, or the match's default for it."""
    spec = state.current_match.attribute_spec(name, SCOPE_FIELD)
    return state.field_attributes.get(name, None if spec is None else spec.default)


def with_field_attribute(state: FieldState, name: str, value: AttributeValue) -> FieldState:
    _check_value(state.current_match, SCOPE_FIELD, name, value)
    return replace(state, field_attributes=state.field_attributes.with_value(name, value))


def player_attribute(state: FieldState, player: PlayerId, name: str) -> AttributeValue:
    """A player's attribute in the current match, or the match's default for it."""
    spec = state.current_match.attribute_spec(name, SCOPE_PLAYERS)
    default = None if spec is None else spec.default
    return _attributes_of(state, player).get(name, default)


def with_player_attribute(
    state: FieldState, player: PlayerId, name: str, value: AttributeValue
) -> FieldState:
    _check_value(state.current_match, SCOPE_PLAYERS, name, value)
    changed = _attributes_of(state, player).with_value(name, value)
    others = tuple(pair for pair in state.player_attributes if pair[0] != player)
    ordered = sorted((*others, (player, changed)), key=lambda pair: pair[0])
    return replace(state, player_attributes=tuple(ordered))


def actions_performed(
    state: FieldState,
    action: str,
    *,
    invoker: PlayerId | None = None,
    nweek: int | None = None,
) -> tuple[ActionRecord, ...]:
    """The records of ``action`` in the current match, optionally by one invoker or nweek."""
    return tuple(
        record
        for record in state.history
        if record.action == action
        and (invoker is None or record.invoker == invoker)
        and (nweek is None or record.nweek == nweek)
    )


def _attributes_of(state: FieldState, player: PlayerId) -> Attributes:
    return next((found for name, found in state.player_attributes if name == player), Attributes())


def _check_value(match: FieldMatch, scope: str, name: str, value: AttributeValue) -> None:
    # An attribute outside its Range would be an effect "in conflict with the
    # rules"; only code can produce one, so it is a defect, not a ruling.
    spec = match.attribute_spec(name, scope)
    if spec is not None and spec.values and value not in spec.values:
        raise ValueError(f"{value!r} is outside the Range of {scope} attribute {name}")


def renamed(state: FieldState, old: PlayerId, new: PlayerId) -> FieldState:
    """``state`` with the player ``old`` called ``new`` (rule 151 of seed 004).

    A name change keeps the player, so eir Field Objects (B-Chess pieces),
    eir player attributes (Life's Team, B-Chess's "Times captured") and the
    match's history of eir requests (Life's one Tweak per nweek) follow the
    new name.  Attribute values are left alone: no match keeps a name in one.
    ``state`` itself when ``old`` is not in it.  Raises ``ValueError`` when
    ``new`` already has attributes (rule 2: names are unique; a defect).
    """
    if old == new or not _names_player(state, old):
        return state
    if any(name == new for name, _ in state.player_attributes):
        raise ValueError(f"{new!r} already has player attributes in the Field")
    objects = tuple(
        replace(item, owner=new) if item.owner == old else item for item in state.objects
    )
    attributes = sorted(
        ((new if name == old else name, found) for name, found in state.player_attributes),
        key=lambda pair: pair[0],
    )
    history = tuple(
        replace(record, invoker=new) if record.invoker == old else record
        for record in state.history
    )
    return replace(state, objects=objects, player_attributes=tuple(attributes), history=history)


def _names_player(state: FieldState, name: PlayerId) -> bool:
    return (
        any(item.owner == name for item in state.objects)
        or any(player == name for player, _ in state.player_attributes)
        or any(record.invoker == name for record in state.history)
    )


@dataclass(frozen=True)
class FieldForfeiture:
    """What a forfeit took from the Field: the Lost Soul's Field Objects (in
    Priority List order) and the names of eir player attributes."""

    player: PlayerId
    objects: tuple[FieldObject, ...] = ()
    attributes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.objects or self.attributes)


def forfeited(state: FieldState, name: PlayerId) -> tuple[FieldState, FieldForfeiture]:
    """``state`` after ``name`` forfeited (rule 14 of seed 004), and what e lost.

    Rule 14 takes "all game defined properties and attributes": the Field
    Objects e owns (B-Chess's King and pieces, placed or waiting) are
    destroyed, leaving the Priority List (seed 003), and eir player
    attributes (Life's Team, B-Chess's Times captured) are gone.  The
    match's record of eir requests stays, as a Lost Soul's
    (``lost_soul_label``): it tells what happened, but neither e on
    rejoining nor a later player of eir name inherits it (Life's one Tweak
    per nweek is a new player's).  ``state`` itself when nothing names em.
    """
    if not _names_player(state, name):
        return state, FieldForfeiture(name)
    owned = tuple(item for item in state.objects if item.owner == name)
    attributes = _attributes_of(state, name).names()
    label = lost_soul_label(name)
    history = tuple(
        replace(record, invoker=label) if record.invoker == name else record
        for record in state.history
    )
    after = replace(
        state,
        objects=tuple(item for item in state.objects if item.owner != name),
        player_attributes=tuple(pair for pair in state.player_attributes if pair[0] != name),
        history=history,
    )
    return after, FieldForfeiture(name, owned, attributes)
