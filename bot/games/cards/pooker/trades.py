"""Trades: A Nomic rules 394 and 395 (seed 002).

Rule 394: in a Trade the Dealer moves the PCards one player gives to the other
and "an equal number of PCards" back; "Both Players involved in a trade must
trade an equal number of PCards."  Rule 395: any player with one or more
PCards may trade with any other who has one; "each notifying the Dealer of
the Trade they wish to make - both which PCard or PCards e will give, and
which PCard or PCards e plans to recieve.  The Dealer must be notified of the
same trade by both Players", and each pays the Dealer one Point.

Readings:

* A notice names Cards by Face, with the Back when the player knows it
  ("Bob's Red QH" or "Bob's QH").  The Cards a player gives must be in eir
  Hand; a Face without a Back that fits two of eir Cards is ambiguous unless
  both are given.
* "The same trade": what each gives is what the other expects to receive.  A
  name without a Back matches either Back.
* The fee is checked before the Trade and paid by each party to the Dealer
  (the engine moves the Points).  A notice may be sent before the other's; the
  engine keeps the first until the second arrives (private, rule 395).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.games.cards.cards import Card, CardName, PlayerName
from bot.games.cards.pooker.holding import is_pcard, resolve_pcards
from bot.games.cards.table import CardTable
from bot.games.errors import IllegalActionError

TRADE_FEE = 1  # rule 395: one Point from each party to the Dealer


@dataclass(frozen=True)
class TradeNotice:
    """One player's private notice to the Dealer (rule 395)."""

    sender: PlayerName
    partner: PlayerName
    gives: tuple[CardName, ...]
    receives: tuple[CardName, ...]


@dataclass(frozen=True)
class Trade:
    """A matched Trade: each player's Cards to the other (rule 394)."""

    first: PlayerName
    second: PlayerName
    first_gives: tuple[Card, ...]
    second_gives: tuple[Card, ...]

    def apply(self, table: CardTable) -> CardTable:
        """Rule 394: the Dealer changes the ownership of both sides' Cards."""
        table = table.moved((card.number for card in self.first_gives), self.second)
        return table.moved((card.number for card in self.second_gives), self.first)


def match_notices(
    table: CardTable,
    first: TradeNotice,
    second: TradeNotice,
    points: Mapping[PlayerName, int],
    dealer: PlayerName | None,
) -> Trade:
    """The Trade both notices describe, if rules 394 and 395 allow it.

    ``points`` is each party's Points.  Raises ``IllegalActionError`` when the
    notices differ or break a rule, ``AmbiguousActionError`` when a Card named
    without its Back could be either of two the giver holds.
    """
    for notice in (first, second):
        check_notice(table, notice, points, dealer)
    if (second.sender, second.partner) != (first.partner, first.sender):
        raise IllegalActionError(
            f"{first.sender}'s notice is of a Trade with {first.partner}, and "
            f"{second.sender}'s of one with {second.partner}",
            rule="395",
        )
    first_gives = resolve_pcards(table, first.sender, first.gives, "395")
    second_gives = resolve_pcards(table, second.sender, second.gives, "395")
    _check_expected(first_gives, second.receives, giver=first.sender, receiver=second.sender)
    _check_expected(second_gives, first.receives, giver=second.sender, receiver=first.sender)
    return Trade(first.sender, second.sender, first_gives, second_gives)


def check_notice(
    table: CardTable, notice: TradeNotice, points: Mapping[PlayerName, int], dealer: str | None
) -> None:
    """What one notice must satisfy alone (394, 395); ``IllegalActionError`` if it does not."""
    if notice.sender == notice.partner:
        raise IllegalActionError("a Trade is between two Players", rule="394")
    if not notice.gives or len(notice.gives) != len(notice.receives):
        raise IllegalActionError(
            f"{notice.sender} gives {len(notice.gives)} PCards and receives "
            f"{len(notice.receives)}: both sides of a Trade are an equal number, one or more",
            rule="394",
        )
    for player in (notice.sender, notice.partner):
        if player == dealer or not any(is_pcard(card) for card in table.hand_of(player)):
            raise IllegalActionError(
                f"{player} has no PCards, and a Trade is between Players who have some",
                rule="395",
            )
    if points.get(notice.sender, 0) < TRADE_FEE:
        raise IllegalActionError(
            f"{notice.sender} cannot pay the Dealer the transaction fee of {TRADE_FEE} Point",
            rule="395",
        )


def _check_expected(
    given: Sequence[Card], expected: Sequence[CardName], giver: str, receiver: str
) -> None:
    unmatched = list(given)
    for name in sorted(expected, key=lambda name: name.pack is None):
        card = next((card for card in unmatched if name.matches(card)), None)
        if card is None:  # the ruling names no Card of the giver's beyond the receiver's own
            raise IllegalActionError(
                f"{receiver} expects {name} from {giver}, and {giver}'s notice does not give it: "
                "both notices must describe the same Trade",
                rule="395",
            )
        unmatched.remove(card)
