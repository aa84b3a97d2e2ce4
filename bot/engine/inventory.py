"""Objects as players and the public see them: statements and ``nomicbot state inventory``.

Only the holder of a hidden object may learn its identity (a Card dealt
privately, rule 387 of seed 002), and only by mail to em alone: a
statement asked for by private mail shows it; one mailed to the list, and
the inventory view, show what rule 390 lets the Dealer's report show, the
Back (``ObjectType.public_identity``), and no object id, since ids follow
the order objects were created in and so could tell a hidden one apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine import objects
from bot.engine.objects import HeldObject
from bot.games.objects import Holder, player_holder

if TYPE_CHECKING:
    from bot.engine.services import Services
    from bot.engine.views import View


@dataclass(frozen=True)
class ObjectGroup:
    """Objects shown as one line: the same type, identity (as shown) and location."""

    type_name: str
    plural: str
    identity: str
    location: str
    ids: tuple[int, ...]  # empty when the ids are not to be shown
    count: int

    def text(self) -> str:
        """``Chip #3``, ``2 Chips (#3, #5)``, ``3 Cards: Red Back``, ``... in the Showdown``."""
        noun = self.type_name if self.count == 1 else f"{self.count} {self.plural}"
        identity = f": {self.identity}" if self.identity else ""
        where = f", {self.location}" if self.location else ""
        ids = ", ".join(f"#{number}" for number in self.ids)
        if not ids:
            return f"{noun}{identity}{where}"
        return f"{noun}{identity}{where} {ids if self.count == 1 else f'({ids})'}"


def object_groups(held: Iterable[HeldObject], *, holder_sees: bool) -> tuple[ObjectGroup, ...]:
    """``held`` as lines; ``holder_sees``: for the holder alone (hidden identities shown)."""
    shown = sorted(((_shown_identity(item, holder_sees), item) for item in held), key=_group_key)
    groups = []
    for (_name, identity, location), members in groupby(shown, key=_group_key):
        items = [item for _identity, item in members]
        object_type = items[0].object_type
        public = object_type.hidden and not holder_sees
        ids = () if public else tuple(item.id for item in items)
        groups.append(
            ObjectGroup(object_type.name, object_type.plural, identity, location, ids, len(items))
        )
    return tuple(groups)


def statement_objects(session: Session, player_id: int, *, holder_sees: bool) -> str:
    """The objects part of a player's statement ("my holdings please"); empty if e holds none.

    ``holder_sees``: the statement goes to the player alone (private mail).
    """
    held = objects.held_by(session, player_holder(player_id))
    if not held:
        return ""
    lines = ["", "Objects held:"]
    lines.extend(f"  {group.text()}" for group in object_groups(held, holder_sees=holder_sees))
    if not holder_sees and any(item.object_type.hidden for item in held):
        lines.append("  (hidden objects show their Backs only; ask by private mail to see them)")
    return "\n".join(lines) + "\n"


def inventory_view(session: Session, services: Services) -> View:
    """``nomicbot state inventory``: every holder's objects, public information only."""
    from bot.engine.views import View

    by_holder = _by_holder(objects.all_held(session))
    named = sorted(
        ((objects.holder_text(session, holder), holder, held) for holder, held in by_holder),
        key=lambda entry: (not entry[1].is_player, entry[0].casefold()),
    )
    lines: list[str] = []
    data: list[dict[str, Any]] = []
    for name, holder, held in named:
        lines.append(f"{name}:")
        lines.extend(f"  {group.text()}" for group in object_groups(held, holder_sees=False))
        data.append(_holder_data(name, holder, held))
    return View("\n".join(lines) + "\n" if lines else "nobody holds any object yet\n", data)


def _by_holder(held: Sequence[HeldObject]) -> list[tuple[Holder, list[HeldObject]]]:
    # ``all_held`` is ordered by holder, so one pass groups it.
    return [(holder, list(items)) for holder, items in groupby(held, key=lambda item: item.holder)]


def _holder_data(name: str, holder: Holder, held: Sequence[HeldObject]) -> dict[str, Any]:
    return {
        "holder": name,
        "kind": holder.kind,
        "objects": [_public_object(item) for item in held],
    }


def _public_object(item: HeldObject) -> dict[str, Any]:
    object_type = item.object_type
    shown: dict[str, Any] = {
        "type": object_type.name,
        "attributes": object_type.public_view(item.attributes),
        "location": item.location,
    }
    if not object_type.hidden:
        shown["id"] = item.id
    return shown


def _group_key(pair: tuple[str, HeldObject]) -> tuple[str, str, str]:
    identity, item = pair
    return (item.object_type.name, identity, item.location)


def _shown_identity(item: HeldObject, holder_sees: bool) -> str:
    if holder_sees:
        return item.object_type.identity(item.attributes)
    return item.object_type.public_identity(item.attributes)
