"""Selecting the Current Field Match and Turning the Field (seed 003, "Field Matches").

"When the Referee Turns the Field, he does the following:
1. For each action of The Field (in the order they are listed in the Current
   Field Match) if the triggering conditions are true, the Referee carries
   out the effects of that action.
2. Starting at the top of the Priority List and evaluating each Field Object
   in order, for each action of that Field Object (in the order actions are
   listed in the Current Field Match) if the triggering conditions of that
   action are true, the Referee carries out the effects of that action.
3. The Referee updates The Field and the Priority List to reflect their
   current state."

Readings (the lead copies these to docs/readings.md):

* Triggers are evaluated when their turn comes, against the state as the
  earlier effects of the same Turn left it; an action triggered several times
  (one request each) is checked and carried out once per request, in the
  order the requests arrived (rule 1896).  So a second Tweak of the same Cell
  in one Turn sees the first one's result.
* Step 2 walks the Priority List as it stood when step 2 began.  Objects
  destroyed before their turn have no actions left; objects created during
  step 2 join the bottom of the list (step 3) and act from the next Turn.
* "At the same time" means by the same effect: the objects one effect
  creates are put at the bottom of the Priority List in an order drawn from
  the random source (recorded); an effect creating one object just appends it.
* When an effect ends the match the Turn stops there: the match is no longer
  current, so none of its remaining actions exist.  The cleared Field keeps
  no objects, Field or player attributes, nor the match's history; the
  result carries the last position (``final_position``) for the final board.
* A start-up action ("which occur[s] when that Field Match becomes
  current") is carried out by ``select_match`` only, never in a Turn, and
  its effect runs without a trigger check.
* An invokable request that no action of the Current Field Match takes up
  (unknown action, wrong scope, object gone) is refused with a reason; a
  refused request still caused the Turn, as the Referee "is obligated to
  Turn the Field" on receiving it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.games.errors import IllegalActionError
from bot.games.field.actions import (
    RULE_FIELD_MATCHES,
    ActionCall,
    ActionRule,
    EffectOutcome,
    MatchEnding,
    MatchRules,
    RandomSource,
    Request,
    TurnContext,
)
from bot.games.field.match import SCOPE_FIELD, ActionSpec, FieldMatch, validate_match
from bot.games.field.objects import FieldObject, ObjectId
from bot.games.field.squares import FieldGeometry
from bot.games.field.state import ActionRecord, FieldState, object_by_id


@dataclass(frozen=True)
class PriorityEntry:
    """One place on the Priority List, with a label a player can read ("Cell #7 at B2")."""

    object_id: ObjectId
    label: str


@dataclass(frozen=True)
class Refusal:
    """A request whose action did not take place, and why (``TriggerFailure.from_nweek``)."""

    request: Request
    message: str
    rule: str
    from_nweek: int | None = None

    def as_error(self) -> IllegalActionError:
        return IllegalActionError(self.message, rule=self.rule)


@dataclass(frozen=True)
class TurnRecord:
    """One Turn of the Field as published: the Priority List order step 2 used,
    the actions carried out in order, the refused requests and any ending."""

    number: int
    nweek: int
    requests: tuple[Request, ...]
    priority_order: tuple[PriorityEntry, ...]
    carried_out: tuple[ActionRecord, ...]
    refusals: tuple[Refusal, ...]
    ending: MatchEnding | None = None


@dataclass(frozen=True)
class TurnResult:
    """The state after a Turn, its record, and the position an ending cleared."""

    state: FieldState
    record: TurnRecord
    final_position: FieldState | None = None


@dataclass(frozen=True)
class SelectionResult:
    """The state after a match became current and its start-up actions ran."""

    state: FieldState
    carried_out: tuple[ActionRecord, ...]
    ending: MatchEnding | None = None
    final_position: FieldState | None = None


def object_label(field_object: FieldObject, geometry: FieldGeometry) -> str:
    """E.g. ``"Cell #7 at B2"`` or ``"King #3 of alice (not placed)"``."""
    owner = f" of {field_object.owner}" if field_object.owner is not None else ""
    if field_object.square is None:
        return f"{field_object.kind} #{field_object.object_id}{owner} (not placed)"
    where = geometry.format_square(field_object.square)
    return f"{field_object.kind} #{field_object.object_id}{owner} at {where}"


def select_match(
    state: FieldState,
    match: FieldMatch,
    rules: MatchRules,
    context: TurnContext,
    random: RandomSource,
) -> SelectionResult:
    """Make ``match`` the Current Field Match and carry out its start-up actions.

    Raises ``IllegalActionError`` if a match is already current or ``match``
    is not a valid Field Match, and ``ValueError`` if ``rules`` are not the
    code ``match`` names or leave one of its actions unimplemented (defects).
    """
    if state.match is not None:
        raise IllegalActionError(
            f"{state.match.name} is already the Current Field Match", rule=RULE_FIELD_MATCHES
        )
    _check_match(match, rules)
    # "he sets the size of The Field to what is specified": a fresh Field.
    fresh = FieldState(
        match=match, next_object_id=state.next_object_id, turn_number=state.turn_number
    )
    turn = _Turn(fresh, rules, context, random, number=state.turn_number)
    for spec in match.field_actions:
        if spec.on_start and not turn.ended:
            turn.carry_out(spec, rules.rule_for(SCOPE_FIELD, spec.name), None, None)
    return SelectionResult(turn.state, tuple(turn.carried_out), turn.ending, turn.final_position)


def turn_field(
    state: FieldState,
    rules: MatchRules,
    requests: Sequence[Request],
    context: TurnContext,
    random: RandomSource,
) -> TurnResult:
    """Turn the Field once, taking up ``requests`` (in arrival order).

    Refused requests are returned in the record, not raised.  Raises
    ``IllegalActionError`` when there is no Current Field Match (there is no
    Field to turn) and ``ValueError`` if ``rules`` are not the match's code.
    """
    if state.match is None:
        raise IllegalActionError("there is no Current Field Match", rule=RULE_FIELD_MATCHES)
    _check_match(state.match, rules)
    number = state.turn_number + 1
    turn = _Turn(replace(state, turn_number=number), rules, context, random, number)
    indexed = tuple(enumerate(requests))
    turn.field_step(indexed)
    priority_order = turn.object_step(indexed)
    turn.refuse_leftovers(indexed)
    record = TurnRecord(
        number=number,
        nweek=context.nweek,
        requests=tuple(requests),
        priority_order=priority_order,
        carried_out=tuple(turn.carried_out),
        refusals=tuple(turn.refusals),
        ending=turn.ending,
    )
    return TurnResult(turn.state, record, turn.final_position)


def amend_current_match(state: FieldState, match: FieldMatch) -> FieldState:
    """``state`` under an amended Current Field Match (a proposal's configuration change).

    Placed objects keep their column and row.  Raises ``IllegalActionError``
    if there is no Current Field Match, the amended document is not valid,
    it names other rules, or a placed object would fall off the new Field.
    """
    if state.match is None:
        raise IllegalActionError("there is no Current Field Match", rule=RULE_FIELD_MATCHES)
    problems = validate_match(match)
    if problems:
        raise IllegalActionError(_invalid_message(match, problems), rule=RULE_FIELD_MATCHES)
    if match.rules != state.match.rules:
        raise IllegalActionError(
            f"amending {state.match.name} cannot change which rules implement it",
            rule=RULE_FIELD_MATCHES,
        )
    old, new = state.geometry, match.geometry
    objects = tuple(_moved_to(item, old, new) for item in state.objects)
    return replace(state, match=match, objects=objects)


def describe_turn(record: TurnRecord) -> str:
    """The Turn as text for the Public Display: Priority List used, actions, refusals."""
    lines = [f"Turn {record.number} of the Field (nweek {record.nweek})"]
    order = ", ".join(entry.label for entry in record.priority_order) or "empty"
    lines.append(f"Priority List used: {order}")
    for done in record.carried_out:
        by = f" (requested by {done.invoker})" if done.invoker is not None else ""
        lines.append(f"- {done.action}{by}: {done.summary}")
    for refusal in record.refusals:
        lines.append(
            f"- refused {refusal.request.action} by {refusal.request.invoker}: "
            f"{refusal.message} [{refusal.rule}]"
        )
    if record.ending is not None:
        winners = ", ".join(record.ending.winners) or "nobody"
        lines.append(
            f"{record.ending.match_name} has ended: {record.ending.reason}; winners: {winners}"
        )
    return "\n".join(lines)


def _check_match(match: FieldMatch, rules: MatchRules) -> None:
    problems = validate_match(match)
    if problems:
        raise IllegalActionError(_invalid_message(match, problems), rule=RULE_FIELD_MATCHES)
    if rules.name != match.rules:
        raise ValueError(f"{match.name} is implemented by {match.rules!r}, not {rules.name!r}")
    scoped = [(SCOPE_FIELD, spec.name) for spec in match.field_actions] + [
        (kind.name, spec.name) for kind in match.object_types for spec in kind.actions
    ]
    unbound = rules.unbound_actions(scoped)
    if unbound:
        raise ValueError(f"rules {rules.name!r} lack {', '.join(unbound)}")


def _invalid_message(match: FieldMatch, problems: Sequence[str]) -> str:
    return f"{match.name or 'that document'} is not a valid Field Match: {'; '.join(problems)}"


def _moved_to(item: FieldObject, old: FieldGeometry, new: FieldGeometry) -> FieldObject:
    if item.square is None:
        return item
    column, row = old.column_of(item.square), old.row_of(item.square)
    if column >= new.columns or row >= new.rows:
        square = old.format_square(item.square)
        raise IllegalActionError(
            f"the amended {new.describe()} Field would leave {item.kind} at {square} off it",
            rule=RULE_FIELD_MATCHES,
        )
    return item.placed_at(new.square_at(column, row))


def _cleared(state: FieldState) -> FieldState:
    # "that Field Match ceases to be the Current Field Match, all Field
    # Objects are destroyed, and the Priority List and Field are cleared."
    return FieldState(next_object_id=state.next_object_id, turn_number=state.turn_number)


class _Turn:
    """The running Turn: a private accumulator, discarded once the result is built."""

    def __init__(
        self,
        state: FieldState,
        rules: MatchRules,
        context: TurnContext,
        random: RandomSource,
        number: int,
    ) -> None:
        self.state = state
        self.rules = rules
        self.context = context
        self.random = random
        self.number = number
        self.carried_out: list[ActionRecord] = []
        self.refusals: list[Refusal] = []
        self.taken_up: set[int] = set()
        self.walked: set[ObjectId] = set()
        self.ending: MatchEnding | None = None
        self.final_position: FieldState | None = None

    @property
    def ended(self) -> bool:
        return self.ending is not None

    def field_step(self, requests: Sequence[tuple[int, Request]]) -> None:
        """Step 1: The Field's actions in listed order."""
        for spec in self.state.current_match.field_actions:
            if self.ended:
                return
            if spec.on_start:
                continue  # its trigger is the match becoming current, not a Turn
            rule = self.rules.rule_for(SCOPE_FIELD, spec.name)
            self.run(spec, rule, None, _addressed(requests, spec.name, None))

    def object_step(self, requests: Sequence[tuple[int, Request]]) -> tuple[PriorityEntry, ...]:
        """Step 2: each object from the top of the Priority List, its actions in listed order."""
        if self.ended:
            return ()
        geometry = self.state.geometry
        order = tuple(
            PriorityEntry(item.object_id, object_label(item, geometry))
            for item in self.state.objects
        )
        self.walked = {entry.object_id for entry in order}
        for entry in order:
            self._object_actions(entry.object_id, requests)
        return order

    def _object_actions(self, object_id: ObjectId, requests: Sequence[tuple[int, Request]]) -> None:
        subject = object_by_id(self.state, object_id) if not self.ended else None
        object_type = (
            None if subject is None else self.state.current_match.object_type(subject.kind)
        )
        if subject is None or object_type is None:
            return
        for spec in object_type.actions:
            if self.ended or object_by_id(self.state, object_id) is None:
                return
            rule = self.rules.rule_for(subject.kind, spec.name)
            self.run(spec, rule, object_id, _addressed(requests, spec.name, object_id))

    def run(
        self,
        spec: ActionSpec,
        rule: ActionRule,
        object_id: ObjectId | None,
        requests: Sequence[tuple[int, Request]],
    ) -> None:
        """Check the trigger once per request (or once, for a condition) and carry out."""
        if not spec.invokable:
            if rule.trigger(self._call(None, object_id)) is None:
                self.carry_out(spec, rule, None, object_id)
            return
        for index, request in requests:
            if self.ended or (
                object_id is not None and object_by_id(self.state, object_id) is None
            ):
                return
            self.taken_up.add(index)
            failure = rule.trigger(self._call(request, object_id))
            if failure is None:
                self.carry_out(spec, rule, request, object_id)
            else:
                self.refusals.append(
                    Refusal(request, failure.message, failure.rule, failure.from_nweek)
                )

    def carry_out(
        self,
        spec: ActionSpec,
        rule: ActionRule,
        request: Request | None,
        object_id: ObjectId | None,
    ) -> None:
        """Carry out the effect, order new objects, record it, and clear on an ending."""
        before = set(self.state.priority_list)
        outcome = rule.effect(self._call(request, object_id), self.random)
        state = self._order_new_objects(outcome, before, spec.name)
        record = ActionRecord(
            turn=self.number,
            nweek=self.context.nweek,
            action=spec.name,
            invoker=None if request is None else request.invoker,
            object_id=object_id,
            summary=outcome.summary,
        )
        state = replace(state, history=(*state.history, record))
        self.carried_out.append(record)
        if outcome.ending is None:
            self.state = state
            return
        self.ending, self.final_position, self.state = outcome.ending, state, _cleared(state)

    def refuse_leftovers(self, requests: Sequence[tuple[int, Request]]) -> None:
        """Refuse the requests no action of the match took up, saying why."""
        for index, request in requests:
            if index not in self.taken_up:
                self.refusals.append(
                    Refusal(request, self._leftover_reason(request), RULE_FIELD_MATCHES)
                )

    def _leftover_reason(self, request: Request) -> str:
        if self.ended:
            return "the Field Match ended earlier in this Turn of the Field"
        match = self.state.current_match
        if request.target is None:
            return f"The Field has no Invokable Action {request.action} in {match.name}"
        target = object_by_id(self.state, request.target)
        if target is None:
            return f"Field Object #{request.target} no longer exists"
        if target.object_id not in self.walked:
            return f"{target.kind} #{target.object_id} joined the Priority List during this Turn"
        return f"a {target.kind} has no Invokable Action {request.action} in {match.name}"

    def _call(self, request: Request | None, object_id: ObjectId | None) -> ActionCall:
        subject = None if object_id is None else object_by_id(self.state, object_id)
        return ActionCall(self.state, self.context, request, subject)

    def _order_new_objects(
        self, outcome: EffectOutcome, before: set[ObjectId], action: str
    ) -> FieldState:
        # "If multiple Field Objects are created at the same time, the Referee
        # shall add them in random order."
        state = outcome.state
        created = [item for item in state.objects if item.object_id not in before]
        if len(created) < 2:
            return state
        kept = tuple(item for item in state.objects if item.object_id in before)
        geometry = state.geometry
        labels = {object_label(item, geometry): item for item in created}
        purpose = f"{action}: Priority List order of {len(created)} new Field Objects"
        shuffled = self.random.shuffle(list(labels), purpose)
        return replace(state, objects=kept + tuple(labels[label] for label in shuffled))


def _addressed(
    requests: Sequence[tuple[int, Request]], action: str, target: ObjectId | None
) -> tuple[tuple[int, Request], ...]:
    return tuple(
        (index, request)
        for index, request in requests
        if request.action == action and request.target == target
    )
