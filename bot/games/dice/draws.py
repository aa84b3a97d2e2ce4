"""A recorded random source for tie-breaks, shuffles and other chance in games.

STYLE.md, "Randomness is data": a game never calls ``random``; it is handed a
``DrawSource`` whose every draw derives from the nweek's seed, the context
(e.g. the Message-ID or "checkpoint nweek 14/3") and the draw's number, and is
appended to ``draws`` so the engine can persist and publish it.  A replay
re-derives each recorded draw with ``replay_draw``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from bot.games.dice.stream import (
    ByteSource,
    HmacStream,
    check_label_part,
    check_seed,
    draw_below,
    draw_label,
)

Item = TypeVar("Item")


class DrawKind(Enum):
    CHOICE = "choice"
    RANDINT = "randint"
    SHUFFLE = "shuffle"


@dataclass(frozen=True)
class Draw:
    """One recorded draw.

    ``options`` holds ``str()`` of each option (choice, shuffle), ``bounds`` the
    inclusive range (randint).  ``result`` is ``(index,)`` for a choice,
    ``(value,)`` for a randint and, for a shuffle, the option indices in their
    new order.
    """

    number: int
    purpose: str
    kind: DrawKind
    options: tuple[str, ...] = ()
    bounds: tuple[int, int] | None = None
    result: tuple[int, ...] = ()

    def describe(self) -> str:
        """A line for the ruling, e.g. ``ko tie-break: chose bob from alice, bob (draw 0)``."""
        if self.kind is DrawKind.RANDINT:
            low, high = self.bounds or (0, 0)
            outcome = f"{self.result[0]} from {low} to {high}"
        elif self.kind is DrawKind.CHOICE:
            outcome = f"chose {self.options[self.result[0]]} from {', '.join(self.options)}"
        else:
            outcome = f"order {', '.join(self.options[index] for index in self.result)}"
        return f"{self.purpose}: {outcome} (draw {self.number})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "purpose": self.purpose,
            "kind": self.kind.value,
            "options": list(self.options),
            "bounds": None if self.bounds is None else list(self.bounds),
            "result": list(self.result),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Draw:
        """Raises ``ValueError`` for data ``to_dict`` could not have written."""
        try:
            bounds = data["bounds"]
            return cls(
                number=int(data["number"]),
                purpose=str(data["purpose"]),
                kind=DrawKind(data["kind"]),
                options=tuple(str(option) for option in data["options"]),
                bounds=None if bounds is None else (int(bounds[0]), int(bounds[1])),
                result=tuple(int(value) for value in data["result"]),
            )
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"malformed draw {data!r}: {error!r}") from error


def permutation(source: ByteSource, size: int) -> tuple[int, ...]:
    """Fisher-Yates from the last position down: position i swaps with draw_below(i + 1)."""
    order = list(range(size))
    for position in range(size - 1, 0, -1):
        other = draw_below(source, position + 1)
        order[position], order[other] = order[other], order[position]
    return tuple(order)


def derive_result(
    seed: bytes, context_id: str, number: int, kind: DrawKind, size: int, bounds: tuple[int, int]
) -> tuple[int, ...]:
    """The result of draw ``number`` in ``context_id``; ``size`` counts the options."""
    source = HmacStream(seed, draw_label(check_label_part(context_id, "context id"), number))
    if kind is DrawKind.CHOICE:
        return (draw_below(source, size),)
    if kind is DrawKind.RANDINT:
        low, high = bounds
        return (low + draw_below(source, high - low + 1),)
    return permutation(source, size)


def replay_draw(seed: bytes, context_id: str, draw: Draw) -> Draw:
    """``draw`` with its result re-derived; equal to ``draw`` iff the record is honest."""
    result = derive_result(
        seed, context_id, draw.number, draw.kind, len(draw.options), draw.bounds or (0, 0)
    )
    return Draw(draw.number, draw.purpose, draw.kind, draw.options, draw.bounds, result)


class DrawSource:
    """Seeded, recorded randomness for one context (a post, a Checkpoint, ...).

    Raises ``ValueError`` for a seed that is not 32 bytes or a context id that
    is empty or spans lines.
    """

    def __init__(self, seed: bytes, context_id: str) -> None:
        self._seed = check_seed(seed)
        self._context_id = check_label_part(context_id, "context id")
        self._draws: list[Draw] = []

    @property
    def context_id(self) -> str:
        return self._context_id

    @property
    def draws(self) -> tuple[Draw, ...]:
        return tuple(self._draws)

    def choice(self, options: Sequence[Item], purpose: str) -> Item:
        """One of ``options``, each equally likely; ``ValueError`` if there are none."""
        if not options:
            raise ValueError(f"{purpose}: nothing to choose from")
        draw = self._record(DrawKind.CHOICE, purpose, options=options)
        return options[draw.result[0]]

    def randint(self, low: int, high: int, purpose: str) -> int:
        """An integer in ``[low, high]`` inclusive; ``ValueError`` if ``low > high``."""
        if low > high:
            raise ValueError(f"{purpose}: empty range {low}..{high}")
        return self._record(DrawKind.RANDINT, purpose, bounds=(low, high)).result[0]

    def shuffle(self, items: Sequence[Item], purpose: str) -> list[Item]:
        """A new list holding ``items`` in a uniformly random order."""
        draw = self._record(DrawKind.SHUFFLE, purpose, options=items)
        return [items[index] for index in draw.result]

    def _record(
        self,
        kind: DrawKind,
        purpose: str,
        options: Sequence[object] = (),
        bounds: tuple[int, int] | None = None,
    ) -> Draw:
        number = len(self._draws)
        result = derive_result(
            self._seed, self._context_id, number, kind, len(options), bounds or (0, 0)
        )
        labels = tuple(str(option) for option in options)
        draw = Draw(number, purpose, kind, labels, bounds, result)
        self._draws.append(draw)
        return draw
