"""The mechanics B Nomic's economy shares (seed 004, rules 1900 on), pure.

The catalogue (``../shared/seeds/CATALOGUE.md``, "Cross-cutting mechanics")
names them; each is small and general, so that Gardens (1902), Tomatoes
(1908), Thorns (1909) and the subgames after them are built on one of each:

* ``moments``: Clock time (rule 3 A), the instants rules are judged at;
* ``effects`` (M4): lasting effects with an expiry, read through one
  ``Effects.value_of``;
* ``quotas`` (M5): per player, action kind and period counters and status
  gates, each refusal citing its rule and saying when the action is possible
  again;
* ``events`` (M6): simultaneous timed events in rule 3 C's order (Chutzpah,
  then rule number), per-object timers, and invariants re-checked after each
  action and event;
* ``conversions`` (M3): one atomic "destroy these, create those" with its
  preconditions and payments;
* ``permissions``: rule 636's permissions as records;
* ``proofs``: the ``draw-v1`` line each recorded draw is published with.

Standard library only; every random draw comes from a ``DrawSource``
(``bot.games.dice``) handed in.
"""

from bot.games.economy.conversions import Conversion, ObjectStore, Payment, convert
from bot.games.economy.effects import Effect, Effects, Operation
from bot.games.economy.events import (
    Handler,
    Happening,
    Invariant,
    TimedEvent,
    Timer,
    in_rule_order,
    restore_invariants,
    run_events,
)
from bot.games.economy.moments import Moment
from bot.games.economy.permissions import Permission, Permissions
from bot.games.economy.proofs import draw_proof, draw_proofs
from bot.games.economy.quotas import (
    Gate,
    Period,
    PlayerKey,
    PossibleLaterError,
    Quota,
    Quotas,
    check_gates,
)

__all__ = [
    "Conversion",
    "Effect",
    "Effects",
    "Gate",
    "Handler",
    "Happening",
    "Invariant",
    "Moment",
    "ObjectStore",
    "Operation",
    "Payment",
    "Period",
    "Permission",
    "Permissions",
    "PlayerKey",
    "PossibleLaterError",
    "Quota",
    "Quotas",
    "TimedEvent",
    "Timer",
    "check_gates",
    "convert",
    "draw_proof",
    "draw_proofs",
    "in_rule_order",
    "restore_invariants",
    "run_events",
]
