"""The Showdown: A Nomic rule 396 (seed 002).

Rule 396: a Motion to Show Cards "passes by being voted for by a majority of
Players"; a player whose PCards reach ten or more through a transfer "may
declare a Showdown at any time" and "must show at least two PCards" in it.
In a Showdown each player may show PCards arranged into Poker Hands; "The
Player who has the highest total Score of eir Poker Hand(s) is awarded a
number of Points from the Bank equivalent to the total Score", a tie divides
that number among the tied, and "all PCards that were shown are returned to
the Deck".

Readings:

* Majority: more than half of the Players, counting all Players, not only
  those who voted.
* A player may declare while e owns ten or more PCards; Cards reach a Hand
  only by transfers (deals, Trades), so no other condition is needed.
* A tie: each tied player gets the prize divided by their number, rounded
  down; "that number of Points is given from the Bank", so the points left
  over go one each to as many tied players, in an order drawn at random and
  recorded (A Nomic breaks its other ties "randomly", rule 369).
* Nobody showing: no prize.  A top total of 0 wins 0 Points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from bot.games.cards.cards import CardName, CardNumber, PlayerName
from bot.games.cards.pooker.arrangement import (
    ScoredArrangement,
    best_arrangement,
    check_arrangement,
)
from bot.games.cards.pooker.holding import pcards_of, resolve_pcards
from bot.games.cards.table import CardTable
from bot.games.errors import IllegalActionError

SHOWDOWN_THRESHOLD = 10  # PCards that let their owner declare a Showdown
DECLARER_LEAST_SHOWN = 2

Item = TypeVar("Item")


class Shuffler(Protocol):
    """A recorded random source (``bot.games.dice.DrawSource`` is one)."""

    def shuffle(self, items: Sequence[Item], purpose: str) -> list[Item]: ...


def motion_passes(votes_for: int, players: int) -> bool:
    """Rule 396: a Motion to Show Cards passes when more than half of all Players vote for it."""
    return 2 * votes_for > players


def may_declare_showdown(table: CardTable, player: PlayerName) -> bool:
    """Rule 396: ``player`` owns ten or more PCards."""
    return len(pcards_of(table, player)) >= SHOWDOWN_THRESHOLD


@dataclass(frozen=True)
class Showing:
    """What one player showed: eir arrangement scored, and a better one if there is one."""

    player: PlayerName
    arrangement: ScoredArrangement
    better: ScoredArrangement | None

    @property
    def total(self) -> int:
        return self.arrangement.total

    @property
    def numbers(self) -> tuple[CardNumber, ...]:
        return tuple(card.number for hand in self.arrangement.hands for card in hand.cards)

    def advice(self) -> str | None:
        """For the player's ruling: the best arrangement, when eirs scores less."""
        if self.better is None:
            return None
        return (
            f"Your Cards could have scored {self.better.total} rather than {self.total}, "
            f"arranged so (rule 397):\n{self.better.describe()}"
        )


def show_cards(
    table: CardTable,
    player: PlayerName,
    hands: Sequence[Sequence[CardName]],
    declarer: PlayerName | None = None,
) -> Showing:
    """Rule 396: ``player`` shows these PCards in these Poker Hands.

    ``declarer`` is the player who declared the Showdown, if one did.  Raises
    ``IllegalActionError`` for Cards e does not hold or an arrangement rule 397
    forbids, and when the declarer shows fewer than two PCards;
    ``AmbiguousActionError`` for a Face without a Back that fits two of eir Cards.
    """
    names = [name for hand in hands for name in hand]
    cards = resolve_pcards(table, player, names, "396")
    arranged_cards, start = [], 0
    for hand in hands:
        arranged_cards.append(cards[start : start + len(hand)])
        start += len(hand)
    if player == declarer and len(cards) < DECLARER_LEAST_SHOWN:
        raise IllegalActionError(
            f"{player} declared this Showdown, so e must show at least "
            f"{DECLARER_LEAST_SHOWN} PCards",
            rule="396",
        )
    arrangement = check_arrangement(arranged_cards, len(pcards_of(table, player)))
    best = best_arrangement(cards)
    better = best if best is not None and best.total > arrangement.total else None
    return Showing(player, arrangement, better)


@dataclass(frozen=True)
class PrizeShare:
    player: PlayerName
    points: int


@dataclass(frozen=True)
class ShowdownResult:
    """Everyone's total, the prize and its shares, and the Cards back in the Deck."""

    totals: tuple[tuple[PlayerName, int], ...]
    prize: int
    shares: tuple[PrizeShare, ...]
    tie_order: tuple[PlayerName, ...]
    returned: tuple[CardNumber, ...]


def settle_showdown(
    table: CardTable, showings: Sequence[Showing], draws: Shuffler | None
) -> tuple[CardTable, ShowdownResult]:
    """Rule 396's prize and the shown PCards' return to the Deck.

    ``draws`` orders a tie whose prize does not divide evenly; ``ValueError``
    if such a tie comes and none is given, or a player shows twice.
    """
    players = [showing.player for showing in showings]
    if len(set(players)) != len(players):
        raise ValueError(f"a player shows once in a Showdown: {players}")
    totals = tuple(sorted(((s.player, s.total) for s in showings), key=lambda e: (-e[1], e[0])))
    returned = tuple(sorted(number for showing in showings for number in showing.numbers))
    table = table.moved(returned, None)
    if not totals:
        return table, ShowdownResult((), 0, (), (), ())
    prize = totals[0][1]
    winners = [player for player, total in totals if total == prize]
    shares, tie_order = divide_prize(prize, winners, draws)
    return table, ShowdownResult(totals, prize, shares, tie_order, returned)


def divide_prize(
    prize: int, winners: Sequence[PlayerName], draws: Shuffler | None
) -> tuple[tuple[PrizeShare, ...], tuple[PlayerName, ...]]:
    """Rule 396's division of ``prize`` among ``winners``; also the tie order drawn, if any."""
    each, left_over = divmod(prize, len(winners))
    order: tuple[PlayerName, ...] = ()
    ranked = sorted(winners)
    if left_over:
        if draws is None:
            raise ValueError("a Showdown tie that does not divide evenly needs a random draw")
        order = tuple(draws.shuffle(ranked, "Showdown tie: who gets the points left over"))
        ranked = list(order)
    shares = tuple(
        PrizeShare(player, each + (1 if place < left_over else 0))
        for place, player in enumerate(ranked)
    )
    return shares, order


def render_showdown(showings: Sequence[Showing], result: ShowdownResult) -> str:
    """The Showdown's public result: every shown Hand with its class and Score."""
    lines = ["Showdown (rule 396)", ""]
    for showing in sorted(showings, key=lambda showing: (-showing.total, showing.player)):
        lines.append(f"{showing.player} showed:")
        lines.append(showing.arrangement.describe())
    if not showings:
        lines.append("Nobody showed any PCards: no prize.")
    else:
        winners = ", ".join(f"{share.player} {share.points}" for share in result.shares)
        lines += ["", f"Highest total {result.prize}: the Bank pays {winners} Points."]
    if result.tie_order:
        lines.append(f"Tie order drawn for the points left over: {', '.join(result.tie_order)}.")
    lines.append(f"{len(result.returned)} PCards return to the Deck.")
    return "\n".join(lines) + "\n"
