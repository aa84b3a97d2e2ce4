"""Macks for B-Chess's paid actions (Rejoin, Purchase): balances in, spendings out.

Macks are held in the engine's ledger, not in the Field state.  The engine
hands each player's balance to ``play_turn``; the Turn's Rejoin and
Purchase triggers read the balance from a ``Purse`` and their effects pay
from it, so within one Turn the balance goes down as requests are paid and
a later request that cannot be paid is refused citing its action's rule.
The Turn returns one ``Spending`` per request, in request order; a refused
request spends nothing.  The engine then debits its ledger by exactly
those amounts.

A ``TurnPurse`` is a private accumulator for one Turn (like the
framework's running Turn): created by ``play_turn``, read once, discarded.
``NO_MACKS`` is the purse of the constant ``BCHESS_RULES``: every balance
is zero, so a Field turned with them directly accepts only free actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.games.field.actions import Request
from bot.games.field.objects import PlayerId


@dataclass(frozen=True)
class Spending:
    """What one request spent (0 when it was refused or free)."""

    request: Request
    macks: int


class Purse(Protocol):
    """Where paid actions read balances and pay."""

    def balance(self, player: PlayerId) -> int: ...

    def pay(self, request: Request, amount: int) -> None: ...


class _NoMacks:
    def balance(self, player: PlayerId) -> int:
        return 0

    def pay(self, request: Request, amount: int) -> None:
        if amount:
            # The trigger checked the balance of zero, so this is a defect.
            raise ValueError(f"{request.invoker} cannot pay {amount} macks from no macks")


NO_MACKS: Purse = _NoMacks()


class TurnPurse:
    """The balances of one Turn and what each of its requests paid.

    Raises ``ValueError`` when paying more than a balance or for a request
    that is not one of the Turn's (defects: triggers check first).
    """

    def __init__(self, requests: Sequence[Request], macks: Mapping[PlayerId, int]) -> None:
        self._requests = tuple(requests)
        self._balances = dict(macks)
        self._paid = [0] * len(self._requests)
        self._settled = [False] * len(self._requests)

    def balance(self, player: PlayerId) -> int:
        return self._balances.get(player, 0)

    def pay(self, request: Request, amount: int) -> None:
        if amount < 0 or amount > self.balance(request.invoker):
            raise ValueError(f"{request.invoker} cannot pay {amount} macks")
        index = self._index_of(request)
        self._balances[request.invoker] = self.balance(request.invoker) - amount
        self._paid[index] = amount
        self._settled[index] = True

    def spendings(self) -> tuple[Spending, ...]:
        return tuple(
            Spending(request, paid)
            for request, paid in zip(self._requests, self._paid, strict=True)
        )

    def _index_of(self, request: Request) -> int:
        # By identity, as the framework hands each request object through
        # unchanged: two equal requests in one post are two requests.  One
        # object listed twice is taken up in list order, so its payments go
        # to its first places not yet paid.
        for index, candidate in enumerate(self._requests):
            if candidate is request and not self._settled[index]:
                return index
        raise ValueError(f"request {request.text!r} is not one of this Turn's")
