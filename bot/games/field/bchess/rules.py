"""The code of the B-Chess Field Match: its actions bound as ``MatchRules``.

``bchess_rules(purse)`` binds every action the document lists: The Field's
Initialize, Join, Rejoin, Purchase and Checkmate, and for each piece its
Move (the Pawn also Capture) and Distribute.  Rejoin and Purchase read and
pay macks through ``purse`` (``purse``); ``play.play_turn`` binds a purse
holding the engine's balances for one Turn, and ``BCHESS_RULES`` is the
binding with ``NO_MACKS`` (every balance zero) for selection and for
turning the Field where no mack is at stake.
"""

from __future__ import annotations

from bot.games.field.actions import ActionRule, MatchRules
from bot.games.field.bchess.document import (
    BCHESS,
    CAPTURE,
    CHECKMATE,
    DISTRIBUTE,
    INITIALIZE,
    JOIN,
    MOVE,
    PAWN,
    PIECE_KINDS,
    PURCHASE,
    REJOIN,
)
from bot.games.field.bchess.field_actions import (
    checkmate_effect,
    checkmate_trigger,
    initialize_effect,
    initialize_trigger,
    join_effect,
    join_trigger,
    purchase_effect_with,
    purchase_trigger_with,
    rejoin_effect_with,
    rejoin_trigger_with,
)
from bot.games.field.bchess.pieces import (
    capture_trigger,
    distribute_effect,
    distribute_trigger,
    move_effect,
    move_trigger,
)
from bot.games.field.bchess.purse import NO_MACKS, Purse
from bot.games.field.match import SCOPE_FIELD


def bchess_rules(purse: Purse) -> MatchRules:
    """B-Chess's code, its paid actions reading and paying macks through ``purse``."""
    field = (
        ((SCOPE_FIELD, INITIALIZE), ActionRule(initialize_trigger, initialize_effect)),
        ((SCOPE_FIELD, JOIN), ActionRule(join_trigger, join_effect)),
        (
            (SCOPE_FIELD, REJOIN),
            ActionRule(rejoin_trigger_with(purse), rejoin_effect_with(purse)),
        ),
        (
            (SCOPE_FIELD, PURCHASE),
            ActionRule(purchase_trigger_with(purse), purchase_effect_with(purse)),
        ),
        ((SCOPE_FIELD, CHECKMATE), ActionRule(checkmate_trigger, checkmate_effect)),
    )
    pieces = tuple(
        binding
        for kind in PIECE_KINDS
        for binding in (
            ((kind, MOVE), ActionRule(move_trigger, move_effect)),
            ((kind, DISTRIBUTE), ActionRule(distribute_trigger, distribute_effect)),
        )
    )
    # A Capture carries out as a Move does: the Pawn moves onto the piece.
    capture = (((PAWN, CAPTURE), ActionRule(capture_trigger, move_effect)),)
    return MatchRules(name=BCHESS.rules, actions=field + pieces + capture)


BCHESS_RULES = bchess_rules(NO_MACKS)
