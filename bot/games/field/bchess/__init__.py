"""B-Chess, the Field Match of Kings and purchased pieces (seed 000), on the Field framework.

Document (``document``)
    ``BCHESS: FieldMatch`` (20 x 20 torus, eight-square adjacency, trophy
    "An ornamental chess piece", communication "A public message to the
    forum"; parameters ``"move range"`` 8, ``"knight jump"`` (2, 1),
    ``"purchase step"`` 10, ``"rejoin prices"`` ((1, 100), (2, 500), (3,
    1000)), ``"piece weights"`` ((Pawn, 10), (Rook, 3), (Knight, 3),
    (Bishop, 3), (Queen, 1)), ``"distribute minimum"`` 3; player attribute
    ``"Times captured"``).  Kind names ``KING`` ... ``PAWN``,
    ``PIECE_KINDS``, ``PIECE_LETTERS``; rule labels ``RULE_MOVE`` ("B-Chess:
    Move (seed 000)"), ``RULE_CAPTURE``, ``RULE_INITIALIZE``, ``RULE_JOIN``,
    ``RULE_REJOIN``, ``RULE_PURCHASE``, ``RULE_CHECKMATE``,
    ``RULE_DISTRIBUTE``, ``RULE_BCHESS`` (the match's general paragraphs).

Code (``rules``, ``purse``)
    ``BCHESS_RULES: MatchRules`` (every balance zero);
    ``bchess_rules(purse: Purse) -> MatchRules``; ``Purse`` (Protocol:
    ``balance(player) -> int``, ``pay(request, amount)``), ``NO_MACKS``,
    ``TurnPurse(requests, macks)``, ``Spending(request, macks)``.

Playing (``play``)
    ``start_bchess(state, context, random, match=BCHESS) -> SelectionResult``
    ``play_turn(state, context, requests: Sequence[Request], random,
    macks: Mapping[PlayerId, int]) -> BChessTurn`` (``BChessTurn(result:
    TurnResult, spendings: tuple[Spending, ...])`` with ``state``,
    ``spent_by(player) -> int``; one Spending per request, in order).
    Request builders, raising ``ActionSyntaxError`` / ``IllegalActionError``
    with a B-Chess rule label: ``initialize_request(context)``,
    ``join_request(player)``, ``rejoin_request(player)``,
    ``purchase_request(player)``, ``move_request(state, player,
    from_square: str, to_square: str, piece_kind: str | None = None)``,
    ``capture_request(state, player, from_square, to_square)``;
    ``piece_kind_named(text, rule=RULE_MOVE) -> str``.

Moves (``moves``)
    ``plan_route(match, piece_kind, action, start, target) -> Route |
    RouteRefusal``; ``reach_of(match, piece, standing) -> frozenset[Square]``;
    ``safe_squares(state) -> tuple[Square, ...]`` (``field_actions``).

Board (``render``)
    ``render_bchess_board(state, players: Mapping[PlayerId, str]) -> str``
    (``players`` maps each player to eir owner character, rule 1900 C);
    ``parse_bchess_board(text, match=BCHESS) -> FieldState``;
    ``board_owners(text) -> dict[PlayerId, str]``.

Macks stay in the engine's ledger: ``play_turn`` takes each player's
balance, Rejoin and Purchase pay from it as the Turn goes (a request that
cannot be paid is refused citing its rule), and ``BChessTurn.spendings``
says what each request spent, for the engine to debit.

Readings of ambiguous text are in ``field_actions`` (Initialize, Join and
Rejoin placement, Purchase pricing per Turn, the piece draw, Checkmate),
``pieces`` (Pawn refusals, one action per Turn, Distribute), ``moves``
(routes on the torus, reach) and ``board`` (possessing a King).
"""

from bot.games.field.bchess.document import (
    BCHESS,
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    PIECE_KINDS,
    PIECE_LETTERS,
    QUEEN,
    ROOK,
    RULE_BCHESS,
    RULE_CAPTURE,
    RULE_CHECKMATE,
    RULE_DISTRIBUTE,
    RULE_INITIALIZE,
    RULE_JOIN,
    RULE_MOVE,
    RULE_PURCHASE,
    RULE_REJOIN,
    TIMES_CAPTURED,
)
from bot.games.field.bchess.field_actions import safe_squares
from bot.games.field.bchess.moves import Route, RouteRefusal, plan_route, reach_of
from bot.games.field.bchess.play import (
    BChessTurn,
    capture_request,
    destination_request,
    initialize_request,
    join_request,
    move_request,
    piece_kind_named,
    play_turn,
    purchase_request,
    rejoin_request,
    start_bchess,
)
from bot.games.field.bchess.purse import NO_MACKS, Purse, Spending, TurnPurse
from bot.games.field.bchess.render import (
    board_owners,
    parse_bchess_board,
    render_bchess_board,
)
from bot.games.field.bchess.rules import BCHESS_RULES, bchess_rules

__all__ = [
    "BCHESS",
    "BCHESS_RULES",
    "BISHOP",
    "KING",
    "KNIGHT",
    "NO_MACKS",
    "PAWN",
    "PIECE_KINDS",
    "PIECE_LETTERS",
    "QUEEN",
    "ROOK",
    "RULE_BCHESS",
    "RULE_CAPTURE",
    "RULE_CHECKMATE",
    "RULE_DISTRIBUTE",
    "RULE_INITIALIZE",
    "RULE_JOIN",
    "RULE_MOVE",
    "RULE_PURCHASE",
    "RULE_REJOIN",
    "TIMES_CAPTURED",
    "BChessTurn",
    "Purse",
    "Route",
    "RouteRefusal",
    "Spending",
    "TurnPurse",
    "bchess_rules",
    "board_owners",
    "capture_request",
    "destination_request",
    "initialize_request",
    "join_request",
    "move_request",
    "parse_bchess_board",
    "piece_kind_named",
    "plan_route",
    "play_turn",
    "purchase_request",
    "reach_of",
    "rejoin_request",
    "render_bchess_board",
    "safe_squares",
    "start_bchess",
]
