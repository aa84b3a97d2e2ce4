"""Rule 217's Standard Delimiters: ``{{ ... }}`` sets text apart, ``__Title__`` titles it.

Rule 217 (seed 004): "{{" and "}}" "mark the beginning and end, respectively,
of text that should be set apart, such as the text of a Proposal or Rule".
Text set apart is never read as actions: a proposal that says "I pass" does
not pass for its proponent.  So before the post is cut into sentences, every
outermost ``{{ ... }}`` block is replaced by a short placeholder
(``{{§1}}``, ``{{§2}}``, ...) that the grammar reads as one token, the
argument of the action it follows; ``restore`` puts the text back.

Readings where the rule is silent (the same as ``bot.mail.comments``):

* Nesting counts ("yay recursion"): ``{{ a {{ b }} c }}`` is one block whose
  text is ``a {{ b }} c``; the inner delimiters are part of the text (a
  proposal may contain the text of a rule).
* An unclosed ``{{`` sets nothing apart and a stray ``}}`` is literal.
* ``[[comments]]`` inside a block were kept by the comment stage: they are
  part of the proposed text.

Titles: "the title begins after the first '__' and ends before the second
one"; one written inside the block, before anything else, "is removed from
the text ... and made to be its title" (``split_title``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.mail.comments import Span
from bot.parser.documents import find_documents

MARKERS = re.compile(r"\{\{|\}\}")
PLACEHOLDER = re.compile(r"\{\{§(?P<number>[1-9][0-9]*)\}\}")
TITLE = re.compile(r"__(?P<title>(?:(?!__)[^\n])+?)__")
LEADING_TITLE = re.compile(r"\s*__(?P<title>(?:(?!__)[^\n])+?)__[ \t]*:?[ \t]*\n?")
TITLE_LABEL = re.compile(r"\s*title[ \t]*:[ \t]*(?P<title>[^\n]*\S)[ \t]*(?:\n|$)", re.I)
TEXT_LABEL = re.compile(r"\A\s*(?:text|body|proposal[ \t]+text)[ \t]*:[ \t]*", re.I)
# Headings of a document written without delimiters (bot.parser.documents).
HEADINGS = (
    re.compile(r"\s*#{1,3}[ \t]+(?P<title>[^\n]*\S)[ \t]*\n"),
    re.compile(r"\s*(?P<title>[^\n]*\S)[ \t]*\n[ \t]*(?:={3,}|-{3,})[ \t]*\n"),
    re.compile(r"\s*(?P<title>[^\n.!?]{1,80}[^\n.!?:\s])[ \t]*\n[ \t]*\n(?=\s*\S)"),
)
SHORT_TEXT = 40


@dataclass(frozen=True)
class Delimited:
    """A post with its blocks set aside: ``masked`` text and the blocks' inner texts.

    ``undelimited`` holds the numbers of the blocks that were documents written
    without ``{{ }}`` (``bot.parser.documents``).
    """

    masked: str
    blocks: tuple[str, ...]
    undelimited: frozenset[int] = frozenset()

    def is_undelimited(self, placeholder: str) -> bool:
        match = PLACEHOLDER.fullmatch(placeholder.strip())
        return match is not None and int(match.group("number")) in self.undelimited

    def block(self, placeholder: str) -> str | None:
        """The inner text a placeholder stands for, or None if it is not one of ours."""
        match = PLACEHOLDER.fullmatch(placeholder.strip())
        if match is None:
            return None
        number = int(match.group("number"))
        return self.blocks[number - 1] if number <= len(self.blocks) else None

    def restore(self, text: str, shorten: bool = True) -> str:
        """``text`` with each placeholder replaced by its block (shortened for quoting)."""

        def put_back(match: re.Match[str]) -> str:
            inner = self.block(match.group()) or ""
            return "{{ " + (abbreviated(inner) if shorten else inner) + " }}"

        return PLACEHOLDER.sub(put_back, text)


def block_spans(text: str) -> list[Span]:
    """The (start, end) offsets of each outermost ``{{ ... }}`` block, delimiters included."""
    open_positions: list[int] = []
    pairs: list[Span] = []
    for match in MARKERS.finditer(text):
        if match.group() == "{{":
            open_positions.append(match.start())
        elif open_positions:
            pairs.append((open_positions.pop(), match.end()))
    outermost: list[Span] = []
    for start, end in sorted(pairs):
        if not outermost or start >= outermost[-1][1]:
            outermost.append((start, end))
    return outermost


def set_apart(text: str) -> Delimited:
    """``text`` with every outermost block, and every undelimited document, replaced.

    A ``{{ }}`` block inside an undelimited document is part of its text.
    """
    spans = block_spans(text)
    documents = find_documents(text, spans)
    parts: list[tuple[int, int, str, str]] = [
        (document.start, document.end, document.inner, document.before) for document in documents
    ]
    parts.extend(
        (start, end, text[start + 2 : end - 2], "")
        for start, end in spans
        if not any(document.start <= start < document.end for document in documents)
    )
    pieces: list[str] = []
    blocks: list[str] = []
    undelimited: set[int] = set()
    position = 0
    for start, end, inner, before in sorted(parts):
        blocks.append(inner)
        if before:
            undelimited.add(len(blocks))
        pieces.extend([text[position:start], before, "{{§" + str(len(blocks)) + "}}"])
        position = end
    pieces.append(text[position:])
    return Delimited("".join(pieces), tuple(blocks), frozenset(undelimited))


def split_title(inner: str, headings: bool = False) -> tuple[str | None, str]:
    """A block's leading title and the text without it, else (None, text).

    Rule 217's ``__Title__``, or a "Title:" line; with ``headings`` (a
    document written without delimiters) also a heading line: "# Title", a
    line underlined with "===" or "---", or a short first line set off by a
    blank line.  A "Text:" label before the text is dropped.
    """
    for pattern in (LEADING_TITLE, TITLE_LABEL, *(HEADINGS if headings else ())):
        match = pattern.match(inner)
        if match is not None:
            return match.group("title").strip(), _body_text(inner[match.end() :])
    return None, _body_text(inner)


def _body_text(inner: str) -> str:
    return clean_text(TEXT_LABEL.sub("", inner, count=1))


def clean_text(inner: str) -> str:
    """The block's text without the blank lines and spaces around it."""
    return inner.strip()


def abbreviated(inner: str) -> str:
    """A block's text on one line, cut to a few words for quoting in a reply."""
    flat = " ".join(inner.split())
    return flat if len(flat) <= SHORT_TEXT else flat[: SHORT_TEXT - 1].rstrip() + "…"
