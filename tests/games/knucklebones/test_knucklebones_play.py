"""A game through ``apply``: phases, turn order, turns, destruction, the end and the prize."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.games.errors import AmbiguousActionError, IllegalActionError
from bot.games.knucklebones import (
    PRIZE,
    RULE_COMMENCEMENT,
    RULE_TURN,
    RULE_WINNING,
    BeginBattlePhase,
    BeginRestPhase,
    DiceDestroyed,
    DiePlaced,
    EndReason,
    Game,
    GameEnded,
    GameStarted,
    IntentLapsed,
    IntentMode,
    KnucklebonesState,
    LastTurn,
    NotifyTurn,
    Pairing,
    Phase,
    PhaseBegan,
    PlaceDie,
    PrizeAwarded,
    StateIntent,
    TurnNotified,
    apply,
    matrix_from_columns,
    new_state,
    pending_pairings,
)

START = datetime(2026, 1, 4, 12, 0, tzinfo=UTC)


def started(draw: int = 1) -> KnucklebonesState:
    """Alice and Bob name each other in a Rest Phase; the Battle Phase starts game 1."""
    state, _ = apply(new_state(), StateIntent("Alice", ("Bob",)))
    state, _ = apply(state, StateIntent("Bob", ("Alice",)))
    state, _ = apply(state, BeginBattlePhase(START, (draw,)))
    return state


def mid_game(first: list[list[int]], second: list[list[int]], roll: int) -> KnucklebonesState:
    """Alice (to move, notified with ``roll``) against Bob, with the given columns."""
    matrices = (matrix_from_columns(first), matrix_from_columns(second))
    game = Game(1, ("Alice", "Bob"), matrices, roll=roll, notified_at=START)
    return KnucklebonesState(phase=Phase.BATTLE, games=(game,))


def test_intents_are_stated_in_a_rest_phase_only() -> None:
    # "In each Rest Phase a Player can state their intention to join one or
    # multiple games of Knucklebones."
    state = started()
    with pytest.raises(IllegalActionError) as refusal:
        apply(state, StateIntent("Carol", ("Alice",)))
    assert refusal.value.rule == RULE_COMMENCEMENT
    state, events = apply(state, BeginRestPhase(START + timedelta(days=7)))
    assert events == (PhaseBegan(Phase.REST, START + timedelta(days=7)),)
    state, events = apply(state, StateIntent("Carol", ("Alice",)))
    assert len(state.intents) == 1


def test_a_game_starts_at_the_beginning_of_the_next_battle_phase() -> None:
    state, _ = apply(new_state(), StateIntent("Alice", ("Bob",)))
    state, _ = apply(state, StateIntent("Bob", ("Alice",)))
    state, _ = apply(state, StateIntent("Carol", ("Dave",)))
    assert state.games == ()
    pairing = Pairing("Alice", "Bob", (1, 2))
    assert pending_pairings(state) == (pairing,)
    state, events = apply(state, BeginBattlePhase(START, (2,)))
    # "The turn order in a game is determined randomly": the 1d2 drew 2, so
    # the pairing's second player, Bob, moves first.
    assert events[:2] == (
        PhaseBegan(Phase.BATTLE, START),
        GameStarted(1, pairing, ("Bob", "Alice"), 2, START),
    )
    assert [type(event) for event in events[2:]] == [IntentLapsed]
    assert state.phase is Phase.BATTLE and state.intents == ()
    assert state.game(1).player_to_move == "Bob"


def test_the_battle_phase_needs_one_draw_per_game() -> None:
    state, _ = apply(new_state(), StateIntent("Alice", ("Bob",)))
    state, _ = apply(state, StateIntent("Bob", ("Alice",)))
    with pytest.raises(ValueError, match="1 turn-order draws are needed"):
        apply(state, BeginBattlePhase(START, ()))
    with pytest.raises(ValueError, match="1d2"):
        apply(state, BeginBattlePhase(START, (3,)))


def test_the_participant_rolls_when_notified_and_then_chooses() -> None:
    # "On a participant's turn they must roll 1d6 and choose a column": the die
    # comes with the notification, before e chooses.
    state = started()
    with pytest.raises(IllegalActionError, match="has not been notified"):
        apply(state, PlaceDie("Alice", 1, game=1))
    state, events = apply(state, NotifyTurn(1, START, 4))
    assert events == (TurnNotified(1, "Alice", 4, START),)
    with pytest.raises(IllegalActionError, match="already notified"):
        apply(state, NotifyTurn(1, START, 5))
    state, events = apply(state, PlaceDie("Alice", 3))
    assert events == (DiePlaced(1, "Alice", 4, 3),)
    game = state.game(1)
    assert game.matrices == (((), (), (4,)), ((), (), ()))
    # "Once they have inserted their dice they must notify their opponent"
    assert (game.player_to_move, game.roll, game.notified_at) == ("Bob", None, None)


def test_only_the_participant_whose_turn_it_is_places() -> None:
    state, _ = apply(started(), NotifyTurn(1, START, 4))
    with pytest.raises(IllegalActionError) as refusal:
        apply(state, PlaceDie("Bob", 1, game=1))
    assert refusal.value.rule == RULE_TURN
    assert "it is Alice's" in str(refusal.value)
    with pytest.raises(IllegalActionError, match="not a participant"):
        apply(state, PlaceDie("Carol", 1, game=1))
    with pytest.raises(IllegalActionError, match="in no running game"):
        apply(state, PlaceDie("Carol", 1))


def test_the_named_value_must_be_the_die_rolled() -> None:
    state, _ = apply(started(), NotifyTurn(1, START, 4))
    with pytest.raises(IllegalActionError, match="shows 4, not 5"):
        apply(state, PlaceDie("Alice", 1, value=5))


def test_placing_destroys_the_opponents_equal_dice_in_that_column_only() -> None:
    # "If a participant inserts a dice into a column and the corresponding (as
    # signified by the column number) column of their opponent's matrix
    # contains one or multiple dice of the same value as the newly inserted
    # dice, all dice of that value in the opponent's column are destroyed"
    state = mid_game([[], [], []], [[6, 2, 6], [6], []], roll=6)
    state, events = apply(state, PlaceDie("Alice", 1))
    assert events == (DiePlaced(1, "Alice", 6, 1), DiceDestroyed(1, "Bob", 6, 1, 2))
    assert state.game(1).matrices[1] == ((2,), (6,), ())
    assert state.game(1).last_turn == LastTurn("Alice", 6, 1, 2)


def test_a_full_matrix_ends_the_game_and_the_higher_score_wins_the_prize() -> None:
    # "A game of Knucklebones ends when either one of the participants has
    # completely filled all cells in their matrix. At the end of a game of
    # Knucklebones the participant with the higher score wins."  "The winner
    # of a game of Knucklebones gains one Handy Pack and one Chip."
    state = mid_game([[6, 6, 6], [1, 2, 3], [1, 2]], [[5], [4], []], roll=1)
    state, events = apply(state, PlaceDie("Alice", 3))
    game = state.game(1)
    assert game.outcome is not None
    assert game.outcome.scores == (54 + 6 + 4 + 2, 9)
    assert events[-2:] == (
        GameEnded(1, EndReason.FULL_MATRIX, "Alice", (66, 9)),
        PrizeAwarded(1, "Alice", PRIZE),
    )
    assert PRIZE == ("Handy Pack", "Chip")
    with pytest.raises(IllegalActionError) as refusal:
        apply(state, NotifyTurn(1, START, 3))
    assert refusal.value.rule == RULE_WINNING


def test_the_full_matrix_may_lose() -> None:
    state = mid_game([[1, 1, 2], [1, 2, 3], [1, 2]], [[6, 6, 6], [5, 5], []], roll=4)
    state, events = apply(state, PlaceDie("Alice", 3))
    assert events[-1] == PrizeAwarded(1, "Bob", PRIZE)


def test_equal_scores_end_without_a_winner() -> None:
    # "If the participants have the same score, the game ends without a winner."
    state = mid_game([[1, 2, 3], [1, 2, 3], [1, 2]], [[6], [6], [6]], roll=3)
    state, events = apply(state, PlaceDie("Alice", 3))
    assert events[-1] == GameEnded(1, EndReason.FULL_MATRIX, None, (18, 18))
    assert not any(isinstance(event, PrizeAwarded) for event in events)


def test_a_player_in_several_games_says_which_one() -> None:
    state, _ = apply(new_state(), StateIntent("Alice", ("Bob", "Carol"), IntentMode.EACH))
    state, _ = apply(state, StateIntent("Bob", ("Alice",)))
    state, _ = apply(state, StateIntent("Carol", ("Alice",)))
    state, _ = apply(state, BeginBattlePhase(START, (1, 1)))
    state, _ = apply(state, NotifyTurn(1, START, 2))
    state, _ = apply(state, NotifyTurn(2, START, 5))
    assert [game.number for game in state.awaiting("Alice")] == [1, 2]
    with pytest.raises(AmbiguousActionError, match="games 1, 2"):
        apply(state, PlaceDie("Alice", 1))
    # Naming the die picks the game: only game 2 rolled a 5.
    after, events = apply(state, PlaceDie("Alice", 1, value=5))
    assert events == (DiePlaced(2, "Alice", 5, 1),)
    after, events = apply(state, PlaceDie("Alice", 2, game=1))
    assert events == (DiePlaced(1, "Alice", 2, 2),)
    assert after.game(2).roll == 5


def test_games_run_on_across_phases() -> None:
    state, _ = apply(started(), NotifyTurn(1, START, 4))
    state, _ = apply(state, BeginRestPhase(START + timedelta(days=1)))
    state, events = apply(state, PlaceDie("Alice", 2))
    assert events == (DiePlaced(1, "Alice", 4, 2),)


def test_phase_changes_out_of_order_are_defects() -> None:
    with pytest.raises(ValueError):
        apply(new_state(), BeginRestPhase(START))
    with pytest.raises(ValueError):
        apply(started(), BeginBattlePhase(START, ()))
    with pytest.raises(ValueError, match="1 to 6"):
        apply(started(), NotifyTurn(1, START, 0))


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="no game 3"):
        apply(started(), NotifyTurn(3, START, 1))
