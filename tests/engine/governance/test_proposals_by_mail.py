"""Submitting, revising and rescinding proposals by post (rules 5, 19, 212, 217, 1440)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.config import CfiSettings, ProposalSettings, load_settings

EXAMPLE_CONFIG = Path(__file__).parents[3] / "deploy" / "nomicbot.example.toml"

PROPOSAL = (
    "I submit the following proposal:\n\n__More Cake__\n\n{{\nEveryone gets cake.\nI pass.\n}}\n"
)


def test_a_submission_costs_2bw_and_takes_the_first_serial_number(new_game: Any) -> None:
    game = new_game(first_serial=100)
    game.advance(game.at(1, 1))  # nweek 2 began: everyone holds 10BW (rule 212)
    game.post("Alice", PROPOSAL, game.at(1, 1, 60))
    game.post("Bob", "I propose a rule: {{ __Tea__ Everyone gets tea. }}", game.at(1, 1, 120))
    assert [ruling[:2] for ruling in game.rulings()] == [
        ("proposals.submit", "applied"),
        ("proposals.submit", "applied"),
    ]
    assert game.balance("Alice", "bandwidth") == 8
    proposals = game.view("proposals").data
    assert [(p["id"], p["title"], p["proponent"]) for p in proposals] == [
        ("100/0", "More Cake", "Alice"),
        ("101/0", "Tea", "Bob"),
    ]
    # Rule 217: text set apart is not read as actions ("I pass" is the proposal's).
    assert proposals[0]["text"] == "Everyone gets cake.\nI pass."


def test_a_submission_without_enough_bandwidth_is_refused(new_game: Any) -> None:
    game = new_game()
    # Rule 212: 10BW from the first nweek on, so five proposals at 2BW each.
    for number in range(6):
        game.post("Alice", f"I submit a proposal: __P{number}__ {{{{ x }}}}", game.at(0, 1, number))
    *paid, (action, ruling, reason, rule) = game.rulings()
    assert [entry[1] for entry in paid] == ["applied"] * 5
    assert (action, ruling, rule) == ("proposals.submit", "rejected", "19, 212")
    assert reason == "that costs 2 BW, and you hold 0"
    assert len(game.view("proposals").data) == 5


def test_the_first_proposal_and_cfi_get_serial_number_100_by_default() -> None:
    # Rule 5: "If no Serial number was ever assigned to an object of that
    # type, a new object of that type gets serial number 100 instead."
    assert ProposalSettings().first_serial == 100
    assert CfiSettings().first_serial == 100
    settings = load_settings(None, environ={})
    assert (settings.proposals.first_serial, settings.cfis.first_serial) == (100, 100)
    example = load_settings(EXAMPLE_CONFIG, environ={})
    assert (example.proposals.first_serial, example.cfis.first_serial) == (100, 100)


def test_the_serial_numbers_default_to_the_configured_first(new_game: Any) -> None:
    game = new_game(first_serial=7)
    game.advance(game.at(1, 0))
    game.post("Carol", 'I submit a proposal titled "Seven": {{ x }}', game.at(1, 0, 5))
    assert game.view("proposals").data[0]["id"] == "7/0"


def test_only_the_proponent_revises_and_only_before_the_voting_period(new_game: Any) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    game.post("Alice", PROPOSAL, game.at(1, 1))
    game.post("Bob", "I revise proposal 100 to read {{ Bob's cake. }}", game.at(1, 2))
    game.post(
        "Alice", "I revise proposal 100 to read {{ __Less Cake__ Some cake. }}", game.at(1, 3)
    )
    game.post("Alice", "I amend proposal 100: {{ Too late. }}", game.at(1, 7, 1))
    rulings = game.rulings()
    assert [(r[1], r[3]) for r in rulings[1:]] == [
        ("rejected", "19"),
        ("applied", "19"),
        ("rejected", "19"),
    ]
    assert "only e may revise it" in rulings[1][2]
    assert "is on the Ballot" in rulings[3][2]
    (proposal,) = game.view("proposals").data
    assert (proposal["id"], proposal["title"], proposal["text"]) == (
        "100/1",
        "Less Cake",
        "Some cake.",
    )


def test_rescinding_follows_rule_1440(new_game: Any) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    game.post("Alice", PROPOSAL, game.at(1, 1))
    game.post("Alice", "I submit a proposal {{ second }}", game.at(1, 1, 10))
    game.post("Bob", "I rescind proposal 100.", game.at(1, 2))
    game.post("Alice", "I rescind proposal 100.", game.at(1, 3))
    game.post("Alice", "I rescind proposal 101.", game.at(1, 7, 10))  # being voted on
    rulings = [(r[1], r[3]) for r in game.rulings()[2:]]
    assert rulings == [("rejected", "1440"), ("applied", "1440"), ("rejected", "1440")]
    statuses = {p["id"]: p["status"] for p in game.view("proposals").data}
    assert statuses == {"100/0": "rescinded", "101/0": "on the Ballot"}
    assert game.balance("Alice", "bandwidth") == 6  # rule 1440: Bandwidth is not returned
    (ballot,) = [mail for mail in game.sent_of("ballot") if "101/0" in mail.body]
    assert "100/0" not in ballot.body
