"""Reading election and Deputy actions (rules 625 B-C, 1823, 1272 of seed 004)."""

from __future__ import annotations

import pytest

from bot.parser import parse_post

CASES = [
    (
        "I call an election for the Ministry of Justice.",
        ("elections.call", {"ministry": "the Ministry of Justice"}),
    ),
    (
        "I call an election for Minister of Justice using Approval Voting.",
        ("elections.call", {"ministry": "Minister of Justice", "method": "Approval Voting"}),
    ),
    (
        "I call an IRV election for the Ministry of the Roster.",
        ("elections.call", {"ministry": "the Ministry of the Roster", "method": "IRV"}),
    ),
    (
        "I nominate Bob for Minister of Justice.",
        ("elections.nominate", {"nominee": "Bob", "ministry": "Minister of Justice"}),
    ),
    (
        "I nominate myself for Minister of Justice.",
        ("elections.nominate", {"nominee": "", "ministry": "Minister of Justice"}),
    ),
    (
        "I accept my nomination for Minister of Justice.",
        ("elections.accept", {"ministry": "Minister of Justice"}),
    ),
    ("I accept my nomination.", ("elections.accept", {})),
    (
        "I decline the nomination for the Attorney Generalist.",
        ("elections.reject", {"ministry": "the Attorney Generalist"}),
    ),
    (
        "I vote Alice, Bob, Carol for Minister of Justice.",
        (
            "elections.vote",
            {"choices": ["Alice", "Bob", "Carol"], "ministry": "Minister of Justice"},
        ),
    ),
    (
        "I vote Alice > Bob and Carol in the election for the Minister of Justice.",
        (
            "elections.vote",
            {"choices": ["Alice", "Bob", "Carol"], "ministry": "the Minister of Justice"},
        ),
    ),
    (
        "I vote nobody for Minister of Justice.",
        ("elections.vote", {"choices": [], "ministry": "Minister of Justice"}),
    ),
    (
        "I pick Alice for Minister of Justice.",
        ("elections.pick", {"choice": "Alice", "ministry": "Minister of Justice"}),
    ),
    (
        "I designate Bob as my Deputy for the Ministry of Justice.",
        ("elections.designate", {"deputy": "Bob", "ministry": "the Ministry of Justice"}),
    ),
    ("I revoke Bob's Deputyhood.", ("elections.revoke", {"deputy": "Bob"})),
    ("I revoke the Deputyhood of Bob.", ("elections.revoke", {"deputy": "Bob"})),
    ("I resign as Deputy.", ("elections.resign", {})),
]


@pytest.mark.parametrize(("post", "expected"), CASES)
def test_each_phrasing_reads_as_one_action(
    post: str, expected: tuple[str, dict[str, object]]
) -> None:
    result = parse_post(post)
    assert result.not_understood == ()
    assert [(action.action, dict(action.args)) for action in result.actions] == [expected]


@pytest.mark.parametrize(
    "post",
    [
        "I will vote Alice for Minister of Justice.",
        "Should I nominate Bob for Minister of Justice?",
        "If Bob accepts, I nominate Bob for Minister of Justice.",
    ],
)
def test_intent_questions_and_conditions_take_no_election_action(post: str) -> None:
    result = parse_post(post)
    assert all(action.conditional for action in result.actions)


def test_an_unknown_method_is_reported_not_guessed() -> None:
    result = parse_post("I call an election for Minister of Justice using dice.")
    assert result.actions == ()
    (problem,) = result.not_understood
    assert problem.message.startswith('I could not read "dice" as a Selection Method (rule 1823 C')
