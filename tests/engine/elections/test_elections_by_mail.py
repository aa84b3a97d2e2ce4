"""Ministerial Elections by mail, from the call to the result (rules 625 B-C, 1823, seed 004)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

# conftest.py's ElectionGame (test modules cannot import conftest under importlib mode).
ElectionGame = Any

NewGame = Callable[..., ElectionGame]
CALLED = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)  # nweek 1, nday 1
NOMINATIONS_CLOSE = datetime(2026, 1, 6, 10, 0, tzinfo=UTC)  # five ndays later
VOTING_CLOSES = datetime(2026, 1, 10, 10, 0, tzinfo=UTC)  # four ndays after that
ONE_SECOND_EARLY = datetime(2026, 1, 10, 9, 59, 59, tzinfo=UTC)
JUSTICE = "Minister of Justice"


def at(day: int, hour: int = 12) -> datetime:
    return datetime(2026, 1, day, hour, tzinfo=UTC)


def holder(game: ElectionGame, ministry: str) -> str | None:
    data = game.state("ministries")
    return {item["name"]: item["holder"] for item in data["ministries"]}[ministry]


def nominate_three(game: ElectionGame) -> None:
    """Alice, Bob and Carol become Candidates; Dave is nominated and rejects."""
    assert game.post("Bob", f"I nominate Alice for {JUSTICE}.", at(2))[1] == "applied"
    assert game.post("Alice", f"I accept my nomination for {JUSTICE}.", at(2, 13))[1] == "applied"
    assert game.post("Carol", f"I nominate myself for {JUSTICE}.", at(3))[1] == "applied"
    assert game.post("Alice", "I nominate Bob for the Ministry of Justice.", at(3, 13))[1] == (
        "applied"
    )
    assert game.post("Bob", "I accept my nomination.", at(4))[1] == "applied"
    assert game.post("Erin", f"I nominate Dave for {JUSTICE}.", at(4, 13))[1] == "applied"
    assert game.post("Dave", f"I reject my nomination for {JUSTICE}.", at(5))[1] == "applied"


def test_a_borda_election_from_call_to_result_with_the_first_place_tie_break(
    new_game: NewGame,
) -> None:
    game = new_game()
    action, ruling, summary = game.post(
        "Alice", "I call an election for the Ministry of Justice.", CALLED
    )
    assert (action, ruling) == ("elections.call", "applied")
    assert "Borda Count" in summary and "nweek 1, nday 6 (2026-01-06 10:00:00 UTC)" in summary
    nominate_three(game)
    early = game.post("Bob", f"I vote Bob, Alice, Carol for {JUSTICE}.", at(5, 13))
    assert early[1] == "rejected" and "has not begun" in early[2]

    game.advance(NOMINATIONS_CLOSE)
    (opening,) = game.report_bodies("election-voting")
    assert "Candidates (the choices): Alice, Carol, Bob." in opening
    late = game.post("Erin", f"I nominate Erin for {JUSTICE}.", at(6, 11))
    assert late[1] == "rejected" and "nominations for Election #1" in late[2]

    assert game.post("Alice", f"I vote Alice, Bob, Carol for {JUSTICE}.", at(7))[1] == "applied"
    assert game.post("Bob", f"I vote Bob, Alice, Carol for {JUSTICE}.", at(7, 13))[1] == "applied"
    not_candidate = game.post("Dave", f"I vote Dave, Alice, Bob for {JUSTICE}.", at(8))
    assert not_candidate[1] == "rejected" and '"Dave" is not a Candidate' in not_candidate[2]
    changed = game.post("Bob", f"I vote Alice > Bob > Carol for {JUSTICE}.", at(8, 13))
    assert "replacing eir earlier vote" in changed[2]
    assert game.post("Carol", f"I vote Bob, Carol, Alice for {JUSTICE}.", at(9))[1] == "applied"
    too_late = game.post("Dave", f"I vote Carol, Bob, Alice for {JUSTICE}.", VOTING_CLOSES)
    assert too_late[1] == "rejected" and "closed at nweek 1, nday 10" in too_late[2]

    (result,) = game.report_bodies("election-result")
    assert "  Bob: Alice, Bob, Carol" in result  # the last vote counts (rule 1823)
    assert "approval rating: Alice 4, Carol 1, Bob 4; removed Carol (fewer than 4)" in result
    assert "first places: Alice 2, Bob 1; removed Bob (fewer than 2)" in result
    assert "Alice is selected (the Borda tie-break by places)" in result
    assert holder(game, "Ministry of Justice") == "Alice"
    (election,) = game.state("elections")
    assert (election["phase"], election["winner"]) == ("closed", "Alice")


def test_irv_counts_a_ballot_one_second_before_the_close(new_game: NewGame) -> None:
    game = new_game()
    assert game.post("Alice", f"I call an IRV election for {JUSTICE}.", CALLED)[1] == "applied"
    for name in ("Alice", "Bob", "Carol"):
        assert game.post(name, f"I nominate myself for {JUSTICE}.", at(2))[1] == "applied"
    game.advance(NOMINATIONS_CLOSE)
    game.post("Alice", f"I vote Alice, Bob, Carol for {JUSTICE}.", at(7))
    game.post("Bob", f"I vote Bob, Alice, Carol for {JUSTICE}.", at(7))
    game.post("Carol", f"I vote Carol, Alice, Bob for {JUSTICE}.", at(7))
    in_time = game.post("Dave", f"I vote Bob, Carol, Alice for {JUSTICE}.", ONE_SECOND_EARLY)
    assert in_time[1] == "applied"
    assert game.post("Erin", f"I vote Alice, Bob, Carol for {JUSTICE}.", VOTING_CLOSES)[1] == (
        "rejected"
    )
    (result,) = game.report_bodies("election-result")
    assert "eliminated Alice, Carol (simultaneously) with fewest, 1" in result
    assert "Bob is selected (it alone led)" in result
    assert holder(game, "Ministry of Justice") == "Bob"


def approval_tie(game: ElectionGame) -> None:
    """An Approval Voting election where Alice and Bob tie 2-2."""
    called = game.post("Alice", f"I call an election for {JUSTICE} using Approval Voting.", CALLED)
    assert "Approval Voting; Moderator: Alice" in called[2]
    game.post("Alice", f"I nominate myself for {JUSTICE}.", at(2))
    game.post("Bob", f"I nominate myself for {JUSTICE}.", at(2))
    game.advance(NOMINATIONS_CLOSE)
    assert game.post("Carol", f"I vote Alice and Bob for {JUSTICE}.", at(7))[1] == "applied"
    assert game.post("Dave", f"I vote Alice for {JUSTICE}.", at(7))[1] == "applied"
    assert game.post("Erin", f"I vote Bob for {JUSTICE}.", at(7))[1] == "applied"
    game.advance(VOTING_CLOSES)
    (asked,) = game.report_bodies("election-moderator")
    assert "Approval Voting (rule 1823 C.2): 3 votes; appeared on: Alice 2, Bob 2" in asked
    assert "To the Moderator, Alice" in asked and "nweek 2, nday 2" in asked


def test_approval_voting_tie_is_settled_by_the_moderators_pick(new_game: NewGame) -> None:
    game = new_game()
    approval_tie(game)
    not_moderator = game.post("Bob", f"I pick Bob for {JUSTICE}.", at(10, 12))
    assert not_moderator[1] == "rejected" and "only the Moderator" in not_moderator[2]
    picked = game.post("Alice", f"I pick Bob for {JUSTICE}.", at(10, 13))
    assert picked[1] == "applied"
    (result,) = game.report_bodies("election-result")
    assert "Bob is selected (the Moderator's pick)" in result
    assert holder(game, "Ministry of Justice") == "Bob"


def test_without_a_pick_in_time_a_recorded_draw_stands_in(new_game: NewGame) -> None:
    from bot.audit import DRAW_PROOF
    from bot.games import dice

    game = new_game()
    approval_tie(game)
    game.advance(datetime(2026, 1, 12, 9, 59, 59, tzinfo=UTC))
    assert game.report_bodies("election-result") == []
    game.advance(datetime(2026, 1, 12, 10, 0, tzinfo=UTC))  # two ndays after the question
    (result,) = game.report_bodies("election-result")
    assert "The Moderator, Alice, did not pick in time." in result
    proof = DRAW_PROOF.search(" ".join(result.split()))
    assert proof is not None and proof["context"] == "election-1-moderator"
    assert proof["nweek"] == "2" and proof["options"] == "Alice|Bob"
    seed = dice.nweek_seed(game.app.services.master_secret, 1)
    claimed = dice.Draw(0, "", dice.DrawKind.SHUFFLE, ("Alice", "Bob"), None, ())
    order = dice.replay_draw(seed, "election-1-moderator", claimed).result
    assert proof["order"] == ",".join(map(str, order))
    drawn = ("Alice", "Bob")[order[0]]
    assert f"{drawn} is selected (a random draw standing in" in result
    assert holder(game, "Ministry of Justice") == drawn
