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

MARKERS = re.compile(r"\{\{|\}\}")
PLACEHOLDER = re.compile(r"\{\{§(?P<number>[1-9][0-9]*)\}\}")
TITLE = re.compile(r"__(?P<title>(?:(?!__)[^\n])+?)__")
LEADING_TITLE = re.compile(r"\s*__(?P<title>(?:(?!__)[^\n])+?)__[ \t]*:?[ \t]*\n?")
SHORT_TEXT = 40


@dataclass(frozen=True)
class Delimited:
    """A post with its blocks set aside: ``masked`` text and the blocks' inner texts."""

    masked: str
    blocks: tuple[str, ...]

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
    """``text`` with every outermost block replaced by its placeholder."""
    pieces: list[str] = []
    blocks: list[str] = []
    position = 0
    for start, end in block_spans(text):
        blocks.append(text[start + 2 : end - 2])
        pieces.append(text[position:start])
        pieces.append("{{§" + str(len(blocks)) + "}}")
        position = end
    pieces.append(text[position:])
    return Delimited(masked="".join(pieces), blocks=tuple(blocks))


def split_title(inner: str) -> tuple[str | None, str]:
    """A block's leading ``__Title__`` and the text without it (rule 217), else (None, text)."""
    match = LEADING_TITLE.match(inner)
    if match is None:
        return None, clean_text(inner)
    return match.group("title").strip(), clean_text(inner[match.end() :])


def clean_text(inner: str) -> str:
    """The block's text without the blank lines and spaces around it."""
    return inner.strip()


def abbreviated(inner: str) -> str:
    """A block's text on one line, cut to a few words for quoting in a reply."""
    flat = " ".join(inner.split())
    return flat if len(flat) <= SHORT_TEXT else flat[: SHORT_TEXT - 1].rstrip() + "…"
