"""Chauncey's display (rule 625 D.4): "a Public Display of all existing Gardens, Plants,
and Fruit, including their attributes and owners"."""

from __future__ import annotations

from bot.games.dice import DrawSource
from bot.games.economy import Moment
from bot.games.garden import pick, render_gardens, run_timed, start, water

SEED = bytes(range(32))


def test_every_garden_its_plants_with_their_watering_costs_and_the_fruit_on_each() -> None:
    state = start(("alice", "bob"), Moment.nweek_start(0)).state
    state = state.with_plants((("Vine", "alice"), ("Thorn Bush", "alice")), Moment.at(0, 7))
    state = water(state, "alice", "alice", Moment.at(0, 8)).state
    state = run_timed(state, Moment.nweek_start(1), DrawSource(SEED, "n2")).state
    state = pick(state, "bob", 7, Moment.at(1, 1, 45_000), slowly=True).state
    state = water(state, "bob", "alice", Moment.at(1, 2), amount=4).state
    assert render_gardens(state, Moment.at(1, 2, 3_600)) == (
        "Gardens, Plants and Fruit at nweek 2, nday 3, 01:00:00 (rule 625 D.4)\n"
        "\n"
        "alice's Garden: Gardening Cost 11~, paid for watering 4~ this Checking Period\n"
        "  Plant 2   Vine       5~  planted nweek 1, nday 8   Tomato 6 (since nweek 2, nday 1)\n"
        "  Plant 3   Thorn Bush 6~  planted nweek 1, nday 8   "
        "Thorn Seed 8 (since nweek 2, nday 1)\n"
        "\n"
        "bob's Garden: Gardening Cost 0~, paid for watering 0~ this Checking Period\n"
        "  (no Plants)\n"
        "\n"
        "the Town Square: owned by nobody, no Gardening Cost (rule 1902 C)\n"
        "  Plant 1   Thorn Bush 6~  planted nweek 1, nday 1   "
        "Thorn Seed 4 (since nweek 2, nday 1), Thorn Seed 5 (since nweek 2, nday 1)\n"
        "\n"
        "Fruit held:\n"
        "  bob: Thorn Seed 7 (since nweek 2, nday 1)\n"
    )
