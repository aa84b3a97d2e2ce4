"""Objects and transfers: every object that is not a currency, and its history.

A Card (rule 384, seed 002), a Handy Pack and a Chip (seed 001), later
Seeds, Fruits and Potions: each is one ``game_object`` row (its type,
holder, location and attributes), updated when it changes, and each change
is an ``object_event`` entry naming its cause, the post or admin record and
the rule, or the scheduler, exactly as the ledger of holdings does
(``bot.engine.ledger``).  What a holder has is an indexed query by holder,
so the cost of a post does not grow with the game's age.

A game declares its types (``bot.games.objects.ObjectType``) with
``declare`` in its own module; the engine looks a stored object's type up by
name.  The rules' own actions (dealing, a Trade, a prize) move objects with
``transfer``; a player's own transfer passes ``mover``, and the type's rule
decides (rule 13 of seed 004, rule 384 of seed 002, rule 1902 A of seed 004).
Players hold objects by id, so a rename (rule 151) changes nothing here;
a forfeit (rule 14) sends each object where its type says (``forfeit_objects``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine.holdings import Cause
from bot.games.errors import IllegalActionError
from bot.games.objects import (
    RULE_OBJECTS,
    Holder,
    ObjectType,
    check_holder,
    check_transfer,
    player_holder,
)
from bot.store.models import GameObject, Message, ObjectEvent, Player

DESTROYED = Holder("destroyed", "")  # who holds a destroyed object: nobody
CREATED = "created"
TRANSFERRED = "transferred"
MOVED = "moved"
CHANGED = "changed"
DESTROYED_CHANGE = "destroyed"

_TYPES: dict[str, ObjectType] = {}


def declare(object_type: ObjectType) -> ObjectType:
    """Make ``object_type`` known to the engine by its name; returns it.

    A game's module declares its types once, at import; declaring the same
    type again is harmless, while a different type under a taken name is a
    defect (``ValueError``).
    """
    known = _TYPES.setdefault(object_type.name, object_type)
    if known != object_type:
        raise ValueError(f"another object type is already declared as {object_type.name!r}")
    return object_type


def type_named(name: str) -> ObjectType:
    """The declared type called ``name``; ``KeyError`` (a defect) if no game declared it."""
    try:
        return _TYPES[name]
    except KeyError:
        raise KeyError(
            f"object type {name!r} is not declared: its game's module declares it"
        ) from None


def declared_types() -> tuple[ObjectType, ...]:
    """Every type the games declared, in the order they were declared (a gift's noun, rule 13)."""
    return tuple(_TYPES.values())


@dataclass(frozen=True)
class HeldObject:
    """One object as it is now."""

    id: int
    object_type: ObjectType
    holder: Holder
    location: str
    attributes: Mapping[str, Any]
    destroyed: bool = False

    def effect(self, change: str, **details: object) -> dict[str, Any]:
        """The change as a ruling's effect (its log entry); a hidden object's identity left out."""
        return {
            "game": "objects",
            "object": self.id,
            "type": self.object_type.name,
            "change": change,
            "holder": f"{self.holder.kind}:{self.holder.name}",
            **details,
        }


@dataclass(frozen=True)
class ObjectChange:
    """One entry of an object's history, with its cause."""

    at: datetime
    change: str
    source: Holder | None  # who held it before (None on creation)
    destination: Holder | None  # who holds it after (None when it is not a move)
    location: str
    attributes: Mapping[str, Any]
    rule: str
    note: str
    cause: str  # "post", "admin" or "scheduler"
    message_id: str | None  # the post or admin record that caused it, if one did


def create(
    session: Session,
    object_type: ObjectType,
    holder: Holder,
    cause: Cause,
    *,
    attributes: Mapping[str, Any] | None = None,
    location: str = "",
) -> HeldObject:
    """A new object of ``object_type`` for ``holder``.

    Raises ``IllegalActionError`` if ``holder`` cannot hold one (rule 13), and
    ``ValueError`` (a defect) if no game declared the type: a stored object's
    type must be found again by its name.
    """
    if _TYPES.get(object_type.name) != object_type:
        raise ValueError(f"object type {object_type.name!r} is not declared (objects.declare)")
    check_holder(object_type, holder, holder_text(session, holder))
    row = GameObject(
        object_type=object_type.name,
        holder_kind=holder.kind,
        holder=holder.name,
        location=location,
        attributes=dict(attributes or {}),
        created_at=cause.at,
    )
    session.add(row)
    session.flush()
    _log(session, row, CREATED, None, holder, cause, attributes=row.attributes)
    return _held(row)


def transfer(
    session: Session,
    object_id: int,
    destination: Holder,
    cause: Cause,
    *,
    mover: Holder | None = None,
    location: str | None = None,
) -> HeldObject:
    """Move an object to ``destination`` (and ``location``, if given).

    ``mover`` is the player whose own action this is, checked against the
    type's rules (``check_transfer``); None for the rules' own actions.
    Raises ``IllegalActionError``, citing the rule, when it may not move.
    """
    row = _live_row(session, object_id)
    object_type = type_named(row.object_type)
    source = Holder(row.holder_kind, row.holder)
    where = holder_text(session, destination)
    if mover is not None:
        check_transfer(
            object_type, row.attributes, source, destination, mover=mover, destination_text=where
        )
    check_holder(object_type, destination, where)
    row.holder_kind, row.holder = destination.kind, destination.name
    if location is not None:
        row.location = location
    _log(session, row, TRANSFERRED, source, destination, cause)
    return _held(row)


def move(session: Session, object_id: int, location: str, cause: Cause) -> HeldObject:
    """Change where an object is without changing its holder (a Card shown, rule 396)."""
    row = _live_row(session, object_id)
    row.location = location
    _log(session, row, MOVED, None, None, cause)
    return _held(row)


def change_attributes(
    session: Session, object_id: int, changes: Mapping[str, Any], cause: Cause
) -> HeldObject:
    """Set some of an object's attributes; the log keeps the new values."""
    row = _live_row(session, object_id)
    row.attributes = {**row.attributes, **changes}
    _log(session, row, CHANGED, None, None, cause, attributes=dict(changes))
    return _held(row)


def destroy(session: Session, object_id: int, cause: Cause) -> HeldObject:
    """Destroy an object: nobody holds it after; its row and history stay."""
    row = _live_row(session, object_id)
    source = Holder(row.holder_kind, row.holder)
    row.holder_kind, row.holder = DESTROYED.kind, DESTROYED.name
    row.destroyed_at = cause.at
    _log(session, row, DESTROYED_CHANGE, source, None, cause)
    return _held(row)


def find(session: Session, object_id: int) -> HeldObject | None:
    """The object with id ``object_id``, destroyed or not; None if there never was one."""
    row = session.get(GameObject, object_id)
    return None if row is None else _held(row)


def held_by(
    session: Session, holder: Holder, object_type: ObjectType | None = None
) -> tuple[HeldObject, ...]:
    """What ``holder`` holds (of ``object_type`` only, if given), oldest first.

    A query by the indexed holder columns (``ix_game_object_holder_type``).
    """
    query = select(GameObject).where(
        GameObject.holder_kind == holder.kind, GameObject.holder == holder.name
    )
    if object_type is not None:
        query = query.where(GameObject.object_type == object_type.name)
    return tuple(_held(row) for row in session.scalars(query.order_by(GameObject.id)))


def all_held(session: Session) -> tuple[HeldObject, ...]:
    """Every object that is not destroyed, by holder and then oldest first."""
    query = (
        select(GameObject)
        .where(GameObject.holder_kind != DESTROYED.kind)
        .order_by(GameObject.holder_kind, GameObject.holder, GameObject.id)
    )
    return tuple(_held(row) for row in session.scalars(query))


def history(session: Session, object_id: int) -> tuple[ObjectChange, ...]:
    """Every change to the object, oldest first, with its cause."""
    rows = session.execute(
        select(ObjectEvent, Message.message_id)
        .outerjoin(Message, Message.id == ObjectEvent.message_pk)
        .where(ObjectEvent.object_id == object_id)
        .order_by(ObjectEvent.id)
    )
    return tuple(_change(event, message_id) for event, message_id in rows)


@dataclass(frozen=True)
class Forfeiture:
    """What a forfeit did to a player's objects: notes for the ruling, effects for the log."""

    notes: tuple[str, ...] = ()
    effects: tuple[dict[str, Any], ...] = ()


def forfeit_objects(session: Session, player_id: int, cause: Cause) -> Forfeiture:
    """Rule 14: a player who forfeits "loses all game defined properties".

    Each object goes where its type says (``ObjectType.forfeit_to``: back to
    the Deck, to the Bank) or is destroyed; the notes count them by type,
    naming no hidden object.
    """
    gone: Counter[tuple[str, str]] = Counter()
    effects: list[dict[str, Any]] = []
    for held in held_by(session, player_holder(player_id)):
        after = _forfeit_one(session, held, cause)
        where = "destroyed" if after.destroyed else f"to {holder_text(session, after.holder)}"
        gone[(held.object_type.name, where)] += 1
        effects.append(after.effect("forfeited", rule="14"))
    notes = tuple(
        _forfeit_note(session, name, where, count) for (name, where), count in gone.items()
    )
    return Forfeiture(notes, tuple(effects))


def _forfeit_one(session: Session, held: HeldObject, cause: Cause) -> HeldObject:
    goes_to = held.object_type.forfeit_to
    if goes_to is None:
        return destroy(session, held.id, cause)
    return transfer(session, held.id, goes_to, cause)


def _forfeit_note(session: Session, type_name: str, where: str, count: int) -> str:
    object_type = type_named(type_name)
    noun = object_type.name if count == 1 else object_type.plural
    verb = "is" if count == 1 else "are"
    if where == "destroyed":
        return f"{count} {noun} {verb} destroyed (rule 14)"
    return f"{count} {noun} {'goes' if count == 1 else 'go'} {where} (rule 14)"


def holder_text(session: Session, holder: Holder) -> str:
    """A holder in words: the player's current name, or the entity's ("the Deck")."""
    if not holder.is_player:
        return holder.name or "nobody"
    name = session.scalar(select(Player.name).where(Player.id == int(holder.name)))
    return name if name is not None else f"player {holder.name}"


def _live_row(session: Session, object_id: int) -> GameObject:
    row = session.get(GameObject, object_id)
    if row is None:
        raise IllegalActionError(f"there is no object {object_id}", rule=RULE_OBJECTS)
    if row.destroyed_at is not None:
        raise IllegalActionError(f"object {object_id} was destroyed", rule=RULE_OBJECTS)
    return row


def _held(row: GameObject) -> HeldObject:
    return HeldObject(
        row.id,
        type_named(row.object_type),
        Holder(row.holder_kind, row.holder),
        row.location,
        dict(row.attributes),
        destroyed=row.destroyed_at is not None,
    )


def _log(
    session: Session,
    row: GameObject,
    change: str,
    source: Holder | None,
    destination: Holder | None,
    cause: Cause,
    *,
    attributes: Mapping[str, Any] | None = None,
) -> None:
    session.add(
        ObjectEvent(
            object_id=row.id,
            change=change,
            from_kind=source.kind if source else "",
            from_holder=source.name if source else "",
            to_kind=destination.kind if destination else "",
            to_holder=destination.name if destination else "",
            location=row.location,
            attributes=dict(attributes or {}),
            message_pk=cause.message_pk,
            source=cause.source,
            rule=cause.rule,
            note=cause.note,
            occurred_at=cause.at,
        )
    )
    session.flush()


def _change(event: ObjectEvent, message_id: str | None) -> ObjectChange:
    source = Holder(event.from_kind, event.from_holder) if event.from_kind else None
    destination = Holder(event.to_kind, event.to_holder) if event.to_kind else None
    return ObjectChange(
        event.occurred_at,
        event.change,
        source,
        destination,
        event.location,
        dict(event.attributes),
        event.rule,
        event.note,
        event.source,
        message_id,
    )


__all__ = [
    "DESTROYED",
    "Forfeiture",
    "HeldObject",
    "ObjectChange",
    "all_held",
    "change_attributes",
    "create",
    "declare",
    "destroy",
    "find",
    "forfeit_objects",
    "held_by",
    "history",
    "move",
    "transfer",
    "type_named",
]
