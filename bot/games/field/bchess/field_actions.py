"""The Field's actions in B-Chess (seed 000): Initialize, Join, Rejoin, Purchase, Checkmate.

Readings (the lead copies these to docs/readings.md):

* Initialize: "If this action has never been invoked before in the current
  Field Match" is judged before anything happens, so a second Initialize is
  refused rather than carried out to no effect.  It gives a King to each
  Active Player (``TurnContext.active``: not On Leave) who does not already
  possess one, so a player who Joined first keeps one King.  Each draw picks
  a square among the unoccupied ones (one King per square); "if any two
  Kings are adjacent, all Kings are destroyed and this process is repeated":
  the Kings of that draw are discarded and all are drawn again, until no new
  King stands next to another King.  Draws are recorded per attempt; after
  10,000 attempts the Field is taken to be too crowded (``ValueError``, a
  defect report; 20 players on 400 squares need about 45 attempts).
* Join and Rejoin place the King on a random unoccupied square out of reach
  of every placed piece (reach: ``moves``).  With no such square the request
  is refused, as there is no square to satisfy the effect.
* "Possessing a King" means owning a King on the Field (``board``).
* Rejoin: "xCaptured" is the player's "Times captured" attribute; a price
  comes from the Rejoin table, so 0 or more than 3 captures are refused.
* Purchase: nomicbot Turns the Field once per post and all Invokable
  Actions of one post are the requests of that one Turn, so "the number of
  times this player has previously invoked this action since the Field was
  last turned" counts this player's Purchases already carried out in this
  Turn: three Purchases in one post cost 0, 10 and 20 macks, and the count
  starts again at the next Turn.  A refused Purchase was not invoked and
  does not count.  The piece is drawn by one recorded draw from 1 to the
  total weight (20), mapped to the cumulative weights in table order
  (1-10 Pawn, 11-13 Rook, 14-16 Knight, 17-19 Bishop, 20 Queen).
* Checkmate: "Only one King remains on the Field" holds when exactly one
  King is on the Field and at least one King has been captured in this
  match ("remains": the others were taken).  A lone player's Initialize is
  no checkmate.  As a Field action it is judged in step 1 of a Turn, so a
  capture made in step 2 is a checkmate at the next Turn of the Field
  (after that Turn's Join and Rejoin, which the document lists first).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.field.actions import (
    ActionCall,
    Effect,
    EffectOutcome,
    MatchEnding,
    RandomSource,
    Trigger,
    TriggerFailure,
)
from bot.games.field.bchess.board import (
    has_possessed_king,
    kings_of,
    occupants,
    placed_kings,
    times_captured,
    total_captures,
    unoccupied_squares,
)
from bot.games.field.bchess.document import (
    INITIALIZE,
    KING,
    PURCHASE,
    PURCHASE_STEP,
    RULE_CHECKMATE,
    RULE_INITIALIZE,
    RULE_JOIN,
    RULE_PURCHASE,
    RULE_REJOIN,
    piece_weights,
    rejoin_prices,
    whole_number,
)
from bot.games.field.bchess.moves import reach_of
from bot.games.field.bchess.purse import Purse
from bot.games.field.objects import PlayerId
from bot.games.field.squares import Square
from bot.games.field.state import FieldState, actions_performed, create_object

MAX_INITIALIZE_ATTEMPTS = 10_000


# Initialize ------------------------------------------------------------------


def initialize_trigger(call: ActionCall) -> TriggerFailure | None:
    if _invoker(call) != call.context.referee:
        return TriggerFailure("only the Referee may Initialize B-Chess", RULE_INITIALIZE)
    if actions_performed(call.state, INITIALIZE):
        return TriggerFailure(
            "Initialize has already been invoked in this B-Chess match", RULE_INITIALIZE
        )
    needing = _players_without_king(call)
    if len(needing) > len(unoccupied_squares(call.state)):
        return TriggerFailure(
            f"{len(needing)} Kings cannot stand on {len(unoccupied_squares(call.state))} "
            "unoccupied squares",
            RULE_INITIALIZE,
        )
    return None


def initialize_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    players = _players_without_king(call)
    squares, attempts = _draw_kings_apart(call.state, players, random)
    state = call.state
    for player, square in zip(players, squares, strict=True):
        state, _ = create_object(state, KING, owner=player, square=square)
    geometry = state.geometry
    placed = ", ".join(
        f"{player} {geometry.format_square(square)}"
        for player, square in zip(players, squares, strict=True)
    )
    redraws = f" (drawn {attempts} times: adjacent Kings were redrawn)" if attempts > 1 else ""
    return EffectOutcome(state, f"Kings placed: {placed or 'none'}{redraws}")


def _players_without_king(call: ActionCall) -> tuple[PlayerId, ...]:
    return tuple(player for player in call.context.active if not kings_of(call.state, player))


def _draw_kings_apart(
    state: FieldState, players: Sequence[PlayerId], random: RandomSource
) -> tuple[tuple[Square, ...], int]:
    for attempt in range(1, MAX_INITIALIZE_ATTEMPTS + 1):
        squares = _draw_king_squares(state, players, random, attempt)
        if not _any_king_adjacent(state, squares):
            return squares, attempt
    raise ValueError(f"no draw of {len(players)} Kings apart in {MAX_INITIALIZE_ATTEMPTS} tries")


def _draw_king_squares(
    state: FieldState, players: Sequence[PlayerId], random: RandomSource, attempt: int
) -> tuple[Square, ...]:
    geometry = state.geometry
    free = list(unoccupied_squares(state))
    drawn: list[Square] = []
    for player in players:
        names = [geometry.format_square(square) for square in free]
        purpose = f"Initialize, draw {attempt}: square of {player}'s King"
        square = geometry.parse_square(random.choice(names, purpose))
        free.remove(square)
        drawn.append(square)
    return tuple(drawn)


def _any_king_adjacent(state: FieldState, new_squares: Sequence[Square]) -> bool:
    # Kings placed earlier (by Join) count too, but only pairs with a new
    # King are judged: old Kings that moved next to each other are no
    # reason to redraw, and could make the redraw endless.
    geometry = state.geometry
    others = {king.square for king in placed_kings(state)} | set(new_squares)
    return any(
        neighbour in others for square in new_squares for neighbour in geometry.neighbours(square)
    )


# Join and Rejoin --------------------------------------------------------------


def join_trigger(call: ActionCall) -> TriggerFailure | None:
    player = _invoker(call)
    if has_possessed_king(call.state, player):
        return TriggerFailure(
            f"{player} has already possessed a King in this B-Chess match "
            "(a player whose King was captured may Rejoin)",
            RULE_JOIN,
        )
    return _no_safe_square(call.state, RULE_JOIN)


def join_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    return _place_safe_king(call.state, _invoker(call), random, "Join")


def rejoin_trigger_with(purse: Purse) -> Trigger:
    def rejoin_trigger(call: ActionCall) -> TriggerFailure | None:
        player = _invoker(call)
        kings = kings_of(call.state, player)
        if kings and kings[0].square is not None:
            where = call.state.geometry.format_square(kings[0].square)
            return TriggerFailure(f"{player} still possesses a King (at {where})", RULE_REJOIN)
        price = _rejoin_price(call.state, player)
        if isinstance(price, TriggerFailure):
            return price
        balance = purse.balance(player)
        if balance < price:
            return TriggerFailure(
                f"Rejoin after {times_captured(call.state, player)} captures costs {price} "
                f"macks and {player} has {balance}",
                RULE_REJOIN,
            )
        return _no_safe_square(call.state, RULE_REJOIN)

    return rejoin_trigger


def rejoin_effect_with(purse: Purse) -> Effect:
    def rejoin_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
        player = _invoker(call)
        price = _rejoin_price(call.state, player)
        if isinstance(price, TriggerFailure) or call.request is None:
            raise ValueError("Rejoin carried out although its trigger failed")
        purse.pay(call.request, price)
        outcome = _place_safe_king(call.state, player, random, "Rejoin")
        return EffectOutcome(outcome.state, f"{outcome.summary}; paid {price} macks")

    return rejoin_effect


def _rejoin_price(state: FieldState, player: PlayerId) -> int | TriggerFailure:
    captured = times_captured(state, player)
    prices = dict(rejoin_prices(state.current_match))
    if captured in prices:
        return prices[captured]
    if not prices or captured < min(prices):
        return TriggerFailure(
            f"{player}'s King has never been captured in this match; Rejoin is for a player "
            f"whose King was captured {_range_text(prices)} times",
            RULE_REJOIN,
        )
    return TriggerFailure(
        f"{player}'s King has been captured {captured} times; Rejoin is only for "
        f"{_range_text(prices)} captures",
        RULE_REJOIN,
    )


def _range_text(prices: dict[int, int]) -> str:
    if not prices:
        return "no number of"
    low, high = min(prices), max(prices)
    return f"{low}" if low == high else f"{low}-{high}"


def safe_squares(state: FieldState) -> tuple[Square, ...]:
    """Unoccupied squares no placed piece can reach in a single Turn, from A1 along rows."""
    standing = occupants(state)
    match = state.current_match
    reached: set[Square] = set()
    for piece in standing.values():
        reached |= reach_of(match, piece, standing)
    return tuple(square for square in unoccupied_squares(state) if square not in reached)


def _no_safe_square(state: FieldState, rule: str) -> TriggerFailure | None:
    if safe_squares(state):
        return None
    return TriggerFailure(
        "every unoccupied square of the Field can be reached by some Field Object in a "
        "single turn, so there is nowhere to place a new King",
        rule,
    )


def _place_safe_king(
    state: FieldState, player: PlayerId, random: RandomSource, action: str
) -> EffectOutcome:
    geometry = state.geometry
    names = [geometry.format_square(square) for square in safe_squares(state)]
    chosen = random.choice(names, f"{action}: square of {player}'s King (out of reach)")
    state, _ = create_object(state, KING, owner=player, square=geometry.parse_square(chosen))
    return EffectOutcome(state, f"{player}'s King placed at {chosen}")


# Purchase --------------------------------------------------------------------


def purchase_trigger_with(purse: Purse) -> Trigger:
    def purchase_trigger(call: ActionCall) -> TriggerFailure | None:
        player = _invoker(call)
        if not kings_of(call.state, player):
            return TriggerFailure(
                f"{player} possesses no King on the Field; only a player with a King may Purchase",
                RULE_PURCHASE,
            )
        price, earlier = purchase_price(call.state, player)
        balance = purse.balance(player)
        if balance < price:
            return TriggerFailure(
                f"this Purchase costs {price} macks ({earlier} earlier in this Turn of the "
                f"Field) and {player} has {balance}",
                RULE_PURCHASE,
            )
        return None

    return purchase_trigger


def purchase_effect_with(purse: Purse) -> Effect:
    def purchase_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
        player = _invoker(call)
        if call.request is None:
            raise ValueError("Purchase is an Invokable Action")
        price, _ = purchase_price(call.state, player)
        purse.pay(call.request, price)
        kind = draw_piece_kind(call.state, player, random)
        state, piece = create_object(call.state, kind, owner=player)
        summary = f"{player} paid {price} macks for a {kind} (#{piece.object_id}, not placed)"
        return EffectOutcome(state, summary)

    return purchase_effect


def purchase_price(state: FieldState, player: PlayerId) -> tuple[int, int]:
    """(X, earlier): X = step x this player's Purchases carried out in this Turn."""
    earlier = sum(
        1
        for record in actions_performed(state, PURCHASE, invoker=player)
        if record.turn == state.turn_number
    )
    return whole_number(state.current_match, PURCHASE_STEP) * earlier, earlier


def draw_piece_kind(state: FieldState, player: PlayerId, random: RandomSource) -> str:
    """One recorded draw from the Purchase table (see the module's reading)."""
    table = piece_weights(state.current_match)
    total = sum(weight for _, weight in table)
    bands: list[tuple[int, str]] = []
    ranges: list[str] = []
    top = 0
    for kind, weight in table:
        if weight:
            low, top = top + 1, top + weight
            bands.append((top, kind))
            ranges.append(f"{low}-{top} {kind}" if low < top else f"{top} {kind}")
    drawn = random.randint(1, total, f"Purchase: piece for {player} ({', '.join(ranges)})")
    return next(kind for limit, kind in bands if drawn <= limit)


# Checkmate -------------------------------------------------------------------


def checkmate_trigger(call: ActionCall) -> TriggerFailure | None:
    kings = placed_kings(call.state)
    if len(kings) == 1 and total_captures(call.state) > 0:
        return None
    # Not a refusal anyone sees: Checkmate is no Invokable Action.
    return TriggerFailure(f"{len(kings)} Kings remain on the Field", RULE_CHECKMATE)


def checkmate_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    king = placed_kings(call.state)[0]
    winner = king.owner or ""
    square = call.state.geometry.format_square(king.square or 0)
    reason = f"only {winner}'s King remains on the Field (at {square})"
    ending = MatchEnding(call.state.current_match.name, (winner,), reason)
    return EffectOutcome(call.state, f"Checkmate: {reason}; {winner} wins", ending)


def _invoker(call: ActionCall) -> PlayerId:
    return "" if call.request is None else call.request.invoker
