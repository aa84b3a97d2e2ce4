"""Political Go under A Nomic's rules 365-377 (seed 002): rule set A, pure.

Rule set B (B Nomic's rule 1639) is ``bot.games.go``; this package reuses its
points, neighbour tables, marks and Dragons (367's definition is 1639 D's)
and adds what A differs in: 19x19 files a-s (366), alliance offers, war and
acceptance (368), positional superko (368 a), the self-capture exception
(368 b), no two stones in a row (368 c), the 19-hour limit (368), capture
division by most adjacent stones with recorded random ties (369), the end and
scoring (365, 370, 371) and Stones as objects (373-377).

State: ``AnomicParameters`` (``A_NOMIC`` the default), ``AnomicState``,
``GoPlayer``, ``new_game``, ``add_players``, ``renamed`` (rule 151), ``forfeited``
and ``Forfeiture`` (rule 14 of seed 004); set-up ``with_stones``,
``with_alliances``, ``as_go_players``.
Moves: ``place_stone``, ``offer_alliance``, ``accept_alliance``,
``withdraw_offer``, ``declare_war`` (each ``(state, MoveContext, ...) ->
MoveResult``, ``IllegalActionError`` when refused), ``divide_stones``.
Stones: ``purchase_prices``, ``purchase_stones``, ``transfer_reserve``,
``sell_captured``.
Ending: ``placement_possible``, ``quiet_nweek_passed``, ``end_game`` ->
``EndResult``, ``territories``.
Superko: ``board_key``, ``BoardHistory``, ``Earlier``, ``PositionLog``.
Text and storage: ``render_board``, ``parse_diagram``, ``state_to_json``,
``state_from_json``, ``board_to_marks``, ``marks_to_board``.

The readings of ambiguous text are in each module's docstring and in
``docs/readings.md``.
"""

from bot.games.go.anomic.ending import (
    EndResult,
    GoScore,
    end_game,
    placement_possible,
    quiet_nweek_passed,
    territories,
)
from bot.games.go.anomic.events import (
    AllianceAccepted,
    AllianceOffered,
    AnomicEvent,
    DragonCaptured,
    OffersVoided,
    OfferWithdrawn,
    StonePlaced,
    StoneShare,
    StonesPurchased,
    StonesSold,
    StonesTransferred,
    WarDeclared,
)
from bot.games.go.anomic.forfeit import Forfeiture, forfeited
from bot.games.go.anomic.moves import (
    MoveContext,
    MoveResult,
    Shuffler,
    accept_alliance,
    declare_war,
    divide_stones,
    next_move_time,
    offer_alliance,
    place_stone,
    withdraw_offer,
)
from bot.games.go.anomic.render import parse_diagram, render_board
from bot.games.go.anomic.serialize import (
    board_to_marks,
    marks_to_board,
    state_from_json,
    state_to_json,
)
from bot.games.go.anomic.setup import as_go_players, with_alliances, with_stones
from bot.games.go.anomic.state import (
    A_NOMIC,
    AnomicParameters,
    AnomicState,
    GoPlayer,
    add_players,
    new_game,
    renamed,
)
from bot.games.go.anomic.stones import (
    purchase_prices,
    purchase_stones,
    sell_captured,
    transfer_reserve,
)
from bot.games.go.anomic.superko import BoardHistory, Earlier, PositionLog, board_key

__all__ = [
    "A_NOMIC",
    "AllianceAccepted",
    "AllianceOffered",
    "AnomicEvent",
    "AnomicParameters",
    "AnomicState",
    "BoardHistory",
    "DragonCaptured",
    "Earlier",
    "EndResult",
    "GoPlayer",
    "GoScore",
    "MoveContext",
    "MoveResult",
    "OfferWithdrawn",
    "OffersVoided",
    "PositionLog",
    "Shuffler",
    "StonePlaced",
    "StoneShare",
    "StonesPurchased",
    "StonesSold",
    "StonesTransferred",
    "WarDeclared",
    "accept_alliance",
    "add_players",
    "forfeited",
    "Forfeiture",
    "as_go_players",
    "board_key",
    "board_to_marks",
    "declare_war",
    "divide_stones",
    "end_game",
    "marks_to_board",
    "new_game",
    "next_move_time",
    "offer_alliance",
    "parse_diagram",
    "place_stone",
    "placement_possible",
    "purchase_prices",
    "purchase_stones",
    "quiet_nweek_passed",
    "render_board",
    "renamed",
    "sell_captured",
    "state_from_json",
    "state_to_json",
    "territories",
    "transfer_reserve",
    "with_alliances",
    "with_stones",
    "withdraw_offer",
]
