"""Buying Thorn Seeds from the Store (rule 1911) and a game that starts with Vines."""

from __future__ import annotations

import pytest

from bot.games.economy import Moment, Payment
from bot.games.errors import IllegalActionError
from bot.games.garden import TOWN_SQUARE, plant, start
from bot.games.garden.beginning import start_with_vines
from bot.games.garden.buying import buy

AT = Moment.at(0, 1, 3600)  # nweek 1, nday 2, 01:00


def test_the_store_creates_a_thorn_seed_and_gives_it_to_the_buyer() -> None:
    # 1911: "give a quantity of tildex equal to the price of said object to the Store.  The
    # Store then creates an instance of that object type and gives it to the purchasing
    # player."  "Thorn Seeds: 130~"
    state = start(("alice", "bob"), Moment(0)).state
    outcome = buy(state, "alice", "Thorn Seed", 130, AT)
    (seed,) = outcome.state.fruit_held_by("alice")
    assert (seed.kind, seed.created, seed.plant) == ("Thorn Seed", AT, None)
    assert outcome.payments == (
        Payment("alice", -130, "tildex", "1911", f"Thorn Seed {seed.number} from the Store"),
    )
    assert [h.text for h in outcome.happenings] == [
        f"alice bought Thorn Seed {seed.number} from the Store for 130~"
    ]
    # 1909: "any player may Plant a Thorn Seed they hold in their own Garden"
    planted = plant(outcome.state, "alice", seed.number, "alice", AT)
    assert [p.kind for p in planted.state.plants_in("alice")] == ["Thorn Bush"]


def test_the_store_sells_no_tomatoes_and_only_to_players() -> None:
    state = start(("alice",), Moment(0)).state
    with pytest.raises(IllegalActionError, match="sells no Tomato") as refused:
        buy(state, "alice", "Tomato", 200, AT)
    assert refused.value.rule == "1911"
    with pytest.raises(IllegalActionError, match="not a player with a Garden"):
        buy(state, "zed", "Thorn Seed", 130, AT)


def test_a_game_may_start_with_vines_in_the_town_square() -> None:
    # No rule creates the first Vine (1908 B.1: Vines come from Rotten Tomatoes only).
    outcome = start_with_vines(("alice",), Moment(0), 2)
    kinds = [plant.kind for plant in outcome.state.plants_in(TOWN_SQUARE)]
    assert kinds == ["Thorn Bush", "Vine", "Vine"]  # rule 1909's Thorn Bush first
    assert [h.text for h in outcome.happenings] == [
        "no Thorn Bushes existed, so one is created in the Town Square: Plant 1",
        "the Town Square holds 2 Vine(s): Plant(s) 2, 3",
    ]
    assert start_with_vines(("alice",), Moment(0), 0) == start(("alice",), Moment(0))
