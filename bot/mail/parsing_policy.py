"""``policy.default``, with a header factory that remembers the headers it made.

The stdlib parser and ``Message`` ask ``policy.default`` for a header
object each time a header is read: the feed parser alone reads each part's
Content-Type about four times while splitting a post, and every read parses
the value again into a new object (and, for each read, builds a new header
class).  That was over half of the time of parsing a post with
``policy.default`` (bench/pipeline.py).  Header objects are immutable once
made (a ``str`` with read-only properties), and the same name and value
always parse to an equal object, so one object can answer every read of
the same header, in this post and in the next ones (most posts carry the
same Content-Type, and a player's From recurs).  The parse is the same as
with ``policy.default``: the same parser, classes and defects.
"""

from __future__ import annotations

from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry

# Bounds on what is remembered, so that a long-running daemon or a hostile
# post (thousands of distinct or huge headers) cannot grow the memory: a
# longer value is parsed each time, and the whole memory is dropped when full.
MAX_REMEMBERED = 4096
MAX_REMEMBERED_CHARS = 2000


class RememberingHeaderRegistry(HeaderRegistry):
    """``HeaderRegistry`` that returns the object it made before for the same name and value."""

    def __init__(self) -> None:
        super().__init__()
        self.made: dict[tuple[str, str], BaseHeader] = {}

    def __call__(self, name: str, value: str) -> BaseHeader:
        if len(value) > MAX_REMEMBERED_CHARS:
            made: BaseHeader = super().__call__(name, value)
            return made
        key = (name, value)
        known = self.made.get(key)
        if known is not None:
            return known
        if len(self.made) >= MAX_REMEMBERED:
            self.made.clear()
        made = self.made[key] = super().__call__(name, value)
        return made


DEFAULT_REMEMBERING = policy.default.clone(header_factory=RememberingHeaderRegistry())
