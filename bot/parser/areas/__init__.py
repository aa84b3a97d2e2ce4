"""The grammar areas of the games enabled by default, composed into the post grammar.

A deployment's pipeline composes the areas of its enabled games (each
game's declaration names them, ``bot.engine.game.Game.areas``); ``AREAS``
is the default, for text read without a deployment (``nomicbot parse``, the
parser's tests), and a test checks that it is the default games' areas.
Adding an area is a ``grammar/<name>.lark`` with an ``action`` rule, a
module here with its Transformer and ``AREA``, and its game's declaration.
Order matters only for error messages.
"""

from __future__ import annotations

from bot.parser.area import Area
from bot.parser.areas import dice, elections, field, give, go, roster
from bot.parser.areas.cfi import AREA as CFI  # rule 125: Calls For Inquiry
from bot.parser.areas.clock import AREA as CLOCK  # rule 23: the GM's recognizer
from bot.parser.areas.common import AREA as COMMON
from bot.parser.areas.digest import AREA as DIGEST  # a Minister's digest (issue 5)
from bot.parser.areas.polls import AREA as POLLS
from bot.parser.areas.proposals import AREA as PROPOSALS

AREAS: tuple[Area, ...] = (  # in the order of bot.config.DEFAULT_GAMES
    roster.AREA,
    give.AREA,  # rule 13: gifts of currencies and objects (the roster's game)
    dice.AREA,
    go.AREA,
    field.AREA,
    elections.AREA,
    DIGEST,
    *(PROPOSALS, POLLS),  # rules 15, 19, 23, 217 (governance)
    CFI,  # rule 125: submitting CFIs and the Defendant's Argument
    CLOCK,  # rule 23: the GM's recognizer
)

__all__ = ["AREAS", "COMMON"]
