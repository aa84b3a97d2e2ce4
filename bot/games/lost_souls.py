"""The name under which a game keeps what a Lost Soul left behind (rule 14, seed 004).

Rule 14: a player who forfeits "loses all game defined properties and
attributes except for eir Name, and becomes a Lost Soul".  A game whose
record of the past still needs the Lost Soul (the board codes and ko history
of Political Go, the Field's record of who tweaked this nweek) keeps that
record under a *Lost Soul label* rather than under the name: the name is
free for the Lost Soul to rejoin with, or for another player to take once e
bears another (rule 151), and neither inherits anything from the record.

A label is the name, two spaces and a bracketed note.  Player names never
hold two spaces in a row (the roster collapses white space), so no player
can ever be called by a label.
"""

from __future__ import annotations

_MARKER = "  (Lost Soul"


def lost_soul_label(name: str, record: int | None = None) -> str:
    """``name`` as a record of a Lost Soul; ``record`` tells apart two of one name."""
    number = "" if record is None else f", record {record}"
    return f"{name}{_MARKER}{number})"


def is_lost_soul_label(name: str) -> bool:
    """Whether ``name`` is a ``lost_soul_label`` rather than a player's name."""
    return _MARKER in name


def former_name(label: str) -> str:
    """The name a ``lost_soul_label`` was made from (``label`` itself if it is none)."""
    return label.split(_MARKER, 1)[0]
