"""The B-Chess Field Match as a document (seed 000, "B-Chess"): names, rules, parameters.

``BCHESS`` is the match as the Ministry of Games wrote it: a 20 x 20 Field
(a torus, the Field's default, seed 003) whose squares are "also adjacent
to the four squares sharing only a corner", The Field's actions Initialize,
Join, Rejoin, Purchase and Checkmate, and six kinds of piece, each with
Move (the Pawn also Capture) and Distribute, in the order the text lists
them (the order Turning the Field uses).  Every number of the text is a
parameter, so an amended copy of the document changes it without code:

* ``"move range"`` 8: how far a Rook, Bishop or Queen moves;
* ``"knight jump"`` (2, 1): the Knight's "2 spaces ... and one space";
* ``"purchase step"`` 10: "X is ten times the number of times ...";
* ``"rejoin prices"`` ((1, 100), (2, 500), (3, 1000)): the Rejoin table;
* ``"piece weights"``: the Purchase table, Pawn 10, Rook 3, Knight 3,
  Bishop 3, Queen 1;
* ``"distribute minimum"`` 3: "at least three unoccupied squares".

"Times captured" is a player attribute: how many times a player's King was
destroyed by another piece moving onto it (Rejoin's "xCaptured").
"""

from __future__ import annotations

from bot.games.field.match import (
    SCOPE_PLAYERS,
    ActionSpec,
    AttributeSpec,
    FieldMatch,
    ObjectType,
    Parameter,
)
from bot.games.field.squares import Adjacency

KING = "King"
QUEEN = "Queen"
ROOK = "Rook"
BISHOP = "Bishop"
KNIGHT = "Knight"
PAWN = "Pawn"
PIECE_KINDS = (KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN)
# The piece characters of rule 1900 C's "second [character] denoting the type of piece".
PIECE_LETTERS = {KING: "K", QUEEN: "Q", ROOK: "R", BISHOP: "B", KNIGHT: "N", PAWN: "P"}

INITIALIZE = "Initialize"
JOIN = "Join"
REJOIN = "Rejoin"
PURCHASE = "Purchase"
CHECKMATE = "Checkmate"
MOVE = "Move"
CAPTURE = "Capture"
DISTRIBUTE = "Distribute"

TIMES_CAPTURED = "Times captured"

MOVE_RANGE = "move range"
KNIGHT_JUMP = "knight jump"
PURCHASE_STEP = "purchase step"
REJOIN_PRICES = "rejoin prices"
PIECE_WEIGHTS = "piece weights"
DISTRIBUTE_MINIMUM = "distribute minimum"

RULE_BCHESS = "B-Chess (seed 000)"
RULE_INITIALIZE = "B-Chess: Initialize (seed 000)"
RULE_JOIN = "B-Chess: Join (seed 000)"
RULE_REJOIN = "B-Chess: Rejoin (seed 000)"
RULE_PURCHASE = "B-Chess: Purchase (seed 000)"
RULE_CHECKMATE = "B-Chess: Checkmate (seed 000)"
RULE_MOVE = "B-Chess: Move (seed 000)"
RULE_CAPTURE = "B-Chess: Capture (seed 000)"
RULE_DISTRIBUTE = "B-Chess: Distribute (seed 000)"

# The general paragraphs of the match, quoted back in refusals.
OWNER_ONLY_TEXT = (
    "All Invokable actions of Field Objects in this Field Match may only be "
    "invoked by that Field Object's owner."
)
ONE_PER_TURN_TEXT = (
    "Only one invokable action per Field Object may be invoked each Turn of the Field."
)
OWN_PIECE_TEXT = (
    "A Field Object may not move into a square occupied by another Field Object "
    "owned by the same player."
)
THROUGH_TEXT = (
    "Unless otherwise specified, a Field Object may not move through a square "
    "occupied by another Field Object."
)

_DISTRIBUTE_TEXT = (
    "Trigger: Field Object has not yet been placed on the Field. Effect: If there exist "
    "at least three unoccupied squares on the Field and there exists at least one "
    "unoccupied square adjacent to this Field Object's owners King, place this Field "
    "Object on a random unoccupied square adjacent to that King. Otherwise, destroy "
    "this Field Object."
)


def _piece(name: str, move_text: str, *, capture_text: str = "") -> ObjectType:
    actions = [ActionSpec(MOVE, invokable=True, text=move_text)]
    if capture_text:
        actions.append(ActionSpec(CAPTURE, invokable=True, text=capture_text))
    actions.append(ActionSpec(DISTRIBUTE, text=_DISTRIBUTE_TEXT))
    return ObjectType(name, actions=tuple(actions))


BCHESS = FieldMatch(
    name="B-Chess",
    rules="bchess",
    rows=20,
    columns=20,
    communication="A public message to the forum",
    object_types=(
        _piece(KING, "A Game Action by the owner specifying an adjacent space"),
        _piece(
            PAWN,
            "A Game Action by the owner specifying an adjacent space in a cardinal direction",
            capture_text=(
                "A Game Action by the owner specifying an adjacent space in a diagonal "
                "direction; the space is occupied by a Field Object of a different player"
            ),
        ),
        _piece(ROOK, "A space within 8 squares in a cardinal direction"),
        _piece(KNIGHT, "A space 2 spaces away in one cardinal direction and one perpendicular"),
        _piece(BISHOP, "A space within 8 squares in a diagonal direction"),
        _piece(QUEEN, "A space within 8 squares in any cardinal or diagonal direction"),
    ),
    field_actions=(
        ActionSpec(INITIALIZE, invokable=True, text="A Game Action by the Referee"),
        ActionSpec(JOIN, invokable=True, text="A player who has never possessed a King"),
        ActionSpec(REJOIN, invokable=True, text="A player without a King, captured 1-3 times"),
        ActionSpec(PURCHASE, invokable=True, text="A player with a King, spending X macks"),
        ActionSpec(CHECKMATE, ends_match=True, text="Only one King remains on the Field"),
    ),
    attributes=(AttributeSpec(TIMES_CAPTURED, SCOPE_PLAYERS, (), 0),),
    torus=True,
    adjacency=Adjacency.EIGHT,
    trophy="An ornamental chess piece",
    parameters=(
        (MOVE_RANGE, 8),
        (KNIGHT_JUMP, (2, 1)),
        (PURCHASE_STEP, 10),
        (REJOIN_PRICES, ((1, 100), (2, 500), (3, 1000))),
        (PIECE_WEIGHTS, ((PAWN, 10), (ROOK, 3), (KNIGHT, 3), (BISHOP, 3), (QUEEN, 1))),
        (DISTRIBUTE_MINIMUM, 3),
    ),
)


def whole_number(match: FieldMatch, name: str) -> int:
    """The whole-number parameter ``name``; ``ValueError`` if the document holds another type."""
    value = match.parameter(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"parameter {name!r} of {match.name} must be a whole number")
    return value


def number_pair(match: FieldMatch, name: str) -> tuple[int, int]:
    value = match.parameter(name)
    if not (isinstance(value, tuple) and len(value) == 2):
        raise ValueError(f"parameter {name!r} of {match.name} must be a pair of numbers")
    return _number(value[0], name), _number(value[1], name)


def rejoin_prices(match: FieldMatch) -> tuple[tuple[int, int], ...]:
    """The Rejoin table as (times captured, macks) rows."""
    return tuple(
        (_number(captured, REJOIN_PRICES), _number(price, REJOIN_PRICES))
        for captured, price in _pairs(match, REJOIN_PRICES)
    )


def piece_weights(match: FieldMatch) -> tuple[tuple[str, int], ...]:
    """The Purchase table as (kind, weight) rows; kinds must be the match's object types."""
    rows: list[tuple[str, int]] = []
    for kind, weight in _pairs(match, PIECE_WEIGHTS):
        if not isinstance(kind, str) or match.object_type(kind) is None:
            raise ValueError(f"parameter {PIECE_WEIGHTS!r} names no object type: {kind!r}")
        rows.append((kind, _number(weight, PIECE_WEIGHTS)))
    if sum(weight for _, weight in rows) < 1:
        raise ValueError(f"parameter {PIECE_WEIGHTS!r} has no positive weight")
    return tuple(rows)


def _pairs(match: FieldMatch, name: str) -> tuple[tuple[Parameter, Parameter], ...]:
    value = match.parameter(name)
    if not isinstance(value, tuple):
        raise ValueError(f"parameter {name!r} of {match.name} must be a table")
    pairs: list[tuple[Parameter, Parameter]] = []
    for row in value:
        if not (isinstance(row, tuple) and len(row) == 2):
            raise ValueError(f"parameter {name!r} of {match.name} must hold pairs")
        pairs.append((row[0], row[1]))
    return tuple(pairs)


def _number(value: Parameter, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"parameter {name!r} must hold whole numbers, not {value!r}")
    return value
