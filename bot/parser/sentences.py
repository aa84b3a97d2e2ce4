"""Split a post's visible text into sentences, keeping where each one starts.

Mail is hard-wrapped, so a newline alone does not end a sentence: a sentence
may continue on the next line of a paragraph.  A blank line always ends one,
and so does a bullet or numbered list item.  A short line followed by a line
starting with a capital letter is read as a line break the author typed
(``"Place a stone at G3\\nRoll 2d6"``), because a mail client would not have
wrapped it there.

Full stops end sentences except after abbreviations ("e.g.", "Mr."), initials,
or when the next word starts in lower case; a full stop inside a number
("3.5") is never followed by a space and so never ends one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# Mail clients wrap at 66-80 columns; a line that would still have had room
# for the next word at this width was ended on purpose.
WRAP_WIDTH = 60

BULLET = re.compile(r"[ \t]*(?:[-*•+‣◦]|\(?\d{1,3}[.)]|\(?[A-Za-z][)])[ \t]+")
BULLET_WIDTH = 8
WORD_WINDOW = 64
# "12: FOR", "Proposal 13 - AGAINST": each line of a ballot is its own sentence.
BALLOT_LINE = re.compile(
    r"(?:(?:proposals?|props?|poll|cfi|cfj)\s*#?\s*|#\s*)?[1-9][0-9]*\s*(?::|=|-|–|—)", re.I
)
SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s|$)")
NEXT_CHARACTER = re.compile(r"\s*(\S)")
JOINING_CHARACTERS = ",;(&–—-"
JOINING_WORDS = frozenset(
    {
        "and",
        "or",
        "but",
        "the",
        "a",
        "an",
        "to",
        "of",
        "with",
        "at",
        "on",
        "in",
        "by",
        "for",
        "my",
        "your",
        "i",
        "is",
        "are",
        "as",
    }
)
ABBREVIATIONS = frozenset(
    {
        "e.g",
        "i.e",
        "eg",
        "ie",
        "mr",
        "mrs",
        "ms",
        "dr",
        "st",
        "vs",
        "etc",
        "cf",
        "approx",
        "jr",
        "sr",
        "prof",
        "p.s",
        "n.b",
        "viz",
        "al",
        "fig",
        "a.m",
        "p.m",
    }
)


@dataclass(frozen=True)
class Sentence:
    """A sentence as written, trimmed, and where it starts in the post."""

    text: str
    start: int
    starts_line: bool


@dataclass(frozen=True)
class _Line:
    line_start: int  # offset of the line's first character
    start: int  # offset of the first character after indentation and bullet
    end: int  # offset just before the newline
    is_item: bool  # starts with a bullet or a list number


def split_sentences(post: str) -> tuple[Sentence, ...]:
    """The sentences of ``post`` in order; each ``text`` is a substring of it."""
    sentences: list[Sentence] = []
    for block_start, block_end in _blocks(post):
        sentences.extend(_sentences_in_block(post, block_start, block_end))
    return tuple(sentences)


def _lines(post: str) -> Iterator[_Line]:
    line_start = 0
    # str.split, not a regular expression per line: this runs over every post.
    for text in post.split("\n"):
        if not text and line_start == len(post):
            break  # a final line break ends the last line and starts none
        content_end = line_start + len(text.rstrip("\r"))
        bullet = BULLET.match(post, line_start, content_end)
        start = bullet.end() if bullet else line_start
        yield _Line(line_start=line_start, start=start, end=content_end, is_item=bullet is not None)
        line_start += len(text) + 1


def _blocks(post: str) -> Iterator[tuple[int, int]]:
    """Runs of lines that belong together, as (start, end) offsets."""
    block: _Line | None = None
    previous: _Line | None = None
    for line in _lines(post):
        if not post[line.start : line.end].strip():
            if block is not None and previous is not None:
                yield block.start, previous.end
            block = previous = None
            continue
        if block is not None and previous is not None and not _continues(post, previous, line):
            yield block.start, previous.end
            block = None
        if block is None:
            block = line
        previous = line
    if block is not None and previous is not None:
        yield block.start, previous.end


def _continues(post: str, previous: _Line, following: _Line) -> bool:
    """Whether ``following`` carries on the sentence of ``previous`` (a soft wrap)."""
    if following.is_item:
        return False
    before = post[previous.start : previous.end].rstrip()
    after = post[following.start : following.end].lstrip()
    if before.endswith(":") or BALLOT_LINE.match(after):
        return False
    if after[:1].islower() or _ends_with_joiner(before):
        return True
    first_word = after.split(maxsplit=1)[0]
    line_width = previous.end - previous.line_start
    return line_width + 1 + len(first_word) > WRAP_WIDTH


def _ends_with_joiner(line: str) -> bool:
    if line[-1:] in tuple(JOINING_CHARACTERS):
        return True
    words = line.rsplit(maxsplit=1)
    return bool(words) and words[-1].lower() in JOINING_WORDS


def _sentences_in_block(post: str, start: int, end: int) -> Iterator[Sentence]:
    block = post[start:end]
    sentence_start = 0
    for match in SENTENCE_END.finditer(block):
        if _ends_sentence(block, match):
            yield from _trimmed(post, start + sentence_start, start + match.end())
            sentence_start = match.end()
    yield from _trimmed(post, start + sentence_start, end)


def _ends_sentence(block: str, match: re.Match[str]) -> bool:
    following = NEXT_CHARACTER.match(block, match.end())
    if following is None or "?" in match.group() or "!" in match.group():
        return True
    if following.group(1).islower():
        return False
    core = _word_before(block, match.start()).lstrip("([{\"'“‘")
    if core.lower() in ABBREVIATIONS:
        return False
    # An initial such as "J. Smith" rather than the end of a sentence.
    return not (len(core) == 1 and core.isupper() and match.group() == ".")


def _word_before(block: str, end: int) -> str:
    # Only the word just before the full stop matters; a short window keeps
    # this linear on very long paragraphs.
    window = block[max(0, end - WORD_WINDOW) : end]
    words = window.rsplit(maxsplit=1)
    return words[-1] if words else ""


def _trimmed(post: str, start: int, end: int) -> Iterator[Sentence]:
    text = post[start:end]
    stripped = text.strip()
    if not stripped:
        return
    offset = start + (len(text) - len(text.lstrip()))
    yield Sentence(text=stripped, start=offset, starts_line=_starts_line(post, offset))


def _starts_line(post: str, offset: int) -> bool:
    """Whether only indentation or a list bullet comes before ``offset`` on its line."""
    position = offset - 1
    while position >= 0 and post[position] in " \t":
        position -= 1
    if position < 0 or post[position] == "\n":
        return True
    # A bullet is short, so only a few characters back need looking at.
    window_start = max(0, offset - BULLET_WIDTH)
    newline = post.rfind("\n", window_start, position)
    if newline < 0 and window_start > 0:
        return False
    return BULLET.fullmatch(post, newline + 1, offset) is not None
