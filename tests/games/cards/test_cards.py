"""Rules 384, 385 and 387 (A Nomic, seed 002): the Cards, the Packs and their numbers."""

from __future__ import annotations

import pytest

from bot.games.cards import Card, CardName, CardTable, Face, Pack, Rank, Suit, all_cards
from bot.games.cards import parse_card_name as read
from bot.games.errors import ActionSyntaxError


def test_rule_387_numbers_every_card_from_1_to_52_times_the_packs() -> None:
    # Rule 387: "The number of a card is: (pack number)*52 + (suit number)*13 +
    # (rank number)"; "Diamonds = 0, Spades = 1, Hearts = 2. Clubs 3"; "Ace = 1,
    # Jack = 11, Queen = 12, King = 13".
    assert Card(Pack.RED, Suit.DIAMONDS, Rank.ACE).number == 1
    assert Card(Pack.RED, Suit.SPADES, Rank.ACE).number == 14
    assert Card(Pack.BLUE, Suit.HEARTS, Rank.QUEEN).number == 52 + 26 + 12
    assert Card(Pack.CORPORATE, Suit.CLUBS, Rank.KING).number == 208
    numbers = [card.number for card in all_cards()]
    assert numbers == list(range(1, 209))
    assert all(Card.from_number(card.number) == card for card in all_cards())


def test_the_packs_are_numbered_in_the_order_rule_385_describes_them() -> None:
    # "The packs are numbered from 0 to (N-1) ... in the order which they are
    # originally described": Red, Blue, Fish, Corporate.
    assert [pack.back for pack in Pack] == ["Red", "Blue", "Fish", "Corporate"]
    assert [card.number for card in all_cards(pack_count=2)] == list(range(1, 105))
    assert Card.from_number(105).pack is Pack.FISH
    with pytest.raises(ValueError, match="not 1 to 104"):
        Card.from_number(105, pack_count=2)
    with pytest.raises(ValueError, match="not 1 to 208"):
        Card.from_number(0)


def test_three_properties_tell_every_card_apart() -> None:
    # Rule 384: "Each Card has 3 properties that distinguish it from all other
    # Cards in the game: Suit, Rank, and Back."
    cards = all_cards()
    assert len({(card.suit, card.rank, card.back) for card in cards}) == len(cards) == 208
    assert Card.from_number(90).name == "Queen of Hearts (Blue back)"
    assert Card.from_number(90).short == "Blue QH"
    assert Card.from_number(10).face.short == "10D"


def test_a_new_table_holds_every_card_in_the_deck() -> None:
    # Rule 389: "Originally, all the Cards in all the Packs that are in play
    # are in the Deck."
    table = CardTable.new()
    assert table.deck() == tuple(range(1, 209))
    moved = table.moved([78, 1], "alice")
    assert moved.hand_of("alice") == (Card.from_number(1), Card.from_number(78))
    assert moved.deck_size() == 206
    assert CardTable.from_dict(moved.to_dict()) == moved
    assert moved.without_hand_of("alice") == table


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QH", CardName(Face(Rank.QUEEN, Suit.HEARTS))),
        ("10s", CardName(Face(Rank.TEN, Suit.SPADES))),
        ("TD", CardName(Face(Rank.TEN, Suit.DIAMONDS))),
        ("Queen of Hearts", CardName(Face(Rank.QUEEN, Suit.HEARTS))),
        ("ace of  spade", CardName(Face(Rank.ACE, Suit.SPADES))),
        ("seven of clubs", CardName(Face(Rank.SEVEN, Suit.CLUBS))),
        ("Red QH", CardName(Face(Rank.QUEEN, Suit.HEARTS), Pack.RED)),
        ("7C (Blue back)", CardName(Face(Rank.SEVEN, Suit.CLUBS), Pack.BLUE)),
        ("fish 2 of diamonds", CardName(Face(Rank.TWO, Suit.DIAMONDS), Pack.FISH)),
    ],
)
def test_card_names_are_read(text: str, expected: CardName) -> None:
    assert read(text) == expected


@pytest.mark.parametrize("text", ["QX", "11H", "Queen of Cups", "Green QH", "", "QH QS"])
def test_other_text_is_no_card_name(text: str) -> None:
    with pytest.raises(ActionSyntaxError, match="rule 384"):
        read(text)


def test_a_name_without_a_back_matches_either_back() -> None:
    red, blue = Card.from_number(26 + 12), Card.from_number(52 + 26 + 12)
    assert read("QH").matches(red) and read("QH").matches(blue)
    assert read("Red QH").matches(red) and not read("Red QH").matches(blue)
