"""The Gardens' timed events (rules 1902, 1908 B.1, 1909) and rule 3 C's order.

Rule 3 C (seed 004): "When multiple rules specify that an event takes place
at a certain time [...], those events occur in order of rule precedence".
At the beginning of an nweek (a Checkpoint too) rule 1902 settles the
watering and creates Fruit, and rule 1908 rots the Tomatoes created an
nweek ago: rule 33 puts 1902 (lower number, equal Chutzpah) first.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.games.dice import DrawSource, replay_draw
from bot.games.economy import Moment, TimedEvent, in_rule_order
from bot.games.garden import (
    TOWN_SQUARE,
    GardenState,
    events_at,
    pick,
    render_gardens,
    run_timed,
    start,
    water,
)
from bot.games.garden.timed import FRUITING, ROTTING, SQUIRRELS, TRIMMING, WATERING

SEED = bytes(range(32))


def nweek(number: int) -> Moment:
    return Moment.nweek_start(number)


def begun(*players: str) -> GardenState:
    """The game at nweek 1, nday 1 (zero-based nweek 0): the Town Square's Thorn Bush only."""
    return start(players, nweek(0)).state


def kinds_in(state: GardenState, garden: str | None) -> list[str]:
    return [plant.kind for plant in state.plants_in(garden)]


def test_the_game_starts_with_a_thorn_bush_in_the_town_square() -> None:
    # 1909: "If at any time no Thorn Bushes exist, one is created in the Town Square."
    outcome = start(("alice", "bob"), nweek(0))
    assert kinds_in(outcome.state, TOWN_SQUARE) == ["Thorn Bush"]
    assert [h.rule for h in outcome.happenings] == ["1909"]


def test_a_vine_bears_a_tomato_each_nweek_and_a_thorn_bush_two_seeds() -> None:
    # 1902 B: "every Plant that existed during the preceding nweek creates one Fruit of each
    # type of Fruit associated with that Plants"; 1909: Thorn Bushes "produce two each nweek".
    state = begun("alice").with_plants((("Vine", "alice"),), Moment.at(0, 5))
    state = water(state, "alice", "alice", Moment.at(0, 8)).state
    state = run_timed(state, nweek(1), DrawSource(SEED, "nweek 2")).state
    assert render_gardens(state, nweek(1)) == (
        "Gardens, Plants and Fruit at nweek 2, nday 1 (rule 625 D.4)\n"
        "\n"
        "alice's Garden: Gardening Cost 5~, paid for watering 0~ this Checking Period\n"
        "  Plant 2   Vine       5~  planted nweek 1, nday 6   Tomato 5 (since nweek 2, nday 1)\n"
        "\n"
        "the Town Square: owned by nobody, no Gardening Cost (rule 1902 C)\n"
        "  Plant 1   Thorn Bush 6~  planted nweek 1, nday 1   "
        "Thorn Seed 3 (since nweek 2, nday 1), Thorn Seed 4 (since nweek 2, nday 1)\n"
        "\n"
        "Fruit held:\n"
        "  (none)\n"
    )


def test_a_plant_planted_at_the_nweek_start_bears_nothing_then() -> None:
    # It did not exist "during the preceding nweek" (the instant belongs to the new one).
    state = begun("alice").with_plants((("Vine", "alice"),), nweek(1))
    state = run_timed(state, nweek(1), DrawSource(SEED, "n")).state
    assert [fruit.kind for fruit in state.fruits] == ["Thorn Seed", "Thorn Seed"]


def test_events_of_one_instant_are_listed_in_rule_order() -> None:
    state = begun("alice").with_plants((("Vine", TOWN_SQUARE),), Moment.at(0, 1))
    state = run_timed(state, nweek(1), DrawSource(SEED, "n")).state  # Seeds 3 and 4, Tomato 5
    events = events_at(state, nweek(2))
    assert [(e.rule.number, e.kind, e.subject) for e in events] == [
        (1902, WATERING, 0),
        (1902, TRIMMING, 0),
        (1902, FRUITING, 0),
        (1908, ROTTING, 5),
        (1909, SQUIRRELS, 3),
        (1909, SQUIRRELS, 4),
    ]


def _two_nweeks_of_a_vine() -> GardenState:
    """alice's Vine bore Tomato 5 at nweek 2's start; she paid its 5~ in nweek 2's last
    Checking Period, so her watering covers one Vine, not two."""
    state = begun("alice").with_plants((("Vine", "alice"),), Moment.at(0, 2))
    state = water(state, "alice", "alice", Moment.at(0, 8)).state
    state = run_timed(state, nweek(1), DrawSource(SEED, "nweek 2")).state
    return water(state, "alice", "alice", Moment.at(1, 8)).state


def rot_first(events: Iterable[TimedEvent]) -> tuple[TimedEvent, ...]:
    """The events as if rule 1908 had precedence over rule 1902: its rot first, then rule
    1902's watering, trimming and Fruit, then the rest as rule 3 C orders them."""
    return tuple(sorted(in_rule_order(events), key=lambda event: event.rule.number != 1908))


def test_creation_and_rot_at_one_instant_in_rule_3_c_order() -> None:
    # 1902 first: the watering paid (5~) covers the one Vine, Tomato 5's Vine bears
    # Tomato 8, then 1908: "One nweek after a Tomato's creation, it becomes Rotten [...]
    # it falls off the Vine and is planted in the Garden the Vine was in."
    draws = DrawSource(SEED, "nweek 3")
    outcome = run_timed(_two_nweeks_of_a_vine(), nweek(2), draws)
    state = outcome.state
    assert kinds_in(state, "alice") == ["Vine", "Vine"]
    assert [f.label() for f in state.fruits if f.kind == "Tomato"] == ["Tomato 8"]
    assert draws.draws == ()
    assert [h.rule for h in outcome.happenings] == ["1902 B", "1902 B", "1908 B.1", "1909", "1909"]
    assert outcome.happenings[2].text == (
        "Tomato 5 becomes Rotten, falls off its Vine and is planted in alice's Garden: "
        "a new Vine, Plant 9, owned by alice"
    )


def test_the_other_order_gives_another_outcome() -> None:
    # Rot first: the fallen Tomato's Vine raises the Gardening Cost to 10~ before the
    # watering is settled, so "the Plant in that Garden with the largest Watering Cost
    # (ties settled at random) is destroyed": one Vine is lost, by a recorded draw, and
    # only if the old Vine survives does it bear Fruit (the new one did not exist during
    # the preceding nweek).
    draws = DrawSource(SEED, "nweek 3")
    outcome = run_timed(_two_nweeks_of_a_vine(), nweek(2), draws, order=rot_first)
    assert [e.rule.number for e in rot_first(events_at(_two_nweeks_of_a_vine(), nweek(2)))] == [
        1908,
        1902,
        1902,
        1902,
        1909,
        1909,
    ]
    assert kinds_in(outcome.state, "alice") == ["Vine"]
    (survivor,) = outcome.state.plants_in("alice")
    tomatoes = [f.label() for f in outcome.state.fruits if f.kind == "Tomato"]
    assert tomatoes == (["Tomato 9"] if survivor.number == 2 else [])
    assert len(draws.draws) == 1
    assert draws.draws[0].purpose.startswith(
        "rule 1902 A: alice's Garden: 5~ paid for watering, Gardening Cost 10~"
    )
    assert replay_draw(SEED, "nweek 3", draws.draws[0]) == draws.draws[0]
    in_order = run_timed(_two_nweeks_of_a_vine(), nweek(2), DrawSource(SEED, "nweek 3"))
    assert render_gardens(outcome.state, nweek(2)) != render_gardens(in_order.state, nweek(2))


def test_unpaid_watering_destroys_the_costliest_plants_until_the_payment_covers_the_cost() -> None:
    # 1902 A: "the Plant in that Garden with the largest Watering Cost [...] is destroyed,
    # and this process is repeated" (read: until the payment is no longer short).
    state = begun("alice").with_plants(
        (("Vine", "alice"), ("Thorn Bush", "alice"), ("Vine", "alice")), Moment.at(0, 1)
    )
    state = water(state, "alice", "alice", Moment.at(0, 3), amount=6).state  # cost 16~
    draws = DrawSource(SEED, "checkpoint")
    outcome = run_timed(state, Moment.at(0, 7), draws)
    # 6~ paid: the Thorn Bush (6~) goes, cost 10~; then one of the two Vines (a draw), cost 5~.
    (draw,) = draws.draws
    assert draw.options == ("Plant 2 (Vine)", "Plant 4 (Vine)")
    lost = draw.options[draw.result[0]]
    kept = [label for label in draw.options if label != lost]
    assert [plant.label() for plant in outcome.state.plants_in("alice")] == kept
    assert [h.text for h in outcome.happenings] == [
        "alice's Garden: 6~ paid for watering, Gardening Cost 16~: "
        "Plant 3 (Thorn Bush) is destroyed",
        f"alice's Garden: 6~ paid for watering, Gardening Cost 10~: {lost} is destroyed",
    ]


def test_paying_the_cost_keeps_every_plant_and_the_payment_lasts_one_checking_period() -> None:
    state = begun("alice").with_plants((("Vine", "alice"),), Moment.at(0, 1))
    state = water(state, "alice", "alice", Moment.at(0, 2)).state
    state = run_timed(state, Moment.at(0, 3), DrawSource(SEED, "c1")).state
    assert kinds_in(state, "alice") == ["Vine"]
    # Nothing paid in the second Checking Period: the Vine dies at its end.
    state = run_timed(state, Moment.at(0, 7), DrawSource(SEED, "c2")).state
    assert kinds_in(state, "alice") == []


def test_the_town_square_has_no_gardening_cost_so_it_never_dies_of_thirst() -> None:
    state = begun("alice").with_plants((("Vine", TOWN_SQUARE),), Moment.at(0, 1))
    state = run_timed(state, Moment.at(0, 3), DrawSource(SEED, "c")).state
    assert kinds_in(state, TOWN_SQUARE) == ["Thorn Bush", "Vine"]


def test_a_garden_of_more_than_ten_plants_is_trimmed_by_cost_with_ties_drawn() -> None:
    # 1902 A: "If, at the end of a Checking Period, a Garden has more than 10 Plants in it,
    # the one with the largest watering and weeding cost (ties settled at random) is
    # destroyed".  The Town Square has no cost to pay but is trimmed too.
    planted = (("Vine", TOWN_SQUARE),) * 9 + (("Thorn Bush", TOWN_SQUARE),)
    state = begun("alice").with_plants(planted, Moment.at(0, 1))  # 12 Plants in all
    draws = DrawSource(SEED, "checkpoint")
    outcome = run_timed(state, Moment.at(0, 3), draws)
    assert kinds_in(outcome.state, TOWN_SQUARE) == ["Vine"] * 9 + ["Thorn Bush"]
    assert [len(d.options) for d in draws.draws] == [2]  # the two Thorn Bushes tied
    assert all(replay_draw(SEED, "checkpoint", d) == d for d in draws.draws)


def test_a_rotten_tomato_held_stays_held() -> None:
    state = begun("alice").with_plants((("Vine", "alice"),), Moment.at(0, 1))
    state = water(state, "alice", "alice", Moment.at(0, 8)).state
    state = run_timed(state, nweek(1), DrawSource(SEED, "n1")).state
    state = pick(state, "alice", 5, Moment.at(1, 1)).state
    outcome = run_timed(state, nweek(2), DrawSource(SEED, "n2"))
    assert [f.label() for f in outcome.state.fruit_held_by("alice")] == ["Rotten Tomato 5"]
    assert "Tomato 5, held by alice, becomes Rotten" in [h.text for h in outcome.happenings]


def test_thorn_seeds_left_on_the_bush_for_an_nweek_are_eaten_after_the_new_ones_grow() -> None:
    # 1909: "If a Thorn Seed stays on a Thorn Bush for more than an nweek, it is eaten by
    # squirrels and destroyed."  The seeds of nweek 2 go when nweek 3 begins, after the
    # Bush bore nweek 3's (1909 comes after 1902 in rule 3 C order).
    state = run_timed(begun("alice"), nweek(1), DrawSource(SEED, "n1")).state
    assert [f.label() for f in state.fruit_on(1)] == ["Thorn Seed 2", "Thorn Seed 3"]
    outcome = run_timed(state, nweek(2), DrawSource(SEED, "n2"))
    assert [f.label() for f in outcome.state.fruit_on(1)] == ["Thorn Seed 4", "Thorn Seed 5"]
    assert [h.text for h in outcome.happenings][-2:] == [
        "Thorn Seed 2 in the Town Square is eaten by squirrels",
        "Thorn Seed 3 in the Town Square is eaten by squirrels",
    ]


def test_the_clocks_first_instant_ends_no_checking_period() -> None:
    state = start(("alice",), nweek(0)).state.with_plants((("Vine", "alice"),), nweek(0))
    assert kinds_in(run_timed(state, nweek(0), DrawSource(SEED, "n1")).state, "alice") == ["Vine"]
