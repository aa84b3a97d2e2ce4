"""Bounds on what one ruling mail may say, so a hostile post cannot make it huge.

The limits on one post (``bot.parser.limits``) already bound how many items a
ruling lists; these bound the text of each item and of the whole mail, for
whatever else might grow (a sentence a megabyte long, quoted by every action
read from it; a board; a long list of notes).
"""

from __future__ import annotations

MAX_QUOTE_CHARS = 500  # one quoted sentence in a ruling
MAX_RULING_CHARS = 256 * 1024  # the text of one ruling mail
# The end of a ruling (the trust warning and the signature) is kept when the
# middle is cut; this much of it, to the start of a line.
KEPT_TAIL_CHARS = 2_000
ELLIPSIS = " [...]"


def shortened_quote(text: str, limit: int = MAX_QUOTE_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters at a space, marked " [...]"."""
    quote = " ".join(text.split())
    if len(quote) <= limit:
        return quote
    cut = quote[: limit - len(ELLIPSIS)]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut) + ELLIPSIS


def cut_ruling(body: str, message_id: str, limit: int = MAX_RULING_CHARS) -> str:
    """``body`` if it fits in ``limit`` characters, else its start and end with a line
    saying how much was left out and where the full ruling is kept."""
    if len(body) <= limit:
        return body
    tail = _tail(body, KEPT_TAIL_CHARS)
    room = limit - len(tail) - 600  # the notice, with room to spare
    head = body[: body.rfind("\n", 0, room) + 1] if "\n" in body[:room] else body[:room]
    left_out = body[len(head) : len(body) - len(tail)]
    notice = (
        f"\n[... {len(left_out):,} characters ({left_out.count(chr(10)):,} lines) of this "
        f"ruling are left out here: one ruling mail is cut at {limit:,} characters.\n"
        f"The full ruling is in the bot's records: the action log of the post\n"
        f"<{shortened_quote(message_id, 200)}>.]\n\n"
    )
    return head + notice + tail


def _tail(body: str, size: int) -> str:
    if len(body) <= size:
        return body
    start = body.find("\n", len(body) - size)
    return body[start + 1 :] if start != -1 else body[-size:]


__all__ = ["MAX_QUOTE_CHARS", "MAX_RULING_CHARS", "cut_ruling", "shortened_quote"]
