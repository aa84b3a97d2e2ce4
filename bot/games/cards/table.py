"""Who holds each Card: the Deck and the Hands, A Nomic rules 386, 388 and 389 (seed 002).

Rule 389: "Originally, all the Cards in all the Packs that are in play are in
the Deck", and the Deck is every Card the Dealer owns (386).  Rule 388: a Hand
is every Card a player *besides the Dealer* owns.  So the state is one holder
per Card number: the Deck, or the player whose Hand holds it.  The Dealer
never has a Hand: a Card the Dealer owns is in the Deck by definition.

Which Card each player holds is private (rule 390 lets the Dealer publish only
who received Cards and their Backs); this state is the bot's own record, never
published whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.cards.cards import (
    PACKS_IN_PLAY,
    Card,
    CardNumber,
    PlayerName,
    card_numbers,
    check_card_number,
)


@dataclass(frozen=True)
class CardTable:
    """``holders[number - 1]`` is the player holding Card ``number``, or None: the Deck."""

    pack_count: int
    holders: tuple[PlayerName | None, ...]

    def __post_init__(self) -> None:
        if len(self.holders) != len(card_numbers(self.pack_count)):
            raise ValueError(f"{len(self.holders)} holders for {self.pack_count} packs")

    @classmethod
    def new(cls, pack_count: int = PACKS_IN_PLAY) -> CardTable:
        """Rule 389: every Card of every Pack in play starts in the Deck."""
        return cls(pack_count, (None,) * len(card_numbers(pack_count)))

    def holder_of(self, number: CardNumber) -> PlayerName | None:
        """The player holding Card ``number``, or None when it is in the Deck."""
        return self.holders[check_card_number(number, self.pack_count) - 1]

    def in_deck(self, number: CardNumber) -> bool:
        return self.holder_of(number) is None

    def deck(self) -> tuple[CardNumber, ...]:
        """The numbers of the Cards in the Deck, lowest first."""
        return tuple(number for number, holder in self._numbered() if holder is None)

    def deck_size(self) -> int:
        return self.holders.count(None)

    def hand_of(self, player: PlayerName) -> tuple[Card, ...]:
        """Rule 388: the Cards ``player`` owns, in rule 387's order."""
        return tuple(
            Card.from_number(number, self.pack_count)
            for number, holder in self._numbered()
            if holder == player
        )

    def hand_sizes(self) -> Mapping[PlayerName, int]:
        return Counter(holder for holder in self.holders if holder is not None)

    def moved(self, numbers: Iterable[CardNumber], holder: PlayerName | None) -> CardTable:
        """The table with each of ``numbers`` given to ``holder`` (None: to the Deck)."""
        holders = list(self.holders)
        for number in numbers:
            holders[check_card_number(number, self.pack_count) - 1] = holder
        return CardTable(self.pack_count, tuple(holders))

    def without_hand_of(self, player: PlayerName) -> CardTable:
        """``player``'s Cards back in the Deck: what rule 388 makes of a new Dealer's Hand,
        and of a player who forfeits (rule 14, seed 004: e loses every game property)."""
        return self.moved((card.number for card in self.hand_of(player)), None)

    def to_dict(self) -> dict[str, Any]:
        return {"pack_count": self.pack_count, "holders": list(self.holders)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardTable:
        """Raises ``ValueError`` for data ``to_dict`` could not have written."""
        try:
            holders = tuple(None if holder is None else str(holder) for holder in data["holders"])
            return cls(int(data["pack_count"]), holders)
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed card table: {error!r}") from error

    def _numbered(self) -> Iterable[tuple[CardNumber, PlayerName | None]]:
        return enumerate(self.holders, start=1)
