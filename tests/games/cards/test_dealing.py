"""Rule 387's deal, rules 388-389's Deck and Hands, and rule 391's Cards for Votes."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.cards import (
    Card,
    CardTable,
    DealId,
    Dealt,
    DeckEmpty,
    HiddenDie,
    deal,
    deal_for_votes,
    deal_key,
    deal_secret,
    voters_to_deal,
)
from bot.games.cards.dealing import RecordedDie
from bot.games.dice import DrawSource, nweek_seed, replay_draw
from bot.games.errors import IllegalActionError

KEY = deal_key(bytes(range(32)), 13)


class ScriptedDie:
    """A die that returns the given values in order and records what it was asked."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.faces_asked: list[int] = []

    def roll_die(self, faces: int) -> int:
        self.faces_asked.append(faces)
        return self.values.pop(0)


def test_the_die_has_52_sides_per_pack_and_rerolls_until_a_card_in_the_deck() -> None:
    # Rule 387: "If the number returned is the number of a Card that is not
    # currently in the Deck, the Dealer keeps rolling until e gets the number
    # of a Card that is in the Deck."
    table = CardTable.new().moved([17, 140], "bob")
    die = ScriptedDie(17, 140, 17, 33, 99)
    table, outcome = deal(table, "alice", die)
    assert outcome == Dealt("alice", Card.from_number(33), (17, 140, 17, 33))
    assert outcome.rerolled == (17, 140, 17)
    assert die.faces_asked == [208] * 4 and die.values == [99]
    assert table.holder_of(33) == "alice" and not table.in_deck(33)
    two_packs = CardTable.new(pack_count=2)
    die = ScriptedDie(104)
    assert deal(two_packs, "alice", die)[1] == Dealt("alice", Card.from_number(104), (104,))
    assert die.faces_asked == [104]


def test_no_card_is_dealt_from_an_empty_deck() -> None:
    # Rule 387: "if the Deck contains no Cards, the Dealer cannot Deal a Card.
    # This takes precedence over rules that state when a Card should be Dealt."
    full_hands = CardTable.new(pack_count=1).moved(range(1, 53), "bob")
    die = ScriptedDie()
    assert deal(full_hands, "alice", die) == (full_hands, DeckEmpty("alice"))
    assert die.faces_asked == []


def test_the_dealer_has_no_hand() -> None:
    # Rule 388: "A Hand is the collection of all cards which a player besides
    # the Dealer owns"; rule 389: the Deck is the cards the Dealer owns.
    with pytest.raises(IllegalActionError, match="Dealer") as refusal:
        deal(CardTable.new(), "purplebob", ScriptedDie(1), dealer="purplebob")
    assert refusal.value.rule == "388"


def test_cards_for_votes_go_once_to_each_voter_but_the_dealer_in_name_order() -> None:
    # Rule 391: "At the beginning of each nweek, the Dealer deals a Card to
    # each Player who voted in the previous nweek."
    voters = ["carol", "Alice", "bob", "carol", "PurpleBob", "alice"]
    assert voters_to_deal(voters, dealer="PurpleBob") == ("Alice", "alice", "bob", "carol")
    dice = {"Alice": ScriptedDie(5), "alice": ScriptedDie(5, 6), "bob": ScriptedDie(7)}
    dice["carol"] = ScriptedDie(8)
    table, outcomes = deal_for_votes(CardTable.new(), voters, "PurpleBob", dice.__getitem__)
    assert [(o.recipient, o.card.number) for o in outcomes if isinstance(o, Dealt)] == [
        ("Alice", 5),
        ("alice", 6),
        ("bob", 7),
        ("carol", 8),
    ]
    assert table.hand_sizes() == {"alice": 1, "Alice": 1, "bob": 1, "carol": 1}


def test_when_the_deck_runs_out_the_last_voters_get_nothing_and_spend_no_die() -> None:
    table = CardTable.new(pack_count=1).moved(range(3, 53), "dave")
    asked: list[str] = []

    def die_for(recipient: str) -> ScriptedDie:
        asked.append(recipient)
        return ScriptedDie(1, 2)

    table, outcomes = deal_for_votes(table, ["carol", "bob", "alice"], None, die_for)
    assert [type(outcome) for outcome in outcomes] == [Dealt, Dealt, DeckEmpty]
    assert outcomes[2] == DeckEmpty("carol")
    assert asked == ["alice", "bob"]
    assert table.deck() == ()


def test_hidden_deals_are_uniform_over_the_deck() -> None:
    # 20,800 first deals from a full Deck, each with its own deal's die: every
    # number 1..208 about 100 times (a chi-square test at 208 - 1 degrees of
    # freedom; the 99.9% point is about 277).
    counts: Counter[int] = Counter()
    for serial in range(1, 20_801):
        deal_id = DealId(13, serial)
        die = HiddenDie(deal_secret(KEY, deal_id), deal_id)
        counts[die.roll_die(208)] += 1
    assert set(counts) == set(range(1, 209))
    chi_square = sum((count - 100) ** 2 / 100 for count in counts.values())
    assert chi_square < 277, chi_square


def test_dealing_the_whole_deck_gives_every_card_once_and_rerolls_more_as_it_empties() -> None:
    table = CardTable.new()
    rolls_per_deal: list[int] = []
    dealt: list[int] = []
    for serial in range(1, 209):
        deal_id = DealId(0, serial)
        recipient = ("alice", "bob", "carol")[serial % 3]
        table, outcome = deal(table, recipient, HiddenDie(deal_secret(KEY, deal_id), deal_id))
        assert isinstance(outcome, Dealt)
        dealt.append(outcome.card.number)
        rolls_per_deal.append(len(outcome.rolls))
    assert sorted(dealt) == list(range(1, 209))
    assert table.deck_size() == 0
    # The expected rolls for the k-th deal are 208 / (209 - k): 1 at first, 208 at last.
    assert sum(rolls_per_deal[:52]) < 80 and sum(rolls_per_deal[-52:]) > 52 * 5


def test_a_public_deal_records_every_roll_and_replays() -> None:
    source = DrawSource(nweek_seed(bytes(range(32)), 13), "open deal nweek 14")
    table = CardTable.new(pack_count=1).moved(range(1, 48), "bob")
    table, outcome = deal(table, "alice", RecordedDie(source))
    assert isinstance(outcome, Dealt) and outcome.card.number in range(48, 53)
    assert [draw.result[0] for draw in source.draws] == list(outcome.rolls)
    assert all(draw.bounds == (1, 52) for draw in source.draws)
    seed = nweek_seed(bytes(range(32)), 13)
    assert all(replay_draw(seed, source.context_id, draw) == draw for draw in source.draws)
