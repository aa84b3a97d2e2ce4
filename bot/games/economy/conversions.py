"""One atomic conversion: destroy these, create those (mechanic M3 of the catalogue).

Planting destroys a Rotten Tomato and creates a Vine (rule 1908 B.1);
Burning destroys a Plant and pays 2 tildex (1902 D); buying, fermenting and
mixing (1911, 1913, 1914) are the same shape.  A ``Conversion`` names what it
destroys, what it creates and what it pays, with the preconditions that must
all hold first; ``convert`` checks every one before changing anything, so a
conversion happens whole or not at all, with one ruling.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from bot.games.errors import IllegalActionError

Store = TypeVar("Store", bound="ObjectStore")
Created = TypeVar("Created")


class ObjectStore(Protocol):
    """A state holding numbered objects that a conversion can destroy and create."""

    def has_object(self, number: int) -> bool: ...

    def without_objects(self: Store, numbers: tuple[int, ...]) -> Store: ...


@dataclass(frozen=True)
class Payment:
    """``amount`` of ``currency`` to ``holder`` (negative: from em), by ``rule``.

    The rules here do not keep balances: the engine's ledger pays it, in the
    same unit of work, and never below zero (rule 21).
    """

    holder: str
    amount: int
    currency: str
    rule: str
    reason: str


# A precondition returns why the conversion may not happen, or "" when it may.
Precondition = Callable[[Store], str]


@dataclass(frozen=True)
class Conversion(Generic[Created]):
    """Destroy ``destroys``, then create ``creates`` (via ``create``), and pay ``payments``."""

    rule: str
    destroys: tuple[int, ...]
    creates: tuple[Created, ...] = ()
    payments: tuple[Payment, ...] = ()


def convert(
    state: Store,
    conversion: Conversion[Created],
    preconditions: tuple[Precondition[Store], ...],
    create: Callable[[Store, tuple[Created, ...]], Store],
) -> Store:
    """``state`` after ``conversion``; raises ``IllegalActionError`` (citing its rule) else.

    Every object to destroy must exist and every precondition hold before
    anything changes.
    """
    for number in conversion.destroys:
        if not state.has_object(number):
            raise IllegalActionError(f"object {number} does not exist", rule=conversion.rule)
    for precondition in preconditions:
        why = precondition(state)
        if why:
            raise IllegalActionError(why, rule=conversion.rule)
    return create(state.without_objects(conversion.destroys), conversion.creates)
