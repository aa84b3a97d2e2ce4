"""Quotas and status gates (mechanic M5 of the catalogue).

A quota is "at most N of this action per player per period": one Go move
per Checking Period (1639 C), picking in at most three gardens one doesn't
own per Checking Period (1902 B), one Pick Slowly (1909).  A gate is a
status that bars actions while it lasts: On Leave, Blacked Out (1913), the
rest of a Checking Period after a Pick Slowly (1909).  A refusal is a
``PossibleLaterError``: it cites its rule and says when the action becomes
possible again, as The Clock shows it (rule 3 A).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from bot.games.economy.effects import Effects
from bot.games.economy.moments import Moment
from bot.games.errors import IllegalActionError, NotYetError

PlayerKey = str  # the engine's stable key of a player (a rename changes nothing)


class Period(Enum):
    """The periods rules count actions in (rule 3 A)."""

    NDAY = "nday"
    CHECKING_PERIOD = "Checking Period"
    NWEEK = "nweek"

    def index(self, at: Moment) -> int:
        """A number naming the period holding ``at``, growing by one per period."""
        if self is Period.NDAY:
            return at.ndays
        if self is Period.CHECKING_PERIOD:
            return at.checking_period.index
        return at.nweek

    def next_start(self, at: Moment) -> Moment:
        """When the period after the one holding ``at`` begins."""
        if self is Period.NDAY:
            return Moment(at.ndays + 1)
        if self is Period.CHECKING_PERIOD:
            return at.next_period_start()
        return at.next_nweek_start()


class PossibleLaterError(NotYetError):
    """An action refused until ``possible_from`` (Clock time).

    For a Checking Period the message reads "from the next Checking Period"
    as ``NotYetError`` does (the engine dates it); otherwise it names the
    nweek and nday.
    """

    def __init__(self, reason: str, *, rule: str, again: str, possible_from: Moment) -> None:
        super().__init__(reason, rule=rule, again=again)
        self.possible_from = possible_from
        if not possible_from.is_checkpoint or possible_from.is_nweek_start:
            self.message = f"{reason}; {again} from {possible_from.display()}"
            self.args = (self.message,)


@dataclass(frozen=True)
class Quota:
    """At most ``limit`` of ``action`` per player per ``period`` (``rule``).

    ``doing`` is the action in words, after "may" ("pick Fruit in another
    garden").
    """

    action: str
    limit: int
    period: Period
    rule: str
    doing: str
    reason: str = ""  # the rule's own why, if it gives one ("because eir arms are full")
    limit_words: str = ""  # the limit in the rule's words, instead of "only once per nweek"
    again_doing: str = ""  # what becomes possible again, when not ``doing``


@dataclass(frozen=True)
class Quotas:
    """How often each player did each counted action, in the periods that still matter."""

    counts: Mapping[tuple[PlayerKey, str, int], int] = field(default_factory=dict)

    def used(self, player: PlayerKey, quota: Quota, at: Moment) -> int:
        return self.counts.get((player, quota.action, quota.period.index(at)), 0)

    def check(self, player: PlayerKey, quota: Quota, at: Moment, *, name: str = "") -> None:
        """Raises ``PossibleLaterError`` if ``player`` used up ``quota`` in the period of ``at``."""
        if self.used(player, quota, at) < quota.limit:
            return
        times = "once" if quota.limit == 1 else f"{quota.limit} times"
        limit = quota.limit_words or f"only {times} per {quota.period.value}"
        reason = f"you may {quota.doing} {limit}"
        if quota.reason:
            reason = f"{reason} ({quota.reason})"
        raise PossibleLaterError(
            reason,
            rule=quota.rule,
            again=f"{name or 'you'} may {quota.again_doing or quota.doing} again",
            possible_from=quota.period.next_start(at),
        )

    def recorded(self, player: PlayerKey, quota: Quota, at: Moment) -> Quotas:
        """One more use of ``quota`` by ``player``; counts of earlier periods are forgotten."""
        index = quota.period.index(at)
        counts = {
            key: count
            for key, count in self.counts.items()
            if not (key[1] == quota.action and key[2] < index)
        }
        key = (player, quota.action, index)
        counts[key] = counts.get(key, 0) + 1
        return Quotas(counts)


@dataclass(frozen=True)
class Gate:
    """While a player has ``status`` (an effect), e may not take ``actions`` (``rule``)."""

    status: str
    actions: frozenset[str]
    rule: str
    reason: str  # why, in the rule's words ("e spent so much time ... from this one")


def check_gates(
    gates: Iterable[Gate],
    effects: Effects,
    player: PlayerKey,
    action: str,
    at: Moment,
    *,
    again: str,
) -> None:
    """Raises ``PossibleLaterError`` (or ``IllegalActionError`` for a status without end)."""
    for gate in gates:
        if action not in gate.actions or not effects.holds(player, gate.status, at):
            continue
        until = effects.lasts_until(player, gate.status, at)
        if until is None:
            raise IllegalActionError(gate.reason, rule=gate.rule)
        raise PossibleLaterError(gate.reason, rule=gate.rule, again=again, possible_from=until)
