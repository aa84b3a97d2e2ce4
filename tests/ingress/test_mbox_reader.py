"""bot.ingress.mbox_reader gives the entries mailbox.mbox gives, byte for byte.

The replay reads each entry's From_ line time as ``time.strptime`` does.
"""

from __future__ import annotations

import io
import mailbox
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ingress.mbox_reader import count_entries, mbox_entries, read_entries
from bot.ingress.replay import ASCTIME, archive_posts, asctime_moment, count_posts
from bot.posts import mbox_from_line

REPO_ROOT = Path(__file__).resolve().parents[2]
PIECE_SIZES = (1, 2, 5, 6, 7, 64, 1 << 20)
FROM_LINE = b"From list-bounces@lists.example.org Sun Jan 01 01:06:11 2023"


def stdlib_entries(path: Path) -> list[bytes]:
    box = mailbox.mbox(str(path), create=False)
    try:
        return [box.get_bytes(key, from_=True) for key in box.iterkeys()]
    finally:
        box.close()


def assert_same_entries(path: Path, piece_sizes: tuple[int, ...] = PIECE_SIZES) -> list[bytes]:
    expected = stdlib_entries(path)
    for piece_size in piece_sizes:
        assert list(mbox_entries(path, piece_size)) == expected, piece_size
    return expected


EDGE_CASES = {
    "empty file": b"",
    "only a blank line": b"\n",
    "no From line": b"Subject: x\n\nbody\n",
    "text before the first From line": b"junk\n\nFrom a\nSubject: x\n\nbody\n",
    "one entry": FROM_LINE + b"\nSubject: x\n\nbody\n\n",
    "two entries": FROM_LINE + b"\nA: 1\n\none\n\n" + FROM_LINE + b"\nB: 2\n\ntwo\n\n",
    "no blank line between entries": b"From a\nx\nFrom b\ny\n",
    "two blank lines between entries": b"From a\nx\n\n\nFrom b\ny\n",
    "no final newline": b"From a\nx\n\nFrom b\ny",
    "a From line without newline at the end": b"From a\nx\n\nFrom b",
    "only From lines": b"From a\nFrom b\nFrom c\n",
    "a bare From at the end": b"From a\n\nFrom ",
    "From_ without the space is no start": b"From a\nFromage\n\nFrom: b\n",
    "quoted From lines stay": b"From a\n\n>From here\n>>From there\n\nFrom b\n\n",
    "an unquoted From line in a body starts an entry": b"From a\n\nbody\nFrom here on\n",
    "CRLF lines": b"From a\r\nX: 1\r\n\r\nbody\r\n\r\nFrom b\r\nY: 2\r\n\r\n",
    "a CRLF blank line before a From line": b"From a\nx\r\n\r\nFrom b\ny\n",
    "lone CRs": b"From a\rx\r\rFrom b\ny\r\n\rFrom c\n",
    "a final blank line": b"From a\nx\n\n",
    "a final CRLF blank line": b"From a\nx\r\n\r\n",
    "blank line at the start of the file": b"\nFrom a\nx\n",
    "8-bit bytes": b"From \xff\xfe a\n\xe9t\xe9\n\nFrom b\n\x00\x01\n",
    "a From line right after the first": b"From a\n\nFrom b\n\n",
}


@pytest.mark.parametrize("content", EDGE_CASES.values(), ids=EDGE_CASES.keys())
def test_edge_cases_give_the_stdlib_entries(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "box.mbox"
    path.write_bytes(content)
    expected = assert_same_entries(path)
    assert count_entries(path) == len(expected)


def test_every_corpus_mail_read_as_an_mbox_gives_the_stdlib_entries(corpora: Path) -> None:
    files = sorted(path for path in (corpora / "email").rglob("*") if path.is_file())
    found = sum(len(assert_same_entries(path, (64, 1 << 20))) for path in files)
    # The corpus files that start with a From_ line are one-entry mboxes.
    assert len(files) > 100 and found >= 5


def test_an_mbox_of_every_corpus_mail_gives_the_stdlib_entries(
    corpora: Path, tmp_path: Path
) -> None:
    path = tmp_path / "corpus.mbox"
    box = mailbox.mbox(str(path), create=True)
    files = sorted(path for path in (corpora / "email").rglob("*") if path.is_file())
    for file in files:
        box.add(file.read_bytes())
    box.close()
    assert len(assert_same_entries(path, (4096, 1 << 20))) == len(files)


def write_bench_mbox(path: Path, raws: list[bytes]) -> None:
    """The posts as bench/pipeline.py writes its archive (bench/archive_mail.py)."""
    sys.path.insert(0, str(REPO_ROOT / "bench"))
    try:
        from archive_mail import BOUNCES, mbox_entry
    finally:
        sys.path.remove(str(REPO_ROOT / "bench"))
    start = datetime(2023, 1, 1, tzinfo=UTC)
    with path.open("wb") as archive:
        for index, raw in enumerate(raws):
            moment = start + timedelta(minutes=index)
            archive.write(mbox_entry(raw, mbox_from_line(BOUNCES, moment)))


def test_the_bench_archive_gives_the_stdlib_entries(
    bench_archive: Callable[[int], list[bytes]], tmp_path: Path
) -> None:
    path = tmp_path / "game.mbox"
    raws = bench_archive(200)
    write_bench_mbox(path, raws)
    assert len(assert_same_entries(path, (4096, 1 << 20))) == 200
    posts = list(archive_posts(path))
    assert [post.key for post in posts] == [str(key) for key in range(200)]
    assert count_posts(path) == 200
    box = mailbox.mbox(str(path), create=False)
    assert [post.raw for post in posts] == [box.get_bytes(key) for key in box.iterkeys()]
    box.close()


def test_a_missing_file_is_no_mailbox(tmp_path: Path) -> None:
    with pytest.raises(mailbox.NoSuchMailboxError):
        list(mbox_entries(tmp_path / "absent.mbox"))
    with pytest.raises(mailbox.NoSuchMailboxError):
        list(mailbox.mbox(str(tmp_path / "absent.mbox"), create=False).iterkeys())


class CountingReader(io.BytesIO):
    """A file that remembers how many bytes were read from it."""

    read_so_far = 0

    def read(self, size: int | None = -1, /) -> bytes:
        piece = super().read(size)
        self.read_so_far += len(piece)
        return piece


def test_entries_are_given_while_the_file_is_read() -> None:
    entry = FROM_LINE + b"\nSubject: x\n\n" + b"line of text\n" * 80 + b"\n"
    file = CountingReader(entry * 1000)
    entries = read_entries(file, 4096)
    assert next(entries) == entry[:-1]
    # One piece read ahead, not the whole file (a long archive is not held).
    assert file.read_so_far <= 2 * 4096
    assert sum(1 for _ in entries) == 999


def test_an_entry_longer_than_many_pieces_is_read_whole() -> None:
    long_entry = FROM_LINE + b"\n\n" + b"x" * 100_000 + b"\n"
    file = CountingReader(long_entry + b"\n" + FROM_LINE + b"\n")
    assert list(read_entries(file, 1000)) == [long_entry, FROM_LINE + b"\n"]


# Pieces of mbox text that meet the reader's cases: entry starts (at a line
# start or not), blank lines of every line end, quoted From lines, 8-bit bytes.
MBOX_PIECES = st.sampled_from(
    [b"From ", b"From a Sun Jan 01 01:06:11 2023\n", b">From ", b"Fro", b"m ", b"\n", b"\r\n"]
    + [b"\r", b"\n\n", b"\r\n\r\n", b"x", b"Subject: y\n", b" ", b"\xe9\xff", b"\x00"]
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pieces=st.lists(MBOX_PIECES, max_size=40),
    piece_size=st.sampled_from(PIECE_SIZES),
)
def test_generated_mboxes_give_the_stdlib_entries(
    tmp_path: Path, pieces: list[bytes], piece_size: int
) -> None:
    path = tmp_path / "generated.mbox"
    path.write_bytes(b"".join(pieces))
    assert list(mbox_entries(path, piece_size)) == stdlib_entries(path)


def strptime_moment(text: str) -> datetime | None:
    """The From_ line's instant as the replay read it with strptime alone."""
    try:
        parsed = time.strptime(text, ASCTIME)
    except ValueError:
        return None
    return datetime(*parsed[:6], tzinfo=UTC)


def outcome(read: Callable[[str], datetime | None], text: str) -> object:
    try:
        return read(text)
    except ValueError as error:  # a leap second: strptime reads it, datetime does not
        return type(error)


ASCTIMES = [
    "Sun Jan 01 01:06:11 2023",
    "Sat Nov 21 13:37:25 2026",
    "Mon Feb 29 00:00:00 2024",
    "Tue Feb 29 00:00:00 2023",
    "Wed Apr 31 12:00:00 2023",
    "Thu Dec 31 23:59:59 9999",
    "Fri Jan 01 00:00:00 0000",
    "Sun Jan 01 23:59:60 2023",
    "Sun Jan 01 24:00:00 2023",
    "Sun Jan 00 10:00:00 2023",
    "sun jan 01 01:06:11 2023",
    "Sunday January 1 1:6:11 2023",
    "Sun Jan  1 01:06:11 2023",
    "Sun Jan 1 01:06:11 2023",
    "Xyz Jan 01 01:06:11 2023",
    "Sun Jan 01 01:06:11 23",
    "Sun Jan 01 01:06:11 2023 ",
    "Sun Jan 01 01:06:11 ２０２３",
]


@pytest.mark.parametrize("text", ASCTIMES)
def test_from_line_times_read_as_strptime_reads_them(text: str) -> None:
    assert outcome(asctime_moment, text) == outcome(strptime_moment, text)


@settings(max_examples=300)
@given(
    st.tuples(
        st.sampled_from(["Sun", "Mon", "sat", "Sunday", "Xyz"]),
        st.sampled_from(["Jan", "Feb", "Apr", "dec", "September", "Foo"]),
        st.sampled_from(["01", "1", " 1", "00", "28", "29", "30", "31", "32", "٣"]),
        st.sampled_from(["00", "0", "09", "23", "24", "1"]),
        st.sampled_from(["00", "5", "59", "60"]),
        st.sampled_from(["00", "7", "59", "60", "61", "62"]),
        st.sampled_from(["2023", "2024", "1900", "0000", "99", "10000"]),
        st.sampled_from([" ", "  ", "\t"]),
    )
)
def test_generated_asctimes_read_as_strptime_reads_them(
    parts: tuple[str, str, str, str, str, str, str, str],
) -> None:
    weekday, month, day, hour, minute, second, year, space = parts
    text = f"{weekday}{space}{month} {day} {hour}:{minute}:{second} {year}"
    assert outcome(asctime_moment, text) == outcome(strptime_moment, text)
