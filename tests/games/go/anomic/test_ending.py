"""The end of a game (365), Go scoring (370) and clearing the Board (371), A Nomic seed 002."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest

from bot.games.dice import DrawSource
from bot.games.errors import IllegalActionError
from bot.games.go.anomic import (
    AnomicParameters,
    AnomicState,
    DragonCaptured,
    GoScore,
    MoveContext,
    StoneShare,
    end_game,
    new_game,
    offer_alliance,
    place_stone,
    placement_possible,
    quiet_nweek_passed,
    territories,
    with_alliances,
)
from bot.games.go.anomic.render import legend
from bot.testing.anomic_diagrams import board_of, diagram, drawn_position, untimed

PLAYERS = {"A": "Ann", "B": "Bob", "C": "Cat", "E": "Eve"}


def position(text: str, size: int, marks: Mapping[str, str] = PLAYERS) -> AnomicState:
    """The diagram's stones, each mark owned by ``marks[mark]``; all of them Go players."""
    return drawn_position(text, marks, untimed(size))


def shown(state: AnomicState, board: bytes) -> str:
    return board_of(state._replace(board=board))


# --- 365: "no longer legal to place a Stone" -----------------------------------------

# Ann placed the last stone, so 368 c stops her; anyone else would form a
# Dragon without liberties at a2 or b1 and take no enemy's last liberty (368 b).
BLOCKED = """
       a b
    2  . A  2
    1  A .  1
       a b
    """


def blocked(*, bob_allied_with_ann: bool) -> AnomicState:
    state = position(BLOCKED, size=2, marks={"A": "Ann", "B": "Bob"})._replace(last_placer="Ann")
    return with_alliances(state, [("Ann", "Bob")]) if bob_allied_with_ann else state


def test_a_placement_is_possible_on_an_empty_board() -> None:
    assert placement_possible(new_game(AnomicParameters(size=2)))


def test_no_placement_is_possible_when_every_empty_point_is_illegal_for_everyone() -> None:
    state = blocked(bob_allied_with_ann=False)
    assert not placement_possible(state)
    # Cross-check each candidate: Ann (368 c), Bob and a newcomer (368 b).
    for name, where in itertools.product(("Ann", "Bob", "Newcomer"), ("a2", "b1")):
        with pytest.raises(IllegalActionError) as refusal:
            place_stone(state, MoveContext(name, 0), state.parameters.parse_point(where))
        assert refusal.value.rule == ("368 c" if name == "Ann" else "368 b")


def test_an_ally_can_still_place_where_a_stranger_cannot() -> None:
    # Bob's a2 joins Ann's stones in a friendly Dragon that keeps b1.
    assert placement_possible(blocked(bob_allied_with_ann=True))


# --- 365: "a nweek passes in which no Player places a Stone" -------------------------

EMPTY_2X2 = """
       a b
    2  . .  2
    1  . .  1
       a b
    """


def test_no_quiet_nweek_before_the_game_has_started() -> None:
    assert not quiet_nweek_passed(new_game(), 10)


def test_a_whole_nweek_without_a_placement_ends_the_game() -> None:
    state = position(EMPTY_2X2, size=2)
    state = place_stone(
        state, MoveContext("Ann", 0, nweek=5), state.parameters.parse_point("a1")
    ).state
    # An offer is a move but places no Stone.
    state = offer_alliance(state, MoveContext("Bob", 0, nweek=6), "Ann").state
    assert [quiet_nweek_passed(state, nweek) for nweek in (5, 6, 7)] == [False, False, True]


def test_a_game_with_moves_but_no_stone_counts_from_its_first_move() -> None:
    state = position(EMPTY_2X2, size=2)
    state = offer_alliance(state, MoveContext("Ann", 0, nweek=5), "Bob").state
    assert state.started_nweek == 5
    assert [quiet_nweek_passed(state, nweek) for nweek in (6, 7)] == [False, True]


# --- 370 and 371: scoring and clearing ---------------------------------------------------

# Ann and Bob are allies.  Eve's c1 is dead (one liberty, 367); a4/a5 touch
# both the allies and Cat; c5 and e5 are the allies'; the rest is Cat's.
FINAL = """
       a b c d e
    5  . A . B .  5
    4  . A A B B  4
    3  C C C C C  3
    2  . C C C .  2
    1  . C E . .  1
       a b c d e
    """


def final_position() -> AnomicState:
    state = with_alliances(position(FINAL, size=5), [("Ann", "Bob")])
    ann = state.record_of("Ann")._replace(reserve=2)
    return state._replace(players=(ann, *state.players[1:]), offers=frozenset({("Cat", "Eve")}))


def test_dead_dragons_are_captured_then_territory_and_captures_make_the_score() -> None:
    result = end_game(final_position(), "no placement possible")
    assert result.reason == "no placement possible"
    assert result.dead_captures == (
        DragonCaptured(
            frozenset({final_position().parameters.parse_point("c1")}),
            (("Eve", 1),),
            (StoneShare("Cat", 2, 1),),
        ),
    )
    assert shown(final_position(), result.scored_board) == diagram(
        """
           a b c d e
        5  . A . B .  5
        4  . A A B B  4
        3  C C C C C  3
        2  . C C C .  2
        1  . C . . .  1
           a b c d e
        """
    )
    # Allies count shared territory in full, each; a4 and a5 border an
    # unfriendly Dragon for every player, so they count for nobody.
    assert result.scores == (
        GoScore("Ann", territory=2, captures=0),
        GoScore("Bob", territory=2, captures=0),
        GoScore("Cat", territory=6, captures=1),
        GoScore("Eve", territory=0, captures=0),
    )
    assert [score.total for score in result.scores] == [2, 2, 7, 0]
    assert result.winners == ("Cat",)


def test_clearing_turns_territory_and_stones_in_play_into_captured_stones() -> None:
    cleared = end_game(final_position(), "quiet nweek").state
    # Rule 371: captured pool += territory + own stones In Play.  Cat: 1
    # captured at the end, 6 territory, 9 stones In Play.  Reserve stays.
    assert legend(cleared)[:5] == [
        "Mark  Player                     In Play  Reserve  Captured  Captures  Allies",
        "A     Ann (not a Go player yet)  0        2        5         0         none",
        "B     Bob (not a Go player yet)  0        0        5         0         none",
        "C     Cat (not a Go player yet)  0        0        16        0         none",
        "E     Eve (not a Go player yet)  0        0        0         0         none",
    ]
    assert cleared.board == bytes(25)
    assert (cleared.game_number, cleared.move_number) == (2, 0)
    assert (cleared.go_players, cleared.alliances, cleared.offers) == ((), frozenset(), frozenset())
    assert (cleared.last_placer, cleared.started_nweek, cleared.breathless) == (
        None,
        None,
        frozenset(),
    )
    assert territories(cleared) == {}


def test_the_next_game_starts_with_a_fresh_position_log() -> None:
    cleared = end_game(final_position(), "quiet nweek").state
    assert [move for _, _, move in cleared.positions] == [0]
    result = place_stone(
        cleared, MoveContext("Eve", 0, nweek=9), cleared.parameters.parse_point("c3")
    )
    assert result.state.go_players == ("Eve",)
    assert result.state.started_nweek == 9


def test_equal_highest_scores_are_joint_winners() -> None:
    state = position(
        """
           a b c d
        4  . A B .  4
        3  . A B .  3
        2  . A B .  2
        1  . A B .  1
           a b c d
        """,
        size=4,
        marks={"A": "Ann", "B": "Bob"},
    )
    result = end_game(state, "no placement possible")
    assert result.scores == (GoScore("Ann", 4, 0), GoScore("Bob", 4, 0))
    assert result.winners == ("Ann", "Bob")


def test_a_tie_for_a_dead_dragon_is_drawn_and_decides_the_winner() -> None:
    state = position(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . . . .  3
        2  A . . . .  2
        1  A E B . .  1
           a b c d e
        """,
        size=5,
    )
    draws = DrawSource(bytes(32), "checkpoint nweek 7")
    result = end_game(state, "quiet nweek", draws)
    (draw,) = draws.draws
    assert draw.purpose == "rule 370 tie for the dead Dragon at b1"
    order = tuple(draw.options[index] for index in draw.result)
    (capture,) = result.dead_captures
    assert capture.tie_order == order
    assert capture.shares == (StoneShare(order[0], 1, 1), StoneShare(order[1], 1, 0))
    assert result.winners == (order[0],)


def test_two_dead_dragons_next_to_each_other_capture_each_other() -> None:
    # Ann's a1 (liberty a2) and Bob's b1 (liberty b2) are both dead.  Rule
    # 370 captures "all dead Dragons", each by the players whose unfriendly
    # Dragons are adjacent: Bob takes a1, and Ann (a1 and c1) takes b1.
    state = position(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . . . .  3
        2  . . . . .  2
        1  A B A . .  1
           a b c d e
        """,
        size=5,
        marks={"A": "Ann", "B": "Bob"},
    )
    result = end_game(state, "quiet nweek")
    a1, b1 = (state.parameters.parse_point(name) for name in ("a1", "b1"))
    assert result.dead_captures == (
        DragonCaptured(frozenset({a1}), (("Ann", 1),), (StoneShare("Bob", 1, 1),)),
        DragonCaptured(frozenset({b1}), (("Bob", 1),), (StoneShare("Ann", 2, 1),)),
    )
    assert shown(state, result.scored_board).splitlines()[-2] == "1  . . A . .  1"
    assert result.scores == (GoScore("Ann", 24, 1), GoScore("Bob", 0, 1))
