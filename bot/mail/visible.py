"""Only the new text an author wrote in a post.

``visible_text`` drops, in this order:

1. B Nomic comments ``[[ ... ]]`` (rule 8, seed 004; see ``comments.py``),
   first, so that no comment decides what the rest of the post looks like;
2. quoted lines (``>``), with the attribution that introduces them ("On ...
   wrote:", one to three lines, plus common translations and the
   "<date>, <name> <address>:" form of Russian webmail);
3. everything from the first line that starts a copy of another message: an
   "-----Original Message-----" or forwarded-message marker, an Outlook-style
   header block ("From:", "Sent:", "To:", "Subject:" in a few languages), a
   mailing-list footer (Mailman's underscores then "... mailing list" or
   "To unsubscribe"), or an "On <date> ... wrote:" attribution followed by
   unquoted text (Gmail and Outlook quote without ``>``);
4. a trailing signature (see ``signature.py``).

Where quoted blocks are interleaved with the author's lines, the author's
lines are kept, separated by one blank line.  Otherwise the author's lines are
kept as typed: not reflowed, only right-stripped, with line endings made
``\\n`` and leading and trailing blank lines removed.
"""

from __future__ import annotations

import re
from enum import Enum

from bot.mail.comments import comment_spans, without_spans
from bot.mail.signature import Sender, sender_of, strip_signature

# Attributions, header lines and separators are short; longer lines are never
# tested against those patterns, which also keeps pathological input linear.
MAX_STRUCTURE_LINE = 1000
# How far the attribution search looks back, and past how many blank lines it
# looks ahead for the quote it introduces.
MAX_ATTRIBUTION_LINES = 3
MAX_BLANKS_BEFORE_QUOTE = 10

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_QUOTED = re.compile(r"^[ \t]{0,3}>")

# "wrote" in the attributions of common mail clients, as a regex alternation.
_WROTE_WORDS = (
    "wrote|writes|schrieb|a écrit|escribió|escreveu|scrisse|ha scritto|skrev|kirjoitti|napisał"
    "|napisała|napsal|napísal|написал|написала|написав|het geschreven|schreef|yazdı|írta|έγραψε"
    "|כתב|kirjutas|rašė|rakstīja|写道|寫道"
)
_WROTE_END = re.compile(rf"(?:{_WROTE_WORDS})\s*[:：]\s*$", re.IGNORECASE)
_ATTRIBUTION_START = re.compile(
    r"^\s*(?:-+\s*)?(?:on|le|am|el|il|op|em|den|dne|w dniu|pe|в|στις)\s", re.IGNORECASE
)
_DATE_START = re.compile(r"^\s*\d{1,4}[./-]\d{1,2}[./-]\d{1,4}")
_DATE_OR_TIME = re.compile(r"\d{1,2}:\d{2}|\d{1,4}[./-]\d{1,2}[./-]\d{1,4}")
_SENTENCE_END = re.compile(r"[.!?]\s*$")

_ORIGINAL_MESSAGE = re.compile(
    r"^\s*[-_=*]{2,}\s*(?:original message|forwarded message|ursprüngliche nachricht"
    r"|weitergeleitete nachricht|message d'origine|message transféré|mensaje original"
    r"|mensaje reenviado|messaggio originale|messaggio inoltrato|oorspronkelijk bericht"
    r"|doorgestuurd bericht|исходное сообщение|пересылаемое сообщение|originalmeddelande"
    r"|alkuperäinen viesti|wiadomość oryginalna)\s*[-_=*]{2,}\s*$",
    re.IGNORECASE,
)
_FORWARD_MARKER = re.compile(
    r"^\s*(?:begin forwarded message|anfang der weitergeleiteten nachricht"
    r"|début du message réexpédié|inicio del mensaje reenviado)\s*[:：]?\s*$",
    re.IGNORECASE,
)
# What an "-----Original Message-----" marker or a footer rule starts with.
_RULE_STARTS = frozenset("-_=*")
_FOOTER_RULE = re.compile(r"^\s*(?:_{10,}|--)\s*$")
_FOOTER_HINT = re.compile(
    r"mailing list|unsubscribe|listinfo|you received this message because you are subscribed",
    re.IGNORECASE,
)
_FOOTER_LOOKAHEAD = 4
# Bound on lines scanned for the footer's next author lines (hostile input).
_MAX_LOOKAHEAD_SCAN = 200
_SEPARATOR = re.compile(r"^\s*(?:[-_=~*]\s*){3,}$")

_HEADER_LINE = re.compile(
    r"^\s*[*_]{0,2}(?P<name>[^\W\d_][^\W\d_-]*(?:[ -][^\W\d_]+)?)[*_]{0,2}\s*[:：]"
)
# Header names of quoted-message blocks in the languages players are likely to
# use, by role; a block needs three roles, one of them "from".
_HEADER_NAMES_BY_ROLE = {
    "from": "from von de da van от od från fra lähettäjä feladó kimden 发件人 寄件者",
    "to": "to an à a para aan кому do till til vastaanottaja címzett kime 收件人",
    "cc": "cc kopie копия kopia 抄送",
    "date": "date sent gesendet datum envoyé enviado fecha inviato data verzonden отправлено "
    "дата wysłano skickat sendt lähetetty elküldve tarih 发送时间 日期",
    "subject": "subject betreff objet asunto oggetto onderwerp тема temat ämne emne aihe tárgy "
    "konu 主题 主旨",
    "reply-to": "reply-to",
}
_HEADER_ROLES = {
    name: role for role, names in _HEADER_NAMES_BY_ROLE.items() for name in names.split()
}
_HEADER_BLOCK_SPAN = 12
_MIN_HEADER_ROLES = 3


class LineKind(Enum):
    """What a line of a post is, as far as the reply parser can tell."""

    AUTHOR = "author"
    QUOTE = "quote"
    ATTRIBUTION = "attribution"


def visible_text(body: str, *, sender: str = "") -> str:
    """The new text the author wrote in ``body`` (see the module docstring).

    ``sender`` ("Name <address>", a name or an address; usually the From
    header) lets signatures that name the sender be recognised too.
    """
    lines = _without_comments([line.rstrip() for line in _LINE_BREAK.split(body)])
    identity: Sender | None = sender_of(sender) if sender.strip() else None
    lines = strip_signature(_trimmed(_author_lines(lines)), identity)
    # Cutting a copy may leave a {{ block open, which makes the brackets after
    # it a comment (rule 8): read the comments of what is kept once more, as a
    # second reading of the result would.
    return "\n".join(_trimmed(_without_comments(lines)))


def _without_comments(lines: list[str]) -> list[str]:
    """The lines with rule 8 comments removed, before any structure is read.

    Comments go first so that a comment never decides what looks like an
    attribution or a signature.  Brackets on quoted lines are someone else's
    and are masked, so they never pair with the author's.
    """
    if not any("[[" in line for line in lines):
        return lines  # most posts: no comment to look for (only "[[" opens one)
    masked = "\n".join(" " * len(line) if _QUOTED.match(line) else line for line in lines)
    spans = comment_spans(masked)
    if not spans:
        return lines
    text = without_spans("\n".join(lines), spans)
    return [line.rstrip() for line in text.split("\n")]


# --- classification ----------------------------------------------------------------


def classify_lines(lines: list[str]) -> tuple[list[LineKind], int]:
    """The kind of each line before the cut, and the cut index.

    The cut is the first line from which the rest of the post is a copy of
    something else (``len(lines)`` if there is none); kinds are given for the
    lines before it.
    """
    kinds = [LineKind.QUOTE if _QUOTED.match(line) else LineKind.AUTHOR for line in lines]
    cut = _mark_attributions(lines, kinds)
    cut = _first_copy(lines, kinds, cut)
    return kinds[:cut], cut


def _mark_attributions(lines: list[str], kinds: list[LineKind]) -> int:
    """Mark attributions of quotes; return where an unquoted copy starts."""
    for index, line in enumerate(lines):
        if kinds[index] is not LineKind.AUTHOR or len(line) > MAX_STRUCTURE_LINE:
            continue
        attribution = _attribution_ending_at(lines, kinds, index)
        if attribution is None:
            continue
        start, introduces_quote = attribution
        if introduces_quote:
            kinds[start : index + 1] = [LineKind.ATTRIBUTION] * (index + 1 - start)
        elif _is_dated_attribution(lines[start : index + 1]):
            return start
    return len(lines)


def _first_copy(lines: list[str], kinds: list[LineKind], limit: int) -> int:
    """The first author line before ``limit`` that starts a copied message.

    The tests look at author lines only, skipping quotes and attributions, so
    that the answer is the same once those are gone (``visible_text`` is
    idempotent).
    """
    for index in range(limit):
        line = lines[index]
        if kinds[index] is not LineKind.AUTHOR or len(line) > MAX_STRUCTURE_LINE:
            continue
        if _FORWARD_MARKER.match(line):
            return index
        # Cheap tests first: a marker or footer rule starts with one of
        # _RULE_STARTS, a header line holds a colon; most lines have neither.
        if line.lstrip()[:1] in _RULE_STARTS and (
            _ORIGINAL_MESSAGE.match(line) or _is_footer(lines, kinds, index)
        ):
            return index
        if _has_colon(line) and _is_header_block(lines, kinds, index):
            return index
    return limit


def _has_colon(line: str) -> bool:
    return ":" in line or "：" in line


def _is_footer(lines: list[str], kinds: list[LineKind], index: int) -> bool:
    if not _FOOTER_RULE.match(lines[index]):
        return False
    following = _next_author_lines(lines, kinds, index, _FOOTER_LOOKAHEAD)
    return any(_FOOTER_HINT.search(line) for line in following)


def _next_author_lines(
    lines: list[str], kinds: list[LineKind], index: int, count: int
) -> list[str]:
    found: list[str] = []
    for position in range(index + 1, min(len(lines), index + 1 + _MAX_LOOKAHEAD_SCAN)):
        if kinds[position] is LineKind.AUTHOR and lines[position].strip():
            found.append(lines[position])
            if len(found) == count:
                break
    return found


def _header_role(line: str) -> str | None:
    if len(line) > MAX_STRUCTURE_LINE:
        return None
    match = _HEADER_LINE.match(line)
    return _HEADER_ROLES.get(match.group("name").lower()) if match else None


def _is_header_block(lines: list[str], kinds: list[LineKind], index: int) -> bool:
    """An Outlook-style block: three header roles or more, one of them From.

    One wrapped continuation line is allowed between header lines; a blank
    line or a quoted line ends the block.
    """
    if _header_role(lines[index]) is None:
        return False
    roles: set[str] = set()
    continuation = 0
    end = min(len(lines), index + _HEADER_BLOCK_SPAN)
    for position in range(index, end):
        line = lines[position]
        role = _header_role(line)
        if kinds[position] is not LineKind.AUTHOR:
            break
        if role is not None:
            roles.add(role)
            continuation = 0
        elif not line.strip() or continuation >= 1:
            break
        else:
            continuation += 1
    return len(roles) >= _MIN_HEADER_ROLES and "from" in roles


def _attribution_ending_at(
    lines: list[str], kinds: list[LineKind], index: int
) -> tuple[int, bool] | None:
    """(first line, introduces a quote?) of an attribution ending at ``index``."""
    line = lines[index]
    # Both kinds of attribution end with a colon: a cheap test before the
    # search for "wrote", which otherwise runs along every author line.
    if not _has_colon(line.rstrip()[-1:]):
        return None
    if _WROTE_END.search(line):
        start = _attribution_start(lines, kinds, index)
        return start, _quote_follows(kinds, lines, index)
    if _is_address_attribution(line) and _quote_follows(kinds, lines, index):
        return index, True
    return None


def _attribution_start(lines: list[str], kinds: list[LineKind], index: int) -> int:
    """Where a wrapped "On <date>, <name>\\n<address>\\nwrote:" begins."""
    if _ATTRIBUTION_START.match(lines[index]) or _DATE_START.match(lines[index]):
        return index
    for start in range(index - 1, max(index - MAX_ATTRIBUTION_LINES, -1), -1):
        line = lines[start]
        if kinds[start] is not LineKind.AUTHOR or not line.strip():
            break
        if len(line) > MAX_STRUCTURE_LINE or _SENTENCE_END.search(line):
            break
        if _ATTRIBUTION_START.match(line) or _DATE_START.match(line):
            joined = " ".join(lines[start : index + 1])
            return start if _has_date_or_address(joined) else index
    return index


def _is_address_attribution(line: str) -> bool:
    """ "26.06.2014, 14:41, "Alex" <a@example.com>:" and similar one-liners."""
    stripped = line.strip()
    if not stripped.endswith((":", "：")) or _header_role(line) is not None:
        return False
    return "@" in stripped or bool(_DATE_OR_TIME.search(stripped))


def _is_dated_attribution(attribution: list[str]) -> bool:
    joined = " ".join(attribution)
    starts_like_one = _ATTRIBUTION_START.match(joined) or _DATE_START.match(joined)
    return bool(starts_like_one) and _has_date_or_address(joined)


def _has_date_or_address(text: str) -> bool:
    return "@" in text or any(character.isdigit() for character in text)


def _quote_follows(kinds: list[LineKind], lines: list[str], index: int) -> bool:
    end = min(len(lines), index + 2 + MAX_BLANKS_BEFORE_QUOTE)
    for following in range(index + 1, end):
        if kinds[following] is LineKind.QUOTE:
            return True
        if lines[following].strip():
            return False
    return False


# --- assembly ------------------------------------------------------------------------


def _author_lines(lines: list[str]) -> list[str]:
    """The author's lines; interleaved runs joined by one blank line."""
    kinds, cut = classify_lines(lines)
    kept = lines[:cut]
    if cut < len(lines):
        kept = _without_trailing_separators(kept)
    runs: list[list[str]] = []
    current: list[str] = []
    for line, kind in zip(kept, kinds[: len(kept)], strict=True):
        if kind is LineKind.AUTHOR:
            current.append(line)
            continue
        runs.append(_trimmed(current))
        current = []
    runs.append(_trimmed(current))
    return _joined([run for run in runs if run])


def _without_trailing_separators(lines: list[str]) -> list[str]:
    end = len(lines)
    while end > 0 and (not lines[end - 1].strip() or _SEPARATOR.match(lines[end - 1])):
        end -= 1
    return lines[:end]


def _joined(runs: list[list[str]]) -> list[str]:
    joined: list[str] = []
    for run in runs:
        if joined:
            joined.append("")
        joined.extend(run)
    return joined


def _trimmed(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]
