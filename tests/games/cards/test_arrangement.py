"""Arranging shown PCards into Poker Hands (rule 397) and the best arrangement."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from bot.games.cards import Card, Pack, all_cards, parse_card_name
from bot.games.cards.pooker import (
    best_arrangement,
    check_arrangement,
    classify,
    score_arrangement,
)
from bot.games.cards.pooker.arrangement import MOST_CARDS_TO_SEARCH
from bot.games.errors import IllegalActionError

PCARDS = [card for card in all_cards() if card.pack in (Pack.RED, Pack.BLUE)]


def cards(text: str) -> list[Card]:
    """``Red QH Blue QH 2S``: a Card per name, Red unless Blue is said."""
    result, pack = [], Pack.RED
    for word in text.split():
        if word in ("Red", "Blue"):
            pack = Pack[word.upper()]
            continue
        face = parse_card_name(word).face
        result.append(Card(pack, face.suit, face.rank))
        pack = Pack.RED
    return result


def test_ten_cards_find_two_scoring_hands() -> None:
    shown = cards("QH QS QD 2C 2H 9S 9D 4C 7H KS")
    best = best_arrangement(shown)
    assert best is not None
    # A Full House (50) and a Pair of Nines (5) beat Three Queens with Two Pair.
    assert best.total == 55
    assert sorted(hand.hand_class.title for hand in best.hands) == [
        "Full House",
        "Pair",
        "none of the above",
    ]
    assert sorted(card for hand in best.hands for card in hand.cards) == sorted(shown)


def test_two_packs_make_five_of_a_kind_and_several_hands() -> None:
    shown = cards("AD Blue AD AS Blue AS AH Blue AH AC Blue AC 2D Blue 2D")
    best = best_arrangement(shown)
    assert best is not None
    assert best.total == 130  # Five of a Kind (80) and A-A-A-2-2 (Full House, 50)
    assert "Five of a Kind" in best.describe()


def test_the_best_arrangement_beats_a_worse_one_the_player_chose() -> None:
    shown = cards("9H 9S 9D 9C KH KS 2H 5H 7H JH")
    theirs = check_arrangement([shown[:3] + shown[4:6], [shown[3], *shown[6:]]], pcards_owned=10)
    assert theirs.total == 50  # a Full House and nothing
    best = best_arrangement(shown)
    assert best is not None
    assert best.total == 100  # Four Nines (60) and a Flush in Hearts (40)
    assert sorted(hand.score for hand in best.hands) == [0, 40, 60]


def test_splitting_five_cards_or_fewer_never_scores_more() -> None:
    # The reading behind refusing several Hands from a player with five PCards
    # or fewer: over many random draws of up to five Cards from both Packs,
    # no split into several Hands beats one Hand of them all.
    generator = random.Random(397)
    for _ in range(3000):
        hand = generator.sample(PCARDS, generator.randint(2, 5))
        whole = classify(card.face for card in hand).score
        for size in range(1, len(hand)):
            for part in combinations(range(len(hand)), size):
                rest = [card for index, card in enumerate(hand) if index not in part]
                split = classify(hand[index].face for index in part).score
                assert split + classify(card.face for card in rest).score <= whole, hand


def test_exact_search_agrees_with_brute_force_on_small_showings() -> None:
    generator = random.Random(1)
    for _ in range(40):
        shown = generator.sample(PCARDS, 7)
        best = best_arrangement(shown)
        assert best is not None
        assert best.total == brute_force_total(shown)


def brute_force_total(shown: list[Card]) -> int:
    """Every partition of the Cards into Hands of one to five (fine for seven Cards)."""
    if not shown:
        return 0
    first, rest = shown[0], shown[1:]
    best = 0
    for size in range(0, min(4, len(rest)) + 1):
        for others in combinations(range(len(rest)), size):
            hand = [first, *(rest[index] for index in others)]
            left = [card for index, card in enumerate(rest) if index not in others]
            value = classify(card.face for card in hand).score + brute_force_total(left)
            best = max(best, value)
    return best


def test_several_hands_need_more_than_five_pcards_or_a_higher_score() -> None:
    # "A Player may arrange eir PCards into more than one Poker Hand if it
    # would result in a higher Score or if e owns more than five PCards."
    shown = cards("5H 5S KD KC 2H")
    with pytest.raises(IllegalActionError, match="only for a higher Score") as refusal:
        check_arrangement([shown[:2], shown[2:]], pcards_owned=5)
    assert refusal.value.rule == "397"
    assert check_arrangement([shown[:2], shown[2:]], pcards_owned=6).total == 10
    assert check_arrangement([shown], pcards_owned=5).total == 15


def test_arrangements_rule_397_and_399_forbid() -> None:
    six = cards("2H 3H 4H 5H 6H 7H")
    with pytest.raises(IllegalActionError, match="one to five PCards"):
        check_arrangement([six], pcards_owned=6)
    fish = Card(Pack.FISH, six[0].suit, six[0].rank)
    with pytest.raises(IllegalActionError, match="no PCard") as refusal:
        check_arrangement([[fish]], pcards_owned=6)
    assert refusal.value.rule == "399"
    with pytest.raises(IllegalActionError, match="more than one place"):
        check_arrangement([six[:2], six[1:3]], pcards_owned=6)


def test_five_cards_or_fewer_are_one_hand_and_too_many_are_not_searched() -> None:
    shown = cards("5H 5S KD KC 2H")
    assert best_arrangement(shown) == score_arrangement([shown])
    assert best_arrangement(PCARDS[: MOST_CARDS_TO_SEARCH + 1]) is None


def test_the_slowest_kind_of_showing_one_suit_of_both_packs() -> None:
    # Red A-K of Diamonds and the Blue Ace and 2: a Royal Flush (80), a
    # Straight Flush 5-9 (70) and a Flush of the rest (40); three Straight
    # Flushes cannot be made, since A-5 and 5-9 share the one Red Five.
    fifteen = [card for card in PCARDS if card.suit == PCARDS[0].suit][:MOST_CARDS_TO_SEARCH]
    assert len(fifteen) == 15 and {card.pack for card in fifteen} == {Pack.RED, Pack.BLUE}
    best = best_arrangement(fifteen)
    assert best is not None
    assert best.total == 190
    assert sorted(hand.score for hand in best.hands) == [40, 70, 80]
