"""Signatures at the end of a post's own text.

Only the tail is ever considered: a signature block has at most
``MAX_SIGNATURE_LINES`` non-blank lines (talon's SIGNATURE_MAX_LINES) and
some author text must remain above it.  Recognised, in the spirit of talon's
brute-force extractor and github/email_reply_parser:

* the ``-- `` delimiter of RFC 3676 section 4.3 (also ``--`` with the space
  lost by a mailer);
* client signatures: "Sent from my iPhone", "Sent with Sparrow (...)",
  "Get Outlook for iOS" and a few translations;
* a lone ``-Name`` sign-off on the last line, after a blank line;
* when the sender is known: the line naming the sender (by name, or by the
  address) and everything below it, with a closing phrase ("Thanks,") just
  above it, the rest of a contact block around the sender's own address, or a
  separator line a few short lines above.

The referee errs towards keeping text: a line left in costs a "not
understood" note, a line wrongly cut costs a player's action.  Hence the
sender rules refuse lines with digits, colons or upper-case words (votes such
as "FOR 1234") and lines longer than a name.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from email.utils import parseaddr

MAX_SIGNATURE_LINES = 11
_MAX_NAME_LINE = 60
_MAX_SIGNATURE_LINE = 80
_MAX_TITLE_LINE = 40
_MAX_PASSES = 4

_DELIMITER = re.compile(r"^--\s*$")
_CLIENT_SIGNATURE = re.compile(
    r"""^\s*(?:
        sent\ from\ my\ [^\W_]+(?:\ [^\W_]+){0,2}
      | sent\ from\ (?:mail|outlook|yahoo\ mail|aol\ mobile\ mail)(?:\ for\ [\w ]{1,30})?
      | sent\ with\ [^\W_]+(?:\ [^\W_]+)?(?:\ \([^()]*\))?
      | sent\ via\ [^\W_]+(?:\ [^\W_]+){0,2}
      | get\ outlook\ for\ [^\W_]+
      | envoy[ée]\ de\ mon\ [^\W_]+
      | von\ meinem\ [^\W_]+(?:\ [^\W_]+)?\ gesendet
      | enviado\ desde\ mi\ [^\W_]+
      | inviato\ da(?:l\ mio)?\ [^\W_]+
      | verzonden\ (?:vanaf|met)\ mijn\ [^\W_]+
      | отправлено\ с\ [^\W_]+
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
# Github's SIG_REGEX "-\w" sign-off, narrowed to capitalised names.
_DASH_SIGNOFF = re.compile(r"^-{1,2}[A-Z][a-z][\w.'’]*(?: [A-Z][\w.'’]*){0,2}$")
_CLOSING_PHRASE = re.compile(
    r"^\s*(?:thanks|thank\ you|many\ thanks|thx|cheers|regards|best|best\ regards|kind\ regards"
    r"|warm\ regards|warmly|sincerely|yours|yours\ truly|love|take\ care)"
    r"(?:\ [^\W\d_]+){0,2}\s*[,.!]?\s*$",
    re.IGNORECASE | re.VERBOSE,
)
_SEPARATOR = re.compile(r"^\s*[-_=~*]{2,}\s*$")
_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass(frozen=True)
class Sender:
    """Who wrote the post, as far as signatures are concerned."""

    name_words: frozenset[str]  # lower-cased words of the name and address
    address: str  # lower-cased addr-spec, or ""


# Players post again and again: each one's From header is read once.
@functools.lru_cache(maxsize=4096)
def sender_of(sender: str) -> Sender:
    """Read ``"Name <addr>"``, a bare name or a bare address."""
    if "@" not in sender:
        return Sender(_words(sender), "")
    name, address = parseaddr(sender)
    local_part = address.split("@", 1)[0]
    return Sender(_words(name) | _words(local_part), address.lower())


def strip_signature(lines: list[str], sender: Sender | None = None) -> list[str]:
    """``lines`` (already right-stripped) without a trailing signature block."""
    for _ in range(_MAX_PASSES):
        start = _signature_start(lines, sender)
        if start is None:
            break
        lines = _without_trailing_blanks(lines[:start])
    return lines


def _signature_start(lines: list[str], sender: Sender | None) -> int | None:
    window = _tail_window_start(lines)
    candidates = (
        _first_match(lines, window, _DELIMITER),
        _first_match(lines, window, _CLIENT_SIGNATURE),
        _dash_signoff(lines),
        _sender_signature(lines, window, sender) if sender else None,
    )
    valid = [start for start in candidates if start is not None and _has_text_before(lines, start)]
    return min(valid, default=None)


def _tail_window_start(lines: list[str]) -> int:
    """Index from which at most MAX_SIGNATURE_LINES + 1 non-blank lines remain."""
    seen = 0
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].strip():
            seen += 1
            if seen > MAX_SIGNATURE_LINES + 1:
                return index + 1
    return 0


def _first_match(lines: list[str], window: int, pattern: re.Pattern[str]) -> int | None:
    for index in range(window, len(lines)):
        if len(lines[index]) <= _MAX_SIGNATURE_LINE and pattern.match(lines[index]):
            return index
    return None


def _dash_signoff(lines: list[str]) -> int | None:
    last = _last_text_line(lines)
    if last is None or not _DASH_SIGNOFF.match(lines[last]):
        return None
    return last if last > 0 and not lines[last - 1].strip() else None


def _sender_signature(lines: list[str], window: int, sender: Sender) -> int | None:
    for index in range(window, len(lines)):
        if _has_address(lines[index], sender):
            start = _contact_block_start(lines, index, sender)
        elif _names_sender(lines[index], sender):
            start = _closing_phrase_start(lines, index)
        else:
            continue
        start = _separator_start(lines, start)
        tail = lines[start:]
        return start if all(len(line) <= _MAX_SIGNATURE_LINE for line in tail) else None
    return None


def _has_address(line: str, sender: Sender) -> bool:
    return bool(sender.address) and sender.address in line.lower()


def _names_sender(line: str, sender: Sender) -> bool:
    """A short line made (at least half) of the sender's name, with no vote in it."""
    # The colon first: it is one search, the digits a loop over the line.
    if len(line) > _MAX_NAME_LINE or ":" in line:
        return False
    if any(character.isdigit() for character in line):
        return False
    words = _WORD.findall(line)
    named = [word for word in words if word.lower() in sender.name_words]
    if not named or _has_foreign_capitals(words, sender):
        return False
    return 2 * len(named) >= len(words)


def _has_foreign_capitals(words: list[str], sender: Sender) -> bool:
    # An upper-case word that is not the sender's name reads like a keyword
    # of an action ("FOR", "AGAINST"), not like a signature.
    return any(word.isupper() and word.lower() not in sender.name_words for word in words)


def _is_title_like(line: str, sender: Sender) -> bool:
    """A line of a contact block above the address: name, title, company."""
    if not line.strip() or len(line) > _MAX_TITLE_LINE or ":" in line:
        return False
    if any(character.isdigit() for character in line):
        return False
    words = _WORD.findall(line)
    return len(words) <= 5 and not _has_foreign_capitals(words, sender)


def _contact_block_start(lines: list[str], index: int, sender: Sender) -> int:
    start = index
    while start > 0 and _is_title_like(lines[start - 1], sender):
        start -= 1
    return start


def _closing_phrase_start(lines: list[str], index: int) -> int:
    if index > 0 and _CLOSING_PHRASE.match(lines[index - 1]):
        return index - 1
    return index


def _separator_start(lines: list[str], start: int) -> int:
    """A separator line at most three short lines above ``start``, if any."""
    text_lines = 0
    for index in range(start - 1, -1, -1):
        line = lines[index]
        if _SEPARATOR.match(line):
            return index
        if not line.strip():
            continue
        text_lines += 1
        if text_lines > 3 or len(line) > 30 or any(character.isdigit() for character in line):
            break
    return start


def _has_text_before(lines: list[str], start: int) -> bool:
    return any(line.strip() for line in lines[:start])


def _last_text_line(lines: list[str]) -> int | None:
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].strip():
            return index
    return None


def _without_trailing_blanks(lines: list[str]) -> list[str]:
    end = len(lines)
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def _words(text: str) -> frozenset[str]:
    return frozenset(word.lower() for word in _WORD.findall(text))
