"""B-Chess moves by mail that name only the destination (seed 000; issue 12):
"I move my rook to C7" moves the one piece of the player's that can go there."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.games.field import FieldObject, FieldState, Square
from bot.games.field.bchess import KING, RULE_MOVE, reach_of
from bot.games.field.bchess.board import occupants
from bot.testing.field_matches import (
    ALICE,
    RITA,
    FieldTable,
    field_app,
    field_rulings,
    grant_macks,
    nweek_start,
)

DAY = nweek_start(0)


def reachable(state: FieldState, piece: FieldObject) -> set[Square]:
    standing = occupants(state)
    return {
        square
        for square in reach_of(state.current_match, piece, standing)
        if square not in standing
    }


def test_a_move_naming_only_its_destination_moves_the_one_piece_that_can_go_there(
    tmp_path: Path,
) -> None:
    table = FieldTable(field_app(tmp_path / "bot"))
    grant_macks(table.app)
    table.post(RITA, DAY + timedelta(hours=10), "I select B-Chess as the Current Field Match.")
    table.post(RITA, DAY + timedelta(hours=10, minutes=1), "I initialize the field.")
    table.post(ALICE, DAY + timedelta(hours=11), "I purchase a piece.")
    state = table.state()
    mine = [item for item in state.objects if item.owner == "Alice" and item.square is not None]
    piece = next(item for item in mine if item.kind != KING)
    others = set().union(*(reachable(state, item) for item in mine if item is not piece))
    only_this = sorted(reachable(state, piece) - others)
    assert only_this, "the purchased piece has a square no other piece of Alice's reaches"
    name = state.geometry.format_square
    table.post(
        ALICE, DAY + timedelta(hours=12), f"I'm moving my {piece.kind} to {name(only_this[0])}."
    )
    moved = field_rulings(table.app)[-1]
    assert moved[2] == "applied" and f"-> {name(only_this[0])}" in moved[4]
    assert (
        next(o for o in table.state().objects if o.object_id == piece.object_id).square
        == (only_this[0])
    )
    king = next(item for item in mine if item.kind == KING)
    assert king.square is not None
    now = table.state()
    far = next(
        square
        for square in range(now.geometry.square_count)
        if square not in reachable(now, king) and square not in occupants(now)
    )
    table.post(ALICE, DAY + timedelta(hours=13), f"I move my king to {name(far)}.")
    refused = field_rulings(table.app)[-1]
    assert refused[2:4] == ("rejected", RULE_MOVE)
    assert f"none of your Kings can go to {name(far)}" in refused[4]
