"""A forfeit (rule 14, seed 004) reaching every game and office the player held a part in.

Rule 14: "When a Player ceases to be a player for any reason, e loses all
game defined properties and attributes except for eir Name, and becomes a
Lost Soul."  The roster adapter makes em a Lost Soul and strips the ledger
(``holdings.strip_holdings``); then the engine's per-action hook
(``roster.after_action``) calls ``forfeit_in_adapters``, the one place that
tells every game and office, in the forfeit's own transaction:

* Political Go, rule set B (``GoAdapter``): stones removed, Go Score gone,
  alliances and consents ended (rule 1639; ``bot.games.go.forfeited``);
* Political Go, rule set A (``AnomicGoAdapter``): Stones In Play, Reserve
  and Captured gone, alliances and offers ended (rules 365-377;
  ``bot.games.go.anomic.forfeited``);
* the Field (``FieldAdapter``): eir Field Objects destroyed and eir player
  attributes gone (seeds 003, 000; ``bot.games.field.forfeited``);
* the Ministries and Elections (``ElectionsAdapter``): eir Ministries Open,
  eir Deputyhoods ended, eir nominations, candidacies and votes in the
  Elections in progress withdrawn (rules 625, 1272, 1823).

Each goes through the post's own adapter, which loads its state if it has
not yet (or changes the copy an earlier action of the post loaded) and
saves it with the post, so nothing is written twice.  What each took is
added to the forfeit's ruling.  Proposals stay on the docket (rule 19's
bonus and penalty go to "its proponent, if one exists": the Ballot pays a
Lost Soul nothing, ``ballot``).  The readings are in docs/readings.md
("Forfeiting").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Forfeited:
    """What one game or office lost by a forfeit: notes for the ruling, effects for the log."""

    notes: tuple[str, ...] = ()
    effects: tuple[dict[str, Any], ...] = ()


@runtime_checkable
class ForfeitsPlayer(Protocol):
    """An adapter whose game or office keeps something of a player that a forfeit takes."""

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        """Take from ``name`` all this game gave em (rule 14), in the post's state."""
        ...


def forfeit_in_adapters(adapters: Iterable[object], name: str, at: datetime) -> Forfeited:
    """Tell every adapter of the post that ``name`` forfeited at ``at``; what they took."""
    notes: list[str] = []
    effects: list[dict[str, Any]] = []
    for adapter in adapters:
        if isinstance(adapter, ForfeitsPlayer):
            taken = adapter.forfeit_player(name, at)
            notes.extend(taken.notes)
            effects.extend(taken.effects)
    return Forfeited(tuple(notes), tuple(effects))
