"""Dealing a Card: A Nomic rule 387 (seed 002), and Cards for Votes, rule 391.

Rule 387: the Dealer numbers every Card (``Card.number``) and rolls "one die
with that many sides", 52 x the number of Packs; "If the number returned is
the number of a Card that is not currently in the Deck, the Dealer keeps
rolling until e gets the number of a Card that is in the Deck", and transfers
that Card to the player's Hand.  "If the Deck contains no Cards, the Dealer
cannot Deal a Card", whatever other rule asks for one.

The die is handed in (``DieRoller``), never drawn here: a private deal rolls
from its own hidden stream (``bot.games.cards.hidden``), so that every roll is
recorded and can be replayed once the Card is shown.  Every roll is kept in
``Dealt.rolls``, the re-rolls included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from bot.games.cards.cards import Card, CardNumber, PlayerName
from bot.games.cards.table import CardTable
from bot.games.errors import IllegalActionError

# A die of 208 sides hits a one-Card Deck within this many rolls except with
# probability (207/208)**100000, about e**-480: reaching it means a broken die.
MOST_ROLLS = 100_000


class DieRoller(Protocol):
    """One die of ``faces`` sides, from 1 to ``faces``, each equally likely (rule 9)."""

    def roll_die(self, faces: int) -> int: ...


class RandintSource(Protocol):
    """A recorded public random source (``bot.games.dice.DrawSource`` is one)."""

    def randint(self, low: int, high: int, purpose: str) -> int: ...


class RecordedDie:
    """Rule 387's die drawn from a public recorded source, each roll one draw in its log.

    For deals nobody needs to hide (a replay, a test, a nomic that deals
    openly); private deals use ``bot.games.cards.hidden.HiddenDie``.
    """

    def __init__(self, source: RandintSource, purpose: str = "rule 387: deal a Card") -> None:
        self._source = source
        self._purpose = purpose

    def roll_die(self, faces: int) -> int:
        return self._source.randint(1, faces, self._purpose)


@dataclass(frozen=True)
class Dealt:
    """Rule 387: ``card`` went from the Deck to ``recipient``'s Hand after ``rolls``."""

    recipient: PlayerName
    card: Card
    rolls: tuple[int, ...]

    @property
    def rerolled(self) -> tuple[CardNumber, ...]:
        """The numbers rolled before the Card: each named a Card then outside the Deck."""
        return self.rolls[:-1]


@dataclass(frozen=True)
class DeckEmpty:
    """Rule 387: the Deck held no Card, so nothing was dealt to ``recipient``."""

    recipient: PlayerName


DealOutcome = Dealt | DeckEmpty


def deal(
    table: CardTable, recipient: PlayerName, roller: DieRoller, dealer: PlayerName | None = None
) -> tuple[CardTable, DealOutcome]:
    """Deal one Card to ``recipient`` as rule 387 says; the table after, and what happened.

    Raises ``IllegalActionError`` when ``recipient`` is the Dealer, who has no
    Hand (rule 388): a Card e owned would still be in the Deck.
    """
    if dealer is not None and recipient == dealer:
        raise IllegalActionError(
            f"{recipient} is the Dealer and has no Hand: a Card the Dealer owns is in the Deck",
            rule="388",
        )
    if table.deck_size() == 0:
        return table, DeckEmpty(recipient)
    faces = len(table.holders)
    rolls = [roller.roll_die(faces)]
    while not table.in_deck(rolls[-1]):
        if len(rolls) >= MOST_ROLLS:
            raise RuntimeError(f"{MOST_ROLLS} rolls of 1d{faces} never named a Card in the Deck")
        rolls.append(roller.roll_die(faces))
    card = Card.from_number(rolls[-1], table.pack_count)
    return table.moved([card.number], recipient), Dealt(recipient, card, tuple(rolls))


def voters_to_deal(voters: Iterable[PlayerName], dealer: PlayerName | None) -> tuple[str, ...]:
    """Rule 391: who is dealt a Card at the start of an nweek, in the order dealt.

    Each player who voted in the previous nweek once, however often e voted;
    not the Dealer (rule 388: e has no Hand).  The order is the names'
    alphabetical order (case-insensitive, then exact), fixed in advance so the
    bot cannot choose who is dealt first, which matters only when the Deck
    runs out part way.
    """
    distinct = {voter for voter in voters if voter != dealer}
    return tuple(sorted(distinct, key=lambda name: (name.casefold(), name)))


def deal_for_votes(
    table: CardTable,
    voters: Iterable[PlayerName],
    dealer: PlayerName | None,
    roller_for: Callable[[PlayerName], DieRoller],
) -> tuple[CardTable, tuple[DealOutcome, ...]]:
    """Rule 391's deals: one Card to each voter (``voters_to_deal``), each from its own die.

    ``roller_for(recipient)`` gives the die for that recipient's deal (each
    hidden deal has its own stream).  Once the Deck is empty the remaining
    voters are told ``DeckEmpty`` (rule 387 takes precedence).
    """
    outcomes: list[DealOutcome] = []
    for recipient in voters_to_deal(voters, dealer):
        if table.deck_size() == 0:  # no die is asked for, so no deal identity is spent
            outcomes.append(DeckEmpty(recipient))
            continue
        table, outcome = deal(table, recipient, roller_for(recipient), dealer)
        outcomes.append(outcome)
    return table, tuple(outcomes)
