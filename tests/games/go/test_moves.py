"""Move limits and alliances (rule 1639 B and C, seed 004)."""

from __future__ import annotations

import textwrap

import pytest

from bot.games.errors import IllegalActionError
from bot.games.go import (
    AllianceBroken,
    AllianceConsented,
    AllianceFormed,
    CaptureShare,
    DragonCaptured,
    GoState,
    MoveContext,
    Passed,
    StoneLoss,
    add_players,
    break_alliance,
    consent_to_alliance,
    new_game,
    parse_legend,
    parse_point,
    pass_move,
    place_stone,
    position_from_diagram,
    render_board,
    with_alliances,
)


def game(*players: str) -> GoState:
    return add_players(new_game(), players)


def at(name: str) -> int:
    return parse_point(name, 9)


def allied(*pairs: tuple[str, str]) -> GoState:
    names = sorted({name for pair in pairs for name in pair} | {"Tom"})
    return with_alliances(game(*names), pairs)


def test_a_player_moves_at_most_once_per_checking_period() -> None:
    state = place_stone(game("Rob"), MoveContext("Rob", 5), at("E5")).state
    with pytest.raises(IllegalActionError) as raised:
        pass_move(state, MoveContext("Rob", 5))
    assert raised.value.rule == "1639 C"
    assert str(raised.value) == (
        "Rob cannot pass: e has already made a Move in this Checking Period, "
        "and a player may move at most once per Checking Period; "
        "Rob may move again from the next Checking Period"
    )
    later = pass_move(state, MoveContext("Rob", 6))
    assert later.events == (Passed("Rob"),)
    assert later.state.move_number == 2


def test_other_players_may_move_in_the_same_checking_period() -> None:
    state = place_stone(game("Rob", "Sue"), MoveContext("Rob", 5), at("E5")).state
    state = place_stone(state, MoveContext("Sue", 5), at("E6")).state
    assert state.stones == {at("E5"): "Rob", at("E6"): "Sue"}
    assert state.last_mover == "Sue"


def test_a_checking_period_before_the_players_last_is_a_defect() -> None:
    state = pass_move(game("Rob"), MoveContext("Rob", 5)).state
    with pytest.raises(ValueError, match="must not run backwards"):
        pass_move(state, MoveContext("Rob", 4))


def test_no_stone_while_an_ally_made_the_most_recent_move() -> None:
    state = pass_move(allied(("Rob", "Sue")), MoveContext("Sue", 1)).state
    with pytest.raises(IllegalActionError) as raised:
        place_stone(state, MoveContext("Rob", 1), at("C3"))
    assert raised.value.rule == "1639 C"
    assert str(raised.value) == (
        "Rob cannot place a stone at C3: eir Ally Sue made the most recent Move."
    )
    # Only placing a Stone is barred; other Moves are not.
    assert pass_move(state, MoveContext("Rob", 1)).counts_as_move
    after_tom = pass_move(state, MoveContext("Tom", 1)).state
    assert place_stone(after_tom, MoveContext("Rob", 1), at("C3")).state.owner_at(at("C3")) == "Rob"


def test_an_occupied_point_is_refused_with_its_owner() -> None:
    state = place_stone(game("Rob", "Sue"), MoveContext("Rob", 1), at("G3")).state
    with pytest.raises(IllegalActionError) as raised:
        place_stone(state, MoveContext("Sue", 1), at("G3"))
    assert str(raised.value) == (
        "Sue cannot place a stone at G3: G3 is already occupied by Rob's stone."
    )


def test_off_board_point_number_is_refused() -> None:
    with pytest.raises(IllegalActionError) as raised:
        place_stone(game("Rob"), MoveContext("Rob", 1), 81)
    assert raised.value.rule == "1639 A"


def test_first_consent_is_not_a_move_and_second_forms_the_alliance() -> None:
    state = pass_move(game("Rob", "Sue"), MoveContext("Rob", 1)).state
    consent = consent_to_alliance(state, MoveContext("Rob", 1), "Sue")
    assert consent.events == (AllianceConsented("Rob", "Sue"),)
    assert not consent.counts_as_move
    assert consent.state.move_number == state.move_number
    assert consent.state.pending_consents == {("Rob", "Sue")}
    assert not consent.state.are_allies("Rob", "Sue")

    formed = consent_to_alliance(consent.state, MoveContext("Sue", 1), "Rob")
    assert formed.events == (AllianceFormed("Sue", "Rob"),)
    assert formed.counts_as_move
    assert formed.state.are_allies("Rob", "Sue")
    assert formed.state.allies_of("Rob") == {"Sue"}
    assert formed.state.pending_consents == frozenset()
    assert formed.state.last_mover == "Sue"


def test_forming_an_alliance_counts_against_the_checking_period() -> None:
    state = consent_to_alliance(game("Rob", "Sue"), MoveContext("Rob", 1), "Sue").state
    state = pass_move(state, MoveContext("Sue", 1)).state
    with pytest.raises(IllegalActionError, match="cannot form an alliance with Rob"):
        consent_to_alliance(state, MoveContext("Sue", 1), "Rob")
    # Rob's consent stays on record for the next Checking Period.
    assert consent_to_alliance(state, MoveContext("Sue", 2), "Rob").state.are_allies("Sue", "Rob")


@pytest.mark.parametrize(
    ("player", "ally", "message"),
    [
        ("Rob", "Rob", "Rob cannot ally with emself"),
        ("Rob", "Sue", "Rob and Sue are already Allies."),
        ("Tom", "Rob", "Tom has already consented to an alliance with Rob"),
    ],
)
def test_impossible_consents_are_refused(player: str, ally: str, message: str) -> None:
    state = allied(("Rob", "Sue"))
    state = consent_to_alliance(state, MoveContext("Tom", 1), "Rob").state
    with pytest.raises(IllegalActionError, match=message):
        consent_to_alliance(state, MoveContext(player, 1), ally)


def test_alliances_are_not_transitive() -> None:
    state = allied(("Rob", "Sue"), ("Sue", "Tom"))
    assert state.allies_of("Sue") == {"Rob", "Tom"}
    assert not state.are_allies("Rob", "Tom")


def test_breaking_an_alliance_is_a_move() -> None:
    state = allied(("Rob", "Sue"))
    broken = break_alliance(state, MoveContext("Sue", 3), "Rob")
    assert broken.events == (AllianceBroken("Sue", "Rob"),)
    assert broken.counts_as_move
    assert not broken.state.are_allies("Rob", "Sue")
    with pytest.raises(IllegalActionError, match="already made a Move in this Checking Period"):
        pass_move(broken.state, MoveContext("Sue", 3))
    with pytest.raises(IllegalActionError, match="Sue cannot break an alliance with Rob"):
        break_alliance(broken.state, MoveContext("Sue", 4), "Rob")


def diagram(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def test_breaking_an_alliance_can_capture() -> None:
    before = position_from_diagram(
        diagram(
            """
               A B C
             .-------.
            3| . . . |3
            2| R . . |2
            1| S R . |1
             '-------'
               A B C
            [R] Rob 0 points Allies: S
            [S] Sue 0 points Allies: R
            """
        )
    )
    result = break_alliance(before, MoveContext("Sue", 1), "Rob")
    assert result.events[1:] == (
        DragonCaptured(
            stones=(parse_point("A1", 3),),
            losses=(StoneLoss("Sue", 1),),
            shares=(CaptureShare("Rob", 2, 1),),
        ),
    )
    expected = diagram(
        """
           A B C
         .-------.
        3| . . . |3
        2| R . . |2
        1| . R . |1
         '-------'
           A B C
        [R] Rob 1 points Allies: none
        [S] Sue -1 points Allies: none
        """
    )
    assert render_board(result.state, ["Rob", "Sue"]) == expected


def test_forming_an_alliance_can_capture() -> None:
    # Xan-Zed and Yul-Wen are allied.  When Xan and Yul ally, B1-C1 becomes a
    # Dragon of its own (Zed and Yul are not allies, nor Xan and Wen), and it
    # has no Liberties.
    text = diagram(
        """
           A B C D E
         .-----------.
        5| . . . . . |5
        4| . . . . . |4
        3| . . . . . |3
        2| . R R . . |2
        1| Z X Y W . |1
         '-----------'
           A B C D E
        [R] Rob 0 points Allies: none
        [X] Xan 0 points Allies: Z
        [Y] Yul 0 points Allies: W
        [Z] Zed 0 points Allies: X
        [W] Wen 0 points Allies: Y
        """
    )
    before = consent_to_alliance(position_from_diagram(text), MoveContext("Xan", 1), "Yul").state
    result = consent_to_alliance(before, MoveContext("Yul", 1), "Xan")
    size = 5
    assert result.events == (
        AllianceFormed("Yul", "Xan"),
        DragonCaptured(
            stones=(parse_point("B1", size), parse_point("C1", size)),
            losses=(StoneLoss("Xan", 1), StoneLoss("Yul", 1)),
            # Two points, three Capturers: Rob has most adjacent stones; Zed
            # and Wen tie and neither has moved, so the earlier-listed Zed.
            shares=(
                CaptureShare("Rob", 2, 1),
                CaptureShare("Zed", 1, 1),
                CaptureShare("Wen", 1, 0),
            ),
        ),
    )
    names = [entry.name for entry in parse_legend(text)]
    assert render_board(result.state, names).splitlines()[6] == "1| Z . . W . |1"
