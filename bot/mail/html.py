"""HTML mail bodies to plain text with ``html2text``.

The converter is configured for reading, not for Markdown: no line wrapping
(players' lines must stay as typed), no link targets or images, no emphasis
markers, and none of html2text's Markdown escaping (it would turn a typed
``- item`` into ``\\- item``).  Blockquotes come out as ``> `` lines, which
is what lets ``visible.py`` drop quoted replies from HTML-only mail.
"""

from __future__ import annotations

import html
import re

import html2text

from bot.mail.charsets import DecodedText

# Zero-width and bidirectional marks that HTML mailers sprinkle through text;
# invisible to the reader, but they would split words such as "FOR".
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060\ufeff]")
_BLANK_RUN = re.compile(r"\n{3,}")
_TAG = re.compile(r"<[^>]*>")


class _PlainTextConverter(html2text.HTML2Text):
    """html2text without Markdown escaping of the author's characters."""

    def handle_data(self, data: str, entity_char: bool = False) -> None:
        # html2text escapes Markdown-significant characters unless it is told
        # the data is an entity; that flag changes nothing else.
        super().handle_data(data, entity_char=True)


def _converter() -> _PlainTextConverter:
    converter = _PlainTextConverter(bodywidth=0)
    converter.ignore_links = True
    converter.ignore_images = True
    converter.ignore_emphasis = True
    converter.ignore_tables = True
    converter.unicode_snob = True
    return converter


def convert_html(markup: str) -> DecodedText:
    """Convert HTML to readable text; a converter crash becomes a defect.

    html2text is a third-party parser run on hostile input: should it fail on
    some construct, the tags are stripped crudely instead, so that decoding a
    message never raises.
    """
    try:
        text = _converter().handle(markup)
    except Exception as error:  # a crash in html2text must not stop decoding
        crude = html.unescape(_TAG.sub(" ", markup))
        defect = f"HTML converter failed ({type(error).__name__}); tags stripped instead"
        return DecodedText(tidy_text(crude), (defect,))
    return DecodedText(tidy_text(text))


def html_to_text(markup: str) -> str:
    """The readable text of an HTML body: lines kept, quotes as ``> `` lines."""
    return convert_html(markup).text


def tidy_text(text: str) -> str:
    """Strip trailing spaces, invisible marks and runs of blank lines."""
    text = _INVISIBLE.sub("", text.replace("\xa0", " "))
    lines = [line.rstrip() for line in text.splitlines()]
    return _BLANK_RUN.sub("\n\n", "\n".join(lines)).strip("\n")
