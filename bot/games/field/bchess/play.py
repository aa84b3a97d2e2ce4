"""B-Chess as the engine plays it: one Turn of the Field per post.

"When the Referee receives a request to make an Invokable Action, he is
obligated to Turn the Field" (seed 003).  nomicbot Turns the Field once per
post: the engine builds one ``Request`` per Invokable Action of the post
with the builders here (which raise ``ActionSyntaxError`` or
``IllegalActionError`` for what can be judged from the text and the Field
before the Turn) and hands them all to ``play_turn``, with each player's
mack balance from its ledger.  Whatever depends on the order of the Turn
(a route cleared or blocked by an earlier move, a piece already taken, the
rising Purchase price, a balance already spent) is judged during the Turn,
and a request refused then is a ``Refusal`` in the record, not an error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.games.errors import ActionSyntaxError, AmbiguousActionError, IllegalActionError
from bot.games.field.actions import RULE_FIELD_MATCHES, RandomSource, Request, TurnContext
from bot.games.field.bchess.board import describe_piece
from bot.games.field.bchess.document import (
    BCHESS,
    CAPTURE,
    INITIALIZE,
    JOIN,
    MOVE,
    PAWN,
    PIECE_KINDS,
    PIECE_LETTERS,
    PURCHASE,
    REJOIN,
    RULE_CAPTURE,
    RULE_MOVE,
)
from bot.games.field.bchess.moves import RouteRefusal, plan_route
from bot.games.field.bchess.purse import Spending, TurnPurse
from bot.games.field.bchess.rules import BCHESS_RULES, bchess_rules
from bot.games.field.match import FieldMatch
from bot.games.field.objects import FieldObject, PlayerId
from bot.games.field.squares import Square
from bot.games.field.state import FieldState, objects_at
from bot.games.field.turning import SelectionResult, TurnResult, select_match, turn_field


@dataclass(frozen=True)
class BChessTurn:
    """One Turn of the Field: the framework's result and, per request in order, the macks spent."""

    result: TurnResult
    spendings: tuple[Spending, ...]

    @property
    def state(self) -> FieldState:
        return self.result.state

    def spent_by(self, player: PlayerId) -> int:
        """What ``player``'s requests spent in this Turn, to debit from the ledger."""
        return sum(item.macks for item in self.spendings if item.request.invoker == player)


def start_bchess(
    state: FieldState, context: TurnContext, random: RandomSource, match: FieldMatch = BCHESS
) -> SelectionResult:
    """The Referee selects B-Chess (or an amended copy of it) as the Current Field Match.

    Raises ``IllegalActionError`` if a match is already current or ``match``
    is not valid.
    """
    return select_match(state, match, BCHESS_RULES, context, random)


def play_turn(
    state: FieldState,
    context: TurnContext,
    requests: Sequence[Request],
    random: RandomSource,
    macks: Mapping[PlayerId, int],
) -> BChessTurn:
    """Turn the Field once with a post's ``requests``, paying from the balances ``macks``.

    Raises ``IllegalActionError`` if B-Chess is not the Current Field Match.
    """
    _require_bchess(state)
    purse = TurnPurse(requests, macks)
    result = turn_field(state, bchess_rules(purse), requests, context, random)
    return BChessTurn(result, purse.spendings())


def initialize_request(context: TurnContext) -> Request:
    """The Referee's Initialize."""
    return Request(context.referee, INITIALIZE, text="Initialize")


def join_request(player: PlayerId) -> Request:
    return Request(player, JOIN, text="Join")


def rejoin_request(player: PlayerId) -> Request:
    return Request(player, REJOIN, text="Rejoin")


def purchase_request(player: PlayerId) -> Request:
    return Request(player, PURCHASE, text="Purchase")


def move_request(
    state: FieldState,
    player: PlayerId,
    from_square: str,
    to_square: str,
    piece_kind: str | None = None,
) -> Request:
    """``player`` moves the piece on ``from_square`` to ``to_square`` ("C3", "t20").

    ``piece_kind`` ("Rook", "rook" or "R"), if given, must be the piece's.
    Raises ``ActionSyntaxError`` for text that is no square or no kind, and
    ``IllegalActionError`` (citing "B-Chess: Move (seed 000)") when B-Chess
    is not current, a square is off the Field, no piece of ``player``'s
    stands on ``from_square``, it is of another kind, or the move is not of
    its kind's shape.
    """
    _require_bchess(state)
    kind = None if piece_kind is None else piece_kind_named(piece_kind, RULE_MOVE)
    start, target = _squares(state, from_square, to_square, RULE_MOVE)
    piece = _own_piece(state, player, start, RULE_MOVE)
    if kind is not None and piece.kind != kind:
        raise IllegalActionError(
            f"your piece on {_name(state, start)} is a {piece.kind}, not a {kind}", rule=RULE_MOVE
        )
    return _movement_request(state, player, piece, MOVE, target, RULE_MOVE)


def capture_request(
    state: FieldState, player: PlayerId, from_square: str, to_square: str
) -> Request:
    """``player``'s Pawn on ``from_square`` captures on ``to_square``.

    Raises as ``move_request`` does (citing "B-Chess: Capture (seed 000)"),
    and ``IllegalActionError`` when the piece is no Pawn.
    """
    _require_bchess(state)
    start, target = _squares(state, from_square, to_square, RULE_CAPTURE)
    piece = _own_piece(state, player, start, RULE_CAPTURE)
    if piece.kind != PAWN:
        raise IllegalActionError(
            f"only a Pawn has Capture; your {piece.kind} on {_name(state, start)} takes a "
            "piece by moving onto it",
            rule=RULE_CAPTURE,
        )
    return _movement_request(state, player, piece, CAPTURE, target, RULE_CAPTURE)


def destination_request(
    state: FieldState,
    player: PlayerId,
    to_square: str,
    piece_kind: str | None = None,
    capture: bool = False,
) -> Request:
    """``player``'s one piece (of ``piece_kind``, if given) that can go to ``to_square``.

    "I move my rook to C7" names only the destination; a fair referee moves
    the one piece of the player's that can make that move.  Raises
    ``IllegalActionError`` when none can, and ``AmbiguousActionError``
    listing the pieces when several can: the player must say which.
    """
    _require_bchess(state)
    rule = RULE_CAPTURE if capture else RULE_MOVE
    kind = None if piece_kind is None else piece_kind_named(piece_kind, rule)
    requests: list[Request] = []
    for piece in state.objects:
        if piece.owner != player or piece.square is None or kind not in (None, piece.kind):
            continue
        start = _name(state, piece.square)
        try:
            if capture:
                requests.append(capture_request(state, player, start, to_square))
            else:
                requests.append(move_request(state, player, start, to_square, piece.kind))
        except IllegalActionError:
            continue  # this piece cannot make the move; another may
    return _the_one_request(requests, kind, to_square, rule)


def _the_one_request(requests: list[Request], kind: str | None, target: str, rule: str) -> Request:
    pieces = f"{kind}s" if kind else "pieces"
    if not requests:
        raise IllegalActionError(f"none of your {pieces} can go to {target.upper()}", rule=rule)
    if len(requests) > 1:
        starts = " and ".join(request.arguments[0] for request in requests)
        raise AmbiguousActionError(
            f"your {pieces} on {starts} can each go to {target.upper()}: say which one, as in"
            f' "I move my {kind or "piece"} at {requests[0].arguments[0]} to {target.upper()}"',
            rule=rule,
        )
    return requests[0]


def piece_kind_named(text: str, rule: str = RULE_MOVE) -> str:
    """Read "rook", "Rook" or "R" as "Rook"; ``ActionSyntaxError`` for anything else."""
    word = text.strip()
    for kind in PIECE_KINDS:
        if word.lower() == kind.lower() or word.upper() == PIECE_LETTERS[kind]:
            return kind
    raise ActionSyntaxError(
        f'"{text}" is not a B-Chess piece (King, Queen, Rook, Bishop, Knight, Pawn)', rule=rule
    )


def _movement_request(
    state: FieldState,
    player: PlayerId,
    piece: FieldObject,
    action: str,
    target: Square,
    rule: str,
) -> Request:
    start = piece.square if piece.square is not None else target
    route = plan_route(state.current_match, piece.kind, action, start, target)
    if isinstance(route, RouteRefusal):
        raise IllegalActionError(route.message, rule=rule)
    names = (_name(state, start), _name(state, target))
    verb = "moves" if action == MOVE else "captures with"
    text = f"{player} {verb} the {piece.kind} on {names[0]} to {names[1]}"
    return Request(player, action, piece.object_id, names, text)


def _squares(state: FieldState, start: str, target: str, rule: str) -> tuple[Square, Square]:
    geometry = state.geometry
    return geometry.parse_square(start, rule=rule), geometry.parse_square(target, rule=rule)


def _own_piece(state: FieldState, player: PlayerId, square: Square, rule: str) -> FieldObject:
    standing = objects_at(state, square)
    mine = [item for item in standing if item.owner == player]
    if mine:
        return mine[0]
    there = f": it holds {describe_piece(standing[0], state)}" if standing else " (it is empty)"
    raise IllegalActionError(f"no piece of yours is on {_name(state, square)}{there}", rule=rule)


def _name(state: FieldState, square: Square) -> str:
    return state.geometry.format_square(square)


def _require_bchess(state: FieldState) -> None:
    if state.match is None or state.match.rules != BCHESS_RULES.name:
        raise IllegalActionError("B-Chess is not the Current Field Match", rule=RULE_FIELD_MATCHES)
