"""Field Objects and attributes (seed 003, "The Field").

A Field Object "may occupy one or more squares", has an owner ("typically a
Player"), a Size "by default 1 x 1" and whatever other attributes its Field
Match gives it.  Attributes are also held by The Field itself and by players
(Life's Advantage and Team), so one immutable ``Attributes`` value serves
all three.  Values are plain data (text, whole numbers, booleans, or None for
Life's "null") so a state serialises to JSON without a schema per match.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.games.field.squares import FieldGeometry, Square

ObjectId = int
PlayerId = str
AttributeValue = str | int | bool | None


@dataclass(frozen=True)
class Attributes:
    """Named values, kept sorted by name so equal contents compare equal."""

    items: tuple[tuple[str, AttributeValue], ...] = ()

    @classmethod
    def of(cls, pairs: Iterable[tuple[str, AttributeValue]]) -> Attributes:
        return cls(tuple(sorted(dict(pairs).items())))

    def get(self, name: str, default: AttributeValue = None) -> AttributeValue:
        for key, value in self.items:
            if key == name:
                return value
        return default

    def with_value(self, name: str, value: AttributeValue) -> Attributes:
        """A copy with ``name`` set to ``value`` (added if absent)."""
        return Attributes.of((*self.items, (name, value)))

    def names(self) -> tuple[str, ...]:
        return tuple(key for key, _ in self.items)


@dataclass(frozen=True)
class FieldObject:
    """One Field Object.

    ``square`` is the bottom-left square it occupies, or None while it is not
    placed on the Field (B-Chess's purchased pieces wait like that for their
    Distribute action).  ``size`` is (rows, columns).
    """

    object_id: ObjectId
    kind: str
    owner: PlayerId | None = None
    square: Square | None = None
    size: tuple[int, int] = (1, 1)
    attributes: Attributes = Attributes()

    @property
    def is_placed(self) -> bool:
        return self.square is not None

    def attribute(self, name: str, default: AttributeValue = None) -> AttributeValue:
        return self.attributes.get(name, default)

    def with_attribute(self, name: str, value: AttributeValue) -> FieldObject:
        return replace(self, attributes=self.attributes.with_value(name, value))

    def placed_at(self, square: Square | None) -> FieldObject:
        return replace(self, square=square)


def squares_occupied(field_object: FieldObject, geometry: FieldGeometry) -> tuple[Square, ...]:
    """The squares a placed object covers, its Size counted up and right from ``square``.

    On a torus a large object wraps round the edges; off a torus a Size that
    would leave the Field raises ``ValueError`` (a defect: placing effects
    must not do that).
    """
    if field_object.square is None:
        return ()
    rows, columns = field_object.size
    base_column = geometry.column_of(field_object.square)
    base_row = geometry.row_of(field_object.square)
    covered: list[Square] = []
    for row_step in range(rows):
        for column_step in range(columns):
            column, row = base_column + column_step, base_row + row_step
            if geometry.torus:
                column, row = column % geometry.columns, row % geometry.rows
            covered.append(geometry.square_at(column, row))
    return tuple(covered)
