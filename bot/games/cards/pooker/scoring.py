"""Poker Hands and their Scores: A Nomic rule 397 (seed 002).

"A Poker Hand is a set of one to five PCards owned by the same Player", scored
by the first class of rule 397's table it satisfies ("statements at the top
take precedence").  The classes read as the rule words them, which differs
from standard poker in these places:

* A Hand holds one to five Cards.  A pair alone is a two-Card Hand scoring 5,
  four of a kind a four-Card Hand scoring 60.
* Five of a Kind (80) exists: the Red and Blue Packs (rule 399) give two
  Cards of each Suit and Rank, so five of one Rank can be held.
* Straights: "consecutive Ranks" follow the Ranks as rules 384 and 387 order
  and number them, Ace (1), 2, ..., 10, Jack (11), Queen (12), King (13).  The
  Ace is low only: A-2-3-4-5 is a Straight, 10-J-Q-K-A is not, and nothing
  wraps (Q-K-A-2-3).  10-J-Q-K-A of one Suit is still a Royal Flush, which
  the rule defines by its Ranks, not as a Straight Flush.
* Every class reads "contains": four of a Rank also contain three and a pair,
  and precedence picks the first.  With two Packs a Flush may contain a
  pair (both Queens of Hearts); it is still a Flush.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import Enum

from bot.games.cards.cards import Face, Rank

MOST_CARDS_IN_HAND = 5
_ROYAL_RANKS = frozenset({Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN})


class HandClass(Enum):
    """Rule 397's table, top first: (title, Score)."""

    FIVE_OF_A_KIND = ("Five of a Kind", 80)
    ROYAL_FLUSH = ("Royal Flush", 80)
    STRAIGHT_FLUSH = ("Straight Flush", 70)
    FOUR_OF_A_KIND = ("Four of a Kind", 60)
    FULL_HOUSE = ("Full House", 50)
    FLUSH = ("Flush", 40)
    STRAIGHT = ("Straight", 35)
    THREE_OF_A_KIND = ("Three of a Kind", 25)
    TWO_PAIR = ("Two Pair", 15)
    PAIR = ("Pair", 5)
    NOTHING = ("none of the above", 0)

    @property
    def title(self) -> str:
        return self.value[0]

    @property
    def score(self) -> int:
        return int(self.value[1])


def classify(faces: Iterable[Face]) -> HandClass:
    """The class of a Poker Hand of these Cards (only Suit and Rank count).

    Raises ``ValueError`` unless there are one to five Cards (rule 397).
    """
    cards = tuple(faces)
    if not 1 <= len(cards) <= MOST_CARDS_IN_HAND:
        raise ValueError(f"a Poker Hand is one to five PCards, not {len(cards)} (rule 397)")
    counts = sorted(Counter(face.rank for face in cards).values(), reverse=True) + [0]
    five_cards = len(cards) == MOST_CARDS_IN_HAND
    one_suit = five_cards and len({face.suit for face in cards}) == 1
    straight = five_cards and _consecutive(face.rank for face in cards)
    ranks = {face.rank for face in cards}
    checks = (
        (HandClass.FIVE_OF_A_KIND, counts[0] >= 5),
        (HandClass.ROYAL_FLUSH, one_suit and ranks == _ROYAL_RANKS),
        (HandClass.STRAIGHT_FLUSH, one_suit and straight),
        (HandClass.FOUR_OF_A_KIND, counts[0] >= 4),
        (HandClass.FULL_HOUSE, counts[0] >= 3 and counts[1] >= 2),
        (HandClass.FLUSH, one_suit),
        (HandClass.STRAIGHT, straight),
        (HandClass.THREE_OF_A_KIND, counts[0] >= 3),
        (HandClass.TWO_PAIR, counts[0] >= 2 and counts[1] >= 2),
        (HandClass.PAIR, counts[0] >= 2),
    )
    return next((hand_class for hand_class, holds in checks if holds), HandClass.NOTHING)


def score(faces: Iterable[Face]) -> int:
    """Rule 397's Score of one Poker Hand."""
    return classify(faces).score


def _consecutive(ranks: Iterable[Rank]) -> bool:
    """Five different Ranks in a run of rule 387's numbers (the Ace is 1 only)."""
    values = sorted(rank.value for rank in ranks)
    return len(set(values)) == len(values) and values[-1] - values[0] == len(values) - 1
