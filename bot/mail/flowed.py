"""Undo ``format=flowed`` (RFC 3676) so paragraphs read as their author typed.

A flowed line ends in a space and continues on the next line; ``DelSp=yes``
means that trailing space was added by the mailer and is removed on joining.
Quote depth is the number of leading ``>``; a paragraph never spans two
depths.  The joined lines are re-emitted with ``"> "`` style quote markers so
the reply parser in ``visible.py`` sees ordinary quoted lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_QUOTE_MARKS = re.compile(r">*")

# RFC 3676 section 4.3: the signature separator "-- " is never flowed.
_SIGNATURE_SEPARATOR = "-- "


@dataclass(frozen=True)
class FlowedLine:
    """One physical line split into its quote depth and unstuffed content."""

    depth: int
    content: str

    @property
    def is_flowed(self) -> bool:
        return self.content.endswith(" ") and self.content != _SIGNATURE_SEPARATOR


def parse_flowed_line(line: str) -> FlowedLine:
    """Split off the quote marks and undo space-stuffing (RFC 3676 4.4, 4.5)."""
    marks = _QUOTE_MARKS.match(line)
    depth = marks.end() if marks else 0
    content = line[depth:]
    if content.startswith(" "):
        content = content[1:]
    return FlowedLine(depth, content)


def unflow(text: str, *, delete_space: bool = False) -> str:
    """Join flowed lines into paragraphs; ``delete_space`` is RFC 3676 DelSp."""
    output: list[str] = []
    paragraph: list[str] = []
    depth = 0
    for physical_line in _LINE_BREAK.split(text):
        line = parse_flowed_line(physical_line)
        if paragraph and line.depth != depth:
            # Section 4.5: a flowed line followed by a different quote depth
            # ends its paragraph as if it were fixed.
            output.append(_quoted(depth, "".join(paragraph)))
            paragraph = []
        depth = line.depth
        content = line.content
        if line.is_flowed and delete_space:
            content = content[:-1]
        paragraph.append(content)
        if not line.is_flowed:
            output.append(_quoted(depth, "".join(paragraph)))
            paragraph = []
    if paragraph:
        output.append(_quoted(depth, "".join(paragraph)))
    return "\n".join(output)


def _quoted(depth: int, content: str) -> str:
    if depth == 0:
        return content
    return ">" * depth + " " + content
