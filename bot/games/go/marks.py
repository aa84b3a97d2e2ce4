"""One-character marks that stand for players on the board (rule 1639 H).

Rule 1639 H's example shows ``Rob`` as ``R`` and ``Someone Else`` as ``S`` but
``Bob the Voting Fish`` as ``b``.  The reading: a player's mark is the first
letter of eir name in capitals, unless that character is one of the board's
column letters (B is a column on 9x9; R and S are not), in which case the
lower-case letter is used.  Later letters of the name are tried the same way
when those are taken, then the rest of the alphabet, then a few symbols.  A
mark is assigned once, when the player first appears, and stored in the state,
so it never changes as others join.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from bot.games.go.points import LETTERS

# Never letters or digits that the board frame and labels use ('.', '|', '-',
# "'", '[', ']' and row digits are excluded by construction).
_FALLBACK_SYMBOLS = "#@*+%&$=?!~^"


def choose_mark(name: str, taken: Collection[str], column_labels: str) -> str:
    """The mark for a new player called ``name``.

    ``taken`` holds the marks of players already known; ``column_labels`` the
    board's column letters as displayed.  Raises ``ValueError`` if every
    candidate is in use.
    """
    for candidate in _candidates(name):
        if candidate not in taken and candidate not in column_labels:
            return candidate
    raise ValueError(f"no board mark is left for {name!r}: {len(taken)} marks are in use")


def _candidates(name: str) -> Iterator[str]:
    for letter in name:
        if letter.isascii() and letter.isalpha():
            yield letter.upper()
            yield letter.lower()
    yield from LETTERS
    yield from LETTERS.lower()
    yield from _FALLBACK_SYMBOLS
