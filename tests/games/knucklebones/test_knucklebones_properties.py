"""Random games always end with a full matrix and scores that add up.

A seeded ``random.Random`` plays the engine's part (the turn-order draw and
every 1d6) and the players' (a column with room), 300 games in well under a
second.  Replaying the recorded values gives the same state: randomness is
data.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bot.games.knucklebones import (
    BeginBattlePhase,
    DiceDestroyed,
    DiePlaced,
    GameEnded,
    KnucklebonesAction,
    KnucklebonesState,
    NotifyTurn,
    PlaceDie,
    PrizeAwarded,
    StateIntent,
    apply,
    columns_with_room,
    is_full,
    matrix_score,
    new_state,
    state_from_json,
    state_to_json,
)

GAMES = 300
START = datetime(2026, 1, 4, 12, 0, tzinfo=UTC)


def play_one(generator: random.Random) -> tuple[KnucklebonesState, list[KnucklebonesAction]]:
    actions: list[KnucklebonesAction] = [
        StateIntent("Alice", ("Bob",)),
        StateIntent("Bob", ("Alice",)),
        BeginBattlePhase(START, (generator.randint(1, 2),)),
    ]
    state = new_state()
    for action in actions:
        state, _ = apply(state, action)
    placed = destroyed = 0
    moment = START
    while not state.game(1).is_over:
        moment += timedelta(hours=generator.randint(1, 23))
        notify = NotifyTurn(1, moment, generator.randint(1, 6))
        state, _ = apply(state, notify)
        game = state.game(1)
        column = generator.choice(columns_with_room(game.matrices[game.to_move]))
        place = PlaceDie(game.player_to_move, column)
        state, events = apply(state, place)
        actions += [notify, place]
        placed += sum(1 for event in events if isinstance(event, DiePlaced))
        destroyed += sum(event.count for event in events if isinstance(event, DiceDestroyed))
        _check_consistent(state, placed, destroyed, events)
    return state, actions


def _check_consistent(
    state: KnucklebonesState, placed: int, destroyed: int, events: tuple[object, ...]
) -> None:
    game = state.game(1)
    on_field = sum(len(column) for matrix in game.matrices for column in matrix)
    assert on_field == placed - destroyed
    assert all(len(column) <= 3 for matrix in game.matrices for column in matrix)
    if not game.is_over:
        assert not any(is_full(matrix) for matrix in game.matrices)
        return
    assert game.outcome is not None
    assert any(is_full(matrix) for matrix in game.matrices)
    scores = tuple(matrix_score(matrix) for matrix in game.matrices)
    assert game.outcome.scores == scores
    ended = [event for event in events if isinstance(event, GameEnded)]
    prizes = [event for event in events if isinstance(event, PrizeAwarded)]
    if scores[0] == scores[1]:
        assert game.outcome.winner is None and prizes == []
    else:
        assert game.outcome.winner == game.players[scores.index(max(scores))]
        assert [prize.player for prize in prizes] == [game.outcome.winner]
    assert [event.scores for event in ended] == [scores]


def test_random_games_end_with_a_full_matrix_and_consistent_scores() -> None:
    generator = random.Random(20260104)
    turns = []
    for _ in range(GAMES):
        state, actions = play_one(generator)
        game = state.game(1)
        assert game.is_over and game.turns >= 9
        turns.append(game.turns)
        replayed = new_state()
        for action in actions:
            replayed, _ = apply(replayed, action)
        assert replayed == state
        assert state_from_json(state_to_json(state)) == state
    # Destruction lengthens games well past the nine turns a lone player needs.
    assert max(turns) > 17
