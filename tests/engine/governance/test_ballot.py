"""The Ballot by mail (rules 15, 19, 23 of seed 004): called, voted, closed, rewarded."""

from __future__ import annotations

import re
from typing import Any

from bot.games import dice
from bot.testing.apps import TEST_SECRET

VERIFY = re.compile(
    r"rolled (?P<spec>\d+d\d+): [\d +]+ = (?P<total>\d+) \[verify: nweek=(?P<nweek>\d+) "
    r"dice-v1 message-id=(?P<id>\S+) action=(?P<index>\d+) spec=\S+ faces=(?P<faces>[\d,]+)\]"
)


def three_proposals(game: Any) -> None:
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.post("Bob", "I submit a proposal: __Tea__ {{ Tea for all. }}", game.at(1, 2))
    game.post("Carol", "I submit a proposal: __Soup__ {{ Soup for all. }}", game.at(1, 3))


def test_the_ballot_is_called_at_the_start_of_the_voting_period_with_the_texts(
    new_game: Any,
) -> None:
    game = new_game()
    three_proposals(game)
    game.advance(game.at(1, 7, -1))  # one second before the Voting Period
    assert game.sent_of("ballot") == []  # nweek 1 had no proposal: no Ballot to post
    game.advance(game.at(1, 7))
    ballot = game.sent_of("ballot")[-1]
    assert ballot.public and ballot.subject == "[ballot] The Ballot of nweek 2"
    for line in ("Proposal 100/0: Cake", "Cake for all.", "Proposal 102/0: Soup", "by Carol"):
        assert line in ballot.body
    assert ballot.body.index("100/0") < ballot.body.index("101/0") < ballot.body.index("102/0")


def test_votes_variants_changes_and_shelve_decide_the_ballot(new_game: Any) -> None:
    game = new_game()
    three_proposals(game)
    game.advance(game.at(1, 7))
    game.post("Alice", "I vote FOR 100, AGAINST 101 and PRESENT on 102.", game.at(1, 7, 60))
    game.post("Bob", "I vote sure on 100 and 101. I vote nay on 102.", game.at(1, 7, 120))
    game.post("Carol", "I vote AGAINST 100, shelve on 101", game.at(1, 8))
    game.post("Alice", "I vote to shelve 101.", game.at(1, 8, 60))  # the last vote counts
    game.post("Carol", "I vote yes on 102", game.at(1, 9))
    game.advance(game.at(2, 0))
    (results,) = game.sent_of("ballot-results")
    body = " ".join(results.body.split())
    assert results.public
    assert "Proposal 100/0: Cake (by Alice) PASSED, for recognition by the GM" in body
    assert "Yes 2, No 1, Shelve 0, Abstain 0" in body
    # 101: Yes 1 (Bob), Shelve 2: fails, but would pass with Shelve as Yes.
    assert "Proposal 101/0: Tea (by Bob) SHELVED" in body
    assert 'Alice: Shelve ("shelve")' in body and 'Carol: Shelve ("shelve")' in body
    # 102: Yes 1 (Carol), No 1 (Bob), Abstain 1 (Alice): fails.
    assert "Proposal 102/0: Soup (by Carol) FAILED" in body
    assert 'Alice: Abstain ("PRESENT")' in body
    statuses = {p["id"]: p["status"] for p in game.view("proposals").data}
    assert statuses == {"100/0": "passed", "101/0": "shelved", "102/0": "failed"}


def test_rewards_and_penalties_go_through_holdings_with_verifiable_dice(new_game: Any) -> None:
    game = new_game()
    three_proposals(game)
    game.advance(game.at(1, 7))
    game.post("Alice", "I vote FOR 100 and AGAINST 102", game.at(1, 7, 60))
    game.post("Bob", "I vote FOR 100 and AGAINST 102", game.at(1, 7, 120))
    game.advance(game.at(2, 0))
    (results,) = game.sent_of("ballot-results")
    rolls = {int(m["index"]): m for m in VERIFY.finditer(" ".join(results.body.split()))}
    # 101 had no votes: not more Yes than No, so it failed too (rule 15).
    assert {serial: match["spec"] for serial, match in rolls.items()} == {
        100: "3d6",
        101: "1d6",
        102: "1d6",
    }
    for serial, match in rolls.items():
        nweek = int(match["nweek"]) - 1
        seed = dice.nweek_seed(bytes.fromhex(TEST_SECRET), nweek)
        verdict = dice.verify_roll(
            seed.hex(),
            dice.commitment(seed),
            match["id"],
            serial,
            match["spec"],
            [int(face) for face in match["faces"].split(",")],
        )
        assert verdict.ok, verdict.explanation
    assert game.balance("Alice", "points") == int(rolls[100]["total"])
    assert game.balance("Alice", "renown:Honor:temporary") == 1
    assert game.balance("Carol", "points") == 0  # points never go below zero (rule 21)
    # The seed of the nweek the Ballot closed in is committed before the results...
    kinds = [mail.kind for mail in game.sent()]
    assert kinds.index("ballot-results") > max(
        i for i, mail in enumerate(game.sent()) if mail.kind == "dice-commitment"
    )


def test_a_shelved_proposal_returns_on_the_next_ballot_and_cannot_be_rescinded(
    new_game: Any,
) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.advance(game.at(1, 7))
    game.post("Bob", "I vote SHELVE on 100", game.at(1, 8))
    game.advance(game.at(2, 0))
    game.post("Alice", "I rescind proposal 100", game.at(2, 1))
    game.post("Alice", "I revise proposal 100 to read {{ More cake. }}", game.at(2, 2))
    game.advance(game.at(2, 7))
    assert [r[1] for r in game.rulings()[-2:]] == ["rejected", "applied"]
    ballot = game.sent_of("ballot")[-1]
    assert ballot.subject == "[ballot] The Ballot of nweek 3"
    assert "Proposal 100/1: Cake" in ballot.body and "Shelved before" in ballot.body
    assert "More cake." in ballot.body


def test_votes_on_proposals_not_on_the_ballot_are_refused(new_game: Any) -> None:
    game = new_game()
    three_proposals(game)
    game.post("Alice", "I vote FOR 100", game.at(1, 4))
    game.advance(game.at(1, 7))
    game.post("Alice", "I vote FOR 999", game.at(1, 7, 60))
    game.post("Alice", "If Bob agrees, I vote FOR 101", game.at(1, 7, 120))
    rulings = game.rulings()[3:]
    assert [(r[1], r[3]) for r in rulings] == [
        ("rejected", "23"),
        ("rejected", "19"),
        ("not_taken", "1896"),
    ]
