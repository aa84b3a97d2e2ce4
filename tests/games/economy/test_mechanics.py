"""The economy's shared mechanics: Clock time, lasting effects (M4), quotas and gates
(M5), timed events in rule 3 C order with invariants (M6), conversions (M3), rule 636's
permissions and the draw proof lines."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from bot.games.dice import DrawSource
from bot.games.dice import draw_proof as dice_draw_proof
from bot.games.economy import (
    Conversion,
    Effect,
    Effects,
    Gate,
    Happening,
    Moment,
    Operation,
    Period,
    Permission,
    Permissions,
    PossibleLaterError,
    Quota,
    Quotas,
    TimedEvent,
    Timer,
    check_gates,
    convert,
    draw_proof,
    in_rule_order,
    run_events,
)
from bot.games.errors import IllegalActionError, NotYetError
from bot.games.precedence import SEED_004, RuleCitation

SEED = bytes(range(32))


# -- Clock time (rule 3 A) ---------------------------------------------------------


def test_moments_count_clock_ndays_and_display_one_based() -> None:
    # 3 A: "The end of the third, seventh, and tenth ndays of each nweek are called
    # Checkpoints"; displayed "with the number of nweeks increased by one".
    assert Moment.at(2, 3).display() == "nweek 3, nday 4"
    assert Moment.at(2, 3, 3_723).display() == "nweek 3, nday 4, 01:02:03"
    assert [Moment.at(0, nday).is_checkpoint for nday in range(10)] == [
        nday in (0, 3, 7) for nday in range(10)
    ]
    assert (
        Moment.at(0, 8).next_period_start() == Moment.at(1, 0) == Moment.at(0, 8).next_nweek_start()
    )
    assert Moment.at(1, 4, 5).after_nweeks(1) == Moment.at(2, 4, 5)
    with pytest.raises(ValueError):
        Moment(0, 86_400)


# -- M4: effects --------------------------------------------------------------------


def test_value_of_applies_the_active_effects_in_the_order_they_began() -> None:
    start, end = Moment.at(1, 0), Moment.at(2, 0)
    doubled = Effect("alice", "AvSpeed", Operation.MULTIPLY, 2, start, end, "1916")
    plus_one = Effect("alice", "AvSpeed", Operation.ADD, 1, Moment.at(1, 5), None, "1918 B")
    effects = Effects().added(plus_one).added(doubled)
    assert effects.value_of("alice", "AvSpeed", Moment.at(0, 9), base=3) == 3
    assert effects.value_of("alice", "AvSpeed", Moment.at(1, 1), base=3) == 6
    assert effects.value_of("alice", "AvSpeed", Moment.at(1, 6), base=3) == 7  # (3*2)+1
    assert effects.value_of("alice", "AvSpeed", end, base=3) == 4  # the doubling ended
    assert effects.value_of("bob", "AvSpeed", Moment.at(1, 6), base=3) == 3
    smoke = Effect("alice", "AvSpeed", Operation.SET, 1, Moment.at(1, 7), Moment.at(1, 8), "1911")
    assert effects.added(smoke).value_of("alice", "AvSpeed", Moment.at(1, 7), base=3) == 1
    assert effects.without_expired(end).items == (plus_one,)


def test_a_status_holds_while_an_effect_gives_it_and_says_until_when() -> None:
    bar = Effect("alice", "Blacked Out", Operation.SET, 1, Moment.at(1, 1), Moment.at(1, 3), "1913")
    effects = Effects((bar,))
    assert effects.holds("alice", "Blacked Out", Moment.at(1, 2))
    assert not effects.holds("alice", "Blacked Out", Moment.at(1, 3))
    assert effects.lasts_until("alice", "Blacked Out", Moment.at(1, 2)) == Moment.at(1, 3)
    forever = Effect("alice", "Blacked Out", Operation.SET, 1, Moment.at(1, 1), None, "1913")
    assert effects.added(forever).lasts_until("alice", "Blacked Out", Moment.at(1, 2)) is None
    with pytest.raises(ValueError):
        Effect("alice", "x", Operation.ADD, 1, Moment.at(1, 1), Moment.at(1, 1), "1")


# -- M5: quotas and gates --------------------------------------------------------------

TWEAK = Quota("tweak", 1, Period.NWEEK, "Life", "tweak")
MOVE = Quota("move", 1, Period.CHECKING_PERIOD, "1639 C", "move")


def test_a_quota_refuses_until_the_next_period_and_says_when() -> None:
    quotas = Quotas().recorded("alice", TWEAK, Moment.at(3, 2))
    quotas.check("bob", TWEAK, Moment.at(3, 2))
    with pytest.raises(PossibleLaterError) as refused:
        quotas.check("alice", TWEAK, Moment.at(3, 9), name="Alice")
    assert isinstance(refused.value, NotYetError)
    assert (refused.value.rule, refused.value.possible_from) == ("Life", Moment.at(4, 0))
    assert str(refused.value) == (
        "you may tweak only once per nweek; Alice may tweak again from nweek 5, nday 1"
    )
    quotas.check("alice", TWEAK, Moment.at(4, 0))
    # Counts of a period gone by are forgotten when the next is counted.
    later = quotas.recorded("alice", TWEAK, Moment.at(4, 0))
    assert list(later.counts) == [("alice", "tweak", 4)]


def test_a_checking_period_quota_leaves_the_dating_to_the_engine() -> None:
    # bot.engine.not_yet dates "the next Checking Period" with the Clock's UTC instant.
    quotas = Quotas().recorded("alice", MOVE, Moment.at(0, 4))
    with pytest.raises(PossibleLaterError) as refused:
        quotas.check("alice", MOVE, Moment.at(0, 6), name="Alice")
    assert refused.value.from_instant is None
    assert str(refused.value) == (
        "you may move only once per Checking Period; Alice may move again from the next "
        "Checking Period"
    )
    assert refused.value.possible_from == Moment.at(0, 7)


def test_a_gate_bars_while_the_status_lasts() -> None:
    gate = Gate("Blacked Out", frozenset({"drink"}), "1913", "you are Blacked Out")
    until = Moment.at(1, 3)
    effects = Effects(
        (Effect("alice", "Blacked Out", Operation.SET, 1, Moment.at(1, 1), until, "1913"),)
    )
    check_gates((gate,), effects, "alice", "pick", Moment.at(1, 2), again="Alice may drink")
    with pytest.raises(PossibleLaterError) as refused:
        check_gates((gate,), effects, "alice", "drink", Moment.at(1, 2), again="Alice may drink")
    assert refused.value.possible_from == until
    check_gates((gate,), effects, "alice", "drink", until, again="Alice may drink")
    leave = Effects(
        (Effect("alice", "Blacked Out", Operation.SET, 1, Moment.at(1, 1), None, "1913"),)
    )
    with pytest.raises(IllegalActionError) as barred:
        check_gates((gate,), leave, "alice", "drink", Moment.at(1, 2), again="")
    assert not isinstance(barred.value, NotYetError)


# -- M6: events in rule 3 C order, timers and invariants -----------------------------------


def test_events_of_one_instant_run_by_chutzpah_then_rule_number() -> None:
    # 3 C: "those events occur in order of rule precedence"; 33: "the rule with the highest
    # Chutzpah takes precedence.  If two or more rules have equal Chutzpah, the rule with the
    # lowest identification number takes precedence."  Rule 1913 has Chutzpah 3.
    at = Moment.nweek_start(4)
    events = [
        TimedEvent(at, RuleCitation(SEED_004, 1909), "squirrels"),
        TimedEvent(Moment.at(3, 9), RuleCitation(SEED_004, 1920), "king"),
        TimedEvent(at, RuleCitation("002", 391), "cards for votes"),
        TimedEvent(at, RuleCitation(SEED_004, 1902), "fruit", section=3),
        TimedEvent(at, RuleCitation(SEED_004, 1913), "sober up"),
        TimedEvent(at, RuleCitation(SEED_004, 1902), "watering", section=1),
    ]
    assert [e.kind for e in in_rule_order(events)] == [
        "king",  # an earlier instant
        "sober up",  # Chutzpah 3
        "watering",
        "fruit",
        "squirrels",
        "cards for votes",  # another seed's rule: after seed 004's
    ]


@dataclass(frozen=True)
class Pond:
    """A toy state: fish, and a rule that there is always at least one."""

    fish: int
    log: tuple[str, ...] = ()


def test_invariants_are_restored_after_each_event() -> None:
    def catch(
        state: Pond, event: TimedEvent, draws: DrawSource
    ) -> tuple[Pond, tuple[Happening, ...]]:
        return replace(state, fish=state.fish - 1, log=(*state.log, f"caught at {state.fish}")), ()

    def restock(state: Pond, at: object) -> tuple[Pond, tuple[Happening, ...]]:
        if state.fish:
            return state, ()
        return replace(state, fish=1, log=(*state.log, "restocked")), (Happening("0", "restocked"),)

    at = Moment.at(0, 3)
    events = [TimedEvent(at, RuleCitation(SEED_004, 1), "catch")] * 3
    state, happenings = run_events(
        Pond(2), events, {"catch": catch}, (restock,), DrawSource(SEED, "c")
    )
    assert state.log == ("caught at 2", "caught at 1", "restocked", "caught at 1", "restocked")
    assert [h.text for h in happenings] == ["restocked", "restocked"]


def test_a_timer_falls_due_a_clock_length_after_it_started() -> None:
    timer = Timer(Moment.at(2, 0), 10)  # "one nweek after a Tomato's creation"
    assert timer.due == Moment.at(3, 0)
    assert not timer.is_due(Moment.at(2, 9, 86_399)) and timer.is_due(Moment.at(3, 0))


# -- M3: conversions ------------------------------------------------------------------------


@dataclass(frozen=True)
class Shelf:
    objects: tuple[tuple[int, str], ...]

    def has_object(self, number: int) -> bool:
        return any(n == number for n, _ in self.objects)

    def without_objects(self, numbers: tuple[int, ...]) -> Shelf:
        return Shelf(tuple(o for o in self.objects if o[0] not in numbers))

    def made(self, kinds: tuple[str, ...]) -> Shelf:
        start = max((n for n, _ in self.objects), default=0) + 1
        return Shelf((*self.objects, *enumerate(kinds, start)))


def test_a_conversion_happens_whole_or_not_at_all() -> None:
    # 1913: fermenting destroys a Fruit and creates its Drink.
    shelf = Shelf(((1, "Lemon"), (2, "Tomato")))
    ferment = Conversion("1913", (1,), ("Lemon Drink",))
    after = convert(shelf, ferment, (), Shelf.made)
    assert after.objects == ((2, "Tomato"), (3, "Lemon Drink"))
    with pytest.raises(IllegalActionError) as missing:
        convert(shelf, Conversion("1913", (9,), ("Drink",)), (), Shelf.made)
    assert missing.value.rule == "1913"

    def blacked_out(_: Shelf) -> str:
        return "you are Blacked Out"

    with pytest.raises(IllegalActionError) as refused:
        convert(shelf, ferment, (blacked_out,), Shelf.made)
    assert str(refused.value) == "you are Blacked Out"
    assert shelf.objects == ((1, "Lemon"), (2, "Tomato"))


# -- rule 636's permissions -------------------------------------------------------------------


def test_permissions_are_records_with_a_scope_and_an_end() -> None:
    # 636: "no player may modify the state of any object in possession of another player,
    # without the other player's explicit permission in a public forum."
    given = Permissions().granted(
        Permission("bob", "alice", "pick", Moment.at(1, 0), Moment.at(2, 0))
    )
    assert given.allows("bob", "alice", "pick", Moment.at(1, 5))
    assert not given.allows("bob", "alice", "pick", Moment.at(2, 0))
    assert not given.allows("bob", "carol", "pick", Moment.at(1, 5))
    assert not given.allows("bob", "alice", "burn", Moment.at(1, 5))
    withdrawn = given.withdrawn("bob", "alice", "pick", Moment.at(1, 3))
    assert not withdrawn.allows("bob", "alice", "pick", Moment.at(1, 5))
    assert withdrawn.allows("bob", "alice", "pick", Moment.at(1, 2))
    with pytest.raises(IllegalActionError):
        Permissions().granted(Permission("bob", "bob", "pick", Moment.at(1, 0)))


# -- proof lines -----------------------------------------------------------------------------


def test_the_proof_lines_are_the_engines_draw_v1_lines() -> None:
    source = DrawSource(SEED, "ctx@example.org")
    source.randint(1, 4, "a throw")
    source.choice(["Plant 2 (Vine)", "Plant 4 (Vine)"], "a tie")
    source.shuffle(["a", "b", "c"], "an order")
    # The economy prints the one draw-v1 line every game prints, which verify-dice reads.
    assert draw_proof is dice_draw_proof
    assert draw_proof(6, source.context_id, source.draws[0]).startswith(
        "[verify: nweek=7 draw-v1 context=ctx@example.org number=0 kind=randint bounds=1..4 value="
    )
