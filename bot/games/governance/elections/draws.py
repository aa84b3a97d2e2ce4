"""Randomness for rule 1823's tie-breaks: an injected, recorded source.

STYLE.md "Randomness is data": the package never draws for itself.  The
engine hands over a source with ``choice(options, purpose)`` (the shape of
``bot.games.dice.DrawSource``, which records and publishes every draw); this
package keeps its own record of what was drawn so a result can explain it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.games.governance.elections.methods import Choice


class ChoiceSource(Protocol):
    """A recorded random source: one of ``options``, each equally likely (rule 9)."""

    def choice(self, options: Sequence[Choice], purpose: str) -> Choice: ...


@dataclass(frozen=True)
class TieDraw:
    """A random selection made for a tie: the purpose, the options in order, the one chosen."""

    purpose: str
    options: tuple[Choice, ...]
    chosen: Choice

    def describe(self) -> str:
        return f"{self.purpose}: drew {self.chosen} at random from {', '.join(self.options)}"


def draw_from(options: Sequence[Choice], purpose: str, source: ChoiceSource) -> TieDraw:
    """Draw one of ``options`` from ``source``.

    Raises ``ValueError`` when the source answers with something not offered
    (a defective source) or when there is nothing to draw from.
    """
    offered = tuple(options)
    if not offered:
        raise ValueError(f"{purpose}: nothing to draw from")
    chosen = source.choice(offered, purpose)
    if chosen not in offered:
        raise ValueError(f"{purpose}: the source chose {chosen!r}, which was not offered")
    return TieDraw(purpose=purpose, options=offered, chosen=chosen)
