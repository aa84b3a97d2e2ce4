"""Food Fights (rule 1908 B.2) and Free Throws (1908 B.3): every die recorded, and its
proof line re-derived by ``nomicbot verify-dice``'s audit from an archive."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.audit import verify_archive
from bot.games.dice import DrawSource, nweek_seed, replay_draw
from bot.games.economy import Moment, draw_proofs
from bot.games.errors import IllegalActionError
from bot.games.garden import (
    CARDS_STAINED,
    STAINED,
    GardenState,
    permanent_honor,
    pick,
    run_timed,
    start,
    throw,
)
from bot.testing.proof_archive import archive_of_draws, bot_mail

MASTER = b"garden tests master secret, 32+ bytes long"
NWEEK = 1  # zero-based: the throws happen in nweek 2
SEED = nweek_seed(MASTER, NWEEK)
WHEN = Moment.at(NWEEK, 4)


def tomatoes_for(*pickers: str) -> GardenState:
    """alice, bob and carol; the Town Square's Vine bore Tomato 5 at nweek 2's start and
    bob's Vine Tomato 7; each picker picks one from bob's Garden (with no permission)."""
    state = start(("alice", "bob", "carol"), Moment.nweek_start(0)).state
    state = state.with_plants((("Vine", None),), Moment.at(0, 1))
    state = run_timed(state, Moment.nweek_start(NWEEK), DrawSource(SEED, "n")).state
    state = state.with_plants((("Vine", "bob"),), Moment.at(NWEEK, 0, 60))
    for picker in pickers:
        vine = state.plants_in("bob")[0]
        state = state.with_fruit_on(vine, "Tomato", 1, Moment.at(NWEEK, 0, 60))
        state = pick(
            state, picker, state.fruit_on(vine.number)[0].number, Moment.at(NWEEK, 1)
        ).state
    return state


def test_a_throw_rolls_1d4_and_hits_on_a_1_and_the_tomato_is_gone_either_way() -> None:
    # 1908 B.2: "Any player may Throw a Tomato they hold at any other player.  1d4 is
    # rolled; on a 1, the target player is Hit [...]  Regardless of whether it hits, a
    # Tomato is destroyed when thrown."
    state = tomatoes_for("alice")
    (tomato,) = state.fruit_held_by("alice")
    draws = DrawSource(SEED, "throw@example.org")
    outcome = throw(state, "alice", tomato.number, "bob", WHEN, draws)
    (draw,) = draws.draws
    assert draw.bounds == (1, 4)
    assert replay_draw(SEED, "throw@example.org", draw) == draw
    roll = draw.result[0]
    assert outcome.state.fruit_held_by("alice") == ()
    hit = roll == 1
    assert outcome.state.effects.holds("bob", STAINED, WHEN) is hit
    assert outcome.happenings[0].text == (
        f"alice threw Tomato {tomato.number} at bob (a throw, 1d4: {roll}): "
        f"{'Hit' if hit else 'missed'}; the Tomato is destroyed"
    )


def test_a_hit_stains_the_target_and_eir_cards_and_costs_one_permanent_honor() -> None:
    # 1908 B.2: "the target player is Hit with the Tomato and becomes Stained with Tomato
    # juice.  All eir cards also become Stained Red with Tomato Juice.  Players who are
    # Stained With Tomato Juice are treated for all ruleset purposes as though they had one
    # less Permanent Honor".  A Free Throw hits on anything but a 20 (B.3).
    state, tomato = with_bobs_tomato(tomatoes_for("alice"))
    draws = DrawSource(SEED, context_rolling(lambda roll: roll != 20, faces=20))
    outcome = throw(state, "bob", tomato, "alice", WHEN, draws, free_throw=True)
    assert outcome.state.effects.holds("alice", STAINED, WHEN)
    assert permanent_honor(outcome.state, "alice", 3, WHEN) == 2
    assert permanent_honor(outcome.state, "bob", 3, WHEN) == 3
    assert [h.kind for h in outcome.happenings][-1] == CARDS_STAINED
    assert outcome.state.free_throws == ()  # claimed, so gone
    # Stained is a state, not a count: a second Hit costs no more Honor.
    state, tomato = with_bobs_tomato(outcome.state)
    draws = DrawSource(SEED, context_rolling(lambda roll: roll == 1, faces=4))
    again = throw(state, "bob", tomato, "alice", WHEN.later(1), draws)
    assert "Hit" in again.happenings[0].text
    assert permanent_honor(again.state, "alice", 3, WHEN.later(1)) == 2


def with_bobs_tomato(state: GardenState) -> tuple[GardenState, int]:
    """bob picks a new Tomato off his own Vine, to throw."""
    vine = state.plants_in("bob")[0]
    state = state.with_fruit_on(vine, "Tomato", 1, WHEN)
    number = state.next_number - 1
    return pick(state, "bob", number, WHEN).state, number


def context_rolling(wanted: Callable[[int], bool], *, faces: int) -> str:
    """A draw context (a Message-ID) whose first die ``wanted`` accepts: the seed decides
    every roll, so a test looks for the post that rolls what it needs."""
    for index in range(100):
        context = f"throw-{index}@example.org"
        if wanted(DrawSource(SEED, context).randint(1, faces, "probe")):
            return context
    raise AssertionError("no context gives the roll wanted")


def test_a_free_throw_needs_the_right_and_is_lost_one_nweek_after_the_picking() -> None:
    # 1908 B.3: "If a player announces along with an intent to throw that they are claiming
    # a Free Throw, and e is entitled to a free throw against the intended target, then the
    # 1d20 is rolled [...] this opportunity is lost one nweek after the picking".
    state, bob_tomato = with_bobs_tomato(tomatoes_for("alice"))
    with pytest.raises(IllegalActionError) as refused:
        throw(state, "bob", bob_tomato, "carol", WHEN, DrawSource(SEED, "c"), free_throw=True)
    assert (refused.value.rule, str(refused.value)) == (
        "1908 B.3",
        "you are not entitled to a Free Throw against carol",
    )
    too_late = Moment.at(NWEEK + 1, 1)  # alice picked at nweek 2, nday 2
    with pytest.raises(IllegalActionError):
        throw(state, "bob", bob_tomato, "alice", too_late, DrawSource(SEED, "c"), free_throw=True)
    draws = DrawSource(SEED, "c")
    outcome = throw(state, "bob", bob_tomato, "alice", too_late.later(-1), draws, free_throw=True)
    assert draws.draws[0].bounds == (1, 20)
    assert outcome.state.free_throws == ()


def test_only_a_tomato_one_holds_and_not_at_oneself() -> None:
    state = tomatoes_for("alice")
    (tomato,) = state.fruit_held_by("alice")
    with pytest.raises(IllegalActionError):
        throw(state, "alice", tomato.number, "alice", WHEN, DrawSource(SEED, "c"))
    with pytest.raises(IllegalActionError):
        throw(state, "carol", tomato.number, "bob", WHEN, DrawSource(SEED, "c"))


def test_verify_dice_re_derives_the_throws_and_tie_draws_from_the_archive(tmp_path: Path) -> None:
    state = tomatoes_for("alice", "carol")
    throws = DrawSource(SEED, "throws@example.org")
    for player in ("alice", "carol"):
        state = throw(
            state, player, state.fruit_held_by(player)[0].number, "bob", WHEN, throws
        ).state
    ties = DrawSource(SEED, "checkpoint-2-3")
    crowded = state.with_plants((("Vine", None),) * 11, WHEN)  # 13 Plants in the Town Square
    run_timed(crowded, Moment.at(NWEEK, 7), ties)
    assert len(throws.draws) == 2 and len(ties.draws) == 2
    lines = [
        *draw_proofs(NWEEK, throws.context_id, throws.draws),
        *draw_proofs(NWEEK, ties.context_id, ties.draws),
    ]
    archive = tmp_path / "list.mbox"
    box = archive_of_draws(archive, SEED, NWEEK + 1, "The Gardens:\n" + "\n".join(lines) + "\n")
    report = verify_archive(archive)
    assert (report.checked, report.wrong, report.ok) == (4, 0, True)
    # A tampered value is caught.
    tampered = lines[0].replace("value=", "value=9")
    box.add(bot_mail("ruling", tampered + "\n", 4))
    box.flush()
    assert verify_archive(archive).wrong == 1
