"""Rule 397's table, class by class, with the rule's own words."""

from __future__ import annotations

import pytest

from bot.games.cards import Face, parse_card_name
from bot.games.cards.pooker import HandClass, classify, score


def faces(text: str) -> list[Face]:
    return [parse_card_name(word).face for word in text.split()]


@pytest.mark.parametrize(
    ("hand", "expected", "points"),
    [
        # "five PCards of the same Rank ... Five of a Kind, and has a Score of 80"
        ("7H 7H 7S 7D 7C", HandClass.FIVE_OF_A_KIND, 80),
        # "Ace, King, Queen, Jack, and 10 ... all of the same Suit ... Royal Flush ... 80"
        ("AS KS QS JS 10S", HandClass.ROYAL_FLUSH, 80),
        # "five PCards with consecutive Ranks which are all of the same Suit ... 70"
        ("9H 10H JH QH KH", HandClass.STRAIGHT_FLUSH, 70),
        ("AD 2D 3D 4D 5D", HandClass.STRAIGHT_FLUSH, 70),
        # "four PCards of the same Rank ... Four of a Kind ... 60"
        ("QH QS QD QC", HandClass.FOUR_OF_A_KIND, 60),
        ("QH QS QD QC 2H", HandClass.FOUR_OF_A_KIND, 60),
        # "three PCards of one Rank and two PCards of another ... Full House ... 50"
        ("3H 3S 3D 9C 9H", HandClass.FULL_HOUSE, 50),
        # "five PCards of the same Suit ... Flush ... 40"
        ("2C 5C 9C JC KC", HandClass.FLUSH, 40),
        ("QH QH 2H 5H 9H", HandClass.FLUSH, 40),  # both Packs' Queen of Hearts
        # "five PCards with consecutive Ranks [[such as 7-8-9-10-Jack]] ... Straight ... 35"
        ("7H 8S 9D 10C JH", HandClass.STRAIGHT, 35),
        ("AH 2S 3D 4C 5H", HandClass.STRAIGHT, 35),
        # "three PCards of the same Rank ... Three of a Kind ... 25"
        ("8H 8S 8D", HandClass.THREE_OF_A_KIND, 25),
        ("8H 8S 8D 2C 5H", HandClass.THREE_OF_A_KIND, 25),
        # "two PCards of one Rank and two PCards of another Rank ... Two Pair ... 15"
        ("5H 5S KD KC", HandClass.TWO_PAIR, 15),
        # "two PCards of the same Rank ... Pair ... 5"
        ("JH JS", HandClass.PAIR, 5),
        # "If a Poker Hand contains none of the above, its Score is 0."
        ("AH", HandClass.NOTHING, 0),
        ("2H 4S 6D 8C 10H", HandClass.NOTHING, 0),
    ],
)
def test_rule_397_classes(hand: str, expected: HandClass, points: int) -> None:
    assert classify(faces(hand)) is expected
    assert score(faces(hand)) == points


def test_the_ace_is_low_only() -> None:
    # Rules 384 and 387 order and number the Ranks Ace (1), 2, ..., King (13):
    # 10-J-Q-K-A is not "consecutive"; a suited one is still a Royal Flush.
    assert classify(faces("10H JS QD KC AH")) is HandClass.NOTHING
    assert classify(faces("QH KS AD 2C 3H")) is HandClass.NOTHING  # no wrapping
    assert classify(faces("10H JH QH KH AH")) is HandClass.ROYAL_FLUSH


def test_statements_at_the_top_take_precedence() -> None:
    # Five Aces also "contain" four, three and two of a Rank.
    assert classify(faces("AH AH AS AD AC")) is HandClass.FIVE_OF_A_KIND
    assert classify(faces("KH KH KS KS 2D")) is HandClass.FOUR_OF_A_KIND
    assert classify(faces("KH KH KS 2D 2D")) is HandClass.FULL_HOUSE


@pytest.mark.parametrize("count", [0, 6])
def test_a_poker_hand_is_one_to_five_pcards(count: int) -> None:
    with pytest.raises(ValueError, match="one to five PCards"):
        classify(faces(" ".join(["2H"] * count)))
