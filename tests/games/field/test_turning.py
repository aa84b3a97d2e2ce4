"""Turning the Field (seed 003) on a small match written for the test.

"Markers" has The Field's actions Open (on start), Scatter (invokable:
create N Markers at once) and Tally (ends the match once a Marker is 3
high), and each Marker's Grow (owner only), Spawn and Strike (destroy
another Marker).  Those exercise every step of the Turn: Field actions
before objects, the Priority List order, several triggers in one Turn,
objects created and destroyed mid-Turn, and the end clearing the Field.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.dice import DrawSource
from bot.games.errors import IllegalActionError
from bot.games.field import (
    ActionCall,
    ActionRule,
    ActionSpec,
    AttributeSpec,
    EffectOutcome,
    FieldMatch,
    FieldObject,
    FieldState,
    MatchEnding,
    MatchRules,
    ObjectType,
    RandomSource,
    Request,
    TriggerFailure,
    TurnContext,
    TurnResult,
    amend_current_match,
    create_object,
    describe_turn,
    destroy_object,
    field_attribute,
    object_by_id,
    replace_object,
    select_match,
    turn_field,
    validate_match,
    with_field_attribute,
)

SEED = bytes(range(32))
CONTEXT = TurnContext(nweek=5, referee="referee", players=("alice", "bob"))
RULE = "Markers (test)"


def height(call: ActionCall) -> int:
    assert call.subject is not None
    value = call.subject.attribute("height")
    assert isinstance(value, int)
    return value


def open_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    return EffectOutcome(with_field_attribute(call.state, "opened", True), "opened")


def scatter_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    assert call.request is not None
    state = call.state
    for index in range(int(call.request.arguments[0])):
        state, _ = create_object(state, "Marker", owner=call.request.invoker, square=index)
    return EffectOutcome(state, f"scattered {call.request.arguments[0]}")


def tally_trigger(call: ActionCall) -> TriggerFailure | None:
    tall = [item for item in call.state.objects if item.attribute("height") == 3]
    return None if tall else TriggerFailure("no Marker is 3 high", RULE)


def tally_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    tall = next(item for item in call.state.objects if item.attribute("height") == 3)
    owner = tall.owner or ""
    return EffectOutcome(call.state, "tallied", MatchEnding("Markers", (owner,), "3 high"))


def owner_only(call: ActionCall) -> TriggerFailure | None:
    assert call.request is not None and call.subject is not None
    if call.request.invoker != call.subject.owner:
        return TriggerFailure(f"{call.request.invoker} does not own that Marker", RULE)
    return None


def grow_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    assert call.subject is not None
    grown = call.subject.with_attribute("height", height(call) + 1)
    return EffectOutcome(replace_object(call.state, grown), f"#{grown.object_id} grew")


def spawn_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    assert call.subject is not None
    state, made = create_object(call.state, "Marker", owner=call.subject.owner, square=24)
    return EffectOutcome(state, f"spawned #{made.object_id}")


def strike_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    assert call.request is not None
    victim = int(call.request.arguments[0])
    return EffectOutcome(destroy_object(call.state, victim), f"destroyed #{victim}")


def always(call: ActionCall) -> TriggerFailure | None:
    return None


MARKERS = FieldMatch(
    name="Markers",
    rules="markers",
    rows=5,
    columns=5,
    communication="a public message",
    object_types=(
        ObjectType(
            "Marker",
            actions=(
                ActionSpec("Strike", invokable=True),
                ActionSpec("Grow", invokable=True),
                ActionSpec("Spawn", invokable=True),
            ),
        ),
    ),
    field_actions=(
        ActionSpec("Open", on_start=True),
        ActionSpec("Tally", ends_match=True),
        ActionSpec("Scatter", invokable=True),
    ),
    attributes=(AttributeSpec("height", "Marker", (0, 1, 2, 3), 0),),
)

MARKER_RULES = MatchRules(
    name="markers",
    actions=(
        (("Field", "Open"), ActionRule(always, open_effect)),
        (("Field", "Tally"), ActionRule(tally_trigger, tally_effect)),
        (("Field", "Scatter"), ActionRule(always, scatter_effect)),
        (("Marker", "Strike"), ActionRule(owner_only, strike_effect)),
        (("Marker", "Grow"), ActionRule(owner_only, grow_effect)),
        (("Marker", "Spawn"), ActionRule(owner_only, spawn_effect)),
    ),
)


def marker(state: FieldState, object_id: int) -> FieldObject:
    found = object_by_id(state, object_id)
    assert found is not None
    return found


def label(state: FieldState, object_id: int) -> str:
    item = marker(state, object_id)
    assert item.square is not None
    return f"Marker #{object_id} of {item.owner} at {state.geometry.format_square(item.square)}"


def started() -> FieldState:
    return select_match(FieldState(), MARKERS, MARKER_RULES, CONTEXT, DrawSource(SEED, "s")).state


def turn(
    state: FieldState, *requests: Request, context: str = "turn"
) -> tuple[TurnResult, DrawSource]:
    source = DrawSource(SEED, context)
    result = turn_field(state, MARKER_RULES, requests, CONTEXT, source)
    return result, source


def scattered(count: int = 3) -> FieldState:
    result, _ = turn(started(), Request("alice", "Scatter", arguments=(str(count),)))
    return result.state


def test_selecting_a_match_runs_its_start_up_actions_and_only_once() -> None:
    state = started()
    assert state.match == MARKERS and field_attribute(state, "opened") is True
    with pytest.raises(IllegalActionError, match="Markers is already the Current Field Match"):
        select_match(state, MARKERS, MARKER_RULES, CONTEXT, DrawSource(SEED, "again"))


def test_objects_created_together_join_the_bottom_in_a_recorded_random_order() -> None:
    result, source = turn(started(), Request("alice", "Scatter", arguments=("4",)), context="a")
    (shuffle,) = source.draws
    assert shuffle.purpose == "Scatter: Priority List order of 4 new Field Objects"
    drawn = [shuffle.options[index] for index in shuffle.result]
    labels = [label(result.state, item.object_id) for item in result.state.objects]
    assert labels == drawn
    assert sorted(result.state.priority_list) == [1, 2, 3, 4]
    assert result.state.priority_list != (1, 2, 3, 4)  # this seed's draw is no identity


def test_one_created_object_needs_no_draw_and_joins_the_bottom() -> None:
    state = scattered(3)
    result, source = turn(state, Request("alice", "Spawn", target=state.priority_list[0]))
    assert source.draws == ()
    assert result.state.priority_list == (*state.priority_list, 4)


def test_field_actions_come_before_object_actions() -> None:
    state = scattered(1)
    two_high = state.objects[0].with_attribute("height", 2)
    state = replace_object(state, two_high)
    result, _ = turn(state, Request("alice", "Grow", target=two_high.object_id))
    # Tally (step 1) saw height 2; Grow (step 2) made it 3 after Tally was done.
    assert result.record.ending is None
    assert [done.action for done in result.record.carried_out] == ["Grow"]
    ended, _ = turn(result.state, Request("bob", "Scatter", arguments=("1",)))
    assert ended.record.ending == MatchEnding("Markers", ("alice",), "3 high")


def test_an_action_triggered_twice_in_a_turn_is_carried_out_twice() -> None:
    state = scattered(1)
    target = state.priority_list[0]
    result, _ = turn(
        state, Request("alice", "Grow", target=target), Request("alice", "Grow", target=target)
    )
    assert marker(result.state, target).attribute("height") == 2
    assert [done.summary for done in result.record.carried_out] == [f"#{target} grew"] * 2


def test_the_higher_object_acts_first_and_a_destroyed_object_acts_no_more() -> None:
    state = scattered(2)
    top, bottom = state.priority_list
    state = replace_object(state, replace(marker(state, bottom), owner="bob"))
    strike_down = Request("alice", "Strike", target=top, arguments=(str(bottom),))
    strike_up = Request("bob", "Strike", target=bottom, arguments=(str(top),))
    result, _ = turn(state, strike_up, strike_down)
    assert [entry.object_id for entry in result.record.priority_order] == [top, bottom]
    assert result.state.priority_list == (top,)
    assert [done.summary for done in result.record.carried_out] == [f"destroyed #{bottom}"]
    (refusal,) = result.record.refusals
    assert refusal.request == strike_up
    assert refusal.message == f"Field Object #{bottom} no longer exists"


def test_an_object_created_in_step_two_acts_from_the_next_turn() -> None:
    state = scattered(1)
    first = state.priority_list[0]
    result, _ = turn(
        state, Request("alice", "Spawn", target=first), Request("alice", "Grow", target=2)
    )
    assert result.state.priority_list == (first, 2)
    assert (
        result.record.refusals[0].message == "Marker #2 joined the Priority List during this Turn"
    )
    later, _ = turn(result.state, Request("alice", "Grow", target=2))
    assert later.record.refusals == ()


def test_a_trigger_that_fails_is_a_refusal_with_its_rule() -> None:
    state = scattered(1)
    result, _ = turn(state, Request("bob", "Grow", target=state.priority_list[0]))
    (refusal,) = result.record.refusals
    assert (refusal.message, refusal.rule) == ("bob does not own that Marker", RULE)
    assert refusal.as_error().rule == RULE
    assert result.state.turn_number == state.turn_number + 1


def test_requests_no_action_takes_up_are_refused_with_a_reason() -> None:
    state = scattered(1)
    result, _ = turn(state, Request("alice", "Dance"), Request("alice", "Dance", target=1))
    assert [refusal.message for refusal in result.record.refusals] == [
        "The Field has no Invokable Action Dance in Markers",
        "a Marker has no Invokable Action Dance in Markers",
    ]


def test_the_end_of_the_match_stops_the_turn_and_clears_the_field() -> None:
    state = scattered(2)
    top = state.priority_list[0]
    state = replace_object(state, marker(state, top).with_attribute("height", 3))
    result, _ = turn(
        state, Request("alice", "Scatter", arguments=("1",)), Request("alice", "Grow", target=top)
    )
    assert result.record.ending == MatchEnding("Markers", ("alice",), "3 high")
    assert result.state.match is None and result.state.objects == ()
    assert result.state.priority_list == () and result.state.history == ()
    assert result.final_position is not None and len(result.final_position.objects) == 2
    assert [refusal.message for refusal in result.record.refusals] == [
        "the Field Match ended earlier in this Turn of the Field"
    ] * 2
    assert result.state.next_object_id == state.next_object_id
    with pytest.raises(IllegalActionError, match="there is no Current Field Match"):
        turn(result.state, Request("alice", "Scatter", arguments=("1",)))


def test_the_turn_record_says_which_order_was_used() -> None:
    state = scattered(2)
    top, bottom = state.priority_list
    result, _ = turn(
        state, Request("alice", "Grow", target=bottom), Request("alice", "Grow", target=top)
    )
    text = describe_turn(result.record)
    assert text.splitlines()[0] == f"Turn {result.record.number} of the Field (nweek 5)"
    assert f"Priority List used: {label(state, top)}, {label(state, bottom)}" in text
    assert text.splitlines()[2:] == [
        f"- Grow (requested by alice): #{top} grew",
        f"- Grow (requested by alice): #{bottom} grew",
    ]


def test_amending_the_current_match_is_a_change_of_data() -> None:
    state = scattered(2)
    bigger = amend_current_match(state, replace(MARKERS, rows=7, columns=9))
    assert bigger.geometry.describe() == "7 x 9 torus"
    assert [label(bigger, item) for item in bigger.priority_list] == [
        label(state, item) for item in state.priority_list
    ]
    moved = replace_object(state, state.objects[0].placed_at(state.geometry.parse_square("E5")))
    with pytest.raises(IllegalActionError, match="would leave Marker at E5 off it"):
        amend_current_match(moved, replace(MARKERS, rows=4, columns=4))
    with pytest.raises(IllegalActionError, match="no action's effect ends the match"):
        amend_current_match(state, replace(MARKERS, field_actions=MARKERS.field_actions[2:]))


def test_validity_lists_every_missing_part_of_a_field_match() -> None:
    empty = FieldMatch(name=" ", rules="none", rows=0, columns=5, communication="")
    assert validate_match(empty) == (
        "it has no name",
        "its size is impossible: a torus needs at least 3 rows and columns, not 0 x 5",
        "it describes no type of Field Object",
        "it has no Invokable Action",
        "no action's effect ends the match",
        "it specifies no means of communication for Invokable Actions",
    )
    assert validate_match(MARKERS) == ()


def test_rules_must_implement_every_action_of_the_document() -> None:
    partial = replace(MARKER_RULES, actions=MARKER_RULES.actions[:-1])
    with pytest.raises(ValueError, match="lack Marker: Spawn"):
        select_match(FieldState(), MARKERS, partial, CONTEXT, DrawSource(SEED, "x"))
