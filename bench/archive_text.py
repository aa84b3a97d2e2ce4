"""The words of generated posts: chatter, action sentences, quotes, signatures.

Test-data generation for bench/pipeline.py.  Everything here is chosen by a
seeded ``random.Random`` passed in, so one seed gives one archive.

The chatter bank avoids every action trigger of the grammar (place, put,
play, pass, roll, ally, consent, forfeit, join, register, ...) except in the
few sentences that are there on purpose to be *not* actions: a question, a
past tense, a quotation.  Action sentences always stand on their own line,
so wrapping the chatter never moves a trigger word to the start of a line.
"""

from __future__ import annotations

import html
import random
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

WRAP_WIDTH = 72

CHATTER: tuple[str, ...] = (
    "I think the current proposal is a good idea, but the wording of its second clause is unclear.",
    "Has anyone worked out how the alliance rules interact with the capture rule?",
    "Thanks for the update on the board; it is much easier to follow now.",
    "I agree with {other} on this one, for what it is worth.",
    # A report of votes cast, not a vote: "My vote on Proposal N is FOR" would be
    # one (rule 15), and the referee judges it.
    "I voted FOR Proposal {number} and AGAINST Proposal {number2} last nweek.",
    "I'll be away for a few days next week, so do not expect much from me until then.",
    "That is an interesting reading of rule 1639 D, though not the one I would take.",
    "The Arena has been quiet lately; maybe the next nweek will liven it up.",
    "I call for judgement on whether the last Checking Period ended at midnight UTC.",
    "Good game so far, everyone. The lower left corner is a real battlefield.",
    "Could the referee clarify how Go Points are divided after a capture with allies?",
    "We should amend rule 9 so that dice results can be checked by anyone.",
    "The board is getting crowded around the centre, which makes captures likely.",
    "{other}, your last message did not reach me until this morning.",
    "Proposal {number} would repeal rule 1639 E; I would rather keep the ko rule.",
    "Is anybody keeping a history of the Go Points? The referee posts it, I know.",
    "Welcome back, {other}! It has been a while since you were last active.",
    "I'd suggest we discuss the new scoring rule on the discussion list instead.",
    "As far as I can see, the Clock was never turned Off this nweek.",
    "Rule 3 B says an action is implemented when the Clock is next On.",
    "I don't see why the ko rule should apply to alliances at all.",
    "The CFI about rule 14 is still open; the Justiciar has not answered yet.",
)
# Not actions, on purpose: a question, a report of the past, a quotation.
DECOYS: tuple[str, ...] = (
    "Should I place a stone at {point} or wait for the next Checking Period?",
    "I placed a stone at {point} yesterday; the ruling is in the archive.",
    '{other} wrote "I pass" last time, so e is unlikely to attack now.',
    "Would anyone object if I roll for the Arena later this week?",
)
GREETINGS: tuple[str, ...] = ("Hi all,", "Hello,", "Morning all.", "Hi everyone,", "All,", "")
SIGN_OFFS: tuple[str, ...] = ("Cheers,", "Thanks,", "Regards,", "Best,")
CLIENT_SIGNATURES: tuple[str, ...] = ("Sent from my iPhone", "Get Outlook for Android")


@dataclass(frozen=True)
class Quote:
    """An earlier post quoted in a reply, with the attribution line above it."""

    attribution: str
    lines: tuple[str, ...]
    outlook_style: bool = False  # "-----Original Message-----" copy below the text


@dataclass(frozen=True)
class PostText:
    """The parts of one post's body, before it becomes plain text or HTML."""

    paragraphs: tuple[tuple[str, ...], ...]  # each paragraph: its lines as typed
    quote: Quote | None = None
    quote_first: bool = True  # bottom-posting: quote, then the new text
    signature: tuple[str, ...] = field(default=())
    signature_delimited: bool = True  # "-- " above the signature

    def plain(self, flowed: bool = False) -> str:
        """The body as typed; ``flowed`` marks soft line breaks (RFC 3676)."""
        joiner = " \n" if flowed else "\n"
        new_text = "\n\n".join(joiner.join(lines) for lines in self.paragraphs)
        parts = [new_text]
        if self.quote is not None:
            quoted = quote_block(self.quote)
            parts = [quoted, new_text] if self.quote_first else [new_text, quoted]
        if self.signature:
            delimiter = ["-- "] if self.signature_delimited else []
            parts.append("\n".join([*delimiter, *self.signature]))
        return "\n\n".join(part for part in parts if part) + "\n"

    def html(self) -> str:
        body = "".join(_html_paragraph(lines) for lines in self.paragraphs)
        if self.quote is not None:
            quoted = _html_quote(self.quote)
            body = quoted + body if self.quote_first else body + quoted
        if self.signature:
            signature = "<br>".join(html.escape(line) for line in self.signature)
            body += f'<div class="gmail_signature">-- <br>{signature}</div>'
        return f'<html><head></head><body><div dir="ltr">{body}</div></body></html>\n'

    def visible_lines(self) -> tuple[str, ...]:
        """The author's own lines, as a later reply would quote them."""
        return tuple(line for lines in self.paragraphs for line in lines)


def quote_block(quote: Quote) -> str:
    if quote.outlook_style:
        return "\n".join(["-----Original Message-----", quote.attribution, "", *quote.lines])
    quoted = [f"> {line}" if line else ">" for line in quote.lines]
    return "\n".join([quote.attribution, *quoted])


def _html_paragraph(lines: Sequence[str]) -> str:
    return "<div>" + "<br>".join(html.escape(line) for line in lines) + "</div><div><br></div>"


def _html_quote(quote: Quote) -> str:
    inner = "<br>".join(html.escape(line) for line in quote.lines)
    attribution = html.escape(quote.attribution)
    return (
        f'<div class="gmail_quote"><div dir="ltr" class="gmail_attr">{attribution}<br></div>'
        f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
        f'border-left:1px solid rgb(204,204,204);padding-left:1ex">{inner}</blockquote></div>'
    )


def chatter_paragraphs(
    chooser: random.Random, others: Sequence[str], points: Sequence[str], count: int
) -> list[tuple[str, ...]]:
    """``count`` wrapped paragraphs of one or two chatter sentences each."""
    paragraphs = []
    for _ in range(count):
        chosen = chooser.sample(CHATTER, chooser.randint(1, 2))
        sentences = [_fill(sentence, chooser, others, points) for sentence in chosen]
        paragraphs.append(tuple(textwrap.wrap(" ".join(sentences), WRAP_WIDTH)))
    return paragraphs


def decoy_line(chooser: random.Random, others: Sequence[str], points: Sequence[str]) -> str:
    return _fill(chooser.choice(DECOYS), chooser, others, points)


def _fill(
    template: str, chooser: random.Random, others: Sequence[str], points: Sequence[str]
) -> str:
    return template.format(
        other=chooser.choice(others),
        number=chooser.randint(4000, 4999),
        number2=chooser.randint(4000, 4999),
        point=chooser.choice(points),
    )


def signature_for(chooser: random.Random, name: str) -> tuple[tuple[str, ...], bool]:
    """A signature block and whether it has the ``-- `` delimiter (or none at all)."""
    style = chooser.random()
    if style < 0.35:
        return (name, f"https://{name.lower()}.example.net/nomic"), True
    if style < 0.55:
        return (name,), True
    if style < 0.75:
        return (chooser.choice(SIGN_OFFS), name), False
    if style < 0.82:
        return (chooser.choice(CLIENT_SIGNATURES),), False
    return (), False


def greeting(chooser: random.Random) -> tuple[str, ...]:
    text = chooser.choice(GREETINGS)
    return (text,) if text else ()
