"""Who may call an Election, Rotation, Deputies, ntime deadlines and replay (625, 1272, 3)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.engine.governance.election_state import ndays_after
from bot.games import ntime
from bot.outbound.transports import MaildirTransport
from bot.posts import mbox_from_line
from bot.runner import replay_archive
from bot.testing.apps import write_mbox

# conftest.py's ElectionGame (test modules cannot import conftest under importlib mode).
ElectionGame = Any
NewGame = Callable[..., ElectionGame]
JUSTICE = "Minister of Justice"


def at(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


def test_who_may_call_an_election_and_why_not(new_game: NewGame) -> None:
    game = new_game()
    held = game.post("Carol", "I call an election for the Ministry of Twiddles.", at(1, 1))
    assert held[1] == "rejected" and "is not Open: Dave holds it" in held[2]
    unknown = game.post("Carol", "I call an election for the Ministry of Silly Walks.", at(1, 1))
    assert unknown[1] == "rejected" and 'there is no Ministry "the Ministry of Silly' in unknown[2]
    bad_method = game.post("Carol", f"I call an election for {JUSTICE} using Approval.", at(1, 1))
    assert bad_method[1] == "applied"  # "Approval" names Approval Voting
    again = game.post("Alice", f"I call an election for {JUSTICE}.", at(1, 2))
    assert again[1] == "rejected" and "already an Election in progress" in again[2]
    # Rule 625 C: a Minister leaves eir Ministry by calling an Election for it.
    leaving = game.post("Bob", "I call an election for the Minister of the Roster.", at(1, 2))
    assert leaving[1] == "applied" and "Election #2 for Ministry of the Roster" in leaving[2]


def test_a_non_player_cannot_vote(new_game: NewGame) -> None:
    game = new_game()
    game.post("Alice", f"I call an election for {JUSTICE}.", at(1, 1))
    game.post("Alice", f"I nominate myself for {JUSTICE}.", at(1, 1, 13))
    game.advance(at(1, 6, 11))
    outsider = game.post("Zed", f"I vote Alice for {JUSTICE}.", at(1, 7))
    assert outsider[1] == "rejected" and "is not a player's address" in outsider[2]


def test_an_election_without_candidates_leaves_the_ministry_open(new_game: NewGame) -> None:
    game = new_game()
    game.post("Carol", f"I call an election for {JUSTICE}.", at(1, 1, 10))
    game.advance(datetime(2026, 1, 6, 10, tzinfo=UTC))
    (result,) = game.report_bodies("election-result")
    assert "the nominations closed with no candidate" in result
    assert "Ministry of Justice: Open" in game.text("ministries")


def test_ministry_rotation_at_the_start_of_each_nweek(new_game: NewGame) -> None:
    game = new_game()
    game.advance(datetime(2026, 1, 10, 23, 59, 59, tzinfo=UTC))
    assert game.reports("election-rotation") == []
    game.advance(datetime(2026, 1, 11, tzinfo=UTC))  # nweek 2 begins
    (first,) = game.report_bodies("election-rotation")
    assert "Ministry Rotation at the beginning of nweek 2 (rule 625 B):" in first
    assert "Election #1 for Ministry of Justice is called by Erin" in first
    assert "Twiddles" not in first  # held, and rotated (when the list began) in nweek 1
    # Held Ministries come up once three nweeks have passed without a Rotation.
    game.advance(datetime(2026, 2, 10, tzinfo=UTC))  # nweek 5 begins
    last = game.report_bodies("election-rotation")[-1]
    assert "nweek 5" in last
    for ministry in ("Meta-Ministry", "Ministry of Twiddles", "Ministry of the Roster"):
        assert f"for {ministry} is called by Erin" in last


def test_deputies_are_designated_revoked_and_resign(new_game: NewGame) -> None:
    game = new_game()
    assert game.post("Dave", "I designate Alice as my Deputy.", at(1, 2))[1] == "applied"
    not_minister = game.post("Bob", "I revoke Alice's Deputyhood for the Twiddler.", at(1, 2))
    assert not_minister[1] == "rejected" and "only the Minister" in not_minister[2]
    assert game.post("Carol", "I resign as Deputy.", at(1, 3))[1] == "applied"
    assert game.post("Dave", "I revoke Alice's Deputyhood.", at(1, 3))[1] == "applied"
    assert "Ministry of Twiddles: Dave\n" in game.text("ministries") + "\n"


def test_ndays_stop_while_the_clock_is_off() -> None:
    epoch = datetime(2026, 1, 1, tzinfo=UTC)
    always_on = ntime.NtimeConfig(epoch=epoch)
    start = datetime(2026, 1, 1, 10, tzinfo=UTC)
    assert ndays_after(always_on, start, 5) == datetime(2026, 1, 6, 10, tzinfo=UTC)
    stopped = always_on.turned_off(datetime(2026, 1, 3, tzinfo=UTC)).turned_on(
        datetime(2026, 1, 5, tzinfo=UTC)
    )
    # Off at 01-03 00:00 (that midnight still ticks), On at 01-05 00:00 (first
    # tick at 01-06): the midnights of 01-04 and 01-05 do not count.
    assert ndays_after(stopped, start, 5) == datetime(2026, 1, 8, 10, tzinfo=UTC)
    still_off = always_on.turned_off(datetime(2026, 1, 3, tzinfo=UTC))
    assert ndays_after(still_off, start, 5) is None


def test_replaying_the_archive_gives_the_same_elections(new_game: NewGame, tmp_path: Path) -> None:
    game = new_game(moderator_wait_ndays=0)
    game.post("Alice", f"I call an election for {JUSTICE}.", at(1, 1, 10))
    game.post("Alice", f"I nominate myself for {JUSTICE}.", at(1, 2))
    game.post("Bob", f"I nominate myself for {JUSTICE}.", at(1, 2))
    game.post("Carol", f"I vote Alice, Bob for {JUSTICE}.", at(1, 7))
    game.post("Dave", f"I vote Bob, Alice for {JUSTICE}.", at(1, 7))  # a full tie: a draw
    game.post("Erin", "I call an election for the Ministry of the Roster.", at(1, 12))
    end = datetime(2026, 1, 13, tzinfo=UTC)
    game.advance(end)
    (result,) = game.report_bodies("election-result")
    assert "Borda Count, Choice Pool: drew" in result and "draw-v1" in result

    archive = tmp_path / "elections.mbox"
    write_mbox(
        archive, [(raw, mbox_from_line("x@example.test", when)) for raw, when in game.archive]
    )
    again = new_game(moderator_wait_ndays=0)
    replay_archive(again.app, archive, MaildirTransport(tmp_path / "out"), until=end)
    assert again.state("elections") == game.state("elections")
    assert again.state("ministries") == game.state("ministries")
    assert again.report_bodies("election-result") == [result]
