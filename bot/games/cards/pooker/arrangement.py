"""Arranging shown PCards into Poker Hands: A Nomic rule 397 (seed 002).

Rule 397: "A Player may arrange eir PCards into more than one Poker Hand if it
would result in a higher Score or if e owns more than five PCards."

Readings:

* Every shown Card is in exactly one Hand of one to five Cards; the total is
  the sum of the Hands' Scores.
* With five Cards or fewer, splitting never scores more than one Hand of them
  all (two Pair 15 > 5 + 5, Full House 50 > 25 + 5, Four of a Kind 60 = 60 +
  0, ...; ``tests/games/cards/test_arrangement.py`` checks it).  So a player
  who owns five PCards or fewer shows one Hand, and an arrangement into more
  is refused: it cannot "result in a higher Score".
* ``best_arrangement`` finds the highest total of the shown Cards, so the bot
  can tell a player who arranged eir Cards worse (the rule allows arranging
  "if it would result in a higher Score"; the player's own arrangement is
  what is scored, rule 396: e describes "how they should be arranged").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from bot.games.cards.cards import Card, Face
from bot.games.cards.pooker.holding import is_pcard
from bot.games.cards.pooker.scoring import MOST_CARDS_IN_HAND, HandClass, classify
from bot.games.errors import IllegalActionError

# best_arrangement searches exactly.  Its worst case grows fast with one Suit
# (15 Cards of one Suit from both Packs: under half a second; 20: four
# seconds, and 20 random Cards over one), so beyond 15
# shown Cards the bot offers no better arrangement rather than hold up a reply.
MOST_CARDS_TO_SEARCH = 15


@dataclass(frozen=True)
class ScoredHand:
    cards: tuple[Card, ...]
    hand_class: HandClass

    @property
    def score(self) -> int:
        return self.hand_class.score

    def describe(self) -> str:
        """``QH QS QD 2C 2H: Full House, 50``."""
        names = " ".join(card.face.short for card in self.cards)
        return f"{names}: {self.hand_class.title}, {self.score}"


@dataclass(frozen=True)
class ScoredArrangement:
    hands: tuple[ScoredHand, ...]

    @property
    def total(self) -> int:
        return sum(hand.score for hand in self.hands)

    def describe(self) -> str:
        lines = [f"  {hand.describe()}" for hand in self.hands]
        return "\n".join([*lines, f"  total {self.total}"])


def score_arrangement(hands: Sequence[Sequence[Card]]) -> ScoredArrangement:
    """Each Hand's class and Score; ``ValueError`` for a Hand of no Cards or more than five."""
    return ScoredArrangement(
        tuple(ScoredHand(tuple(hand), classify(card.face for card in hand)) for hand in hands)
    )


def check_arrangement(hands: Sequence[Sequence[Card]], pcards_owned: int) -> ScoredArrangement:
    """The arrangement scored, if rules 394, 397 and 399 allow it.

    ``pcards_owned`` is how many PCards the player owns.  Raises
    ``IllegalActionError`` for an empty Hand or one of more than five Cards, a
    Card that is no PCard or is named twice, or several Hands from a player
    owning five PCards or fewer when one Hand would score as much.
    """
    cards = [card for hand in hands for card in hand]
    _check_cards(hands, cards)
    arranged = score_arrangement(hands)
    if len(hands) > 1 and pcards_owned <= MOST_CARDS_IN_HAND:
        whole = score_arrangement([cards]).total if len(cards) <= MOST_CARDS_IN_HAND else 0
        if arranged.total <= whole:
            raise IllegalActionError(
                f"you own {pcards_owned} PCards, so you may arrange them into more than one "
                f"Poker Hand only for a higher Score, and {len(hands)} Hands score "
                f"{arranged.total} where one Hand of them all scores {whole}",
                rule="397",
            )
    return arranged


def _check_cards(hands: Sequence[Sequence[Card]], cards: Sequence[Card]) -> None:
    for hand in hands:
        if not 1 <= len(hand) <= MOST_CARDS_IN_HAND:
            raise IllegalActionError(
                f"a Poker Hand is one to five PCards, and one of yours has {len(hand)}",
                rule="397",
            )
    for card in cards:
        if not is_pcard(card):
            raise IllegalActionError(
                f"the {card.name} is no PCard: only the Red and Blue Packs are Pooker's",
                rule="399",
            )
    repeated = sorted({card for card in cards if cards.count(card) > 1})
    if repeated:
        raise IllegalActionError(
            f"the {repeated[0].name} is named in more than one place", rule="397"
        )


def best_arrangement(cards: Sequence[Card]) -> ScoredArrangement | None:
    """An arrangement of all ``cards`` with the highest total rule 397 allows.

    None for more than ``MOST_CARDS_TO_SEARCH`` Cards.  Five Cards or fewer are
    one Hand (splitting never scores more); otherwise the scoring Hands found
    come first, then the other Cards in Hands of up to five, which score 0
    (a scoring group among them would have been found).
    """
    if len(cards) > MOST_CARDS_TO_SEARCH:
        return None
    if len(cards) <= MOST_CARDS_IN_HAND:
        return score_arrangement([cards])
    faces = tuple(sorted({card.face for card in cards}))
    counts = tuple(sum(1 for card in cards if card.face == face) for face in faces)
    _, found = _best_groups(faces, counts)
    groups = sorted(found, key=lambda group: -classify(faces[index] for index in group).score)
    unused = list(sorted(cards))
    hands: list[list[Card]] = []
    for group in groups:
        hand: list[Card] = []
        for index in group:
            card = next(card for card in unused if card.face == faces[index])
            unused.remove(card)
            hand.append(card)
        hands.append(hand)
    step = MOST_CARDS_IN_HAND
    hands += [unused[start : start + step] for start in range(0, len(unused), step)]
    return score_arrangement(hands)


Group = tuple[int, ...]  # indices into the distinct faces, lowest first, repeats allowed
# The search packs the count of each Face into a 3-bit field whose top bit is
# a guard: a group fits the Cards left exactly when subtracting it leaves
# every guard set, one integer subtraction instead of a loop.
_FIELD_BITS = 3
_MOST_COPIES = 3  # a Face has at most one copy per Pooker Pack (two, rule 399)


@lru_cache(maxsize=64)
def _best_groups(faces: tuple[Face, ...], counts: tuple[int, ...]) -> tuple[int, tuple[Group, ...]]:
    """The highest total of disjoint scoring groups, and the groups (exact search).

    A group is worth using only if it is *minimal*: it scores more than every
    group with one Card less (scores never fall when a Card is added, since
    every class of rule 397 reads "contains"), so a pair is two Cards, not a
    pair with a spare.  The search memoises on the Cards left, counted per
    Face: Red and Blue Cards of one Face are interchangeable here.
    """
    if max(counts) > _MOST_COPIES:
        raise ValueError(f"more than {_MOST_COPIES} Cards of one Face: {counts}")
    guards = sum(1 << (_FIELD_BITS * index + 2) for index in range(len(faces)))
    by_first = [
        [(_packed(group), value, group) for group, value in groups]
        for groups in _minimal_groups(faces, counts)
    ]
    memo: dict[int, tuple[int, Group | None]] = {}

    def best(left: int) -> int:
        known = memo.get(left)
        if known is not None:
            return known[0]
        cards_left = left & ~guards
        if not cards_left:
            return 0
        first = ((cards_left & -cards_left).bit_length() - 1) // _FIELD_BITS  # lowest Face left
        result: tuple[int, Group | None] = (best(left - (1 << (_FIELD_BITS * first))), None)
        for packed, value, group in by_first[first]:
            remaining = left - packed
            if remaining & guards == guards:
                total = best(remaining) + value
                if total > result[0]:
                    result = (total, group)
        memo[left] = result
        return result[0]

    start = guards | _packed(tuple(i for i, count in enumerate(counts) for _ in range(count)))
    total = best(start)
    return total, _chosen_groups(start, memo, guards)


def _chosen_groups(
    left: int, memo: dict[int, tuple[int, Group | None]], guards: int
) -> tuple[Group, ...]:
    """The groups ``_best_groups`` chose, followed from the start down its memo."""
    groups: list[Group] = []
    while left & ~guards:
        _, group = memo[left]
        if group is None:  # the lowest Card left was set aside
            cards_left = left & ~guards
            left -= 1 << (_FIELD_BITS * (((cards_left & -cards_left).bit_length() - 1) // 3))
        else:
            groups.append(group)
            left -= _packed(group)
    return tuple(groups)


def _packed(group: Group) -> int:
    return sum(1 << (_FIELD_BITS * index) for index in group)


def _minimal_groups(
    faces: tuple[Face, ...], counts: tuple[int, ...]
) -> list[list[tuple[Group, int]]]:
    """Every minimal scoring group with its Score, listed under its lowest face index."""
    pool = [index for index, count in enumerate(counts) for _ in range(count)]
    groups: set[Group] = set()
    for size in range(2, MOST_CARDS_IN_HAND + 1):
        groups.update(combinations(pool, size))
    by_first: list[list[tuple[Group, int]]] = [[] for _ in faces]
    for group in sorted(groups):
        value = classify(faces[index] for index in group).score
        smaller = max(
            classify(faces[index] for index in group[:drop] + group[drop + 1 :]).score
            for drop in range(len(group))
        )
        if value > smaller:
            by_first[group[0]].append((group, value))
    return by_first
