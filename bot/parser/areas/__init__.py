"""The registry of grammar areas composed into the post grammar.

Adding an area (say governance votes) is: a ``grammar/<name>.lark`` with an
``action`` rule, a module here with its Transformer and ``AREA``, and one line
in ``AREAS`` below.  Order matters only for error messages.
"""

from __future__ import annotations

from bot.parser.area import Area
from bot.parser.areas import dice, elections, field, go, roster
from bot.parser.areas.cfi import AREA as CFI  # rule 125: Calls For Inquiry
from bot.parser.areas.clock import AREA as CLOCK  # rule 23: the GM's recognizer
from bot.parser.areas.common import AREA as COMMON
from bot.parser.areas.digest import AREA as DIGEST  # a Minister's digest (issue 5)
from bot.parser.areas.polls import AREA as POLLS
from bot.parser.areas.proposals import AREA as PROPOSALS

AREAS: tuple[Area, ...] = (
    go.AREA,
    dice.AREA,
    roster.AREA,
    field.AREA,
    *(PROPOSALS, POLLS),  # rules 15, 19, 23, 217 (governance)
    CFI,  # rule 125: submitting CFIs and the Defendant's Argument
    elections.AREA,
    DIGEST,
    CLOCK,
)

__all__ = ["AREAS", "COMMON"]
