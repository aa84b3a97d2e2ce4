"""Rule 1921's Tools and "I use my ...": the Bunnies used, the rest refused saying why.

Rule 1921: "Certain objects may be designated Inventory Objects, which may also be
referred to as Tools.  Each Tool has a body of text associated with it called its
Effects; this describes what happens when a player uses the Tool [...]  It is
acceptable to have a subsection of an existing rule be the Effects field of a given
Tool."  Rule 1912: "Using any object denoted as an Arena Tool.  Arena Tools may not be
used except in this manner."
"""

from __future__ import annotations

import pytest

from bot.games.dice import DrawSource
from bot.games.economy import Moment
from bot.games.errors import IllegalActionError
from bot.games.garden import GardenState, start
from bot.games.store import (
    ITEM_OBJECTS,
    OnFruit,
    OnGarden,
    OnPlant,
    StoreState,
    UseTarget,
    buy,
    effects_of,
    give,
    use,
)

SEED = bytes(range(32))
WHEN = Moment.at(0, 3)


def holding(*kinds: str) -> tuple[StoreState, GardenState]:
    """alice holds one of each of ``kinds``; Plant 1 is the Town Square's Thorn Bush and
    bob's Vine, Plant 2, bears Tomato 3."""
    gardens = start(("alice", "bob"), Moment.nweek_start(0)).state
    gardens = gardens.with_plants((("Vine", "bob"),), Moment.at(0, 1))
    gardens = gardens.with_fruit_on(gardens.plant(2), "Tomato", 1, Moment.at(0, 1))
    store = StoreState()
    for kind in kinds:
        outcome = buy(store, gardens, "alice", kind, Moment.at(0, 2))
        store, gardens = outcome.store, outcome.gardens
    return store, gardens


def used(kind: str, target: UseTarget, *kinds: str) -> str:
    store, gardens = holding(*(kinds or (kind,)))
    outcome = use(store, gardens, "alice", kind, target, WHEN, DrawSource(SEED, "use"))
    return outcome.happenings[0].text


def test_each_bunny_is_used_on_its_kind_of_target() -> None:
    assert used("Fluffy Bunny", OnPlant(2)).startswith("alice's Fluffy Bunny 4 destroys Plant 2")
    assert used("Hungry Bunny", OnGarden("bob")).startswith(
        "alice's Hungry Bunny 4 raids bob's Garden and destroys Plant 2 (Vine)"
    )
    assert used("Ninja Bunny", OnFruit(3)).startswith(
        "alice's Ninja Bunny 4 steals Tomato 3 from bob's Garden"
    )


def test_a_bunny_with_the_wrong_target_or_none_held_is_refused() -> None:
    store, gardens = holding("Fluffy Bunny")
    draws = DrawSource(SEED, "use")
    with pytest.raises(IllegalActionError, match="used on a single Plant, in any Garden"):
        use(store, gardens, "alice", "Fluffy Bunny", OnGarden("bob"), WHEN, draws)
    with pytest.raises(IllegalActionError, match="you hold no Hungry Bunny") as raised:
        use(store, gardens, "alice", "Hungry Bunny", OnGarden("bob"), WHEN, draws)
    assert raised.value.rule == "1911"
    assert draws.draws == ()


@pytest.mark.parametrize(
    ("kind", "what"),
    [
        ("Smoke Bomb", "an Arena Tool"),
        ("Shieldkit", "an Arena Tool"),
        ("Water Jet", "an Arena weapon"),
        ("Rock", "an Arena weapon"),
    ],
)
def test_arena_tools_and_weapons_belong_to_the_arena_which_is_not_refereed(
    kind: str, what: str
) -> None:
    # Bought and held, but used only as an Arena Turn (rule 1912).
    store, gardens = holding(kind)
    assert [item.kind for item in store.held_by("alice")] == [kind]
    with pytest.raises(IllegalActionError) as raised:
        use(store, gardens, "alice", kind, None, WHEN, DrawSource(SEED, "use"))
    assert raised.value.rule == "1912"
    assert str(raised.value) == (
        f"a {kind} is {what}, used only as a Turn of your Avatar in the Arena (rule 1912: "
        '"Arena Tools may not be used except in this manner"); the Arena is not refereed by '
        "the bot, so a person referees it"
    )


def test_seeds_are_planted_and_objects_without_effects_do_nothing() -> None:
    store, gardens = holding("Thorn Seed")
    draws = DrawSource(SEED, "use")
    with pytest.raises(IllegalActionError, match="a Thorn Seed is planted, not used") as raised:
        use(store, gardens, "alice", "Thorn Seed", None, WHEN, draws)
    assert raised.value.rule == "1909"
    with pytest.raises(IllegalActionError, match="no rule says what using a Sasquash does") as no:
        use(store, gardens, "alice", "Sasquash", None, WHEN, draws)
    assert no.value.rule == "1921"


def test_a_tools_effects_are_its_entry_in_rule_1911() -> None:
    # "It is acceptable to have a subsection of an existing rule be the Effects field"
    assert effects_of(StoreState(), "Fluffy Bunny") == (
        "A Fluffy Bunny may be used to destroy any single plant in any garden. "
        "Doing so destroys the Bunny."
    )
    assert effects_of(StoreState(), "Sasquash") == "no rule gives Sasquashes any Effects"


def test_an_object_held_is_given_under_rule_13() -> None:
    # Rule 13: "Players are capable of possessing any Object and of transferring any
    # Object they possess to any entity that can possess that Object."
    store, gardens = holding("Fluffy Bunny")
    outcome = give(store, gardens, "alice", 4, "bob", WHEN)
    assert [item.label() for item in outcome.store.held_by("bob")] == ["Fluffy Bunny 4"]
    assert outcome.happenings[0].text == "alice gave Fluffy Bunny 4 to bob"
    with pytest.raises(IllegalActionError, match="you hold no object 4") as raised:
        give(outcome.store, gardens, "alice", 4, "bob", WHEN)
    assert raised.value.rule == "13"
    with pytest.raises(IllegalActionError, match="you already hold Fluffy Bunny 4"):
        give(store, gardens, "alice", 4, "alice", WHEN)
    assert ITEM_OBJECTS["Fluffy Bunny"].transferable is True
    assert "Thorn Seed" not in ITEM_OBJECTS  # a Fruit: the Gardens' type
