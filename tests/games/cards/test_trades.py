"""Trades (A Nomic rules 394, 395): two private notices of the same Trade."""

from __future__ import annotations

import pytest

from bot.games.cards import Card, CardTable, Pack, parse_card_name
from bot.games.cards.pooker import TRADE_FEE, TradeNotice, match_notices
from bot.games.errors import AmbiguousActionError, IllegalActionError

POINTS = {"alice": 10, "bob": 10, "carol": 0}


def card(text: str) -> Card:
    """``Red 7H`` -> the Card; a Back must be given."""
    name = parse_card_name(text)
    assert name.pack is not None
    return Card(name.pack, name.face.suit, name.face.rank)


def table_of(**hands: str) -> CardTable:
    table = CardTable.new()
    for player, names in hands.items():
        numbers = [card(name.strip()).number for name in names.split(",")]
        table = table.moved(numbers, player)
    return table


def notice(sender: str, partner: str, gives: str, receives: str) -> TradeNotice:
    return TradeNotice(
        sender,
        partner,
        tuple(parse_card_name(name) for name in gives.split(",")),
        tuple(parse_card_name(name) for name in receives.split(",")),
    )


TABLE = table_of(
    alice="Red 7H, Blue JS, Red 2C, Fish AS",
    bob="Blue KS, Red QH, Blue QH",
    carol="Corporate 9D",
)


def test_two_matching_notices_swap_the_cards() -> None:
    # Rule 394: the Dealer "takes the Cards which one Player wishes to trade to
    # the other Player and changes their ownership to the other Player ... E
    # then takes an equal number of PCards which the other Player wishes to
    # trade and changes their ownership to the first Player".
    first = notice("alice", "bob", "7H, Blue JS", "KS, Red QH")
    second = notice("bob", "alice", "KS, Red QH", "Red 7H, JS")
    trade = match_notices(TABLE, first, second, POINTS, dealer="purplebob")
    assert trade.first_gives == (card("Red 7H"), card("Blue JS"))
    assert trade.second_gives == (card("Blue KS"), card("Red QH"))
    after = trade.apply(TABLE)
    assert after.hand_of("alice") == tuple(
        sorted([card("Red 2C"), card("Red QH"), card("Fish AS"), card("Blue KS")])
    )
    assert set(after.hand_of("bob")) == {card("Red 7H"), card("Blue JS"), card("Blue QH")}
    assert TRADE_FEE == 1  # rule 395: "a transaction fee of one Point" from each


def test_notices_of_different_trades_are_refused() -> None:
    # Rule 395: "The Dealer must be notified of the same trade by both Players".
    first = notice("alice", "bob", "7H", "KS")
    second = notice("bob", "alice", "Red QH", "7H")
    with pytest.raises(IllegalActionError, match="alice expects KS from bob") as refusal:
        match_notices(TABLE, first, second, POINTS, dealer=None)
    assert refusal.value.rule == "395"
    assert "QH" not in str(refusal.value)  # nothing of bob's Hand beyond what alice named


def test_both_sides_trade_an_equal_number_of_pcards() -> None:
    # Rule 394: "Both Players involved in a trade must trade an equal number of PCards."
    first = notice("alice", "bob", "7H, JS", "KS")
    second = notice("bob", "alice", "KS", "7H, JS")
    with pytest.raises(IllegalActionError, match="equal number") as refusal:
        match_notices(TABLE, first, second, POINTS, dealer=None)
    assert refusal.value.rule == "394"


def test_only_pcards_held_by_the_giver_are_traded() -> None:
    fish = notice("alice", "bob", "AS", "KS")
    with pytest.raises(IllegalActionError, match="no PCard AS"):
        match_notices(TABLE, fish, notice("bob", "alice", "KS", "AS"), POINTS, None)
    carol = notice("carol", "alice", "9D", "7H")
    with pytest.raises(IllegalActionError, match="carol has no PCards"):
        match_notices(TABLE, carol, notice("alice", "carol", "7H", "9D"), POINTS, None)


def test_a_face_that_fits_two_of_the_givers_cards_is_ambiguous() -> None:
    first = notice("alice", "bob", "7H", "QH")
    second = notice("bob", "alice", "QH", "7H")
    with pytest.raises(AmbiguousActionError, match="Red QH and Blue QH"):
        match_notices(TABLE, first, second, POINTS, None)
    both = notice("bob", "alice", "QH, QH", "7H, 2C")
    trade = match_notices(TABLE, notice("alice", "bob", "7H, 2C", "QH, QH"), both, POINTS, None)
    assert {c.pack for c in trade.second_gives} == {Pack.RED, Pack.BLUE}


def test_each_party_must_afford_the_fee() -> None:
    first = notice("alice", "bob", "7H", "KS")
    second = notice("bob", "alice", "KS", "7H")
    with pytest.raises(IllegalActionError, match="transaction fee"):
        match_notices(TABLE, first, second, {"alice": 10, "bob": 0}, None)
