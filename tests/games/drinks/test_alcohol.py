"""Alcohol (rule 1913, seed 004): fermenting, drinking, BAC, the 1d10 check, Blacked Out.

Rule 1913: "Fermenting is an Action.  A Player may choose to Ferment any
Fruit e has, or any Fruit in eir garden, at any time by paying 5~. [...]
Drinking is an Action.  A Player may Drink a Drink in eir possession at any
time.  When e does, eir BAC is incremented by 1, the Drink ceases to exist,
and e receives 10 points."  Every draw is re-derived from its seed, and the
proof lines by ``nomicbot verify-dice``'s audit from an archive.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.audit import verify_archive
from bot.games.dice import DrawSource, nweek_seed, replay_draw
from bot.games.drinks import (
    DRINKING,
    FERMENTING,
    PICKING,
    DrinksState,
    Outcome,
    drink,
    events_at,
    ferment,
    is_blacked_out,
    pick,
    plant,
    render_drinks,
    run_timed,
    water,
)
from bot.games.drinks.sobriety import barred_status
from bot.games.drinks.timed import SOBERING
from bot.games.economy import Moment, PossibleLaterError, draw_proofs
from bot.games.errors import IllegalActionError
from bot.games.garden import Fruit, start
from bot.games.garden.timed import WATERING
from bot.testing.proof_archive import archive_of_draws, bot_mail

MASTER = b"drinks tests master secret, 32+ bytes long"
NWEEK = 2  # zero-based: nweek 3 as displayed
SEED = nweek_seed(MASTER, NWEEK)
WHEN = Moment.at(NWEEK, 1)  # nday 2 of nweek 3, in its first Checking Period


def begun() -> DrinksState:
    """alice, bob and carol; a Vine in alice's Garden (Plant 2; the Town Square's Thorn
    Bush is Plant 1)."""
    gardens = start(("alice", "bob", "carol"), Moment.nweek_start(0)).state
    return DrinksState(garden=gardens.with_plants((("Vine", "alice"),), Moment.at(0, 1)))


def with_fruit(
    state: DrinksState, kind: str, *, holder: str | None = None, plant: int | None = None
) -> tuple[DrinksState, int]:
    """A new ``kind`` Fruit, held by ``holder`` or on Plant ``plant``; and its number."""
    number = state.garden.next_number
    fruit = Fruit(number, kind, Moment.nweek_start(NWEEK), plant=plant, holder=holder)
    gardens = replace(state.garden, fruits=(*state.garden.fruits, fruit), next_number=number + 1)
    return replace(state, garden=gardens), number


def with_drink(state: DrinksState, player: str, kind: str = "Tomato") -> tuple[DrinksState, int]:
    state, fruit = with_fruit(state, kind, holder=player)
    outcome = ferment(state, player, fruit, WHEN, DrawSource(SEED, "setup"))
    return outcome.state, outcome.state.last_number()


def drunk(state: DrinksState, player: str, bac: int) -> DrinksState:
    return state.with_bac(player, bac)


def context_rolling(wanted: Callable[[int], bool]) -> str:
    """A draw context (a Message-ID) whose first 1d10 ``wanted`` accepts: the seed decides
    every roll, so a test looks for the post that rolls what it needs."""
    for index in range(200):
        context = f"drink-{index}@example.org"
        if wanted(DrawSource(SEED, context).randint(1, 10, "probe")):
            return context
    raise AssertionError("no context gives the roll wanted")


# -- fermenting -----------------------------------------------------------------


def test_fermenting_a_fruit_one_holds_makes_an_x_drink_for_5_tildex() -> None:
    # "When a Player Ferments a Fruit, the Fruit changes into an X Drink, where X was the
    # type of Fruit. [...] The new Drink is in the possession of the Player who fermented".
    state, tomato = with_fruit(begun(), "Tomato", holder="bob")
    draws = DrawSource(SEED, "ferment@example.org")
    outcome = ferment(state, "bob", tomato, WHEN, draws)
    (made,) = outcome.state.held_by("bob")
    assert (made.kind, made.number) == ("Tomato Drink", tomato + 1)  # one series of numbers
    assert not outcome.state.has_object(tomato)
    assert [(p.holder, p.amount, p.currency, p.rule) for p in outcome.payments] == [
        ("bob", -5, "tildex", "1913")
    ]
    assert outcome.happenings[0].text == (
        f"bob fermented Tomato {tomato} into Tomato Drink {made.number}, paying 5~"
    )
    assert draws.draws == ()  # Sober: no roll


def test_a_thorn_seed_makes_a_thorn_seed_drink_and_a_rotten_tomato_a_tomato_drink() -> None:
    state, seed = with_fruit(begun(), "Thorn Seed", holder="bob")
    state = ferment(state, "bob", seed, WHEN, DrawSource(SEED, "c")).state
    state, tomato = with_fruit(state, "Tomato", holder="bob")
    rotten = replace(state.garden.fruit(tomato), rotten=True)
    state = replace(state, garden=state.garden.with_fruit(rotten))
    state = ferment(state, "bob", tomato, WHEN, DrawSource(SEED, "c")).state
    assert [item.kind for item in state.held_by("bob")] == ["Thorn Seed Drink", "Tomato Drink"]


def test_a_fruit_in_eir_own_garden_may_be_fermented_but_not_one_in_anothers() -> None:
    # "any Fruit e has, or any Fruit in eir garden"
    state, on_vine = with_fruit(begun(), "Tomato", plant=2)  # alice's Vine
    with pytest.raises(IllegalActionError) as refused:
        ferment(state, "bob", on_vine, WHEN, DrawSource(SEED, "c"))
    assert (refused.value.rule, str(refused.value)) == (
        "1913",
        f"you may Ferment only a Fruit you have or one in your own garden, and Tomato "
        f"{on_vine} is neither",
    )
    state, in_square = with_fruit(state, "Thorn Seed", plant=1)  # the Town Square's Bush
    with pytest.raises(IllegalActionError):
        ferment(state, "alice", in_square, WHEN, DrawSource(SEED, "c"))
    outcome = ferment(state, "alice", on_vine, WHEN, DrawSource(SEED, "c"))
    assert [item.kind for item in outcome.state.held_by("alice")] == ["Tomato Drink"]
    assert outcome.state.garden.fruit_held_by("alice") == ()  # fermenting is not picking


# -- drinking -------------------------------------------------------------------------


def test_drinking_raises_bac_by_one_destroys_the_drink_and_gives_10_points() -> None:
    state, tomato_drink = with_drink(begun(), "carol")
    outcome = drink(state, "carol", tomato_drink, WHEN, DrawSource(SEED, "c"))
    assert outcome.state.bac_of("carol") == 1
    assert outcome.state.held_by("carol") == ()
    assert [(p.holder, p.amount, p.currency) for p in outcome.payments] == [("carol", 10, "points")]
    assert outcome.happenings[0].text == (
        f"carol drank Tomato Drink {tomato_drink}: eir BAC is now 1, and e receives 10 points"
    )
    with pytest.raises(IllegalActionError):  # it ceased to exist
        drink(outcome.state, "carol", tomato_drink, WHEN, DrawSource(SEED, "c"))


def test_only_a_drink_in_eir_possession() -> None:
    state, tomato_drink = with_drink(begun(), "carol")
    with pytest.raises(IllegalActionError) as refused:
        drink(state, "bob", tomato_drink, WHEN, DrawSource(SEED, "c"))
    assert str(refused.value) == f"you do not hold Tomato Drink {tomato_drink}"


# -- the 1d10 check -----------------------------------------------------------------


def test_a_nonsober_attempt_rolls_1d10_and_fails_below_the_bac_barring_that_action() -> None:
    # "When a nonsober player attempts any of the above actions, e must roll 1d10; if the
    # roll is lower than eir BAC, then the attempt fails and the player may not perform
    # that action for the rest of the checking period."
    state, tomato_drink = with_drink(begun(), "carol")
    state = drunk(state, "carol", 6)
    context = context_rolling(lambda roll: roll < 6)
    draws = DrawSource(SEED, context)
    outcome = drink(state, "carol", tomato_drink, WHEN, draws)
    (draw,) = draws.draws
    assert draw.bounds == (1, 10) and replay_draw(SEED, context, draw) == draw
    roll = draw.result[0]
    assert outcome.performed is False and outcome.payments == ()
    assert outcome.state.bac_of("carol") == 6  # nothing drunk
    assert outcome.state.held_by("carol")[0].number == tomato_drink
    assert outcome.happenings[0].text == (
        f"carol (BAC 6) rolled 1d10 for Drinking: {roll}, lower than eir BAC: the attempt "
        "fails, and e may not perform Drinking for the rest of the Checking Period"
    )
    # Barred from Drinking, with no roll, until the next Checking Period...
    later = WHEN.later(1)
    again = DrawSource(SEED, "again@example.org")
    with pytest.raises(PossibleLaterError) as refused:
        drink(outcome.state, "carol", tomato_drink, later, again)
    assert refused.value.rule == "1913"
    assert refused.value.possible_from == Moment.at(NWEEK, 3)  # the second Checkpoint
    assert str(refused.value).endswith(
        "carol may perform Drinking again from the next Checking Period"
    )
    assert again.draws == ()
    # ... but not from Fermenting, which rolls its own die.
    state, tomato = with_fruit(outcome.state, "Tomato", holder="carol")
    ferments = DrawSource(SEED, context_rolling(lambda roll: roll >= 6))
    assert ferment(state, "carol", tomato, later, ferments).performed
    # The bar is a lasting effect that ends at the Checkpoint.
    effects = outcome.state.garden.effects
    assert effects.holds("carol", barred_status(DRINKING), Moment.at(NWEEK, 3).later(-1))
    assert not effects.holds("carol", barred_status(DRINKING), Moment.at(NWEEK, 3))


def test_a_roll_not_lower_than_the_bac_lets_the_attempt_go_ahead() -> None:
    state, tomato_drink = with_drink(begun(), "carol")
    state = drunk(state, "carol", 4)
    draws = DrawSource(SEED, context_rolling(lambda roll: roll == 4))
    outcome = drink(state, "carol", tomato_drink, WHEN, draws)
    assert outcome.performed and outcome.state.bac_of("carol") == 5
    assert [h.rule for h in outcome.happenings] == ["1913", "1913"]
    assert outcome.happenings[0].text == (
        "carol (BAC 4) rolled 1d10 for Drinking: 4, not lower than eir BAC"
    )


def test_bac_1_never_fails_and_bac_2_fails_on_a_1() -> None:
    # "if the roll is lower than eir BAC": no roll of 1d10 is lower than 1.
    context = context_rolling(lambda roll: roll == 1)
    state, tomato_drink = with_drink(begun(), "carol")
    outcome = drink(
        drunk(state, "carol", 1), "carol", tomato_drink, WHEN, DrawSource(SEED, context)
    )
    assert outcome.performed and outcome.state.bac_of("carol") == 2
    outcome = drink(
        drunk(state, "carol", 2), "carol", tomato_drink, WHEN, DrawSource(SEED, context)
    )
    assert not outcome.performed


def test_the_attempt_goes_ahead_exactly_when_the_roll_is_not_lower_than_the_bac() -> None:
    state, tomato_drink = with_drink(begun(), "carol")
    for bac in range(1, 10):
        for index in range(12):
            draws = DrawSource(SEED, f"sweep-{bac}-{index}@example.org")
            outcome = drink(drunk(state, "carol", bac), "carol", tomato_drink, WHEN, draws)
            (draw,) = draws.draws
            assert outcome.performed is (draw.result[0] >= bac), (bac, draw)
            assert outcome.performed or bac > 1


def test_an_attempt_the_rules_forbid_anyway_rolls_nothing() -> None:
    state = drunk(begun(), "bob", 5)
    draws = DrawSource(SEED, "c")
    with pytest.raises(IllegalActionError):
        water(state, "bob", "bob", WHEN, draws)  # bob's Garden has no Plants
    assert draws.draws == ()


def test_the_gardens_actions_are_checked_too() -> None:
    # Blacked Out bars "Picking fruits", "Watering plants", "Planting fruits".
    state, on_vine = with_fruit(begun(), "Tomato", plant=2)
    state = drunk(state, "bob", 3)
    failing = context_rolling(lambda roll: roll < 3)
    outcome = pick(state, "bob", on_vine, WHEN, DrawSource(SEED, failing))
    assert not outcome.performed
    assert outcome.state.garden.fruit(on_vine).plant == 2  # still on the Vine
    with pytest.raises(PossibleLaterError):
        pick(outcome.state, "bob", on_vine, WHEN, DrawSource(SEED, failing))
    # Watering is another action: it rolls its own die.
    passing = context_rolling(lambda roll: roll >= 3)
    watered = water(outcome.state, "bob", "alice", WHEN, DrawSource(SEED, passing))
    assert watered.performed and watered.payments[0].amount == -5
    state, rotten = with_fruit(watered.state, "Tomato", holder="bob")
    rotten_tomato = replace(state.garden.fruit(rotten), rotten=True)
    state = replace(state, garden=state.garden.with_fruit(rotten_tomato))
    planted = plant(state, "bob", rotten, "bob", WHEN, DrawSource(SEED, passing))
    assert [p.kind for p in planted.state.garden.plants_in("bob")] == ["Vine"]


# -- Blacked Out ----------------------------------------------------------------------


def test_a_blacked_out_player_may_not_act_and_rolls_nothing() -> None:
    # "A Player is said to be Blacked Out if eir BAC equals or exceeds 10."
    state, tomato_drink = with_drink(begun(), "carol")
    state, tomato = with_fruit(state, "Tomato", holder="carol")
    state = drunk(state, "carol", 10)
    assert is_blacked_out(state, "carol") and not is_blacked_out(drunk(state, "carol", 9), "carol")
    draws = DrawSource(SEED, "c")
    attempts: list[Callable[[], Outcome]] = [
        lambda: drink(state, "carol", tomato_drink, WHEN, draws),
        lambda: ferment(state, "carol", tomato, WHEN, draws),
        lambda: water(state, "carol", "alice", WHEN, draws),
    ]
    for attempted in attempts:
        with pytest.raises(PossibleLaterError) as refused:
            attempted()
        assert refused.value.rule == "1913"
        # BAC 10 falls to 9 at the end of this Checking Period.
        assert refused.value.possible_from == Moment.at(NWEEK, 3)
    assert draws.draws == ()
    with pytest.raises(PossibleLaterError) as refused:
        drink(drunk(state, "carol", 12), "carol", tomato_drink, WHEN, draws)
    assert str(refused.value) == (
        "you are Blacked Out (BAC 12, 10 or more), and a Blacked Out Player may not perform "
        "Drinking; carol may perform Drinking again from nweek 4, nday 1"
    )


# -- BAC at each Checking Period's end -----------------------------------------------


def test_bac_falls_by_one_at_each_checking_periods_end_first_by_chutzpah() -> None:
    # "At the end of each Checking Period, the BAC of each Player who is not Sober is
    # decremented by 1."  Rule 1913 has Chutzpah 3: its event comes before 1902's.
    state = drunk(drunk(begun(), "alice", 2), "carol", 1)
    checkpoint = Moment.at(NWEEK, 3)
    kinds = [event.kind for event in events_at(state, checkpoint)]
    assert kinds[:2] == [SOBERING, WATERING]
    outcome = run_timed(state, checkpoint, DrawSource(SEED, "checkpoint"))
    assert (outcome.state.bac_of("alice"), outcome.state.bac_of("carol")) == (1, 0)
    assert [h.text for h in outcome.happenings if h.rule == "1913"] == [
        "the Checking Period ended: alice's BAC falls from 2 to 1",
        "the Checking Period ended: carol's BAC falls from 1 to 0",
    ]
    assert outcome.state.bac == (("alice", 1),)  # carol is Sober again
    assert SOBERING not in [event.kind for event in events_at(state, checkpoint.later(1))]
    assert render_drinks(outcome.state, checkpoint) == (
        "Drinks, Potions and BAC at nweek 3, nday 4 (rules 1913, 1914, 1915)\n"
        "\n"
        "alice: BAC 1; holds nothing\n"
        "bob: Sober; holds nothing\n"
        "carol: Sober; holds nothing\n"
    )


def test_verify_dice_re_derives_a_bac_check_from_its_proof_line(tmp_path: Path) -> None:
    state, tomato_drink = with_drink(begun(), "carol")
    draws = DrawSource(SEED, "carol-drinks@example.org")
    outcome = drink(drunk(state, "carol", 3), "carol", tomato_drink, WHEN, draws)
    (line,) = draw_proofs(NWEEK, draws.context_id, draws.draws)
    roll = draws.draws[0].result[0]
    assert line.startswith(f"rule 1913: carol (BAC 3) attempts Drinking, 1d10: {roll} from 1 to 10")
    assert outcome.performed is (roll >= 3)
    archive = tmp_path / "list.mbox"
    box = archive_of_draws(archive, SEED, NWEEK + 1, f"Drinks:\n{line}\n")
    report = verify_archive(archive)
    assert (report.checked, report.wrong, report.ok) == (1, 0, True)
    box.add(bot_mail("ruling", line.replace(f"value={roll}", f"value={roll % 10 + 1}") + "\n", 4))
    box.flush()
    assert verify_archive(archive).wrong == 1


def test_the_checked_actions_are_rule_1913s_list() -> None:
    from bot.games.drinks import CHECKED_ACTIONS

    assert CHECKED_ACTIONS == (
        "Drinking",
        "Fermenting",
        "Picking fruits",
        "Watering plants",
        "Planting fruits",
        "Creating, moving, or otherwise using an Avatar in the Arena",
    )
    assert CHECKED_ACTIONS[:3] == (DRINKING, FERMENTING, PICKING)
