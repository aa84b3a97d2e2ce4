"""The points a contest moves: entry fees, refunds and prizes, for the ledger to carry out."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.contests.state import PlayerId


@dataclass(frozen=True)
class Transfer:
    """``amount`` points from ``payer`` to ``payee``.

    ``None`` on either side is a Mediocrity game's collection of entry fees
    (rule 343: "the entire collection of all entry fees ... shall be paid to
    the winner"), which no player holds in the meantime.
    """

    payer: PlayerId | None
    payee: PlayerId | None
    amount: int
    rule: str
    note: str
    # An entry fee is paid in full or the answer is not submitted; a refund or
    # a prize is paid from what the payer holds (rule 21 A.1, docs/readings.md).
    entry_fee: bool = False

    def describe(self) -> str:
        payer = self.payer or "the game's collection"
        payee = self.payee or "the game's collection"
        return f"{self.amount} points from {payer} to {payee} ({self.note}, rule {self.rule})"
