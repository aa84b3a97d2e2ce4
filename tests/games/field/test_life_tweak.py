"""Acceptance 2: Life's Tweak as before/after diagrams, and its refusals (seed 000).

The position is a 6 x 6 Life (the document's size amended, which is data)
holding a Red and a Blue block: both are still lifes, so Evolve leaves the
grid as it was and the tests look at the Tweaks alone.  dave becomes a
Player after the nweek's Evolve, so he has no Team yet.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.dice import DrawSource
from bot.games.errors import ActionSyntaxError, IllegalActionError
from bot.games.field import FieldState, TurnContext
from bot.games.field.life import (
    LIFE,
    evolve,
    position_from_board,
    render_life_board,
    start_life,
    tweak,
)

SEED = bytes(range(32))
SIX = replace(LIFE, rows=6, columns=6)
NWEEK = 20
EVOLVE_CONTEXT = TurnContext(nweek=NWEEK, referee="referee", players=("alice", "bob", "carol"))
CONTEXT = replace(EVOLVE_CONTEXT, players=("alice", "bob", "carol", "dave"))
TEAMS = "Red team: alice\nGreen team: carol\nBlue team: bob"
BLOCKS = """Life: 6 x 6 torus
   A B C D E F
6  . . . . . .
5  . . . B B .
4  . . . B B .
3  . . . . . .
2  R R . . . .
1  R R . . . ."""


def position() -> FieldState:
    return position_from_board(f"{BLOCKS}\nAdvantage: Green\n{TEAMS}", SIX)


def evolved(state: FieldState, nweek: int = NWEEK) -> FieldState:
    context = replace(EVOLVE_CONTEXT, nweek=nweek)
    result = evolve(state, context, DrawSource(SEED, f"evolve {nweek}"))
    assert grid(result.state) == grid(state)
    return result.state


def grid(state: FieldState) -> str:
    return "\n".join(render_life_board(state, CONTEXT.players).splitlines()[:8])


def refused(state: FieldState, player: str, square: str, nweek: int = NWEEK) -> str:
    with pytest.raises(IllegalActionError) as refusal:
        tweak(state, replace(CONTEXT, nweek=nweek), player, square)
    assert refusal.value.rule == "Life: Tweak (seed 000)"
    return refusal.value.message


def test_a_tweak_turns_a_null_cell_to_the_team_and_a_team_cell_to_null() -> None:
    state = evolved(position())
    state = tweak(state, CONTEXT, "alice", "c3").state
    state = tweak(state, CONTEXT, "bob", "D4").state
    assert (
        grid(state)
        == """Life: 6 x 6 torus
   A B C D E F
6  . . . . . .
5  . . . B B .
4  . . . . B .
3  . . R . . .
2  R R . . . .
1  R R . . . ."""
    )
    summaries = [record.summary for record in state.history[-2:]]
    assert summaries == ["Cell C3 null -> Red", "Cell D4 Blue -> null"]


def test_no_tweak_before_the_referees_evolve_in_the_same_nweek() -> None:
    assert refused(position(), "alice", "C3") == (
        "the Referee has not yet performed Evolve in nweek 20; Cells may be tweaked only after it"
    )
    last_week = evolved(position(), nweek=NWEEK - 1)
    assert refused(last_week, "alice", "C3").startswith("the Referee has not yet performed Evolve")


def test_a_second_tweak_in_the_nweek_is_refused_and_allowed_the_next() -> None:
    state = tweak(evolved(position()), CONTEXT, "alice", "C3").state
    assert refused(state, "alice", "F6") == (
        "alice has already tweaked a Cell in nweek 20 (Cell C3 null -> Red); "
        "alice may tweak again from nweek 21"
    )
    next_week = replace(EVOLVE_CONTEXT, nweek=NWEEK + 1)
    later = evolve(state, next_week, DrawSource(SEED, "next")).state  # the lone C3 dies
    result = tweak(later, replace(CONTEXT, nweek=NWEEK + 1), "alice", "F6")
    assert result.record.carried_out[0].summary == "Cell F6 null -> Red"


def test_a_cell_of_another_teams_colour_is_refused() -> None:
    state = evolved(position())
    assert refused(state, "bob", "A1") == (
        "Cell A1 is Red; a Blue player may tweak only a null or Blue Cell"
    )
    # A refused Tweak was not performed: bob may still tweak this nweek.
    result = tweak(state, CONTEXT, "bob", "E5")
    assert result.record.carried_out[0].summary == "Cell E5 Blue -> null"


def test_players_without_a_team_and_non_players_may_not_tweak() -> None:
    state = evolved(position())
    assert refused(state, "dave", "C3") == (
        "dave has no Team yet; players without one get a Team at the next Evolve"
    )
    assert (
        refused(state, "mallory", "C3") == "only Players may tweak a Cell, and mallory is not one"
    )


def test_the_square_must_be_on_the_field_and_hold_a_cell() -> None:
    state = evolved(position())
    assert refused(state, "alice", "G1") == (
        "G1 is not on the 6 x 6 torus Field (columns A-F, rows 1-6)"
    )
    with pytest.raises(ActionSyntaxError):
        tweak(state, CONTEXT, "alice", "the middle one")
    uninitialized = start_life(FieldState(), CONTEXT, DrawSource(SEED, "start")).state
    assert refused(uninitialized, "alice", "B2") == (
        "there is no Cell on B2: Life has not been initialized"
    )
    with pytest.raises(IllegalActionError, match="Life is not the Current Field Match"):
        tweak(FieldState(), CONTEXT, "alice", "B2")
