"""The Life Field Match (seed 000, "Life"): its document and its actions.

``LIFE`` is the match as a document: a 5 x 5 torus whose squares are also
adjacent to the four squares sharing only a corner, the Team, Color and
Advantage attributes, a Cell object with the Tweak action, and The Field's
Initialize and Evolve actions.  The numbers the text fixes (size, torus,
adjacency, the 11/16 chance of a null Cell, the Advantage's rotation) are
parameters of the document; ``LIFE_RULES`` is the code of the three actions.

Readings (the lead copies these to docs/readings.md):

* Initialize draws, square by square from A1 along each row, a number from
  1 to 16 (1-11: null, "null has probability 11/16"), then for a coloured
  Cell one of Red, Green, Blue; then each Player's Team in the engine's
  player order, then the Advantage.  The 25 Cells are created by one effect,
  so their Priority List order is one more recorded shuffle.
* Cells have no owner, and any Player (not any Outsider: "A Player posts")
  may tweak any Cell; the Tweak needs a non-null Team ("that Player's
  non-null Team"), so a player who joined after Initialize waits for the
  next Evolve to get one.  A refused Tweak is not "performed", so the
  player may tweak again in that nweek.
* Evolve may be performed before Initialize; it then only gives Teams to
  players without one (no Cells, and a null Advantage does not rotate).
* When Evolve leaves exactly one colour the match ends at step 2 and steps
  3 and 4 are not carried out: the match is no longer current.  No colour
  at all is not "exactly one": the match goes on, and Tweaks can revive it.
* Winners are the Players (as the engine lists them) whose Team is that
  colour when the match ends.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.field.actions import (
    ActionCall,
    ActionRule,
    EffectOutcome,
    MatchEnding,
    MatchRules,
    RandomSource,
    TriggerFailure,
    not_before_nweek,
)
from bot.games.field.life.grid import COLOURS, Colour, LifeGrid, evolve_grid
from bot.games.field.match import (
    SCOPE_FIELD,
    SCOPE_PLAYERS,
    ActionSpec,
    AttributeSpec,
    FieldMatch,
    ObjectType,
)
from bot.games.field.objects import AttributeValue, FieldObject, PlayerId
from bot.games.field.squares import Adjacency, Square
from bot.games.field.state import (
    FieldState,
    actions_performed,
    create_object,
    field_attribute,
    objects_of_kind,
    player_attribute,
    replace_object,
    with_field_attribute,
    with_player_attribute,
)

CELL = "Cell"
COLOR = "Color"
TEAM = "Team"
ADVANTAGE = "Advantage"
INITIALIZE = "Initialize"
TWEAK = "Tweak"
EVOLVE = "Evolve"
RULE_INITIALIZE = "Life: Initialize (seed 000)"
RULE_TWEAK = "Life: Tweak (seed 000)"
RULE_EVOLVE = "Life: Evolve (seed 000)"
NULL_CHANCE = "null chance"
ADVANTAGE_ROTATION = "advantage rotation"

_RANGE: tuple[AttributeValue, ...] = (*(colour.value for colour in COLOURS), None)

LIFE = FieldMatch(
    name="Life",
    rules="life",
    rows=5,
    columns=5,
    communication="a message to a Public Forum",
    object_types=(
        ObjectType(CELL, actions=(ActionSpec(TWEAK, invokable=True, text="I tweak cell B2"),)),
    ),
    field_actions=(
        ActionSpec(INITIALIZE, invokable=True, text="Referee: while no Cells exist"),
        ActionSpec(EVOLVE, invokable=True, ends_match=True, text="Referee: once per nweek"),
    ),
    attributes=(
        AttributeSpec(TEAM, SCOPE_PLAYERS, _RANGE, None),
        AttributeSpec(COLOR, CELL, _RANGE, None),
        AttributeSpec(ADVANTAGE, SCOPE_FIELD, _RANGE, None),
    ),
    torus=True,
    adjacency=Adjacency.EIGHT,
    trophy="A copy of the October 1970 issue of Scientific American autographed by John Conway.",
    parameters=(
        (NULL_CHANCE, (11, 16)),
        (ADVANTAGE_ROTATION, tuple(colour.value for colour in COLOURS)),
    ),
)


def colour_of(value: AttributeValue) -> Colour | None:
    """An attribute value as a Colour (None for null); ``ValueError`` for other text."""
    return None if value is None else Colour(value)


def grid_of(state: FieldState) -> LifeGrid:
    """The Cells' colours on the current Field as a ``LifeGrid``."""
    colours: dict[Square, Colour] = {}
    for cell in objects_of_kind(state, CELL):
        colour = colour_of(cell.attribute(COLOR))
        if cell.square is not None and colour is not None:
            colours[cell.square] = colour
    return LifeGrid.from_colours(state.geometry, colours)


def team_of(state: FieldState, player: PlayerId) -> Colour | None:
    return colour_of(player_attribute(state, player, TEAM))


def advantage_of(state: FieldState) -> Colour | None:
    return colour_of(field_attribute(state, ADVANTAGE))


# Initialize ------------------------------------------------------------------


def _initialize_trigger(call: ActionCall) -> TriggerFailure | None:
    if call.request is None or call.request.invoker != call.context.referee:
        return TriggerFailure("only the Referee may Initialize Life", RULE_INITIALIZE)
    if objects_of_kind(call.state, CELL):
        return TriggerFailure("Life is already initialized: Cells exist", RULE_INITIALIZE)
    return None


def _initialize_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    state = call.state
    for square in range(state.geometry.square_count):
        colour = _draw_cell_colour(state, square, random)
        state, _ = create_object(state, CELL, square=square, attributes=[(COLOR, _value(colour))])
    teams = []
    for player in call.context.players:
        team = _draw_colour(random, f"Initialize: Team of {player}")
        state = with_player_attribute(state, player, TEAM, team.value)
        teams.append(f"{player} {team.value}")
    advantage = _draw_colour(random, "Initialize: Advantage")
    state = with_field_attribute(state, ADVANTAGE, advantage.value)
    coloured = grid_of(state).population
    summary = (
        f"placed {state.geometry.square_count} Cells ({coloured} coloured); "
        f"Teams: {', '.join(teams) or 'no players'}; Advantage {advantage.value}"
    )
    return EffectOutcome(state, summary)


def _draw_cell_colour(state: FieldState, square: Square, random: RandomSource) -> Colour | None:
    # "null has probability 11/16, all other values are equally likely": a
    # draw out of 16 a reader can check, then a choice among the colours.
    null_count, out_of = _null_chance(state)
    name = state.geometry.format_square(square)
    purpose = f"Initialize: Cell {name} (1-{null_count} null)"
    if random.randint(1, out_of, purpose) <= null_count:
        return None
    return _draw_colour(random, f"Initialize: colour of Cell {name}")


def _draw_colour(random: RandomSource, purpose: str) -> Colour:
    # Choose among the names, so the published draw reads "chose Red from Red,
    # Green, Blue".
    return Colour(random.choice([colour.value for colour in COLOURS], purpose))


def _null_chance(state: FieldState) -> tuple[int, int]:
    value = state.current_match.parameter(NULL_CHANCE)
    if not (isinstance(value, tuple) and len(value) == 2):
        raise ValueError(f"parameter {NULL_CHANCE!r} must be (numerator, denominator)")
    numerator, denominator = value
    if not (isinstance(numerator, int) and isinstance(denominator, int)):
        raise ValueError(f"parameter {NULL_CHANCE!r} must hold whole numbers")
    if not 0 <= numerator <= denominator or denominator < 1:
        raise ValueError(f"parameter {NULL_CHANCE!r} is not a probability")
    return numerator, denominator


# Tweak -----------------------------------------------------------------------


def _tweak_trigger(call: ActionCall) -> TriggerFailure | None:
    player = "" if call.request is None else call.request.invoker
    if player not in call.context.players:
        return TriggerFailure(f"only Players may tweak a Cell, and {player} is not one", RULE_TWEAK)
    team = team_of(call.state, player)
    if team is None:
        return TriggerFailure(
            f"{player} has no Team yet; players without one get a Team at the next Evolve",
            RULE_TWEAK,
        )
    return _tweak_timing_failure(call, player) or _tweak_colour_failure(call, team)


def _tweak_timing_failure(call: ActionCall, player: PlayerId) -> TriggerFailure | None:
    nweek = call.context.nweek
    if not actions_performed(call.state, EVOLVE, nweek=nweek):
        return TriggerFailure(
            f"the Referee has not yet performed Evolve in nweek {nweek}; "
            "Cells may be tweaked only after it",
            RULE_TWEAK,
        )
    earlier = actions_performed(call.state, TWEAK, invoker=player, nweek=nweek)
    if earlier:
        return not_before_nweek(
            f"{player} has already tweaked a Cell in nweek {nweek} ({earlier[0].summary})",
            RULE_TWEAK,
            f"{player} may tweak again",
            nweek + 1,
        )
    return None


def _tweak_colour_failure(call: ActionCall, team: Colour) -> TriggerFailure | None:
    cell = _subject_cell(call)
    colour = colour_of(cell.attribute(COLOR))
    if colour is None or colour is team:
        return None
    name = _cell_name(call.state, cell)
    return TriggerFailure(
        f"Cell {name} is {colour.value}; a {team.value} player may tweak only a null "
        f"or {team.value} Cell",
        RULE_TWEAK,
    )


def _tweak_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    cell = _subject_cell(call)
    team = team_of(call.state, call.request.invoker if call.request else "")
    before = colour_of(cell.attribute(COLOR))
    after = team if before is None else None
    state = replace_object(call.state, cell.with_attribute(COLOR, _value(after)))
    summary = f"Cell {_cell_name(state, cell)} {_name(before)} -> {_name(after)}"
    return EffectOutcome(state, summary)


def _subject_cell(call: ActionCall) -> FieldObject:
    if call.subject is None or call.subject.kind != CELL:
        raise ValueError("Tweak is an action of a Cell")
    return call.subject


# Evolve ----------------------------------------------------------------------


def _evolve_trigger(call: ActionCall) -> TriggerFailure | None:
    if call.request is None or call.request.invoker != call.context.referee:
        return TriggerFailure("only the Referee may perform Evolve", RULE_EVOLVE)
    nweek = call.context.nweek
    if actions_performed(call.state, EVOLVE, nweek=nweek):
        return not_before_nweek(
            f"Evolve has already been performed in nweek {nweek}",
            RULE_EVOLVE,
            "the Referee may evolve again",
            nweek + 1,
        )
    return None


@dataclass(frozen=True)
class _Generation:
    state: FieldState
    births: int
    deaths: int


def _evolve_effect(call: ActionCall, random: RandomSource) -> EffectOutcome:
    advantage = advantage_of(call.state)
    generation = _apply_generation(call.state, advantage)
    state = generation.state
    changes = f"{generation.births} births, {generation.deaths} deaths"
    remaining = grid_of(state).colours_present()
    if len(remaining) == 1:
        return EffectOutcome(state, changes, _ending(call, state, remaining[0]))
    rotated = _rotated(state, advantage)
    state = with_field_attribute(state, ADVANTAGE, _value(rotated))
    state, drawn = _give_missing_teams(state, call.context.players, random)
    teams = f"; Teams drawn: {', '.join(drawn)}" if drawn else ""
    return EffectOutcome(state, f"{changes}; Advantage {_name(rotated)}{teams}")


def _apply_generation(state: FieldState, advantage: Colour | None) -> _Generation:
    # Step 1: every Cell changes at once, from the grid as it stood.
    before = grid_of(state)
    after = evolve_grid(before, advantage)
    births = (after.live & ~before.live).bit_count()
    deaths = (before.live & ~after.live).bit_count()
    for cell in objects_of_kind(state, CELL):
        if cell.square is None:
            continue
        colour = after.colour_at(cell.square)
        if colour is not before.colour_at(cell.square):
            state = replace_object(state, cell.with_attribute(COLOR, _value(colour)))
    return _Generation(state, births, deaths)


def _ending(call: ActionCall, state: FieldState, colour: Colour) -> MatchEnding:
    # Step 2: "the match ends, with all Players whose Team is that color winning".
    winners = tuple(player for player in call.context.players if team_of(state, player) is colour)
    return MatchEnding(state.current_match.name, winners, f"only {colour.value} Cells remain")


def _rotated(state: FieldState, advantage: Colour | None) -> Colour | None:
    # Step 3: Red -> Green -> Blue -> Red, as the document's rotation lists them.
    order = state.current_match.parameter(ADVANTAGE_ROTATION)
    if advantage is None or not isinstance(order, tuple) or advantage.value not in order:
        return advantage
    return Colour(order[(order.index(advantage.value) + 1) % len(order)])


def _give_missing_teams(
    state: FieldState, players: tuple[PlayerId, ...], random: RandomSource
) -> tuple[FieldState, list[str]]:
    # Step 4: "Each Player whose Team is null has his Team changed to a random
    # non-null value".
    drawn: list[str] = []
    for player in players:
        if team_of(state, player) is None:
            team = _draw_colour(random, f"Evolve: Team of {player}")
            state = with_player_attribute(state, player, TEAM, team.value)
            drawn.append(f"{player} {team.value}")
    return state, drawn


def _cell_name(state: FieldState, cell: FieldObject) -> str:
    return "(not placed)" if cell.square is None else state.geometry.format_square(cell.square)


def _name(colour: Colour | None) -> str:
    return "null" if colour is None else colour.value


def _value(colour: Colour | None) -> AttributeValue:
    return None if colour is None else colour.value


LIFE_RULES = MatchRules(
    name="life",
    actions=(
        ((SCOPE_FIELD, INITIALIZE), ActionRule(_initialize_trigger, _initialize_effect)),
        ((SCOPE_FIELD, EVOLVE), ActionRule(_evolve_trigger, _evolve_effect)),
        ((CELL, TWEAK), ActionRule(_tweak_trigger, _tweak_effect)),
    ),
)
