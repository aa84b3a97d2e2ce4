"""Acceptance 2: Life's Evolve as before/after diagrams on the 5 x 5 torus (seed 000).

Each test draws a position as the bot mails it, performs Evolve, and
compares the board mailed back: coloured births by majority and by the
Advantage, deaths, wrap-around at the torus's edges, the Advantage's
rotation, Teams for players without one, and the end of the match.
"""

from __future__ import annotations

import pytest

from bot.games.dice import DrawSource
from bot.games.errors import IllegalActionError
from bot.games.field import FieldState, MatchEnding, Request, TurnContext, turn_field
from bot.games.field.life import (
    LIFE_RULES,
    Colour,
    advantage_of,
    evolve,
    position_from_board,
    render_life_board,
    start_life,
    team_of,
)

SEED = bytes(range(32))
PLAYERS = ("alice", "bob", "carol")
CONTEXT = TurnContext(nweek=20, referee="referee", players=PLAYERS)
TEAMS = "Red team: alice\nGreen team: bob\nBlue team: carol"


def board(grid: str, advantage: str) -> str:
    return f"Life: 5 x 5 torus\n{grid.strip(chr(10))}\nAdvantage: {advantage}\n{TEAMS}"


def mailed(state: FieldState) -> str:
    return render_life_board(state, PLAYERS)


TIED_AND_MAJORITY = """
   A B C D E
5  . . . . .
4  R . G G .
3  . B . . .
2  . . . . .
1  . . . . ."""


@pytest.mark.parametrize(
    ("advantage", "tie_winner", "rotated"),
    [("Green", "G", "Blue"), ("Blue", "B", "Red"), ("Red", "R", "Green")],
)
def test_births_take_the_majority_and_ties_go_to_the_advantage(
    advantage: str, tie_winner: str, rotated: str
) -> None:
    # B4 sees R, G and B once each: a tie, won by the Advantage.  C3 sees G,
    # G and B: Green by majority.  A4 and D4 have one coloured neighbour and
    # die; C4 and B3 have two and survive.  Then the Advantage moves on.
    before = position_from_board(board(TIED_AND_MAJORITY, advantage))
    result = evolve(before, CONTEXT, DrawSource(SEED, "evolve"))
    assert result.record.ending is None
    assert mailed(result.state) == board(
        f"""
   A B C D E
5  . . . . .
4  . {tie_winner} G . .
3  . B G . .
2  . . . . .
1  . . . . .""",
        rotated,
    )
    assert result.record.carried_out[0].summary == f"2 births, 2 deaths; Advantage {rotated}"


def test_overcrowding_and_isolation_kill_and_the_last_colour_wins() -> None:
    # C3 has four coloured neighbours and dies; each corner cell has one and
    # dies.  B3 and C4 are born Red (three Red), D3 and C2 too (two Red, one
    # Green), so only Red is left and the Red team wins.
    before = board(
        """
   A B C D E
5  . . . . .
4  . R . R .
3  . . R . .
2  . R . G .
1  . . . . .""",
        "Blue",
    )
    source = DrawSource(SEED, "end")
    result = evolve(position_from_board(before), CONTEXT, source)
    assert result.record.ending == MatchEnding("Life", ("alice",), "only Red Cells remain")
    assert result.final_position is not None
    assert mailed(result.final_position) == board(
        """
   A B C D E
5  . . . . .
4  . . R . .
3  . R . R .
2  . . R . .
1  . . . . .""",
        "Blue",
    )
    # The match is over: the Field is cleared, and steps 3 (Advantage) and 4
    # (Teams) were not carried out.
    assert result.state.match is None and result.state.objects == ()
    assert source.draws == ()


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "5  . . . . .\n4  . . . . .\n3  R . . R R\n2  . . . . .\n1  . . . . .",
            "5  . . . . .\n4  . . . . R\n3  . . . . R\n2  . . . . R\n1  . . . . .",
        ),
        (
            "5  . . R . .\n4  . . . . .\n3  . . . . .\n2  . . R . .\n1  . . R . .",
            "5  . . . . .\n4  . . . . .\n3  . . . . .\n2  . . . . .\n1  . R R R .",
        ),
    ],
    ids=["left and right edges", "top and bottom edges"],
)
def test_the_torus_wraps_round_every_edge(before: str, after: str) -> None:
    # A blinker cut by an edge turns as if there were no edge: E3 (or C1)
    # sees both ends, and the squares beside it see all three.
    header = "   A B C D E\n"
    position = position_from_board(board(header + before, "Green"))
    result = evolve(position, CONTEXT, DrawSource(SEED, "wrap"))
    assert result.final_position is not None
    assert mailed(result.final_position) == board(header + after, "Green")


def test_players_without_a_team_get_one_at_evolve_and_it_is_published() -> None:
    players = (*PLAYERS, "dave")
    context = TurnContext(20, "referee", players)
    position = position_from_board(board(TIED_AND_MAJORITY, "Green"))
    assert team_of(position, "dave") is None
    source = DrawSource(SEED, "teams")
    state = evolve(position, context, source).state
    (draw,) = source.draws
    assert draw.purpose == "Evolve: Team of dave"
    assert team_of(state, "dave") == Colour(draw.options[draw.result[0]])
    assert team_of(state, "alice") is Colour.RED


def test_a_field_without_colour_goes_on_and_the_advantage_still_turns() -> None:
    lonely = "   A B C D E\n5  . . . . .\n4  . . . . .\n3  . . G . .\n2  . . . . .\n1  . . . . ."
    result = evolve(position_from_board(board(lonely, "Blue")), CONTEXT, DrawSource(SEED, "e"))
    assert result.record.ending is None
    assert mailed(result.state) == board(lonely.replace("G", "."), "Red")
    assert advantage_of(result.state) is Colour.RED


def test_evolve_is_once_per_nweek() -> None:
    position = position_from_board(board(TIED_AND_MAJORITY, "Green"))
    state = evolve(position, CONTEXT, DrawSource(SEED, "first")).state
    with pytest.raises(IllegalActionError) as refused:
        evolve(state, CONTEXT, DrawSource(SEED, "again"))
    assert refused.value.message == (
        "Evolve has already been performed in nweek 20; the Referee may evolve again from nweek 21"
    )
    assert refused.value.rule == "Life: Evolve (seed 000)"
    next_week = TurnContext(21, "referee", PLAYERS)
    assert evolve(state, next_week, DrawSource(SEED, "next")).state.turn_number == 2


def test_only_the_referee_performs_evolve() -> None:
    position = position_from_board(board(TIED_AND_MAJORITY, "Green"))
    request = Request("alice", "Evolve", text="I perform Evolve")
    result = turn_field(position, LIFE_RULES, (request,), CONTEXT, DrawSource(SEED, "x"))
    (refusal,) = result.record.refusals
    assert refusal.message == "only the Referee may perform Evolve"
    assert result.record.carried_out == ()
    assert result.state.objects == position.objects


def test_evolve_before_initialize_only_gives_teams() -> None:
    source = DrawSource(SEED, "early")
    state = start_life(FieldState(), CONTEXT, source).state
    result = evolve(state, CONTEXT, source)
    assert [draw.purpose for draw in source.draws] == [f"Evolve: Team of {p}" for p in PLAYERS]
    assert result.state.objects == () and advantage_of(result.state) is None
