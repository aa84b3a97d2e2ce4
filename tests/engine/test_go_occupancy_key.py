"""The key a ko check looks stored positions up by (rule 1639 E; ``go_position.occupancy``)."""

from __future__ import annotations

import random

import pytest

from bot.engine.games.go import occupancy_key


def bit_per_point(board: bytes) -> str:
    """The key's definition: one bit per point, A1 first, 1 where a stone stands, as hex."""
    return format(int("".join("1" if code else "0" for code in board), 2), "x")


@pytest.mark.parametrize("size", [2, 9, 19, 26])
def test_the_key_has_a_bit_for_each_point_holding_a_stone(size: int) -> None:
    generator = random.Random(size)
    boards = [bytes(size * size), bytes([255]) * size * size, bytes([0] * (size * size - 1) + [1])]
    for _ in range(200):
        boards.append(bytes(generator.choice((0, 0, 1, 2, 7, 255)) for _ in range(size * size)))
    assert [occupancy_key(board) for board in boards] == [bit_per_point(b) for b in boards]


def test_the_keys_of_known_boards() -> None:
    assert occupancy_key(bytes(81)) == "0"
    assert occupancy_key(bytes([1] + [0] * 80)) == format(1 << 80, "x")  # A1 alone
    assert occupancy_key(bytes([0] * 80 + [3])) == "1"  # I9 alone
