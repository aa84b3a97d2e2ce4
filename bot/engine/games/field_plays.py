"""How the engine plays each Field Match: its document, Turn, requests and board.

A ``MatchPlay`` binds one pure match package (``bot.games.field.life``,
``bot.games.field.bchess``) to what the mail adapter needs: the name the
parser gives the match ("life", "b-chess"), the function selecting it, the
function Turning the Field with all the requests of one post, a builder per
parsed action turning it into a ``Request`` (or raising ``ActionError``), and
the board mailed back.  Adding a Field Match to the bot is one more entry in
``MATCH_PLAYS``.

Everything here is pure: the adapter (``bot.engine.games.field``) passes
the state, the context, the recorded random source and the players' macks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.errors import IllegalActionError
from bot.games.field import (
    RULE_FIELD_MATCHES,
    FieldMatch,
    FieldState,
    PlayerId,
    RandomSource,
    Request,
    SelectionResult,
    TurnContext,
    TurnResult,
    bchess,
    objects_at,
    turn_field,
)
from bot.games.field.bchess.document import CAPTURE, JOIN, MOVE, PURCHASE, REJOIN
from bot.games.field.life import (
    LIFE,
    LIFE_RULES,
    RULE_EVOLVE,
    RULE_INITIALIZE,
    RULE_TWEAK,
    render_life_board,
    start_life,
)
from bot.games.field.life.rules import CELL, EVOLVE, INITIALIZE, TWEAK

Arguments = Mapping[str, Any]
RequestBuilder = Callable[[FieldState, TurnContext, PlayerId, Arguments], Request]


@dataclass(frozen=True)
class Spending:
    """Macks a request of the Turn cost its invoker (kept in the engine's ledger)."""

    request: Request
    player: PlayerId
    macks: int
    rule: str
    note: str


@dataclass(frozen=True)
class PlayedTurn:
    """One Turn of the Field as a match played it, with what its requests cost."""

    result: TurnResult
    spendings: tuple[Spending, ...] = ()


TurnFunction = Callable[
    [FieldState, TurnContext, Sequence[Request], RandomSource, Mapping[PlayerId, int]],
    PlayedTurn,
]
StartFunction = Callable[[FieldState, TurnContext, RandomSource], SelectionResult]
BoardFunction = Callable[[FieldState, Sequence[PlayerId]], str]


@dataclass(frozen=True)
class MatchPlay:
    """What the engine needs to referee one Field Match by mail."""

    key: str  # the parser's name of the match: field.select's "match"
    document: FieldMatch
    start: StartFunction
    turn: TurnFunction
    builders: Mapping[str, RequestBuilder]  # parsed action name -> Request
    board: BoardFunction
    action_rules: Mapping[str, str]  # the match's action name -> the rule a ruling cites

    @property
    def rules(self) -> str:
        return self.document.rules

    def rule_of(self, action: str) -> str:
        """The rule a ruling on ``action`` cites, e.g. "Life: Tweak (seed 000)"."""
        return self.action_rules.get(action, RULE_FIELD_MATCHES)

    def request(
        self,
        state: FieldState,
        context: TurnContext,
        player: PlayerId,
        action: str,
        args: Arguments,
    ) -> Request:
        """The Request ``action`` makes of this match; ``ActionError`` if it makes none."""
        builder = self.builders.get(action)
        if builder is None:
            name = action.removeprefix("field.").capitalize()
            raise IllegalActionError(
                f"{self.document.name}, the Current Field Match, has no Invokable Action {name}",
                rule=RULE_FIELD_MATCHES,
            )
        return builder(state, context, player, args)


# Life (seed 000) ----------------------------------------------------------------


def _life_turn(
    state: FieldState,
    context: TurnContext,
    requests: Sequence[Request],
    random: RandomSource,
    macks: Mapping[PlayerId, int],
) -> PlayedTurn:
    # Life costs nothing: every request of the post goes into one Turn.
    return PlayedTurn(turn_field(state, LIFE_RULES, requests, context, random))


def _initialize(
    state: FieldState, context: TurnContext, player: PlayerId, args: Arguments
) -> Request:
    # Life and B-Chess alike: the request is the poster's; whether e may
    # Initialize is for the trigger to judge (B-Chess's refuses all but the Referee).
    return Request(player, INITIALIZE, text="Initialize")


def _life_evolve(
    state: FieldState, context: TurnContext, player: PlayerId, args: Arguments
) -> Request:
    return Request(player, EVOLVE, text="Evolve")


def _life_tweak(
    state: FieldState, context: TurnContext, player: PlayerId, args: Arguments
) -> Request:
    """The Tweak of the Cell on ``args["square"]``.

    Raises ``ActionSyntaxError`` / ``IllegalActionError`` (rule: Life's Tweak)
    for text that is no square of the Field or a square without a Cell.
    """
    geometry = state.geometry
    square = geometry.parse_square(str(args["square"]), rule=RULE_TWEAK)
    name = geometry.format_square(square)
    cells = [item for item in objects_at(state, square) if item.kind == CELL]
    if not cells:
        raise IllegalActionError(
            f"there is no Cell on {name}: Life has not been initialized", rule=RULE_TWEAK
        )
    return Request(player, TWEAK, cells[0].object_id, (name,), f"I tweak cell {name}")


def _life_board(state: FieldState, players: Sequence[PlayerId]) -> str:
    return render_life_board(state, players)


LIFE_PLAY = MatchPlay(
    key="life",
    document=LIFE,
    start=lambda state, context, random: start_life(state, context, random),
    turn=_life_turn,
    builders={
        "field.initialize": _initialize,
        "field.evolve": _life_evolve,
        "field.tweak": _life_tweak,
    },
    board=_life_board,
    action_rules={INITIALIZE: RULE_INITIALIZE, EVOLVE: RULE_EVOLVE, TWEAK: RULE_TWEAK},
)


# B-Chess (seed 000) -------------------------------------------------------------

PAID_RULES = {PURCHASE: bchess.RULE_PURCHASE, REJOIN: bchess.RULE_REJOIN}


def _bchess_turn(
    state: FieldState,
    context: TurnContext,
    requests: Sequence[Request],
    random: RandomSource,
    macks: Mapping[PlayerId, int],
) -> PlayedTurn:
    played = bchess.play_turn(state, context, requests, random, macks)
    spendings = tuple(
        Spending(
            item.request,
            item.request.invoker,
            item.macks,
            PAID_RULES.get(item.request.action, bchess.RULE_BCHESS),
            f"B-Chess {item.request.action}",
        )
        for item in played.spendings
        if item.macks
    )
    return PlayedTurn(played.result, spendings)


def _bchess_move(
    state: FieldState, context: TurnContext, player: PlayerId, args: Arguments
) -> Request:
    piece = args.get("piece")
    kind = None if piece is None else str(piece)
    if "from" not in args:  # "I move my rook to C7": the one rook that can go there
        return bchess.destination_request(state, player, str(args["to"]), kind)
    return bchess.move_request(state, player, str(args["from"]), str(args["to"]), kind)


def _bchess_capture(
    state: FieldState, context: TurnContext, player: PlayerId, args: Arguments
) -> Request:
    piece = args.get("piece")
    kind = None if piece is None else str(piece)
    if "from" not in args:  # "I capture D4 with my pawn"
        return bchess.destination_request(state, player, str(args["to"]), kind, capture=True)
    if kind is not None and bchess.piece_kind_named(kind, bchess.RULE_CAPTURE) != bchess.PAWN:
        # "I capture D4 with my rook at C3": seed 000 gives Capture to Pawns alone.
        raise IllegalActionError(
            f"only a Pawn has Capture; a {kind} takes a piece by moving onto it",
            rule=bchess.RULE_CAPTURE,
        )
    return bchess.capture_request(state, player, str(args["from"]), str(args["to"]))


def _bchess_board(state: FieldState, players: Sequence[PlayerId]) -> str:
    # No player has chosen an owner character (rule 1900 C): the board gives
    # each the first spare one, in name order.
    return bchess.render_bchess_board(state, {})


BCHESS_PLAY = MatchPlay(
    key="b-chess",
    document=bchess.BCHESS,
    start=lambda state, context, random: bchess.start_bchess(state, context, random),
    turn=_bchess_turn,
    builders={
        "field.initialize": _initialize,
        "field.join": lambda state, context, player, args: bchess.join_request(player),
        "field.rejoin": lambda state, context, player, args: bchess.rejoin_request(player),
        "field.purchase": lambda state, context, player, args: bchess.purchase_request(player),
        "field.move": _bchess_move,
        "field.capture": _bchess_capture,
    },
    board=_bchess_board,
    action_rules={
        INITIALIZE: bchess.RULE_INITIALIZE,
        JOIN: bchess.RULE_JOIN,
        REJOIN: bchess.RULE_REJOIN,
        PURCHASE: bchess.RULE_PURCHASE,
        MOVE: bchess.RULE_MOVE,
        CAPTURE: bchess.RULE_CAPTURE,
    },
)

MATCH_PLAYS: tuple[MatchPlay, ...] = (LIFE_PLAY, BCHESS_PLAY)


def play_named(key: str) -> MatchPlay | None:
    """The match the parser calls ``key`` ("life", "b-chess"), if the bot plays it."""
    return next((play for play in MATCH_PLAYS if play.key == key), None)


def play_of(state: FieldState) -> MatchPlay | None:
    """How to play the Current Field Match of ``state`` (None if there is none)."""
    if state.match is None:
        return None
    return next((play for play in MATCH_PLAYS if play.rules == state.match.rules), None)
