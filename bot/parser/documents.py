"""Proposals and CFIs written without ``{{ }}`` (rule 217, seed 004).

Rule 217: the Standard Delimiters "are not required to be used in any
circumstance".  Players submit documents in two other shapes as well:

* a submission line ending with a colon (or followed by labelled lines), then
  the document on the lines below it::

      I submit the following proposal:
      Title: Raise the Cap
      Amend rule 212 to read ...

      I submit a CFI.
      Title: Rooms are not Tiles
      Defendant: Bob
      Argument: ...
      Resolution: ...

* a heading that names the document, then its text::

      Proposal: Raise the Cap
      Amend rule 212 to read ...

Such a document is set apart exactly like a ``{{ }}`` block, so nothing in it
is read as an action.  Where it ends, the rules cannot say: it runs to the
end of the post, or to a separator line ("---", "===", "End of proposal");
``{{ }}`` stays the unambiguous form (the reading "Documents without
delimiters" in docs/readings.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from bot.parser.clauses import ADVERBS

# Every introduction and heading names its document with one of these words.
DOCUMENT_WORD = re.compile(r"prop|rule|cfi|cfj|inquiry|shenanigans", re.IGNORECASE)
DOCUMENT_NOUN = r"(?:proposal|prop|rule|cfi|cfj|call\s+for\s+inquiry|shenanigans)"
INTRODUCTION = re.compile(
    rf"[ \t]*(?:i\s+{ADVERBS})?"
    r"(?:(?:submit|file|raise|make|issue|propose)\s+(?:(?:a|an|the|this|my|following|new|general)\s+)*"
    rf"{DOCUMENT_NOUN}(?:\s+(?:against|titled|entitled|called|named)\s+[^\n:.{{}}]*)?"
    r"|call\s+shenanigans(?:\s+against\s+[^\n:.{}]*)?|(?:submit|propose)\s+the\s+following)"
    r"(?:\s*,?\s*as\s+follows)?[ \t]*(?P<end>[:.]?)[ \t]*",
    re.IGNORECASE,
)
# A heading's title reads as a title: a capital, a digit or a quote first,
# and no question ("Proposal: we should all have cake?" is chatter).
HEADING = re.compile(
    r"[ \t]*(?P<kind>(?i:proposal|cfi|cfj|call\s+for\s+inquiry))[ \t]*:[ \t]*"
    r"(?P<title>[A-Z0-9\"“'‘_][^\n]{0,100}?)(?<![?])[ \t]*"
)
LABEL = re.compile(
    r"[ \t]*(?:title|defendant|argument|plainti?ff['’]?s[ \t]+argument|resolution|text"
    r"|proposal[ \t]+text|body)[ \t]*:",
    re.IGNORECASE,
)
TERMINATOR = re.compile(
    r"[ \t]*(?:[-=_*~][ \t]*){3,}|[ \t]*\[?(?:end\s+of\s+(?:the\s+)?(?:proposal|cfi|cfj|text)"
    r"|/proposal|/cfi)\]?[ \t.]*",
    re.IGNORECASE,
)
# A {{ }} block, or rule 217's "__Title__" line before one, after an introduction.
BLOCK_FOLLOWS = re.compile(r"\s*(?:\{\{|__(?:(?!__)[^\n])+?__[ \t]*:?[ \t]*$)")
# A heading whose "title" is one vote word is a ballot line ("Proposal: FOR").
VOTE_LIKE = re.compile(r"(?:yes|no|for|against|abstain|present|aye|nay|true|false)\W*", re.I)


@dataclass(frozen=True)
class Document:
    """An undelimited document: the span it replaces and what stands there instead.

    ``start``..``end`` is replaced by ``before`` + the block's placeholder;
    ``inner`` is the block's text (a heading's title as a "Title:" line).
    """

    start: int
    end: int
    inner: str
    before: str


@dataclass(frozen=True)
class _Line:
    start: int
    end: int  # before the newline

    def text(self, post: str) -> str:
        return post[self.start : self.end]


def find_documents(text: str, blocks: list[tuple[int, int]]) -> list[Document]:
    """The undelimited documents of ``text`` outside the ``{{ }}`` ``blocks``, in order."""
    if DOCUMENT_WORD.search(text) is None:
        return []  # most posts name no document at all
    lines = [line for line in _lines(text) if not _inside(line.start, blocks)]
    documents: list[Document] = []
    index = 0
    while index < len(lines):
        document, index = _document_at(text, lines, index)
        if document is not None:
            documents.append(document)
    return documents


def _document_at(text: str, lines: list[_Line], index: int) -> tuple[Document | None, int]:
    """The document starting at ``lines[index]`` and the index after it, else (None, index + 1)."""
    line = lines[index]
    written = line.text(text)
    heading = HEADING.fullmatch(written)
    if heading is not None and not (
        _opens_paragraph(text, line) and not VOTE_LIKE.fullmatch(heading.group("title"))
    ):
        heading = None
    introduction = INTRODUCTION.fullmatch(written) if heading is None else None
    if heading is None and introduction is None:
        return None, index + 1  # most lines: judged without reading further
    body = _body(text, lines, index + 1)
    if body is None:
        return None, index + 1
    first, last = body
    if heading is not None:
        inner = "Title: " + heading.group("title") + "\n" + text[first.start : last.end]
        before = heading.group("kind") + ": "
    elif introduction is not None and (
        introduction.group("end") == ":" or LABEL.match(first.text(text))
    ):
        inner = text[first.start : last.end]
        before = written.rstrip().rstrip(".") + " "
    else:
        return None, index + 1
    return Document(line.start, last.end, inner, before), lines.index(last, index) + 1


def _body(text: str, lines: list[_Line], start: int) -> tuple[_Line, _Line] | None:
    """The first and last line of the text under a heading, up to a separator or the end."""
    content = (line for line in lines[start:] if line.text(text).strip())
    first = next(content, None)
    if first is None or BLOCK_FOLLOWS.match(first.text(text)):
        return None  # nothing follows, or a {{ }} block (with its __Title__) does
    if TERMINATOR.fullmatch(first.text(text)):
        return None
    last = first
    for line in content:
        # "Title\n=====" underlines a heading; after a sentence it separates.
        underline = (
            last is first
            and line.start == first.end + 1
            and not first.text(text).rstrip().endswith((".", "!", "?", ":", ";"))
        )
        if TERMINATOR.fullmatch(line.text(text)) and not underline:
            break
        last = line
    return first, last


def _opens_paragraph(text: str, line: _Line) -> bool:
    before = text[: line.start].rstrip(" \t")
    return not before or before.endswith("\n\n") or before.count("\n") == len(before)


def _lines(text: str) -> Iterator[_Line]:
    position = 0
    for piece in text.split("\n"):
        yield _Line(position, position + len(piece))
        position += len(piece) + 1


def _inside(position: int, blocks: list[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in blocks)
