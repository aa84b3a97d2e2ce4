"""The 24 hours after a notification (rule Knucklebones/Turn, seed 001)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.games.errors import IllegalActionError, NotYetError
from bot.games.knucklebones import (
    PRIZE,
    RULE_TURN,
    BeginBattlePhase,
    ClockStop,
    EndReason,
    ExpireTurn,
    GameEnded,
    KnucklebonesState,
    NotifyTurn,
    PlaceDie,
    PrizeAwarded,
    StateIntent,
    TurnForfeited,
    apply,
    forfeit_deadline,
    forfeit_is_due,
    new_state,
)

NOTIFIED = datetime(2026, 1, 4, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def notified() -> KnucklebonesState:
    state, _ = apply(new_state(), StateIntent("Alice", ("Bob",)))
    state, _ = apply(state, StateIntent("Bob", ("Alice",)))
    state, _ = apply(state, BeginBattlePhase(NOTIFIED - HOUR, (1,)))
    state, _ = apply(state, NotifyTurn(1, NOTIFIED - HOUR, 3))
    state, _ = apply(state, PlaceDie("Alice", 1))
    state, _ = apply(state, NotifyTurn(1, NOTIFIED, 5))
    return state


def test_the_deadline_is_24_hours_after_the_notification() -> None:
    # "If 24 hours have passed since the notification of a participant to take
    # their turn, they automatically forfeit"
    assert forfeit_deadline(NOTIFIED) == NOTIFIED + 24 * HOUR
    assert not forfeit_is_due(NOTIFIED, NOTIFIED + 24 * HOUR - timedelta(seconds=1))
    assert forfeit_is_due(NOTIFIED, NOTIFIED + 24 * HOUR)


def test_a_forfeit_makes_the_opponent_win_whatever_the_scores() -> None:
    # "they automatically forfeit and the their opponent wins this game"
    state = notified()
    assert state.game(1).score_of("Alice") > state.game(1).score_of("Bob")
    later = NOTIFIED + 25 * HOUR
    state, events = apply(state, ExpireTurn(1, later))
    assert events == (
        TurnForfeited(1, "Bob", later),
        GameEnded(1, EndReason.FORFEIT, "Alice", (3, 0)),
        PrizeAwarded(1, "Alice", PRIZE),
    )
    outcome = state.game(1).outcome
    assert outcome is not None and outcome.forfeited == "Bob"
    with pytest.raises(IllegalActionError, match="is over"):
        apply(state, PlaceDie("Bob", 2, game=1))


def test_before_the_deadline_the_check_says_when() -> None:
    with pytest.raises(NotYetError) as refusal:
        apply(notified(), ExpireTurn(1, NOTIFIED + 23 * HOUR))
    assert refusal.value.rule == RULE_TURN
    assert refusal.value.from_instant == NOTIFIED + 24 * HOUR
    assert "2026-01-05 12:00 UTC" in str(refusal.value)


def test_taking_the_turn_in_time_stops_the_hours() -> None:
    state, _ = apply(notified(), PlaceDie("Bob", 2))
    with pytest.raises(IllegalActionError, match="nobody has been notified"):
        apply(state, ExpireTurn(1, NOTIFIED + 30 * HOUR))


def test_a_clock_stop_does_not_count() -> None:
    # Reading: while the Clock is Off posts are held (seed 004, rule 3 B), so
    # the hours stand still; 5 hours Off push the deadline 5 hours back.
    stops = (ClockStop(NOTIFIED + 2 * HOUR, NOTIFIED + 7 * HOUR),)
    assert forfeit_deadline(NOTIFIED, stops) == NOTIFIED + 29 * HOUR
    with pytest.raises(NotYetError):
        apply(notified(), ExpireTurn(1, NOTIFIED + 28 * HOUR, stops))
    state, events = apply(notified(), ExpireTurn(1, NOTIFIED + 29 * HOUR, stops))
    assert isinstance(events[0], TurnForfeited)


def test_stops_before_after_and_across_the_notification() -> None:
    before = ClockStop(NOTIFIED - 5 * HOUR, NOTIFIED - 4 * HOUR)
    after = ClockStop(NOTIFIED + 30 * HOUR, NOTIFIED + 40 * HOUR)
    across = ClockStop(NOTIFIED - HOUR, NOTIFIED + HOUR)
    assert forfeit_deadline(NOTIFIED, (before, after)) == NOTIFIED + 24 * HOUR
    assert forfeit_deadline(NOTIFIED, (across,)) == NOTIFIED + 25 * HOUR
    overlapping = (across, ClockStop(NOTIFIED, NOTIFIED + 3 * HOUR))
    assert forfeit_deadline(NOTIFIED, overlapping) == NOTIFIED + 27 * HOUR


def test_while_the_clock_is_off_no_deadline_is_known() -> None:
    stops = (ClockStop(NOTIFIED + 2 * HOUR),)
    assert forfeit_deadline(NOTIFIED, stops) is None
    assert not forfeit_is_due(NOTIFIED, NOTIFIED + 100 * HOUR, stops)
    with pytest.raises(IllegalActionError, match="the Clock is Off"):
        apply(notified(), ExpireTurn(1, NOTIFIED + 100 * HOUR, stops))
