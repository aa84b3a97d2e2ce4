"""The pieces' actions in B-Chess (seed 000): Move, the Pawn's Capture, and Distribute.

A Move or Capture request names its target square as its last argument
(``play.move_request`` builds it).  The trigger checks, in this order: the
invoker owns the piece ("may only be invoked by that Field Object's
owner"); the piece has not already carried out an invokable action this
Turn ("only one invokable action per Field Object ... each Turn"); the
target has the piece's shape (``moves``); nothing stands in the way; the
target does not hold the mover's own piece.  The effect moves the piece and
destroys whatever stood on the target ("the Field Object currently
occupying that square is destroyed"); a King destroyed so adds one to its
owner's "Times captured".

Readings:

* A Pawn's Move onto an occupied square, and its Capture onto an empty
  square or its owner's own piece, would do nothing ("If the specified
  space is unoccupied ..."); they are refused, so they do not use up the
  Pawn's one action of the Turn and the player learns why.
* A refused request is not "invoked": only actions carried out count
  towards "one invokable action per Field Object per Turn".
* Distribute uses the Field's adjacency (eight squares) around the owner's
  King; if the owner somehow has two Kings, the one higher on the Priority
  List.  With no King the piece is destroyed ("Otherwise, destroy").
"""

from __future__ import annotations

from bot.games.errors import ActionError
from bot.games.field.actions import ActionCall, EffectOutcome, RandomSource, TriggerFailure
from bot.games.field.bchess.board import (
    describe_piece,
    kings_of,
    occupants,
    times_captured,
    unoccupied_squares,
)
from bot.games.field.bchess.document import (
    CAPTURE,
    DISTRIBUTE_MINIMUM,
    KING,
    MOVE,
    ONE_PER_TURN_TEXT,
    OWN_PIECE_TEXT,
    OWNER_ONLY_TEXT,
    PAWN,
    RULE_BCHESS,
    RULE_CAPTURE,
    RULE_DISTRIBUTE,
    RULE_MOVE,
    THROUGH_TEXT,
    TIMES_CAPTURED,
    whole_number,
)
from bot.games.field.bchess.moves import RouteRefusal, first_blocker, plan_route
from bot.games.field.objects import FieldObject
from bot.games.field.squares import Square
from bot.games.field.state import (
    FieldState,
    destroy_object,
    replace_object,
    with_player_attribute,
)

INVOKABLE_PIECE_ACTIONS = (MOVE, CAPTURE)


def move_trigger(call: ActionCall) -> TriggerFailure | None:
    return _movement_failure(call, MOVE, RULE_MOVE)


def capture_trigger(call: ActionCall) -> TriggerFailure | None:
    return _movement_failure(call, CAPTURE, RULE_CAPTURE)


def move_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    """Move (or Capture): the piece goes to the target; whatever stood there is destroyed."""
    piece = _subject(call)
    target = _target(call)
    state = call.state
    before = describe_piece(piece, state)
    victim = occupants(state).get(target)
    taken = ""
    if victim is not None:
        taken = f", destroying {describe_piece(victim, state)}"
        state = _destroy(state, victim)
    state = replace_object(state, piece.placed_at(target))
    return EffectOutcome(state, f"{before} -> {state.geometry.format_square(target)}{taken}")


def distribute_trigger(call: ActionCall) -> TriggerFailure | None:
    if _subject(call).is_placed:
        return TriggerFailure("the piece is already on the Field", RULE_DISTRIBUTE)
    return None


def distribute_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    piece = _subject(call)
    state = call.state
    free = _free_squares_by_king(state, piece)
    if isinstance(free, str):
        summary = f"{describe_piece(piece, state)} destroyed: {free}"
        return EffectOutcome(destroy_object(state, piece.object_id), summary)
    geometry = state.geometry
    names = [geometry.format_square(square) for square in free]
    purpose = f"Distribute: square of {piece.owner}'s {piece.kind} #{piece.object_id}"
    chosen = random.choice(names, purpose)
    state = replace_object(state, piece.placed_at(geometry.parse_square(chosen)))
    return EffectOutcome(state, f"{piece.owner}'s {piece.kind} placed at {chosen}")


def _free_squares_by_king(state: FieldState, piece: FieldObject) -> tuple[Square, ...] | str:
    """The unoccupied squares next to the owner's King, or why the piece is destroyed."""
    minimum = whole_number(state.current_match, DISTRIBUTE_MINIMUM)
    free = set(unoccupied_squares(state))
    if len(free) < minimum:
        return f"fewer than {minimum} squares of the Field are unoccupied"
    kings = kings_of(state, piece.owner) if piece.owner is not None else ()
    if not kings or kings[0].square is None:
        return f"{piece.owner} possesses no King on the Field"
    around = dict.fromkeys(state.geometry.neighbours(kings[0].square))
    beside = tuple(square for square in around if square in free)
    if not beside:
        return f"no square next to {piece.owner}'s King is unoccupied"
    return beside


def _movement_failure(call: ActionCall, action: str, rule: str) -> TriggerFailure | None:
    piece = _subject(call)
    invoker = "" if call.request is None else call.request.invoker
    if piece.owner != invoker:
        return TriggerFailure(
            f"'{OWNER_ONLY_TEXT}' {describe_piece(piece, call.state)} is not {invoker}'s",
            RULE_BCHESS,
        )
    earlier = _earlier_action(call.state, piece)
    if earlier is not None:
        return TriggerFailure(
            f"'{ONE_PER_TURN_TEXT}' This {piece.kind} already acted in this Turn: {earlier}",
            RULE_BCHESS,
        )
    try:
        target = _target(call)
    except ActionError as error:
        return TriggerFailure(error.message, rule)
    return _route_failure(call.state, piece, action, target, rule)


def _earlier_action(state: FieldState, piece: FieldObject) -> str | None:
    for record in state.history:
        if (
            record.turn == state.turn_number
            and record.object_id == piece.object_id
            and record.action in INVOKABLE_PIECE_ACTIONS
        ):
            return f"{record.action} {record.summary}"
    return None


def _route_failure(
    state: FieldState, piece: FieldObject, action: str, target: Square, rule: str
) -> TriggerFailure | None:
    if piece.square is None:
        return TriggerFailure(f"{describe_piece(piece, state)} is not on the Field", rule)
    route = plan_route(state.current_match, piece.kind, action, piece.square, target)
    if isinstance(route, RouteRefusal):
        return TriggerFailure(route.message, rule)
    standing = occupants(state)
    blocker = first_blocker(route, standing)
    if blocker is not None:
        return TriggerFailure(
            f"'{THROUGH_TEXT}' The {piece.kind}'s route to "
            f"{state.geometry.format_square(target)} passes {describe_piece(blocker, state)}",
            rule,
        )
    return _destination_failure(state, piece, action, standing.get(target), target, rule)


def _destination_failure(
    state: FieldState,
    piece: FieldObject,
    action: str,
    occupant: FieldObject | None,
    target: Square,
    rule: str,
) -> TriggerFailure | None:
    name = state.geometry.format_square(target)
    if occupant is not None and occupant.owner == piece.owner:
        return TriggerFailure(
            f"'{OWN_PIECE_TEXT}' {name} holds {describe_piece(occupant, state)}", RULE_BCHESS
        )
    if piece.kind == PAWN and action == MOVE and occupant is not None:
        return TriggerFailure(
            f"a Pawn moves only if the specified space is unoccupied; {name} holds "
            f"{describe_piece(occupant, state)} (a Pawn takes pieces by Capture, diagonally)",
            rule,
        )
    if action == CAPTURE and occupant is None:
        return TriggerFailure(
            f"a Pawn captures only a Field Object belonging to a different player; "
            f"{name} is unoccupied (a Pawn moves by Move, in a cardinal direction)",
            rule,
        )
    return None


def _destroy(state: FieldState, victim: FieldObject) -> FieldState:
    state = destroy_object(state, victim.object_id)
    if victim.kind == KING and victim.owner is not None:
        # Rejoin's "xCaptured": a King destroyed by a piece moving onto it.
        count = times_captured(state, victim.owner) + 1
        state = with_player_attribute(state, victim.owner, TIMES_CAPTURED, count)
    return state


def _subject(call: ActionCall) -> FieldObject:
    if call.subject is None:
        raise ValueError("a piece's action was called without its piece")
    return call.subject


def _target(call: ActionCall) -> Square:
    """The request's last argument as a square; ``ActionSyntaxError``/``IllegalActionError``."""
    if call.request is None or not call.request.arguments:
        raise ValueError("a Move or Capture request must name its target square")
    return call.state.geometry.parse_square(call.request.arguments[-1], rule=RULE_MOVE)
