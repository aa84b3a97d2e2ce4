"""B Nomic comments: text within ``[[`` and ``]]`` (rule 8, seed 004).

Rule 8/2: "any text appearing within doubled square brackets ("[[" and "]]")
shall be considered "comment" text.  Comment text shall not have the force of
Rule".  A post's comments are therefore not actions, and the referee drops
them before reading the post.  Readings taken where the rule is silent:

* Nesting counts: ``[[ a [[ b ]] c ]]`` is one comment.  The author plainly
  meant all of it as comment; closing at the first ``]]`` would turn `` c ]]``
  into live text.
* An unclosed ``[[`` opens no comment: without a closing ``]]`` no text is
  "within" the brackets, and treating the rest of the post as comment could
  silently void every action after a typo.  The ``[[`` stays as literal text
  (matched pairs inside it are still comments).  A stray ``]]`` is literal.
* Comments inside a ``{{ ... }}`` block are kept.  Rule 217 (seed 004) makes
  ``{{``/``}}`` delimit the text of a proposal, rule or amendment, and rule
  texts carry ``[[ ]]`` comments of their own (every rule of seed 004 does):
  they are part of the text being proposed, not remarks of the poster.
"""

from __future__ import annotations

import bisect
import re

_MARKER = re.compile(r"\[\[|\]\]|\{\{|\}\}")

Span = tuple[int, int]


def comment_spans(text: str) -> list[Span]:
    """Start and end offsets of each outermost comment, in order."""
    markers = [(match.start(), match.group()) for match in _MARKER.finditer(text)]
    delimited = _outermost(_matched_pairs(markers, "{{", "}}"))
    return _outermost(_matched_pairs(_outside(markers, delimited), "[[", "]]"))


def strip_comments(text: str) -> str:
    """``text`` without its rule 8 comments (see the module docstring)."""
    if "[[" not in text:
        return text  # most posts: nothing to look for
    return without_spans(text, comment_spans(text))


def without_spans(text: str, spans: list[Span]) -> str:
    """``text`` with the sorted, disjoint ``spans`` cut out."""
    pieces: list[str] = []
    position = 0
    for start, end in spans:
        pieces.append(text[position:start])
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _matched_pairs(markers: list[tuple[int, str]], opening: str, closing: str) -> list[Span]:
    open_positions: list[int] = []
    pairs: list[Span] = []
    for position, marker in markers:
        if marker == opening:
            open_positions.append(position)
        elif marker == closing and open_positions:
            pairs.append((open_positions.pop(), position + len(closing)))
    return pairs


def _outermost(pairs: list[Span]) -> list[Span]:
    # Pairs come from a stack, so two pairs are either nested or disjoint.
    outermost: list[Span] = []
    for start, end in sorted(pairs):
        if outermost and end <= outermost[-1][1]:
            continue
        outermost.append((start, end))
    return outermost


def _outside(markers: list[tuple[int, str]], spans: list[Span]) -> list[tuple[int, str]]:
    """The markers not inside any of the sorted, disjoint ``spans``."""
    starts = [start for start, _ in spans]
    kept: list[tuple[int, str]] = []
    for position, marker in markers:
        index = bisect.bisect_right(starts, position) - 1
        if index < 0 or position >= spans[index][1]:
            kept.append((position, marker))
    return kept
