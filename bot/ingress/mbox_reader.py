"""An mbox file's entries as ``mailbox.mbox`` gives them, read in large pieces.

``mailbox.mbox`` finds its entries line by line, asking the file for its
position before every line (``mbox._generate_toc``), which is most of the
cost of reading an archive.  ``mbox_entries`` finds the same entries with
one search per entry over pieces of the file read a megabyte at a time,
holding only the piece being read and the entry being cut from it, and
gives for each entry exactly the bytes of
``mailbox.mbox(path).get_bytes(key, from_=True)``, in key order
(tests/ingress/test_mbox_reader.py compares the two).

The stdlib's rules, which the reader follows (``mbox._generate_toc`` and
``_mboxMMDF.get_bytes``; the file is read in binary, so lines end at LF and
only there):

* An entry starts at every line that starts with ``From ``; what comes
  before the first such line belongs to no entry, and a file without one
  has no entries.
* An entry stops where the next one starts, less one line separator
  (``os.linesep``) when the line just before the next ``From `` line is
  exactly a line separator (the blank line the format puts between
  entries); the last entry stops at the end of the file, less its last line
  when that is exactly a line separator.
* Every line separator of an entry is turned into LF (nothing changes where
  ``os.linesep`` is LF).
"""

from __future__ import annotations

import mailbox
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

PIECE = 1 << 20
# The separator mailbox compares lines with (its module's ``linesep``).
LINE_SEPARATOR = os.linesep.encode("ascii")
_ENTRY_START = b"\nFrom "
# A line that is exactly a line separator, with the end of the line before it.
_BLANK_LINE = b"\n" + LINE_SEPARATOR


def mbox_entries(path: Path, piece_size: int = PIECE) -> Iterator[bytes]:
    """Each entry of the mbox file ``path``, From_ line included, in file order.

    Raises ``mailbox.NoSuchMailboxError`` when ``path`` does not exist, as
    ``mailbox.mbox(path, create=False)`` does.
    """
    try:
        file = path.open("rb")
    except FileNotFoundError:
        raise mailbox.NoSuchMailboxError(os.path.abspath(path)) from None
    with file:
        yield from read_entries(file, piece_size)


def count_entries(path: Path) -> int:
    """How many entries ``mbox_entries(path)`` gives."""
    return sum(1 for _ in mbox_entries(path))


def read_entries(file: BinaryIO, piece_size: int = PIECE) -> Iterator[bytes]:
    """Each entry of the mbox read from ``file``, reading ``piece_size`` bytes at a time.

    An entry is given as soon as the next one's start (or the end) is read,
    so the file is read one piece ahead of the entries taken (more for an
    entry longer than a piece).
    """
    # ``text`` holds the file from some offset on; its first byte is a line's
    # end (a "\n" put before the file's first byte stands for the start of the
    # file), so every line start in it follows a "\n" and an entry start is
    # found by one search for "\nFrom ".
    text = b"\n"
    start = -1  # where the current entry starts in ``text``; -1: none yet
    search_from = 0
    while True:
        found = text.find(_ENTRY_START, search_from)
        if found >= 0:
            if start >= 0:
                yield _entry(text, start, _stop_before(text, found + 1))
            start = search_from = found + 1
            continue
        # No entry start yet in what is held: keep the current entry (or, in
        # front of the first one, the end of the text, where a "\nFrom " may be
        # cut in two) and read on.  The piece read doubles with a long entry,
        # so that holding it costs time in proportion to its length.
        cut_in_two = max(len(text) - len(_ENTRY_START) + 1, search_from)
        keep = start if start >= 0 else cut_in_two
        piece = file.read(max(piece_size, len(text) - keep))
        if not piece:
            break
        search_from = cut_in_two - keep
        start = start - keep if start >= 0 else -1
        text = text[keep:] + piece
    if start >= 0:
        yield _entry(text, start, _stop_before(text, len(text)))


def _stop_before(text: bytes, line_start: int) -> int:
    """Where an entry ends that runs up to ``line_start`` (the next entry or the end)."""
    if text[line_start - len(_BLANK_LINE) : line_start] == _BLANK_LINE:
        return line_start - len(LINE_SEPARATOR)
    return line_start


def _entry(text: bytes, start: int, stop: int) -> bytes:
    entry = text[start:stop]
    return entry if LINE_SEPARATOR == b"\n" else entry.replace(LINE_SEPARATOR, b"\n")
