"""The Bunnies of rule 1911 on the Gardens of rules 1902, 1908, 1909 and 1918.

Rule 1911: "A Fluffy Bunny may be used to destroy any single plant in any garden.
Doing so destroys the Bunny."  "A Hungry Bunny may be used to raid any garden.  Doing
so destroys both a random plant in that garden and the Bunny."  "A Ninja Bunny may be
used to steal any fruit from any player or plant at any time (this does not count as
picking the fruit and so is not affected by side effects such as Thorn Bushes).  A
Ninja Bunny will not steal fruit from a player or garden if said player or garden has
already been targeted by a Bunny that nweek".
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.audit import verify_archive
from bot.games.dice import DrawSource, nweek_seed, replay_draw
from bot.games.economy import Moment, PossibleLaterError, draw_proofs
from bot.games.errors import IllegalActionError
from bot.games.garden import Fruit, GardenState, import_lemon_tree, render_gardens, start
from bot.games.store import (
    StoreState,
    buy,
    use_fluffy_bunny,
    use_hungry_bunny,
    use_ninja_bunny,
)
from bot.testing.proof_archive import archive_of_draws

MASTER = b"store tests master secret, 32+ bytes long"
NWEEK = 1  # zero-based: the Bunnies run in nweek 2
SEED = nweek_seed(MASTER, NWEEK)
WHEN = Moment.at(NWEEK, 4)


def bunnies(*kinds: str) -> tuple[StoreState, GardenState]:
    """alice, bob and carol; Plant 1 is the Town Square's Thorn Bush; bob's Garden holds
    a Vine (Plant 2) with Tomato 5 on it and a Thorn Bush (Plant 3) with Thorn Seeds 6
    and 7, and carol holds Tomato 4; alice then buys one Bunny of each of ``kinds``."""
    gardens = start(("alice", "bob", "carol"), Moment.nweek_start(0)).state
    gardens = gardens.with_plants((("Vine", "bob"), ("Thorn Bush", "bob")), Moment.at(0, 1))
    vine, bush = gardens.plants_in("bob")
    gardens = gardens.with_fruit_on(vine, "Tomato", 1, Moment.nweek_start(NWEEK))
    gardens = gardens.with_fruit(replace(gardens.fruit(4), plant=None, holder="carol"))
    gardens = gardens.with_fruit_on(vine, "Tomato", 1, Moment.nweek_start(NWEEK))
    gardens = gardens.with_fruit_on(bush, "Thorn Seed", 2, Moment.nweek_start(NWEEK))
    store = StoreState()
    for kind in kinds:
        outcome = buy(store, gardens, "alice", kind, Moment.at(NWEEK, 1))
        store, gardens = outcome.store, outcome.gardens
    return store, gardens


def block(gardens: GardenState, heading: str) -> list[str]:
    """The lines of Chauncey's display (rule 625 D.4) from ``heading`` to the next blank."""
    lines = render_gardens(gardens, WHEN).splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(heading))
    return lines[start : (lines + [""]).index("", start)]


def test_a_fluffy_bunny_in_the_display_before_and_after() -> None:
    store, gardens = bunnies("Fluffy Bunny")
    assert block(gardens, "bob's Garden") == [
        "bob's Garden: Gardening Cost 11~, paid for watering 0~ this Checking Period",
        "  Plant 2   Vine       5~  planted nweek 1, nday 2   Tomato 5 (since nweek 2, nday 1)",
        "  Plant 3   Thorn Bush 6~  planted nweek 1, nday 2   "
        "Thorn Seed 6 (since nweek 2, nday 1), Thorn Seed 7 (since nweek 2, nday 1)",
    ]
    after = use_fluffy_bunny(store, gardens, "alice", 2, WHEN).gardens
    assert block(after, "bob's Garden") == [
        "bob's Garden: Gardening Cost 6~, paid for watering 0~ this Checking Period",
        "  Plant 3   Thorn Bush 6~  planted nweek 1, nday 2   "
        "Thorn Seed 6 (since nweek 2, nday 1), Thorn Seed 7 (since nweek 2, nday 1)",
    ]
    assert block(after, "Fruit held") == [
        "Fruit held:",
        "  carol: Tomato 4 (since nweek 2, nday 1)",
    ]


def test_a_fluffy_bunny_destroys_any_single_plant_and_itself() -> None:
    store, gardens = bunnies("Fluffy Bunny")
    outcome = use_fluffy_bunny(store, gardens, "alice", 2, WHEN)
    assert [p.kind for p in outcome.gardens.plants_in("bob")] == ["Thorn Bush"]
    assert not outcome.gardens.has_object(5)  # the Tomato on the Vine went with it
    assert outcome.store.held_by("alice") == ()
    assert [h.text for h in outcome.happenings] == [
        "alice's Fluffy Bunny 8 destroys Plant 2 (Vine) in bob's Garden, with Tomato 5 on it; "
        "the Bunny is destroyed"
    ]
    with pytest.raises(IllegalActionError, match="you hold no Fluffy Bunny"):
        use_fluffy_bunny(outcome.store, outcome.gardens, "alice", 3, WHEN)


def test_the_last_thorn_bush_eaten_brings_one_back_to_the_town_square() -> None:
    # 1909: "If at any time no Thorn Bushes exist, one is created in the Town Square."
    store, gardens = bunnies("Fluffy Bunny")
    gardens = gardens.without_objects((3,))  # only the Town Square's Bush is left
    outcome = use_fluffy_bunny(store, gardens, "alice", 1, WHEN)
    assert [h.rule for h in outcome.happenings] == ["1911", "1909"]
    assert [p.kind for p in outcome.gardens.plants_in(None)] == ["Thorn Bush"]
    assert outcome.gardens.plants_in(None)[0].number == 9


def test_bunnies_may_not_destroy_lemon_trees() -> None:
    # 1918 B: "Lemon Trees may not be destroyed by Bunnies."
    store, gardens = bunnies("Fluffy Bunny", "Hungry Bunny")
    gardens = import_lemon_tree(replace(gardens, more_plants=True), "alice", "carol", WHEN).state
    (tree,) = gardens.plants_in("carol")
    with pytest.raises(IllegalActionError, match="Lemon Trees may not be destroyed") as raised:
        use_fluffy_bunny(store, gardens, "alice", tree.number, WHEN)
    assert raised.value.rule == "1918 B"
    # A Hungry Bunny finds nothing it may eat in carol's Garden: refused, the Bunny kept.
    with pytest.raises(IllegalActionError, match="no Plants but Lemon Trees"):
        use_hungry_bunny(store, gardens, "alice", "carol", WHEN, DrawSource(SEED, "c"))
    with pytest.raises(IllegalActionError, match="alice's Garden has no Plants: there is"):
        use_hungry_bunny(store, gardens, "alice", "alice", WHEN, DrawSource(SEED, "c"))


def test_a_hungry_bunny_destroys_a_random_plant_by_a_recorded_draw() -> None:
    store, gardens = bunnies("Hungry Bunny")
    draws = DrawSource(SEED, "hungry@example.org")
    outcome = use_hungry_bunny(store, gardens, "alice", "bob", WHEN, draws)
    (draw,) = draws.draws
    assert draw.options == ("Plant 2 (Vine)", "Plant 3 (Thorn Bush)")
    assert draw.purpose == "rule 1911: alice's Hungry Bunny 8 raids bob's Garden, which Plant"
    assert replay_draw(SEED, "hungry@example.org", draw) == draw
    eaten = draw.options[draw.result[0]]
    left = [p.label() for p in outcome.gardens.plants_in("bob")]
    assert left == [label for label in draw.options if label != eaten]
    assert outcome.happenings[0].text.startswith(
        f"alice's Hungry Bunny 8 raids bob's Garden and destroys {eaten} in bob's Garden, with "
    )
    assert outcome.store.held_by("alice") == ()


def test_a_ninja_bunny_steals_without_picking() -> None:
    # Not picking: alice holds 5 Fruit already (1902 B's arms are full), bob's Garden has a
    # Thorn Bush (1909's 8 points), and bob gave no permission (1908 B.3's Free Throw).
    store, gardens = bunnies("Ninja Bunny")
    armful = tuple(Fruit(number, "Tomato", WHEN, holder="alice") for number in range(10, 15))
    gardens = replace(gardens, fruits=(*gardens.fruits, *armful), next_number=15)
    outcome = use_ninja_bunny(store, gardens, "alice", 6, WHEN)
    assert [f.number for f in outcome.gardens.fruit_held_by("alice")] == [6, 10, 11, 12, 13, 14]
    assert outcome.payments == () and outcome.gardens.free_throws == ()
    assert outcome.gardens.quotas == gardens.quotas
    assert [h.text for h in outcome.happenings] == [
        "alice's Ninja Bunny 8 steals Thorn Seed 6 from bob's Garden for alice, then fades "
        "into the mists and is destroyed"
    ]


def test_a_ninja_bunny_smells_a_bunny_that_came_this_nweek() -> None:
    store, gardens = bunnies("Fluffy Bunny", "Ninja Bunny", "Ninja Bunny")
    eaten = use_fluffy_bunny(store, gardens, "alice", 3, WHEN)  # bob's Garden is targeted
    with pytest.raises(PossibleLaterError, match="already been targeted") as raised:
        use_ninja_bunny(eaten.store, eaten.gardens, "alice", 5, WHEN)
    assert raised.value.rule == "1911"
    assert raised.value.possible_from == Moment.nweek_start(NWEEK + 1)
    assert "a Ninja Bunny may steal from bob's Garden again from nweek 3, nday 1" in str(
        raised.value
    )
    # A player and eir Garden are two targets: carol's Tomato may be stolen.
    stolen = use_ninja_bunny(eaten.store, eaten.gardens, "alice", 4, WHEN)
    assert stolen.gardens.fruit(4).holder == "alice"
    # ... but not twice from carol in one nweek; from bob's Garden again next nweek.
    another = Fruit(20, "Lemon", WHEN, holder="carol")
    with pytest.raises(PossibleLaterError, match="steal fruit from carol: carol has already"):
        use_ninja_bunny(
            stolen.store,
            replace(stolen.gardens, fruits=(*gardens.fruits, another)),
            "alice",
            20,
            WHEN,
        )
    later = use_ninja_bunny(stolen.store, stolen.gardens, "alice", 5, Moment.at(NWEEK + 1, 0, 1))
    assert later.gardens.fruit(5).holder == "alice"
    assert later.store.targeted == (later.store.targeted[0],)  # last nweek's are forgotten


def test_a_ninja_bunny_does_not_steal_what_its_user_holds() -> None:
    store, gardens = bunnies("Ninja Bunny")
    bought = buy(store, gardens, "carol", "Ninja Bunny", WHEN)
    with pytest.raises(IllegalActionError, match="you hold Tomato 4 already"):
        use_ninja_bunny(bought.store, bought.gardens, "carol", 4, WHEN)
    with pytest.raises(IllegalActionError, match="you hold no Ninja Bunny"):
        use_ninja_bunny(store, gardens, "bob", 4, WHEN)


def test_verify_dice_re_derives_the_hungry_bunnys_draw_from_the_archive(tmp_path: Path) -> None:
    store, gardens = bunnies("Hungry Bunny")
    draws = DrawSource(SEED, "hungry@example.org")
    use_hungry_bunny(store, gardens, "alice", "bob", WHEN, draws)
    lines = draw_proofs(NWEEK, draws.context_id, draws.draws)
    assert lines[0].startswith("rule 1911: alice's Hungry Bunny 8 raids bob's Garden")
    archive = tmp_path / "list.mbox"
    archive_of_draws(archive, SEED, NWEEK + 1, "The Store:\n" + "\n".join(lines) + "\n")
    report = verify_archive(archive)
    assert (report.checked, report.wrong, report.ok) == (1, 0, True)
