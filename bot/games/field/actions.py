"""Actions with Triggers and Effects, and the code a Field Match binds to them (seed 003).

"Every action has: A Trigger - a set of conditions that must be true for this
action to take place.  An Effect - what takes place when the conditions in the
Trigger are true."  Here a trigger is a function returning None when its
conditions hold or a ``TriggerFailure`` saying which one does not (an outcome,
quoted back to the player who invoked it), and an effect is a function
returning an ``EffectOutcome``.  An Invokable Action is one whose trigger
includes an Outsider's request; the request reaches the trigger in
``ActionCall.request``.

Effects draw chance only from the injected ``RandomSource`` (STYLE.md,
"Randomness is data"); ``bot.games.dice.DrawSource`` is one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from bot.games.errors import IllegalActionError
from bot.games.field.objects import FieldObject, ObjectId, PlayerId
from bot.games.field.state import FieldState

Item = TypeVar("Item")

RULE_FIELD_MATCHES = "Field Matches (seed 003)"


class RandomSource(Protocol):
    """A recorded random source (``bot.games.dice.DrawSource`` is one)."""

    def choice(self, options: Sequence[Item], purpose: str) -> Item: ...

    def randint(self, low: int, high: int, purpose: str) -> int: ...

    def shuffle(self, items: Sequence[Item], purpose: str) -> list[Item]: ...


@dataclass(frozen=True)
class Request:
    """A request to make an Invokable Action (seed 003, "Field Matches").

    ``target`` is the Field Object whose action is invoked, or None for an
    action of The Field; ``arguments`` are what the match's action reads
    (e.g. a square); ``text`` is the request as posted, for rulings.
    """

    invoker: PlayerId
    action: str
    target: ObjectId | None = None
    arguments: tuple[str, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class TurnContext:
    """When the Turn happens and who takes part: the nweek, the Referee, the Players.

    ``players`` are every Player (Life's Teams); ``active_players`` those
    who are active, not On Leave (rule 205; B-Chess's "Active Player"),
    None when they are all of ``players``.
    """

    nweek: int
    referee: PlayerId
    players: tuple[PlayerId, ...] = ()
    active_players: tuple[PlayerId, ...] | None = None

    @property
    def active(self) -> tuple[PlayerId, ...]:
        """The Active Players: those not On Leave."""
        return self.players if self.active_players is None else self.active_players


@dataclass(frozen=True)
class ActionCall:
    """What a trigger or effect sees: the state now, the request (if any), the object."""

    state: FieldState
    context: TurnContext
    request: Request | None
    subject: FieldObject | None


@dataclass(frozen=True)
class TriggerFailure:
    """Why a trigger's conditions are not all true, in a player's words, with the rule.

    ``from_nweek`` (displayed, one-based) is set when the action becomes
    possible as that nweek begins; the message then ends "from nweek N", for
    the engine to date (``not_before_nweek``).
    """

    message: str
    rule: str
    from_nweek: int | None = None

    def as_error(self) -> IllegalActionError:
        return IllegalActionError(self.message, rule=self.rule)


def not_before_nweek(reason: str, rule: str, again: str, nweek: int) -> TriggerFailure:
    """A failure that lasts until (displayed) ``nweek`` begins: "...; Alice may tweak
    again from nweek 4"."""
    return TriggerFailure(f"{reason}; {again} from nweek {nweek}", rule, from_nweek=nweek)


@dataclass(frozen=True)
class MatchEnding:
    """The end of a Field Match and the winners it declares (seed 003, "Win by Field Match")."""

    match_name: str
    winners: tuple[PlayerId, ...]
    reason: str


@dataclass(frozen=True)
class EffectOutcome:
    """The state after an effect, a one-line summary for the record, and any ending."""

    state: FieldState
    summary: str
    ending: MatchEnding | None = None


Trigger = Callable[[ActionCall], TriggerFailure | None]
Effect = Callable[[ActionCall, RandomSource], EffectOutcome]


@dataclass(frozen=True)
class ActionRule:
    """The code of one action: its trigger and its effect."""

    trigger: Trigger
    effect: Effect


@dataclass(frozen=True)
class MatchRules:
    """The code of one Field Match: ``name`` equals ``FieldMatch.rules``.

    ``actions`` maps (scope, action name) to its code, scope being "Field" or
    an object type, as the document attaches them.
    """

    name: str
    actions: tuple[tuple[tuple[str, str], ActionRule], ...]

    def rule_for(self, scope: str, action: str) -> ActionRule:
        """The code of ``action`` of ``scope``; ``KeyError`` if unbound (a defect)."""
        for key, rule in self.actions:
            if key == (scope, action):
                return rule
        raise KeyError(f"rules {self.name!r} do not implement {scope} action {action!r}")

    def unbound_actions(self, scoped_names: Sequence[tuple[str, str]]) -> tuple[str, ...]:
        """Which of ``scoped_names`` have no code here, as "scope: action"."""
        bound = {key for key, _ in self.actions}
        return tuple(
            f"{scope}: {name}" for scope, name in scoped_names if (scope, name) not in bound
        )
