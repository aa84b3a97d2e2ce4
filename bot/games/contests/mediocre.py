"""Rule 343's "most mediocre": the entry exceeded by as many participants as it exceeds.

343: the winner of a level n game "is the participant who won the most
mediocre number of level n-1 sub-games ...; that is whose number of level
n-1 wins is exceeded by as many participants as it exceeds", and of a
level 1 sub-game "the player whose specified quantity is the most mediocre".

The rule's balance is exact only for some counts.  Read as a referee would
(docs/readings.md, 343): for each participant count those whose value is
greater (``above``) and those whose value is smaller (``below``); the most
mediocre are those with the smallest ``|above - below|`` (exactly balanced
when one exists: with an odd count of distinct values, the median).  With
an even count the two middle values are equally mediocre, and equal values
are equally mediocre: of those tied, the one whose entry came earliest
wins, as rule 336 settles every tie ("the answer submitted earliest will be
selected the winner").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from bot.games.contests.state import PlayerId


@dataclass(frozen=True)
class Entry:
    """A participant's value (a quantity, or a number of wins) and eir earliest entry."""

    player: PlayerId
    value: Fraction
    entered_at: datetime


@dataclass(frozen=True)
class Standing:
    entry: Entry
    above: int  # participants whose value exceeds this one
    below: int  # participants whose value this one exceeds

    @property
    def imbalance(self) -> int:
        return abs(self.above - self.below)


def standings(entries: Sequence[Entry]) -> tuple[Standing, ...]:
    """Each entry with the participants above and below it, in the order given."""
    return tuple(
        Standing(
            entry,
            sum(1 for other in entries if other.value > entry.value),
            sum(1 for other in entries if other.value < entry.value),
        )
        for entry in entries
    )


def most_mediocre(entries: Sequence[Entry]) -> tuple[Entry | None, tuple[Entry, ...]]:
    """(the winner, every entry equally mediocre); (None, ()) when there is no entry."""
    if not entries:
        return None, ()
    ranked = standings(entries)
    least = min(standing.imbalance for standing in ranked)
    tied = tuple(s.entry for s in ranked if s.imbalance == least)
    winner = min(tied, key=lambda entry: (entry.entered_at, entries.index(entry)))
    return winner, tied


def quantity_of(text: str) -> Fraction:
    """A quantity as a player writes it ("17", "-3", "2.5", "1/3", "1,000").

    Raises ``ValueError`` for anything else (343: "A valid entry specifies one
    quantity").
    """
    written = text.strip().rstrip(".").replace(",", "").replace("_", "")
    if not written or any(part in written.lower() for part in ("e", "inf", "nan")):
        raise ValueError(f"{text!r} is not a quantity")
    return Fraction(written)


def describe_quantity(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"
