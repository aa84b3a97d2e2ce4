"""B Nomic's Sub-Game Framework (seed 003): The Field, Field Objects, Field Matches.

Pure and standard-library only.  A match is a document (data) plus the code
of its actions (``MatchRules``); adding a match is one module of rules and
its document, as ``bot.games.field.life`` shows.

Squares (``squares``)
    ``Square = int`` (``row * columns + column``; A1 = 0 is bottom-left, rows
    numbered upwards as in rule 1639 A); ``Adjacency.FOUR`` / ``EIGHT``.
    ``FieldGeometry(rows, columns, torus=True, adjacency=Adjacency.FOUR)``
    with ``square_count``, ``square_at(column, row) -> Square``,
    ``column_of(square) -> int``, ``row_of(square) -> int``,
    ``describe() -> str``, ``format_square(square) -> str``,
    ``parse_square(text, *, rule=RULE_FIELD) -> Square`` (raises
    ``ActionSyntaxError`` / ``IllegalActionError``),
    ``neighbours(square) -> tuple[Square, ...]``.
    ``column_label(column: int) -> str``, ``column_index(label: str) -> int``.

Objects and attributes (``objects``)
    ``Attributes(items)`` with ``of(pairs)``, ``get(name, default=None)``,
    ``with_value(name, value)``; ``AttributeValue = str | int | bool | None``.
    ``FieldObject(object_id, kind, owner=None, square=None, size=(1, 1),
    attributes=Attributes())`` with ``is_placed``, ``attribute(name)``,
    ``with_attribute(name, value)``, ``placed_at(square)``.
    ``squares_occupied(field_object, geometry) -> tuple[Square, ...]``.

Field Matches (``match``)
    ``FieldMatch(name, rules, rows, columns, communication, object_types=(),
    field_actions=(), attributes=(), torus=True, adjacency=Adjacency.FOUR,
    trophy="", parameters=())`` with ``geometry``, ``parameter(name)``,
    ``object_type(name)``, ``attribute_spec(name, scope)``, ``all_actions()``;
    ``ActionSpec(name, invokable=False, ends_match=False, on_start=False,
    text="")``, ``ObjectType(name, actions=(), size=(1, 1))``,
    ``AttributeSpec(name, scope, values=(), default=None)``.
    ``validate_match(match: FieldMatch) -> tuple[str, ...]`` (problems).

State (``state``): ``FieldState(match=None, objects=(), field_attributes,
    player_attributes, next_object_id=1, turn_number=0, history=())``;
    ``objects`` is in Priority List order (``priority_list``).
    ``object_by_id(state, object_id)``, ``objects_at(state, square)``,
    ``objects_of_kind(state, kind)``, ``create_object(state, kind, *,
    owner=None, square=None, attributes=()) -> tuple[FieldState,
    FieldObject]``, ``destroy_object(state, object_id)``,
    ``replace_object(state, changed)``, ``field_attribute(state, name)``,
    ``with_field_attribute(state, name, value)``, ``player_attribute(state,
    player, name)``, ``with_player_attribute(state, player, name, value)``,
    ``actions_performed(state, action, *, invoker=None, nweek=None) ->
    tuple[ActionRecord, ...]``; ``renamed(state, old, new) -> FieldState``
    (rule 151: a player's objects, attributes and requests follow eir name);
    ``forfeited(state, name) -> tuple[FieldState, FieldForfeiture]`` (rule 14:
    eir objects and attributes go, eir requests stay as a Lost Soul's).

Actions (``actions``)
    ``RandomSource`` (Protocol: ``choice``, ``randint``, ``shuffle``, as
    ``bot.games.dice.DrawSource``); ``Request(invoker, action, target=None,
    arguments=(), text="")``; ``TurnContext(nweek, referee, players=())``;
    ``ActionCall(state, context, request, subject)``;
    ``TriggerFailure(message, rule)``; ``EffectOutcome(state, summary,
    ending=None)``; ``MatchEnding(match_name, winners, reason)``;
    ``ActionRule(trigger, effect)``; ``MatchRules(name, actions)`` with
    ``rule_for(scope, action)``.

Turning the Field (``turning``)
    ``select_match(state, match, rules, context, random) -> SelectionResult``
    ``turn_field(state, rules, requests, context, random) -> TurnResult``
    (``TurnResult(state, record: TurnRecord, final_position)``; the record
    holds ``priority_order: tuple[PriorityEntry, ...]``, ``carried_out``,
    ``refusals: tuple[Refusal, ...]``, ``ending``)
    ``amend_current_match(state, match) -> FieldState``
    ``describe_turn(record: TurnRecord) -> str``,
    ``object_label(field_object, geometry) -> str``.

Storage (``serialize``)
    ``match_to_json`` / ``match_from_json``, ``state_to_json`` /
    ``state_from_json``, ``turn_record_to_json`` / ``turn_record_from_json``.

Readings of ambiguous text are listed in ``squares`` (notation), ``match``
(validity, start-up actions) and ``turning`` (trigger timing, the Priority
List walked in step 2, simultaneous creation, the end of a match).
"""

from bot.games.field.actions import (
    RULE_FIELD_MATCHES,
    ActionCall,
    ActionRule,
    EffectOutcome,
    MatchEnding,
    MatchRules,
    RandomSource,
    Request,
    TriggerFailure,
    TurnContext,
)
from bot.games.field.match import (
    SCOPE_FIELD,
    SCOPE_PLAYERS,
    ActionSpec,
    AttributeSpec,
    FieldMatch,
    ObjectType,
    Parameter,
    validate_match,
)
from bot.games.field.objects import (
    Attributes,
    AttributeValue,
    FieldObject,
    ObjectId,
    PlayerId,
    squares_occupied,
)
from bot.games.field.serialize import (
    match_from_json,
    match_to_json,
    state_from_json,
    state_to_json,
    turn_record_from_json,
    turn_record_to_json,
)
from bot.games.field.squares import (
    RULE_FIELD,
    Adjacency,
    FieldGeometry,
    Square,
    column_index,
    column_label,
)
from bot.games.field.state import (
    ActionRecord,
    FieldForfeiture,
    FieldState,
    actions_performed,
    create_object,
    destroy_object,
    field_attribute,
    forfeited,
    object_by_id,
    objects_at,
    objects_of_kind,
    player_attribute,
    renamed,
    replace_object,
    with_field_attribute,
    with_player_attribute,
)
from bot.games.field.turning import (
    PriorityEntry,
    Refusal,
    SelectionResult,
    TurnRecord,
    TurnResult,
    amend_current_match,
    describe_turn,
    object_label,
    select_match,
    turn_field,
)

__all__ = [
    "RULE_FIELD",
    "RULE_FIELD_MATCHES",
    "SCOPE_FIELD",
    "SCOPE_PLAYERS",
    "ActionCall",
    "ActionRecord",
    "ActionRule",
    "ActionSpec",
    "Adjacency",
    "AttributeSpec",
    "AttributeValue",
    "Attributes",
    "EffectOutcome",
    "FieldGeometry",
    "FieldMatch",
    "FieldObject",
    "FieldState",
    "MatchEnding",
    "MatchRules",
    "ObjectId",
    "ObjectType",
    "Parameter",
    "PlayerId",
    "PriorityEntry",
    "RandomSource",
    "Refusal",
    "Request",
    "SelectionResult",
    "Square",
    "TriggerFailure",
    "TurnContext",
    "TurnRecord",
    "TurnResult",
    "actions_performed",
    "amend_current_match",
    "column_index",
    "column_label",
    "create_object",
    "describe_turn",
    "destroy_object",
    "field_attribute",
    "match_from_json",
    "match_to_json",
    "object_by_id",
    "object_label",
    "objects_at",
    "objects_of_kind",
    "player_attribute",
    "renamed",
    "forfeited",
    "FieldForfeiture",
    "replace_object",
    "select_match",
    "squares_occupied",
    "state_from_json",
    "state_to_json",
    "turn_field",
    "turn_record_from_json",
    "turn_record_to_json",
    "validate_match",
    "with_field_attribute",
    "with_player_attribute",
]
