"""The Showdown (A Nomic rule 396): showing, the prize, a tie, the return to the Deck."""

from __future__ import annotations

import pytest

from bot.games.cards import Card, CardName, CardTable, parse_card_name
from bot.games.cards.pooker import (
    divide_prize,
    may_declare_showdown,
    motion_passes,
    render_showdown,
    settle_showdown,
    show_cards,
)
from bot.games.dice import DrawSource, nweek_seed
from bot.games.errors import IllegalActionError

SEED = nweek_seed(bytes(range(32)), 13)


def card(text: str) -> Card:
    name = parse_card_name(text)
    assert name.pack is not None
    return Card(name.pack, name.face.suit, name.face.rank)


def hands(text: str) -> list[list[CardName]]:
    """``QH QS | 2C``: Poker Hands separated by bars."""
    return [[parse_card_name(word) for word in hand.split()] for hand in text.split("|")]


ALICE = "Red 9H, Red 9S, Red 9D, Red 9C, Red KH, Red KS, Red 2H, Red 5H, Red 7H, Red JH"
BOB = "Blue 3H, Blue 3S, Blue 3D, Blue QC, Blue QH, Red 4C"
CAROL = "Blue 2S, Blue 2D, Fish AH"


def table() -> CardTable:
    result = CardTable.new()
    for player, names in (("alice", ALICE), ("bob", BOB), ("carol", CAROL)):
        result = result.moved([card(name.strip()).number for name in names.split(",")], player)
    return result


def test_a_motion_to_show_cards_passes_by_a_majority_of_players() -> None:
    # Rule 396: it "passes by being voted for by a majority of Players".
    assert motion_passes(votes_for=4, players=7)
    assert not motion_passes(votes_for=3, players=6)
    assert motion_passes(votes_for=4, players=6)


def test_ten_pcards_let_their_owner_declare_a_showdown() -> None:
    # "if a transfer of Cards ... causes one Player to own ten or more PCards,
    # e may declare a Showdown"; Fish and Corporate Cards are no PCards (399).
    assert may_declare_showdown(table(), "alice")
    assert not may_declare_showdown(table(), "bob")
    almost = table().moved([card("Red 9H").number], None).moved([card("Fish 2C").number], "alice")
    assert not may_declare_showdown(almost, "alice")


def test_the_declarer_must_show_at_least_two_pcards() -> None:
    with pytest.raises(IllegalActionError, match="at least 2 PCards") as refusal:
        show_cards(table(), "alice", hands("9H"), declarer="alice")
    assert refusal.value.rule == "396"
    assert show_cards(table(), "alice", hands("9H 9S"), declarer="alice").total == 5


def test_a_player_is_told_the_better_arrangement_of_the_cards_e_showed() -> None:
    shown = hands("9H 9S 9D KH KS | 9C 2H 5H 7H JH")
    showing = show_cards(table(), "alice", shown, declarer="alice")
    assert showing.total == 50
    assert showing.better is not None and showing.better.total == 100
    assert showing.advice() == (
        "Your Cards could have scored 100 rather than 50, arranged so (rule 397):\n"
        "  9D 9S 9H 9C: Four of a Kind, 60\n"
        "  2H 5H 7H JH KH: Flush, 40\n"
        "  KS: none of the above, 0\n"
        "  total 100"
    )
    best_shown = hands("9H 9S 9D 9C | KH 2H 5H 7H JH | KS")
    assert show_cards(table(), "alice", best_shown).advice() is None


def test_cards_not_held_are_not_shown() -> None:
    with pytest.raises(IllegalActionError, match="bob has no PCard 9H"):
        show_cards(table(), "bob", hands("9H 3H"))
    with pytest.raises(IllegalActionError, match="no PCard AH"):
        show_cards(table(), "carol", hands("AH 2S"))  # the Fish Ace is no PCard


def test_the_highest_total_wins_that_many_points_and_shown_cards_return() -> None:
    # "The Player who has the highest total Score ... is awarded a number of
    # Points from the Bank equivalent to the total Score"; "all PCards that
    # were shown are returned to the Deck".
    start = table()
    alice = show_cards(start, "alice", hands("9H 9S 9D 9C | KH 2H 5H 7H JH | KS"))
    bob = show_cards(start, "bob", hands("3H 3S 3D QC QH"))
    after, result = settle_showdown(start, [bob, alice], draws=None)
    assert result.totals == (("alice", 100), ("bob", 50))
    assert result.prize == 100
    assert [(share.player, share.points) for share in result.shares] == [("alice", 100)]
    assert after.hand_of("alice") == ()
    assert after.hand_of("bob") == (card("Red 4C"),)  # not shown, kept
    assert len(result.returned) == 15 and all(after.in_deck(n) for n in result.returned)
    assert render_showdown([alice, bob], result) == (
        "Showdown (rule 396)\n"
        "\n"
        "alice showed:\n"
        "  9H 9S 9D 9C: Four of a Kind, 60\n"
        "  KH 2H 5H 7H JH: Flush, 40\n"
        "  KS: none of the above, 0\n"
        "  total 100\n"
        "bob showed:\n"
        "  3H 3S 3D QC QH: Full House, 50\n"
        "  total 50\n"
        "\n"
        "Highest total 100: the Bank pays alice 100 Points.\n"
        "15 PCards return to the Deck.\n"
    )


def test_a_tie_divides_the_prize_and_draws_who_gets_the_odd_points() -> None:
    # "If there is a tie for the highest Score, that number of Points is given
    # from the Bank and divided among the Player(s) involved in the tie."
    even, order = divide_prize(50, ["bob", "alice"], draws=None)
    assert [(share.player, share.points) for share in even] == [("alice", 25), ("bob", 25)]
    assert order == ()
    source = DrawSource(SEED, "showdown nweek 14")
    shares, order = divide_prize(25, ["carol", "alice", "bob"], draws=source)
    assert sorted(share.points for share in shares) == [8, 8, 9]
    assert sum(share.points for share in shares) == 25
    assert shares[0].player == order[0] and shares[0].points == 9
    assert source.draws[0].purpose == "Showdown tie: who gets the points left over"
    with pytest.raises(ValueError, match="needs a random draw"):
        divide_prize(25, ["alice", "bob"], draws=None)


def test_nobody_showing_wins_nothing() -> None:
    after, result = settle_showdown(table(), [], draws=None)
    assert after == table() and result.prize == 0 and result.shares == ()
    assert "Nobody showed any PCards" in render_showdown([], result)
