"""Dividing a captured Dragon's Go Points among the Capturers (rule 1639 D)."""

from __future__ import annotations

from bot.games.go import CaptureShare, divide_points


def shares(stones: int, adjacent: dict[str, int], recency: dict[str, int]) -> dict[str, int]:
    return {share.player: share.points for share in divide_points(stones, adjacent, recency)}


def test_a_single_capturer_takes_every_point() -> None:
    assert divide_points(5, {"Rob": 3}, {}) == (CaptureShare("Rob", 3, 5),)


def test_equal_division_without_remainder() -> None:
    assert shares(6, {"Rob": 1, "Sue": 4, "Tom": 2}, {}) == {"Rob": 2, "Sue": 2, "Tom": 2}


def test_remainder_goes_to_most_adjacent_stones() -> None:
    assert shares(7, {"Rob": 1, "Sue": 4, "Tom": 2}, {}) == {"Rob": 2, "Sue": 3, "Tom": 2}


def test_tie_for_most_adjacent_goes_to_most_recent_player() -> None:
    recency = {"Rob": 5, "Sue": 9, "Tom": 1}
    assert shares(7, {"Rob": 2, "Sue": 2, "Tom": 1}, recency) == {"Rob": 2, "Sue": 3, "Tom": 2}


def test_remainder_of_two_is_one_point_each_down_the_ranking() -> None:
    # Reading: the remainder (fewer points than Capturers) is handed out one
    # point at a time, most adjacent stones first, then most recent mover;
    # nobody gets two extra points while another Capturer gets none.
    recency = {"Rob": 1, "Sue": 3, "Tom": 2}
    assert shares(5, {"Rob": 3, "Sue": 1, "Tom": 1}, recency) == {"Rob": 2, "Sue": 2, "Tom": 1}
    assert shares(5, {"Rob": 1, "Sue": 1, "Tom": 1}, recency) == {"Rob": 1, "Sue": 2, "Tom": 2}


def test_ties_beyond_recency_keep_the_given_order() -> None:
    assert shares(1, {"Zed": 1, "Wen": 1}, {}) == {"Zed": 1, "Wen": 0}
    assert shares(1, {"Wen": 1, "Zed": 1}, {}) == {"Wen": 1, "Zed": 0}


def test_no_capturers_means_no_points() -> None:
    assert divide_points(3, {}, {}) == ()


def test_points_are_conserved() -> None:
    for stones in range(12):
        adjacent = {"Rob": 3, "Sue": 2, "Tom": 2, "Wen": 1}
        assert sum(shares(stones, adjacent, {"Tom": 4}).values()) == stones
