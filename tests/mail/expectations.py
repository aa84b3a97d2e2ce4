"""How each entry of ``email/expectations.json`` maps onto our API.

Shared by the tests of this folder and ``bench/email_corpus.py`` (both load
this file by path), so the pass rate the bench prints is the tests' verdict.

The entries were transcribed from three upstream test suites whose APIs
differ from ours; the mapping, entry kind by entry kind:

* talon standard replies (``expected_visible_reply`` of an .eml): the input is
  the first text/plain part, read both as the entry says (stdlib
  ``typed_subpart_iterator``) and through ``decode_message``.  talon's
  ``extract_from`` strips quotations only (signatures are a separate talon
  call) while ``visible_text`` strips both, so the expected reply is put
  through the same signature policy: ``visible_text(expected)``.
* talon HTML replies: ``visible_text(html_to_text(html))`` equals the expected
  text ignoring all whitespace; for the two entries that expect HTML, the
  expected HTML goes through ``html_to_text`` too.
* talon's share-block entry: upstream reads the text/html part, the entry
  says "whole file as plain text"; both are checked (non-empty, no "From").
* talon-signature triplets: ``visible_text(body, sender=<sender file>)``
  equals upstream's "body minus signature", and what was removed equals the
  signature file, both after stripping.
* github / zapier reply parsers: Ruby-style fragments do not exist here; a
  fragment that upstream shows (not quoted, not signature, not hidden) must
  be in our visible text (exactly, when it is the only one), and any other
  fragment must not.  Where upstream gives no flags, fragment 0 is the reply
  and later fragments are the quoted part (true of every such entry: their
  regexes are ``^On``).  ``fragments: 1`` means nothing may be removed.
  Every entry also gets the structural checks: no quoted line survives, the
  author's lines survive unaltered and in order, and a hidden last fragment
  is gone.  ``max_seconds`` bounds the run time.
"""

from __future__ import annotations

import email
import email.iterators
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.mail.decode import decode_message, html_to_text
from bot.mail.visible import visible_text

Entry = dict[str, Any]

EXPECTATIONS_FILE = Path("email") / "expectations.json"
# Files under corpora/email/ that are documentation or data, not messages.
NOT_MESSAGES = frozenset({"PROVENANCE.md", "expectations.json", ".gitignore"})

# Entries our API answers differently on purpose; each becomes a strict xfail.
KNOWN_DIFFERENCES: dict[str, str] = {
    "talon:talon/tests/fixtures/reply-separated-by-hr.html": (
        "talon cuts at the HTML block holding the <hr>, which drops the author's own last "
        "line 'Bob' above the rule; visible_text keeps every unquoted line above a quoted "
        "header block, because a trailing one-word line may be a player's vote"
    ),
}

_QUOTED_LINE = re.compile(r"^[ \t]{0,3}>", re.MULTILINE)
_ALL_WHITESPACE = re.compile(r"\s+")


def load_expectations(corpora: Path) -> list[Entry]:
    entries: list[Entry] = json.loads((corpora / EXPECTATIONS_FILE).read_text(encoding="utf-8"))
    return entries


def corpus_message_files(corpora: Path) -> list[Path]:
    """Every message file under corpora/email, in a stable order."""
    email_root = corpora / "email"
    return sorted(
        path for path in email_root.rglob("*") if path.is_file() and path.name not in NOT_MESSAGES
    )


def case_id(entry: Entry) -> str:
    return f"{entry['suite']}:{entry['file']}"


def check(entry: Entry, corpora: Path) -> list[str]:
    """Problems found with our answer for ``entry``; empty when it passes."""
    email_root = corpora / "email"
    if entry["suite"] == "talon-signature":
        return _check_signature(entry, email_root)
    if entry["suite"] == "talon":
        return _check_talon(entry, email_root)
    return _check_reply_parser(entry, email_root)


# --- talon -------------------------------------------------------------------


def _check_talon(entry: Entry, email_root: Path) -> list[str]:
    path = email_root / entry["file"]
    if "must_not_contain" in entry:
        return _check_share_block(entry, path)
    if path.suffix == ".html":
        return _check_html(entry, path)
    return _check_standard_reply(entry, path)


def first_plain_part(raw: bytes) -> str:
    """The first text/plain part, the way talon's test reads it."""
    message = email.message_from_bytes(raw)
    part = next(email.iterators.typed_subpart_iterator(message, "text", "plain"))
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(part.get_content_charset() or "us-ascii", errors="replace")


def _check_standard_reply(entry: Entry, path: Path) -> list[str]:
    raw = path.read_bytes()
    expected = visible_text(entry["expected_visible_reply"])
    problems = []
    for route, body in (
        ("typed_subpart_iterator", first_plain_part(raw)),
        ("decode_message", decode_message(raw).body_text),
    ):
        answer = visible_text(body)
        if not answer or answer.strip() != expected.strip():
            problems.append(f"{route}: expected {expected!r}, got {answer!r}")
    return problems


def _without_whitespace(text: str) -> str:
    return _ALL_WHITESPACE.sub("", text)


def _check_html(entry: Entry, path: Path) -> list[str]:
    answer = visible_text(html_to_text(path.read_text(encoding="utf-8", errors="replace")))
    if "expected_visible_reply_html" in entry:
        expected = html_to_text(entry["expected_visible_reply_html"])
    else:
        expected = entry["expected_visible_reply"]
    if _without_whitespace(answer) != _without_whitespace(expected):
        return [f"expected {expected!r} (whitespace ignored), got {answer!r}"]
    return []


def _check_share_block(entry: Entry, path: Path) -> list[str]:
    raw = path.read_bytes()
    forbidden = entry["must_not_contain"]
    html_part = next(
        email.iterators.typed_subpart_iterator(email.message_from_bytes(raw), "text", "html")
    )
    html_payload = html_part.get_payload(decode=True)
    assert isinstance(html_payload, bytes)
    routes = {
        "whole file as plain text": raw.decode("utf-8", errors="replace"),
        "text/html part (upstream)": html_to_text(html_payload.decode("utf-8", errors="replace")),
        "decode_message body": decode_message(raw).body_text,
    }
    problems = []
    for route, body in routes.items():
        answer = visible_text(body)
        if not answer.strip() or forbidden in answer:
            problems.append(
                f"{route}: expected non-empty text without {forbidden!r}, got {answer!r}"
            )
    return problems


# --- talon signatures ------------------------------------------------------------


def _check_signature(entry: Entry, email_root: Path) -> list[str]:
    body = (email_root / entry["file"]).read_text(encoding="utf-8")
    sender = (email_root / entry["sender_file"]).read_text(encoding="utf-8").strip()
    signature = (email_root / entry["expected_signature_file"]).read_text(encoding="utf-8")
    answer = visible_text(body, sender=sender)
    # Upstream: stripped_msg = body.strip()[:len(body.strip()) - len(msg_signature)]
    whole = body.strip()
    expected_text = whole[: len(whole) - len(signature)].strip()
    removed = whole[len(answer) :].strip() if whole.startswith(answer) else None
    problems = []
    if answer.strip() != expected_text:
        problems.append(f"text: expected {expected_text[-80:]!r} at the end, got {answer[-80:]!r}")
    if removed != signature.strip():
        problems.append(f"signature: expected {signature.strip()!r}, removed {removed!r}")
    return problems


# --- github / zapier reply parsers ---------------------------------------------------


def _check_reply_parser(entry: Entry, email_root: Path) -> list[str]:
    body = (email_root / entry["file"]).read_text(encoding="utf-8")
    started = time.perf_counter()
    answer = visible_text(body)
    elapsed = time.perf_counter() - started
    problems = _structural_problems(entry, body, answer)
    for checker in _REPLY_CHECKERS:
        problems.extend(checker(entry, body, answer))
    if "max_seconds" in entry and elapsed > entry["max_seconds"]:
        problems.append(f"took {elapsed:.2f} s, limit {entry['max_seconds']} s")
    return problems


def _normalised(text: str) -> str:
    lines = [line.rstrip() for line in re.split(r"\r\n|\r|\n", text)]
    return "\n".join(lines).strip("\n")


def _structural_problems(entry: Entry, body: str, answer: str) -> list[str]:
    problems = []
    if not answer.strip():
        problems.append("visible text is empty")
    if _QUOTED_LINE.search(answer):
        problems.append("a quoted line survived")
    if not _is_subsequence(answer.split("\n"), _normalised(body).split("\n")):
        problems.append("visible lines are not the author's lines in order")
    hidden = entry.get("hidden")
    if hidden and hidden[-1]:
        last_line = _normalised(body).split("\n")[-1]
        if answer.split("\n")[-1] == last_line:
            problems.append(f"hidden last fragment survived: {last_line!r}")
    return problems


def _is_subsequence(needles: list[str], haystack: list[str]) -> bool:
    remaining = iter(haystack)
    return all(any(line == candidate for candidate in remaining) for line in needles if line)


def _check_exact_replies(entry: Entry, body: str, answer: str) -> list[str]:
    problems = []
    for key in ("parse_reply", "reply_stripped_equals"):
        if key in entry and answer.strip() != entry[key].strip():
            problems.append(f"{key}: expected {entry[key]!r}, got {answer!r}")
    return problems


def _check_contains(entry: Entry, body: str, answer: str) -> list[str]:
    problems = [
        f"missing {needle!r}" for needle in entry.get("reply_contains", ()) if needle not in answer
    ]
    forbidden = entry.get("parse_reply_not_contains")
    if forbidden and forbidden in answer:
        problems.append(f"should not contain {forbidden!r}")
    return problems


def _check_whole_reply(entry: Entry, body: str, answer: str) -> list[str]:
    if entry.get("fragments") == 1 and answer != _normalised(body):
        return [f"one fragment: nothing may be removed, got {answer!r}"]
    return []


def _shown_fragments(entry: Entry) -> set[int]:
    """Indexes of the fragments upstream shows as the author's reply."""
    flags = [entry.get(name) for name in ("quoted", "signature", "hidden")]
    present = [flag for flag in flags if flag]
    if not present:
        return {0}
    count = len(present[0])
    return {index for index in range(count) if not any(flag[index] for flag in present)}


def _check_fragments(entry: Entry, body: str, answer: str) -> list[str]:
    """Shown fragments must match the answer; the others must have left it.

    "Left" is counted: a hidden fragment's pattern may also occur in shown
    text (``--`` in "a correct -- signature."), so the answer must hold fewer
    occurrences than the body, i.e. the hidden fragment's ones are gone.
    """
    shown = _shown_fragments(entry)
    problems = []
    for index_text, text in entry.get("fragment_equals", {}).items():
        problems.extend(_fragment_text_problems(int(index_text), text, shown, answer))
    patterns = [
        *(
            (index, re.compile(pattern, re.MULTILINE))
            for index, pattern in entry.get("fragment_regex", {}).items()
        ),
        *(
            (index, re.compile(re.escape(needle)))
            for index, needle in entry.get("fragment_contains", {}).items()
        ),
    ]
    for index_text, pattern in patterns:
        in_answer = len(pattern.findall(answer))
        if int(index_text) in shown and in_answer == 0:
            problems.append(f"fragment {index_text}: /{pattern.pattern}/ missing")
        elif int(index_text) not in shown and in_answer >= len(pattern.findall(body)):
            problems.append(f"fragment {index_text}: /{pattern.pattern}/ still present")
    return problems


def _fragment_text_problems(index: int, text: str, shown: set[int], answer: str) -> list[str]:
    fragment = _normalised(text)
    if not fragment:
        return []
    if index not in shown:
        return [f"fragment {index} kept: {fragment!r}"] if fragment in answer else []
    if shown == {index}:
        return (
            []
            if answer == fragment
            else [f"fragment {index}: expected {fragment!r}, got {answer!r}"]
        )
    return [] if fragment in answer else [f"fragment {index} missing: {fragment!r}"]


_REPLY_CHECKERS: tuple[Callable[[Entry, str, str], list[str]], ...] = (
    _check_exact_replies,
    _check_contains,
    _check_whole_reply,
    _check_fragments,
)
