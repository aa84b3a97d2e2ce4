"""Proposals (rules 19, 216, 217, 1440) and votes (rules 15, 23) as posts read them."""

from __future__ import annotations

import pytest

from bot.parser import parse_post


def actions(text: str) -> list[tuple[str, dict[str, object]]]:
    return [(action.action, dict(action.args)) for action in parse_post(text).actions]


@pytest.mark.parametrize(
    "text",
    [
        "I submit the following proposal: __Cake__ {{ Cake. }}",
        'I hereby submit a new proposal, titled "Cake": {{ Cake. }}',
        "I submit the following general proposal as follows: __Cake__ {{ Cake. }}",
        "I make a proposal entitled __Cake__ - {{ Cake. }}",
        "I propose: __Cake__ {{ Cake. }}",
        "Submit this proposal {{ __Cake__ Cake. }}",
    ],
)
def test_submissions(text: str) -> None:
    assert actions(text) == [("proposals.submit", {"title": "Cake", "text": "Cake."})]


def test_proposing_a_rule_is_marked_for_rule_216() -> None:
    assert actions("I propose a rule: {{ __Tea__ Tea. }}") == [
        ("proposals.submit", {"creates_rule": True, "title": "Tea", "text": "Tea."})
    ]


@pytest.mark.parametrize(
    "text",
    [
        "I revise proposal 12 to read {{ New. }}",
        "I amend prop #12: {{ New. }}",
        "I revise 12 as follows: {{ New. }}",
        "I revise my proposal 12 so that it reads {{ New. }}",
    ],
)
def test_revisions(text: str) -> None:
    assert actions(text) == [("proposals.revise", {"serial": 12, "text": "New."})]


def test_rescinding() -> None:
    assert actions("I rescind proposal 12. I withdraw my proposal 13.") == [
        ("proposals.rescind", {"serial": 12}),
        ("proposals.rescind", {"serial": 13}),
    ]


def vote(word: str, number: int, on: str = "proposal") -> tuple[str, dict[str, object]]:
    return ("polls.vote", {"vote": word, "on": on, "number": number})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I vote FOR 12", [vote("for", 12)]),
        ("I vote AGAINST proposal 12.", [vote("AGAINST", 12)]),
        ("I vote PRESENT on 12", [vote("PRESENT", 12)]),
        ("I vote in favour of prop 12", [vote("in favour", 12)]),
        ("I vote to shelve 12", [vote("shelve", 12)]),
        ("I vote sure on poll 3", [vote("sure", 3, "poll")]),
        (
            "I vote FOR 12, 13 and AGAINST 14; nay on proposal #15",
            [vote("for", 12), vote("for", 13), vote("AGAINST", 14), vote("nay", 15)],
        ),
        ("I vote yes on 12 because I like it", [vote("yes", 12)]),
        ("I vote yes on 12 and hope for the best", [vote("yes", 12)]),
    ],
)
def test_votes(text: str, expected: list[tuple[str, dict[str, object]]]) -> None:
    assert actions(text) == expected


def test_several_vote_sentences_keep_their_order() -> None:
    assert actions("I vote nay on 12. I vote aye on 12.") == [vote("nay", 12), vote("aye", 12)]


def test_a_vote_without_a_proposal_is_not_understood() -> None:
    result = parse_post("I vote present")
    assert result.actions == () and len(result.not_understood) == 1


def test_a_conditional_vote_is_marked_conditional() -> None:
    (action,) = parse_post("If Bob agrees, I vote FOR 12.").actions
    assert action.conditional


def test_an_election_vote_is_still_an_election_vote() -> None:
    assert actions("I vote Alice, Bob for Minister of Justice")[0][0] == "elections.vote"


def test_a_proposal_without_delimited_text_is_not_understood() -> None:
    result = parse_post("I submit a proposal that we all have cake.")
    assert result.actions == ()
    assert "rule 217" in result.not_understood[0].message
