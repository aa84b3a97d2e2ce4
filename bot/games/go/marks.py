"""One-character marks that stand for players on the board (rule 1639 H).

Rule 1639 H's example shows ``Rob`` as ``R`` and ``Someone Else`` as ``S`` but
``Bob the Voting Fish`` as ``b``.  The reading: a player's mark is the first
letter of eir name in capitals, unless that character is one of the board's
column letters (B is a column on 9x9; R and S are not), in which case the
lower-case letter is used.  Later letters of the name are tried the same way
when those are taken, then the rest of the alphabet, then a few symbols.  A
mark is assigned once, when the player first appears, and stored in the state,
so it never changes as others join.

A mark is given only to a player in the game (one who has moved, consented
to an alliance or been named in a consent, or holds set-up stones), never to
every registered player.  Past the 55 ASCII marks of a 9x9 board the
fallback is more single characters, so rule 1639 H's one-character points
and ``[m]`` legend entries still read back: Greek letters, then Cyrillic
ones, each set without the letters that look like a Latin capital or like
each other, then accented Latin letters.  A board holds at most 255 players
(``state.MAXIMUM_PLAYERS``), and there are more marks than that.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from bot.games.go.points import LETTERS

# Never letters or digits that the board frame and labels use ('.', '|', '-',
# "'", '[', ']' and row digits are excluded by construction).
_FALLBACK_SYMBOLS = "#@*+%&$=?!~^"
# Trust II: beyond the ASCII marks, one character each (docs/readings.md, 1639 H).
_GREEK = "ΓΔΘΛΞΠΣΦΨΩαβγδεζηθικλμνξπρστυφχψω"
_CYRILLIC = "БДЖЗИЙЦЧШЩЪЫЬЭЮЯбвгджзийклмнтцчшщъыьэюя"
_LATIN_ACCENTED = "".join(
    chr(code) for code in range(0xC0, 0x17F) if chr(code).isalpha() and chr(code) not in "ĸŉ"
)
EXTRA_MARKS = _GREEK + _CYRILLIC + _LATIN_ACCENTED


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
    yield from EXTRA_MARKS
