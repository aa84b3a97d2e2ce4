"""The registry of grammar areas composed into the post grammar.

Adding an area (say governance votes) is: a ``grammar/<name>.lark`` with an
``action`` rule, a module here with its Transformer and ``AREA``, and one line
in ``AREAS`` below.  Order matters only for error messages.
"""

from __future__ import annotations

from bot.parser.area import Area
from bot.parser.areas import dice, elections, field, go, roster
from bot.parser.areas.common import AREA as COMMON

AREAS: tuple[Area, ...] = (
    go.AREA,
    dice.AREA,
    roster.AREA,
    field.AREA,
    elections.AREA,
)

__all__ = ["AREAS", "COMMON"]
