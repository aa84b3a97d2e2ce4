"""Rule 343, Mediocrity, pure: the most mediocre entry and the tree of sub-games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from bot.games.contests.challenges import (
    close_period,
    post_challenge,
    start_mediocrity,
    submit_answer,
)
from bot.games.contests.mediocre import Entry, most_mediocre, quantity_of
from bot.games.contests.rules import MEDIOCRITY, Contest
from bot.games.contests.serialize import state_from_json, state_to_json
from bot.games.contests.state import ContestsState, new_state
from bot.games.contests.transfers import Transfer
from bot.games.errors import IllegalActionError

START = datetime(2026, 1, 2, 12, tzinfo=UTC)


def entries(*values: str) -> list[Entry]:
    return [
        Entry(f"P{index}", Fraction(value), START + timedelta(hours=index))
        for index, value in enumerate(values)
    ]


def winner_of(*values: str) -> str | None:
    winner, _tied = most_mediocre(entries(*values))
    return None if winner is None else winner.player


def test_an_odd_count_is_won_by_the_median() -> None:
    # 343: "whose number ... is exceeded by as many participants as it exceeds".
    assert winner_of("5", "9", "7") == "P2"


def test_an_even_count_ties_the_two_middle_values_and_the_earliest_wins() -> None:
    # 10 is exceeded by 3 and exceeds none; 20 by 2 and 1; 30 by 1 and 2: 20 and 30
    # are equally near the balance, and 336 gives a tie to the earliest.
    winner, tied = most_mediocre(entries("10", "30", "20", "40"))
    assert [entry.player for entry in tied] == ["P1", "P2"]
    assert winner is not None and winner.player == "P1"


def test_equal_values_tie_and_the_earliest_wins() -> None:
    assert winner_of("8", "3", "3") == "P1"
    assert winner_of("4", "4", "4") == "P0"


def test_no_entry_no_winner() -> None:
    assert most_mediocre([]) == (None, ())


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("17", Fraction(17)),
        ("-3", Fraction(-3)),
        ("2.5", Fraction(5, 2)),
        ("1,000", Fraction(1000)),
    ],
)
def test_quantities_as_players_write_them(written: str, value: Fraction) -> None:
    assert quantity_of(written) == value


@pytest.mark.parametrize("written", ["seventeen", "1e9", "", "inf"])
def test_what_is_no_quantity(written: str) -> None:
    with pytest.raises(ValueError):
        quantity_of(written)


def play(
    state: ContestsState, master: str, at: datetime, quantities: dict[str, str]
) -> tuple[ContestsState, tuple[Transfer, ...]]:
    state, challenge = post_challenge(state, MEDIOCRITY, master, "submit your quantities", at)
    for minutes, (player, value) in enumerate(quantities.items(), start=1):
        moment = at + timedelta(minutes=minutes)
        state, _challenge, _fee = submit_answer(state, MEDIOCRITY, player, value, moment)
    return close_period(state, MEDIOCRITY, challenge.number)


def test_a_two_level_game_its_winners_succession_and_prize() -> None:
    # 343: "A level n game of Mediocrity sub-game consists of z n-1 sub games, unless
    # n=1 in which case it consists of z individual challenges"; "The ContestMaster of
    # each Mediocrity sub-game is the winner of the previous sub-game"; "the entire
    # collection of all entry fees ... shall be paid to the winner".
    state = new_state({})
    state = start_mediocrity(state, MEDIOCRITY, "Bob", 2, 3, 2, START, 64)
    assert state.of(Contest.MEDIOCRITY).contestmaster == "Bob"
    day = timedelta(days=3, hours=1)
    first = {"Alice": "10", "Carol": "20", "Dave": "30", "Erin": "40"}
    state, paid = play(state, "Bob", START, first)
    assert (state.of(Contest.MEDIOCRITY).contestmaster, paid) == ("Carol", ())
    # Level 1 sub-game 1: Carol and Bob 1 win, Alice, Dave and Erin 0: 0 is exceeded
    # by 2 and exceeds none, 1 exceeds 3: 0 is nearer the balance; Alice entered first.
    state, paid = play(state, "Carol", START + day, {"Alice": "5", "Bob": "7", "Dave": "9"})
    assert state.of(Contest.MEDIOCRITY).contestmaster == "Alice"
    # Two entries of three required: void, refunded, not counted, the S.M unchanged.
    state, paid = play(state, "Alice", START + 2 * day, {"Bob": "1", "Carol": "2"})
    assert [(t.payer, t.payee, t.amount) for t in paid] == [(None, "Bob", 4), (None, "Carol", 4)]
    assert state.of(Contest.MEDIOCRITY).contestmaster == "Alice"
    state, paid = play(state, "Alice", START + 3 * day, {"Bob": "100", "Carol": "50", "Dave": "75"})
    assert state.of(Contest.MEDIOCRITY).contestmaster == "Dave"
    state, paid = play(state, "Dave", START + 4 * day, {"Alice": "3", "Bob": "3", "Carol": "8"})
    (game,) = state.of(Contest.MEDIOCRITY).games
    assert game.challenges == (1, 2, 4, 5)
    # Level 1 sub-game 2: Dave and Alice 1 win, Bob and Carol 0: all equally mediocre,
    # Bob entered first.  The game: Alice and Bob 1 win, Carol, Dave and Erin 0:
    # Carol entered first of those.
    assert game.winner == "Carol"
    assert [(t.payer, t.payee, t.amount) for t in paid] == [(None, "Carol", 13 * 4)]
    assert state.of(Contest.MEDIOCRITY).contestmaster is None
    assert state_from_json(state_to_json(state)) == state


def test_one_game_at_a_time_and_valid_quantities() -> None:
    state = start_mediocrity(new_state({}), MEDIOCRITY, "Bob", 1, 3, 2, START, 64)
    with pytest.raises(IllegalActionError, match="one game at a time"):
        start_mediocrity(state, MEDIOCRITY, "Alice", 1, 3, 2, START, 64)
    state, _challenge = post_challenge(state, MEDIOCRITY, "Bob", "quantities", START)
    with pytest.raises(IllegalActionError, match="not a quantity"):
        submit_answer(state, MEDIOCRITY, "Alice", "many", START)
    with pytest.raises(IllegalActionError, match="at most 64"):
        start_mediocrity(new_state({}), MEDIOCRITY, "Bob", 4, 3, 4, START, 64)
