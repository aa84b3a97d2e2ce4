"""The poll store (rule 15) through posts: any poll by number, with its flags honoured."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select

from bot.engine.governance import polls as poll_store
from bot.games.governance.polls import Flag, Outcome, RealTimePeriod
from bot.store.models import Player


def new_poll(game: Any, *flags: Flag, hours: int = 48) -> int:
    with game.app.session_factory.begin() as session:
        voters = [str(i) for i in session.scalars(select(Player.id).order_by(Player.id))]
        stored = poll_store.create_poll(
            session,
            kind="test",
            subject="an Issue",
            issue="Shall we?",
            voters=voters,
            duration=RealTimePeriod(timedelta(hours=hours)),
            called_at=game.at(1, 0),
            flags=flags,
        )
        return stored.number


def close_due(game: Any, hours: int) -> list[tuple[int, Outcome]]:
    with game.app.session_factory.begin() as session:
        until = game.at(1, 0, hours * 3600)
        due = poll_store.due_polls(session, game.app.services.clock, until, "test")
        return [
            (stored.number, poll_store.close_poll(session, stored, until)[1].outcome)
            for stored in due
        ]


def test_a_very_badly_wired_poll_concludes_once_the_outcome_is_settled(new_game: Any) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    number = new_poll(game, Flag.VERY_BADLY_WIRED)
    game.post("Alice", f"I vote yes on poll {number}", game.at(1, 0, 60))
    assert close_due(game, 1) == []
    game.post("Bob", f"I vote aye on poll {number}", game.at(1, 0, 120))  # 2 of 3: settled
    game.post("Carol", f"I vote no on poll {number}", game.at(1, 0, 180))
    assert [r[1] for r in game.rulings()] == ["applied", "applied", "rejected"]
    assert game.rulings()[2][3] == "15 A"
    assert close_due(game, 1) == [(number, Outcome.PASSED)]


def test_a_strict_poll_keeps_the_first_vote_and_reads_unclear_words_as_abstain(
    new_game: Any,
) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    number = new_poll(game, Flag.STRICT)
    game.post("Alice", f"I vote true on poll {number}", game.at(1, 0, 60))
    game.post("Alice", f"I vote yes on poll {number}", game.at(1, 0, 120))
    rulings = game.rulings()
    assert [(r[1], r[3]) for r in rulings] == [("applied", "15"), ("rejected", "15 B")]
    assert "read as Abstain (rule 15)" in rulings[0][2]


def test_a_private_vote_on_a_poll_that_is_not_concealable_is_refused(new_game: Any) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    number = new_poll(game)
    game.post("Alice", f"I vote yes on poll {number}", game.at(1, 0, 60), private=True)
    ((_, ruling, reason, rule),) = game.rulings()
    assert (ruling, rule) == ("rejected", "15 B") and "not Concealable" in reason


def test_a_poll_closes_at_its_deadline_and_not_before(new_game: Any) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    number = new_poll(game, hours=24)
    game.post("Bob", f"I vote against poll {number}", game.at(1, 0, 3600))
    assert close_due(game, 23) == []
    assert close_due(game, 24) == [(number, Outcome.FAILED)]
    game.post("Alice", f"I vote yes on poll {number}", game.at(1, 0, 25 * 3600))
    (_, ruling, reason, rule) = game.rulings()[-1]
    assert (ruling, rule) == ("rejected", "15 A") and "Concluded" in reason


def test_every_kind_of_poll_survives_the_store_unchanged() -> None:
    from datetime import UTC, datetime

    from bot.games.governance.polls import (
        CFI_OPTIONS,
        Indeterminate,
        NtimePeriod,
        NtimePoint,
        RealTimePoint,
        call_poll,
        cast_vote,
        read_vote,
    )

    called = datetime(2026, 12, 31, 23, 0, tzinfo=UTC)
    ends = datetime(2027, 1, 1, tzinfo=UTC)
    durations = (
        NtimePoint("nweek 3, nday 1", ends),
        NtimePeriod("three ndays", ends),
        RealTimePoint(ends),
        RealTimePeriod(timedelta(hours=5, seconds=1)),
        Indeterminate(),
    )
    for duration in durations:
        poll = call_poll(
            "Shall we?",
            ["1", "2"],
            duration,
            called,
            flags=(Flag.CONCEALABLE, Flag.DEMOCRATIC, Flag.STRICT),
            options=CFI_OPTIONS,
            active_players=["1", "2", "3"],
        )
        poll = cast_vote(poll, "1", read_vote("Refused", CFI_OPTIONS), called, private=True)
        poll = cast_vote(poll, "2", read_vote("maybe", CFI_OPTIONS), called)
        stored = poll_store.StoredPoll(7, "cfi", "CFI 3", poll, 40, ("Shelve",), ends)
        assert poll_store.from_state(poll_store.to_state(stored)) == stored
