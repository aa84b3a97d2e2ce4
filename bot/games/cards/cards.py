"""Cards, Packs and card numbers: A Nomic rules 384, 385 and 387 (seed 002).

Rule 384: a Card is told apart from every other by its Suit, Rank and Back.
Rule 385: a Pack is the 52 Cards of one Back; four Packs are in play, in the
order Red, Blue, Fish, Corporate.  Rule 387 numbers every Card:

    (pack number)*52 + (suit number)*13 + (rank number)

with the Packs numbered from 0 in the order rule 385 describes them, the Suits
Diamonds 0, Spades 1, Hearts 2, Clubs 3, and the Ranks Ace 1, 2..10 as
themselves, Jack 11, Queen 12, King 13.  So the Red Ace of Diamonds is 1 and
the Corporate King of Clubs is 208: "a unique number from 1 to 52*(the number
of Packs)".

A ``Face`` is a Suit and a Rank without a Back: what a player names when e
cannot know the Back ("Bob's Queen of Hearts"), and all that rule 397 scores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from bot.games.errors import ActionSyntaxError

CARDS_PER_PACK = 52
RANKS_PER_SUIT = 13
PlayerName = str
CardNumber = int


class Suit(IntEnum):
    """Rule 384's Suits, valued by rule 387's numbering."""

    DIAMONDS = 0
    SPADES = 1
    HEARTS = 2
    CLUBS = 3

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @property
    def letter(self) -> str:
        return self.name[0]


class Rank(IntEnum):
    """Rule 384's Ranks, valued by rule 387's numbering (the Ace is 1)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def title(self) -> str:
        """``Ace``, ``2`` .. ``10``, ``Jack``, ``Queen``, ``King``: rule 384's words."""
        return self.name.capitalize() if self in _COURT else str(self.value)

    @property
    def letter(self) -> str:
        """``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``: as in ``10H`` or ``QS``."""
        return self.name[0] if self in _COURT else str(self.value)


_COURT = frozenset({Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING})


class Pack(IntEnum):
    """Rule 385's Packs in the order described there (rule 387's pack numbers)."""

    RED = 0
    BLUE = 1
    FISH = 2
    CORPORATE = 3

    @property
    def back(self) -> str:
        """The Back as the Dealer's report names it (rule 390): ``Red``, ``Fish``, ..."""
        return self.name.capitalize()

    @property
    def description(self) -> str:
        """Rule 385's words for the Back."""
        return _BACK_DESCRIPTIONS[self]


_BACK_DESCRIPTIONS = {
    Pack.RED: "primarily Red, with the traditional twisty lines and cherubs on pogo sticks",
    Pack.BLUE: "primarily Blue, otherwise decorated as the Red Pack",
    Pack.FISH: "colourful drawings of tropical fish",
    Pack.CORPORATE: "a message urging you to fly the friendly skies with United",
}
PACKS_IN_PLAY = len(Pack)  # rule 385 puts all four in play


@dataclass(frozen=True, order=True)
class Face:
    """A Suit and a Rank: a Card without its Back."""

    rank: Rank
    suit: Suit

    @property
    def name(self) -> str:
        """``Queen of Hearts``."""
        return f"{self.rank.title} of {self.suit.title}"

    @property
    def short(self) -> str:
        """``QH``, ``10S``."""
        return f"{self.rank.letter}{self.suit.letter}"

    def __str__(self) -> str:
        return self.short


@dataclass(frozen=True, order=True)
class Card:
    """One Card: its Pack (so its Back), Suit and Rank (rule 384)."""

    pack: Pack
    suit: Suit
    rank: Rank

    @property
    def number(self) -> CardNumber:
        """Rule 387: (pack number)*52 + (suit number)*13 + (rank number)."""
        return self.pack * CARDS_PER_PACK + self.suit * RANKS_PER_SUIT + self.rank

    @classmethod
    def from_number(cls, number: CardNumber, pack_count: int = PACKS_IN_PLAY) -> Card:
        """The Card rule 387 numbers ``number``; ``ValueError`` outside 1..52*pack_count."""
        check_card_number(number, pack_count)
        pack, within = divmod(number - 1, CARDS_PER_PACK)
        suit, rank = divmod(within, RANKS_PER_SUIT)
        return cls(Pack(pack), Suit(suit), Rank(rank + 1))

    @property
    def face(self) -> Face:
        return Face(self.rank, self.suit)

    @property
    def back(self) -> str:
        return self.pack.back

    @property
    def name(self) -> str:
        """``Queen of Hearts (Red back)``: all three properties of rule 384."""
        return f"{self.face.name} ({self.back} back)"

    @property
    def short(self) -> str:
        """``Red QH``."""
        return f"{self.back} {self.face.short}"

    def __str__(self) -> str:
        return self.short


def check_card_number(number: CardNumber, pack_count: int = PACKS_IN_PLAY) -> CardNumber:
    """``number`` if rule 387 gives it to a Card of the first ``pack_count`` Packs.

    Raises ``ValueError`` otherwise.
    """
    if not 1 <= pack_count <= len(Pack):
        raise ValueError(f"{pack_count} packs: rule 385 describes 1 to {len(Pack)}")
    if not 1 <= number <= CARDS_PER_PACK * pack_count:
        raise ValueError(f"card number {number} is not 1 to {CARDS_PER_PACK * pack_count}")
    return number


def all_cards(pack_count: int = PACKS_IN_PLAY) -> tuple[Card, ...]:
    """Every Card of the Packs in play, in rule 387's order (number 1 first)."""
    return tuple(Card.from_number(number, pack_count) for number in card_numbers(pack_count))


def card_numbers(pack_count: int = PACKS_IN_PLAY) -> range:
    check_card_number(1, pack_count)
    return range(1, CARDS_PER_PACK * pack_count + 1)


@dataclass(frozen=True)
class CardName:
    """A Card as a player names it: a Face, and the Back when e says it."""

    face: Face
    pack: Pack | None = None

    def matches(self, card: Card) -> bool:
        return card.face == self.face and self.pack in (None, card.pack)

    def __str__(self) -> str:
        return self.face.short if self.pack is None else f"{self.pack.back} {self.face.short}"


_RANK_WORDS = {rank.title.lower(): rank for rank in Rank} | {
    rank.letter.lower(): rank for rank in Rank
}
_RANK_WORDS |= {"t": Rank.TEN, "ten": Rank.TEN, "two": Rank.TWO, "three": Rank.THREE}
_RANK_WORDS |= {"four": Rank.FOUR, "five": Rank.FIVE, "six": Rank.SIX, "seven": Rank.SEVEN}
_RANK_WORDS |= {"eight": Rank.EIGHT, "nine": Rank.NINE}
_SUIT_WORDS = {suit.title.lower(): suit for suit in Suit} | {
    suit.title.lower().removesuffix("s"): suit for suit in Suit
}
_SUIT_LETTERS = {suit.letter.lower(): suit for suit in Suit}
_PACK_WORDS = {pack.back.lower(): pack for pack in Pack}
_SHORT = re.compile(r"(?P<rank>10|[2-9atjqk])(?P<suit>[dshc])", re.IGNORECASE)
_LONG = re.compile(r"(?P<rank>\w+)\s+of\s+(?P<suit>\w+)", re.IGNORECASE)


def parse_card_name(text: str) -> CardName:
    """Read ``QH``, ``10s``, ``Queen of Hearts``, ``Red QH`` or ``QH (Red back)``.

    Raises ``ActionSyntaxError`` for anything else.
    """
    words = " ".join(text.split())
    pack, rest = _split_back(words)
    for pattern in (_SHORT, _LONG):
        match = pattern.fullmatch(rest)
        if match is None:
            continue
        rank = _RANK_WORDS.get(match["rank"].lower())
        suit_word = match["suit"].lower()
        suit = _SUIT_WORDS.get(suit_word, _SUIT_LETTERS.get(suit_word))  # Diamonds is 0: no `or`
        if rank is not None and suit is not None:
            return CardName(Face(rank, suit), pack)
    raise ActionSyntaxError(
        f"I can't read {text.strip()!r} as a Card: name it like QH, 10S or Queen of Hearts, "
        "with its Back if you like (Red QH); rule 384 gives Suits and Ranks",
        rule="384",
    )


def _split_back(words: str) -> tuple[Pack | None, str]:
    """The Back named before (``Red QH``) or after (``QH (Red back)``) a Face, if any."""
    head, _, tail = words.partition(" ")
    if head.lower() in _PACK_WORDS and tail:
        return _PACK_WORDS[head.lower()], tail
    before, bracket, after = words.rpartition(" (")
    if bracket and after.endswith(")"):
        back = after[:-1].lower().removesuffix(" back")
        if back in _PACK_WORDS:
            return _PACK_WORDS[back], before
    return None, words
