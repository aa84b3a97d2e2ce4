"""Life as the engine plays it: one call per Game Action, one Turn of the Field each.

Every call turns the Field through ``bot.games.field.turning`` with a single
request.  In Life no action triggers on the state alone, so a Turn whose
only request is refused changes nothing: the refusal is raised as
``IllegalActionError`` (citing the Life action) and the engine records no
Turn.  Players name Cells by square ("I tweak cell B2").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn, TypeVar

from bot.games.errors import IllegalActionError
from bot.games.field.actions import RULE_FIELD_MATCHES, RandomSource, Request, TurnContext
from bot.games.field.life.rules import (
    CELL,
    EVOLVE,
    INITIALIZE,
    LIFE,
    LIFE_RULES,
    RULE_TWEAK,
    TWEAK,
)
from bot.games.field.match import FieldMatch
from bot.games.field.objects import PlayerId
from bot.games.field.state import FieldState, objects_at, objects_of_kind
from bot.games.field.turning import SelectionResult, TurnResult, select_match, turn_field

Item = TypeVar("Item")


def start_life(
    state: FieldState, context: TurnContext, random: RandomSource, match: FieldMatch = LIFE
) -> SelectionResult:
    """The Referee selects Life (or an amended copy of it) as the Current Field Match.

    Raises ``IllegalActionError`` if a match is already current or ``match``
    is not valid.
    """
    return select_match(state, match, LIFE_RULES, context, random)


def initialize(state: FieldState, context: TurnContext, random: RandomSource) -> TurnResult:
    """The Referee's Initialize; the draws are in ``random`` for publishing.

    Raises ``IllegalActionError`` if Life is not current or Cells exist.
    """
    request = Request(context.referee, INITIALIZE, text="Initialize")
    return _invoke(state, request, context, random)


def evolve(state: FieldState, context: TurnContext, random: RandomSource) -> TurnResult:
    """The Referee's Evolve for ``context.nweek``; may end the match (``record.ending``).

    Raises ``IllegalActionError`` if Life is not current or Evolve was
    already performed in that nweek.
    """
    request = Request(context.referee, EVOLVE, text="Evolve")
    return _invoke(state, request, context, random)


def tweak(
    state: FieldState, context: TurnContext, player: PlayerId, square_text: str
) -> TurnResult:
    """``player`` tweaks the Cell on ``square_text`` ("B2").

    Raises ``ActionSyntaxError`` for text that is no square, and
    ``IllegalActionError`` for a square off the Field, no Cell there, or a
    Tweak the trigger refuses (no Team, before Evolve, second in the nweek,
    a Cell of another colour), citing the rule.
    """
    _require_life(state)
    geometry = state.geometry
    square = geometry.parse_square(square_text, rule=RULE_TWEAK)
    name = geometry.format_square(square)
    cells = [item for item in objects_at(state, square) if item.kind == CELL]
    if not cells:
        # Only an amended, larger Field can have squares without Cells.
        why = "" if objects_of_kind(state, CELL) else ": Life has not been initialized"
        raise IllegalActionError(f"there is no Cell on {name}{why}", rule=RULE_TWEAK)
    request = Request(player, TWEAK, cells[0].object_id, (name,), f"I tweak cell {name}")
    return _invoke(state, request, context, _NoChance())


def _invoke(
    state: FieldState, request: Request, context: TurnContext, random: RandomSource
) -> TurnResult:
    _require_life(state)
    result = turn_field(state, LIFE_RULES, (request,), context, random)
    if result.record.refusals:
        raise result.record.refusals[0].as_error()
    return result


def _require_life(state: FieldState) -> None:
    if state.match is None or state.match.rules != LIFE_RULES.name:
        raise IllegalActionError("Life is not the Current Field Match", rule=RULE_FIELD_MATCHES)


class _NoChance:
    """Tweak draws nothing; a draw here would be a defect, so it raises."""

    def choice(self, options: Sequence[Item], purpose: str) -> Item:
        _no_draw(purpose)

    def randint(self, low: int, high: int, purpose: str) -> int:
        _no_draw(purpose)

    def shuffle(self, items: Sequence[Item], purpose: str) -> list[Item]:
        _no_draw(purpose)


def _no_draw(purpose: str) -> NoReturn:
    raise ValueError(f"a Tweak made a random draw ({purpose})")
