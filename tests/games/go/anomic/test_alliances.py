"""Alliance moves and non-transitive Dragons of A Nomic's Political Go (rules 367-369, seed 002).

Before/after diagrams as ``render_board`` draws them.  The boards use
``move_interval=0`` so that the 19-hour limit (tested in
``test_placement_rules.py``) stays out of the way of these sequences.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from bot.games.errors import IllegalActionError
from bot.games.go.anomic import (
    AllianceAccepted,
    AllianceOffered,
    AnomicState,
    DragonCaptured,
    MoveContext,
    MoveResult,
    OffersVoided,
    OfferWithdrawn,
    StonePlaced,
    StoneShare,
    WarDeclared,
    accept_alliance,
    add_players,
    declare_war,
    new_game,
    offer_alliance,
    place_stone,
    render_board,
    with_alliances,
    with_stones,
    withdraw_offer,
)
from bot.games.go.dragons import dragons_through
from bot.games.go.points import Point, neighbour_table
from bot.testing.anomic_diagrams import (
    EMPTY_5X5,
    SMALL,
    at,
    board_of,
    diagram,
    drawn_position,
    page,
    points,
)

PLAYERS = {"A": "Ann", "B": "Bob", "C": "Cat", "D": "Dan", "E": "Eve"}


def position(text: str, marks: Mapping[str, str] = PLAYERS) -> AnomicState:
    """The diagram's stones, each mark owned by ``marks[mark]``; all of them Go players."""
    return drawn_position(text, marks, SMALL)


def place(state: AnomicState, player: str, where: str) -> MoveResult:
    return place_stone(state, MoveContext(player, 0), at(where))


def offer(state: AnomicState, player: str, offeree: str) -> MoveResult:
    return offer_alliance(state, MoveContext(player, 0), offeree)


def accept(state: AnomicState, player: str, offerer: str) -> MoveResult:
    return accept_alliance(state, MoveContext(player, 0), offerer)


def withdraw(state: AnomicState, player: str, offeree: str) -> MoveResult:
    return withdraw_offer(state, MoveContext(player, 0), offeree)


def war(state: AnomicState, player: str, ally: str) -> MoveResult:
    return declare_war(state, MoveContext(player, 0), ally)


# --- 368.2: offers name a Go player ---------------------------------------


def test_an_offer_names_a_go_player_and_is_recorded_as_open() -> None:
    result = offer(position(EMPTY_5X5), "Ann", "Bob")
    assert result.events == (AllianceOffered("Ann", "Bob"),)
    assert result.state.offers == {("Ann", "Bob")}
    assert "Open alliance offers: Ann to Bob" in render_board(result.state)


@pytest.mark.parametrize(
    ("offeree", "reason", "rule"),
    [
        ("Zed", "Zed is not a Go player", "365"),
        ("Ann", "cannot offer an alliance to emself", "368"),
    ],
)
def test_an_offer_to_someone_who_is_not_another_go_player_is_refused(
    offeree: str, reason: str, rule: str
) -> None:
    with pytest.raises(IllegalActionError) as refusal:
        offer(position(EMPTY_5X5), "Ann", offeree)
    assert reason in refusal.value.message
    assert refusal.value.rule == rule


def test_a_player_with_set_up_stones_but_no_move_is_not_yet_a_go_player() -> None:
    # Rule 365: "Players become Go players by making a Go move".
    state = with_stones(add_players(new_game(SMALL), ["Ann"]), {at("c3"): "Dan"})
    with pytest.raises(IllegalActionError, match="Dan is not a Go player") as refusal:
        offer(state, "Ann", "Dan")
    assert refusal.value.rule == "365"


def test_an_offer_to_an_ally_or_a_second_open_offer_is_refused() -> None:
    allied = with_alliances(position(EMPTY_5X5), [("Ann", "Bob")])
    with pytest.raises(IllegalActionError, match="already allies"):
        offer(allied, "Ann", "Bob")
    offered = offer(position(EMPTY_5X5), "Ann", "Bob").state
    with pytest.raises(IllegalActionError, match="already offered"):
        offer(offered, "Ann", "Bob")


# --- 368.2: "void if the offeree makes any other move before accepting" -----


def test_an_offer_is_void_once_the_offeree_places_a_stone_first() -> None:
    offered = offer(position(EMPTY_5X5), "Ann", "Bob").state
    assert render_board(offered).endswith(
        "Open alliance offers: Ann to Bob\nLast stone placed by: nobody yet\n"
    )
    result = place(offered, "Bob", "c3")
    assert render_board(result.state) == page(
        """
        Political Go (A Nomic rules 365-377): game 1, after move 2

           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . B . .  3
        2  . . . . .  2
        1  . . . . .  1
           a b c d e

        Mark  Player  In Play  Reserve  Captured  Captures  Allies
        A     Ann     0        0        0         0         none
        B     Bob     1        0        0         0         none
        C     Cat     0        0        0         0         none
        D     Dan     0        0        0         0         none
        E     Eve     0        0        0         0         none

        Open alliance offers: none
        Last stone placed by: Bob
        """
    )
    assert set(result.events) == {StonePlaced("Bob", at("c3")), OffersVoided("Bob", ("Ann",))}
    with pytest.raises(IllegalActionError, match="no open alliance offer from Ann"):
        accept(result.state, "Bob", "Ann")


Prepare = Callable[[AnomicState], AnomicState]
Move = Callable[[AnomicState], MoveResult]


def nothing(state: AnomicState) -> AnomicState:
    return state


def bob_offers_cat(state: AnomicState) -> AnomicState:
    return offer(state, "Bob", "Cat").state


def cat_offers_bob(state: AnomicState) -> AnomicState:
    return offer(state, "Cat", "Bob").state


def bob_allied_with_cat(state: AnomicState) -> AnomicState:
    return with_alliances(state, [("Bob", "Cat")])


@pytest.mark.parametrize(
    ("prepare", "bobs_other_move"),
    [
        pytest.param(nothing, lambda state: place(state, "Bob", "c3"), id="placement"),
        pytest.param(nothing, lambda state: offer(state, "Bob", "Cat"), id="own-offer"),
        pytest.param(
            bob_offers_cat, lambda state: withdraw(state, "Bob", "Cat"), id="withdraw-another"
        ),
        pytest.param(
            cat_offers_bob, lambda state: accept(state, "Bob", "Cat"), id="accept-another"
        ),
        pytest.param(bob_allied_with_cat, lambda state: war(state, "Bob", "Cat"), id="war"),
    ],
)
def test_any_other_move_by_the_offeree_voids_the_offer(
    prepare: Prepare, bobs_other_move: Move
) -> None:
    offered = offer(prepare(position(EMPTY_5X5)), "Ann", "Bob").state
    result = bobs_other_move(offered)
    assert ("Ann", "Bob") not in result.state.offers
    assert OffersVoided("Bob", ("Ann",)) in result.events
    with pytest.raises(IllegalActionError) as refusal:
        accept(result.state, "Bob", "Ann")
    assert refusal.value.rule == "368"


def test_the_offerers_own_moves_leave_the_offer_open() -> None:
    offered = offer(position(EMPTY_5X5), "Ann", "Bob").state
    moved = place(offered, "Ann", "c3").state
    moved = offer(moved, "Ann", "Cat").state
    assert moved.offers == {("Ann", "Bob"), ("Ann", "Cat")}
    result = accept(moved, "Bob", "Ann")
    assert result.events == (AllianceAccepted("Bob", "Ann"),)
    assert result.state.are_allies("Ann", "Bob")
    assert result.state.offers == {("Ann", "Cat")}


# --- 368.4: acceptance makes the stones friendly ----------------------------

SURROUNDED_PAIR = """
       a b c d e
    5  . . . . .  5
    4  . C C . .  4
    3  C A B . .  3
    2  . . . . .  2
    1  . . . . .  1
       a b c d e
    """


def test_without_an_alliance_cat_captures_anns_stone() -> None:
    before = position(SURROUNDED_PAIR)
    result = place(before, "Cat", "b2")
    assert board_of(result.state) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . C C . .  4
        3  C . B . .  3
        2  . C . . .  2
        1  . . . . .  1
           a b c d e
        """
    )
    # Rule 369: Cat has 3 stones next to the captured Dragon and Bob 1, so
    # Cat receives the one stone.
    assert result.events == (
        StonePlaced("Cat", at("b2")),
        DragonCaptured(
            points("b3"),
            (("Ann", 1),),
            (StoneShare("Cat", 3, 1), StoneShare("Bob", 1, 0)),
        ),
    )


def test_after_acceptance_the_allies_stones_form_one_dragon_and_share_liberties() -> None:
    offered = offer(position(SURROUNDED_PAIR), "Ann", "Bob").state
    accepted = accept(offered, "Bob", "Ann")
    assert accepted.events == (AllianceAccepted("Bob", "Ann"),)
    assert accepted.state.offers == frozenset()
    result = place(accepted.state, "Cat", "b2")
    # Ann's b3 and Bob's c3 are one Dragon with Liberties c2 and d3 (367).
    assert board_of(result.state) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . C C . .  4
        3  C A B . .  3
        2  . C . . .  2
        1  . . . . .  1
           a b c d e
        """
    )
    assert result.events == (StonePlaced("Cat", at("b2")),)
    assert "A     Ann     1        0        0         0         Bob" in render_board(result.state)


# --- 368.5: withdrawing ------------------------------------------------------


def test_a_withdrawn_offer_can_no_longer_be_accepted() -> None:
    offered = offer(position(EMPTY_5X5), "Ann", "Bob").state
    withdrawn = withdraw(offered, "Ann", "Bob")
    assert withdrawn.events == (OfferWithdrawn("Ann", "Bob"),)
    assert withdrawn.state.offers == frozenset()
    with pytest.raises(IllegalActionError, match="no open alliance offer from Ann"):
        accept(withdrawn.state, "Bob", "Ann")


def test_an_offer_cannot_be_withdrawn_after_it_was_accepted() -> None:
    offered = offer(position(EMPTY_5X5), "Ann", "Bob").state
    allied = accept(offered, "Bob", "Ann").state
    with pytest.raises(IllegalActionError, match="it was accepted") as refusal:
        withdraw(allied, "Ann", "Bob")
    assert refusal.value.rule == "368.5"
    assert allied.are_allies("Ann", "Bob")


# --- 368.3 and 369: war ----------------------------------------------------------

HELD_BY_ALLIES = """
       a b c d e
    5  . B . . .  5
    4  B A B . .  4
    3  . B . A .  3
    2  . . A B A  2
    1  . . . A .  1
       a b c d e
    """


def test_war_leaves_the_former_allys_enclosed_stone_captured_and_the_movers_until_later() -> None:
    allied = with_alliances(position(HELD_BY_ALLIES), [("Ann", "Bob")])
    result = war(allied, "Bob", "Ann")
    # Rule 369 captures after every move the Dragons without liberties that
    # are unfriendly to the mover: Ann's b4 goes, Bob's own d2 stays.
    assert board_of(result.state) == diagram(
        """
           a b c d e
        5  . B . . .  5
        4  B . B . .  4
        3  . B . A .  3
        2  . . A B A  2
        1  . . . A .  1
           a b c d e
        """
    )
    assert result.events == (
        WarDeclared("Bob", "Ann"),
        DragonCaptured(points("b4"), (("Ann", 1),), (StoneShare("Bob", 4, 1),)),
    )
    assert not result.state.are_allies("Ann", "Bob")
    assert result.state.breathless == points("d2")

    answer = place(result.state, "Ann", "e5")
    assert board_of(answer.state) == diagram(
        """
           a b c d e
        5  . B . . A  5
        4  B . B . .  4
        3  . B . A .  3
        2  . . A . A  2
        1  . . . A .  1
           a b c d e
        """
    )
    assert answer.events[-1] == DragonCaptured(
        points("d2"), (("Bob", 1),), (StoneShare("Ann", 4, 1),)
    )
    assert answer.state.breathless == frozenset()
    assert [answer.state.record_of(name).captured for name in ("Ann", "Bob")] == [1, 1]


def test_war_needs_an_alliance() -> None:
    with pytest.raises(IllegalActionError, match="not allies") as refusal:
        war(position(EMPTY_5X5), "Ann", "Bob")
    assert refusal.value.rule == "368.3"


# --- 367: non-transitive alliances --------------------------------------------

CHAIN = """
       a b c d e
    5  D A B C .  5
    4  . . D . .  4
    3  . . . . .  3
    2  . . . . .  2
    1  . . . . .  1
       a b c d e
    """


def chain_position() -> AnomicState:
    """Ann-Bob and Bob-Cat allied, Ann and Cat not."""
    return with_alliances(position(CHAIN), [("Ann", "Bob"), ("Bob", "Cat")])


def dragons_at(state: AnomicState, where: str) -> tuple[frozenset[Point], ...]:
    neighbours = neighbour_table(SMALL.size)
    return dragons_through(state.board, at(where), state.friendship, neighbours)


def test_bobs_stone_lies_in_two_dragons_when_alliances_are_not_transitive() -> None:
    state = chain_position()
    assert dragons_at(state, "c5") == (points("b5", "c5"), points("c5", "d5"))
    assert dragons_at(state, "b5") == (points("b5", "c5"),)
    assert dragons_at(state, "d5") == (points("c5", "d5"),)


def test_a_dragon_without_liberties_is_captured_with_the_allys_stone_in_it() -> None:
    # Cat fills b4: the Dragon {Ann b5, Bob c5} is unfriendly to Cat (Ann is
    # no ally of hers) and has no liberty, so both its stones are captured,
    # although Bob's c5 is also in the Dragon {c5, d5} that still has e5, d4.
    result = place(chain_position(), "Cat", "b4")
    assert board_of(result.state) == diagram(
        """
           a b c d e
        5  D . . C .  5
        4  . C D . .  4
        3  . . . . .  3
        2  . . . . .  2
        1  . . . . .  1
           a b c d e
        """
    )
    assert result.events == (
        StonePlaced("Cat", at("b4")),
        DragonCaptured(
            points("b5", "c5"),
            (("Ann", 1), ("Bob", 1)),
            (StoneShare("Cat", 2, 1), StoneShare("Dan", 2, 1)),
        ),
    )


OVERLAPPING_DRAGONS = """
       a b c d e
    5  . . . . .  5
    4  . . . . .  4
    3  . . . . .  3
    2  D . D . .  2
    1  A B C D .  1
       a b c d e
    """


def test_a_stone_in_two_captured_dragons_is_divided_once_with_the_first() -> None:
    state = with_alliances(position(OVERLAPPING_DRAGONS), [("Ann", "Bob"), ("Bob", "Cat")])
    result = place(state, "Dan", "b2")
    assert board_of(result.state) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . . . .  3
        2  D D D . .  2
        1  . . . D .  1
           a b c d e
        """
    )
    # Both {a1, b1} and {b1, c1} lost their last liberty; b1 goes with the
    # first (lowest vertex), and stones captured in the same move do not count
    # as adjacent stones for the division.
    assert result.events[1:] == (
        DragonCaptured(points("a1", "b1"), (("Ann", 1), ("Bob", 1)), (StoneShare("Dan", 2, 2),)),
        DragonCaptured(points("c1"), (("Cat", 1),), (StoneShare("Dan", 3, 1),)),
    )
    assert result.state.record_of("Dan").captured == 3
