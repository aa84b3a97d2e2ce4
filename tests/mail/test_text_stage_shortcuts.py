"""The cheap tests in front of the visible-text and clause searches change no result.

``bot.mail.visible`` and ``bot.parser.clauses`` skip their costly regular
expressions when a cheap necessary condition fails (no colon, no "[[", no
anchor), and ``bot.parser.sentences`` splits lines without one.  The
functions as they were before those shortcuts are kept here as references:
Hypothesis compares each against its reference on lines and sentences built
from the pieces the searches look for, and the first posts of
bench/pipeline.py's archive are read through both, whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import bot.mail.visible as visible_module
import bot.parser.post as post_module
import bot.parser.sentences as sentences_module
from bot.mail.comments import comment_spans, without_spans
from bot.mail.decode import decode_message
from bot.mail.visible import (
    _FORWARD_MARKER,
    _ORIGINAL_MESSAGE,
    _QUOTED,
    _WROTE_END,
    MAX_STRUCTURE_LINE,
    LineKind,
    _attribution_start,
    _is_address_attribution,
    _is_footer,
    _is_header_block,
    _quote_follows,
    visible_text,
)
from bot.parser import parse_post
from bot.parser.clauses import (
    QUOTED,
    Clause,
    Prefilter,
    _clauses,
    _conditions,
    _inside_condition,
    _is_reported,
    _leading_anchors,
    _with_continuations,
    find_clauses,
    is_question,
    prefilter,
)
from bot.parser.limits import MAX_ACTIONS
from bot.parser.results import ParseResult
from bot.parser.sentences import BULLET, _Line
from bot.parser.unrefereed import triggers

# The count the other archive tests use: the session builds these posts once.
ARCHIVE_POSTS = 200

# --- the references: the functions as they were before the shortcuts -----------------


def reference_without_comments(lines: list[str]) -> list[str]:
    masked = "\n".join(" " * len(line) if _QUOTED.match(line) else line for line in lines)
    spans = comment_spans(masked)
    if not spans:
        return lines
    text = without_spans("\n".join(lines), spans)
    return [line.rstrip() for line in text.split("\n")]


def reference_attribution_ending_at(
    lines: list[str], kinds: list[LineKind], index: int
) -> tuple[int, bool] | None:
    line = lines[index]
    if _WROTE_END.search(line):
        start = _attribution_start(lines, kinds, index)
        return start, _quote_follows(kinds, lines, index)
    if _is_address_attribution(line) and _quote_follows(kinds, lines, index):
        return index, True
    return None


def reference_first_copy(lines: list[str], kinds: list[LineKind], limit: int) -> int:
    for index in range(limit):
        line = lines[index]
        if kinds[index] is not LineKind.AUTHOR or len(line) > MAX_STRUCTURE_LINE:
            continue
        if _ORIGINAL_MESSAGE.match(line) or _FORWARD_MARKER.match(line):
            return index
        if _is_footer(lines, kinds, index) or _is_header_block(lines, kinds, index):
            return index
    return limit


def reference_find_clauses(
    sentence: str, starts_line: bool, patterns: Prefilter
) -> tuple[Clause, ...]:
    if is_question(sentence) or not patterns.may_hold_action(sentence):
        return ()
    quoted = [match.span() for match in QUOTED.finditer(sentence)]
    anchors = [
        anchor
        for anchor in _leading_anchors(sentence, starts_line, patterns)
        if not _is_reported(sentence, anchor, quoted)
    ]
    conditions = _conditions(sentence, anchors, quoted, patterns)
    anchors = [anchor for anchor in anchors if not _inside_condition(anchor.start, conditions)]
    anchors = _with_continuations(sentence, anchors, conditions, patterns, quoted)
    return tuple(_clauses(sentence, anchors, conditions))


LINE = re.compile(r"[^\n]*\n?")


def reference_lines(post: str) -> Iterator[_Line]:
    for match in LINE.finditer(post):
        if not match.group():
            continue
        content_end = match.start() + len(match.group().rstrip("\r\n"))
        bullet = BULLET.match(post, match.start(), content_end)
        start = bullet.end() if bullet else match.start()
        yield _Line(
            line_start=match.start(), start=start, end=content_end, is_item=bullet is not None
        )


REFERENCES: dict[tuple[object, str], Callable[..., object]] = {
    (visible_module, "_without_comments"): reference_without_comments,
    (visible_module, "_attribution_ending_at"): reference_attribution_ending_at,
    (visible_module, "_first_copy"): reference_first_copy,
    (post_module, "find_clauses"): reference_find_clauses,
    (sentences_module, "_lines"): reference_lines,
}


# --- generated lines and sentences ------------------------------------------------------

# A line is a start, a middle and an end, each chosen among the pieces the
# searches look for, so that most generated lines come near a match.
LINE_STARTS = ("", " ", "\t", ">", "> ", "    >", "On 3 Jan 2022, ", "26.06.2014, 14:41, ", "**")
LINE_MIDDLES = (
    "",
    "Bob <bob@example.com>",
    "Bob",
    "-----Original Message-----",
    "-----",
    "--",
    "__________",
    "Begin forwarded message",
    "From",
    "Sent",
    "To",
    "Subject",
    "Date",
    "Betreff",
    "mailing list",
    "To unsubscribe",
    "I place a stone at G3.",
    "[[ a comment ]]",
    "[[",
    "]]",
    "{{",
    "}}",
    "= * =",
)
LINE_ENDS = ("", " ", ":", "：", ": x", " wrote:", " wrote：", " schrieb: ", " wrote", "]]")
line_strategy = st.tuples(
    st.sampled_from(LINE_STARTS), st.sampled_from(LINE_MIDDLES), st.sampled_from(LINE_ENDS)
).map("".join)
lines_strategy = st.lists(line_strategy, max_size=14)

# A sentence is a few phrases: a joiner, a lead-in, a subject, a verb phrase
# and an ending, each possibly empty.
SENTENCE_JOINERS = ("", "", "and ", ", ", "; ", "then ", ", then ", " & ")
SENTENCE_LEADS = (
    "",
    "",
    "If Bob passes, ",
    "if ",
    "unless ",
    "once ",
    "He said ",
    "yesterday ",
    "maybe ",
    '"',
    "'",
    "the ",
)
SENTENCE_SUBJECTS = ("", "", "I ", "i ", "please ", "Please ", "I hereby ", "Bob, please ")
SENTENCE_VERBS = (
    "place a stone at G3",
    "roll 2d6",
    "pass",
    "register",
    "vote FOR 12",
    "proposal",
    "capture",
    "go",
    "Roll call is on Monday",
    "12: FOR",
    "digest",
)
SENTENCE_ENDS = ("", "", ".", "?", '"', " forever", " if nobody objects", " 3 times")
phrase_strategy = st.tuples(
    *(
        st.sampled_from(pieces)
        for pieces in (
            SENTENCE_JOINERS,
            SENTENCE_LEADS,
            SENTENCE_SUBJECTS,
            SENTENCE_VERBS,
            SENTENCE_ENDS,
        )
    )
).map("".join)
sentence_strategy = st.lists(phrase_strategy, min_size=1, max_size=4).map(" ".join)


def kinds_of(lines: list[str]) -> list[LineKind]:
    return [LineKind.QUOTE if _QUOTED.match(line) else LineKind.AUTHOR for line in lines]


@settings(max_examples=200, deadline=None)
@given(lines_strategy)
def test_without_comments_as_before(lines: list[str]) -> None:
    assert visible_module._without_comments(lines) == reference_without_comments(lines)


@settings(max_examples=200, deadline=None)
@given(lines_strategy)
@example(["Am 3. Jan. 2022 schrieb Bob：", "> quoted"])
def test_attributions_as_before(lines: list[str]) -> None:
    kinds = kinds_of(lines)
    for index in range(len(lines)):
        found = visible_module._attribution_ending_at(lines, kinds, index)
        assert found == reference_attribution_ending_at(lines, kinds, index)


@settings(max_examples=200, deadline=None)
@given(lines_strategy)
def test_first_copy_as_before(lines: list[str]) -> None:
    kinds = kinds_of(lines)
    found = visible_module._first_copy(lines, kinds, len(lines))
    assert found == reference_first_copy(lines, kinds, len(lines))


@settings(max_examples=300, deadline=None)
@given(sentence_strategy, st.booleans())
@example("If Bob passes, roll 2d6", False)
@example("the proposal, and roll 2d6", True)
def test_find_clauses_as_before(sentence: str, starts_line: bool) -> None:
    patterns = prefilter(extra=triggers())
    assert find_clauses(sentence, starts_line, patterns) == reference_find_clauses(
        sentence, starts_line, patterns
    )


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab \t\r\n-*•1.)(", max_size=40))
def test_lines_as_before(post: str) -> None:
    assert list(sentences_module._lines(post)) == list(reference_lines(post))


def test_the_generated_sentences_reach_the_clause_searches() -> None:
    # The property above compares something only if its sentences hold clauses.
    patterns = prefilter(extra=triggers())
    assert find_clauses("If Bob passes, roll 2d6 and place a stone at G3", False, patterns)
    assert find_clauses("I hereby place a stone at G3", True, patterns)


# --- the archive, read through both ----------------------------------------------------


@pytest.fixture(scope="module")
def archive_bodies(bench_archive: Callable[[int], list[bytes]]) -> list[tuple[str, str]]:
    """(body text, sender) of the first posts of bench/pipeline.py's archive."""
    bodies = []
    for raw in bench_archive(ARCHIVE_POSTS):
        decoded = decode_message(raw)
        bodies.append((decoded.body_text, f"{decoded.from_name} <{decoded.from_address or ''}>"))
    return bodies


def read_all(bodies: list[tuple[str, str]]) -> Iterator[tuple[str, ParseResult]]:
    for body, sender in bodies:
        text = visible_text(body, sender=sender)
        yield text, parse_post(text, limit=MAX_ACTIONS)


def test_archive_posts_read_as_before(
    archive_bodies: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    current = list(read_all(archive_bodies))
    for (module, name), reference in REFERENCES.items():
        monkeypatch.setattr(module, name, reference)
    before = list(read_all(archive_bodies))
    assert current == before
    # The archive exercises what the shortcuts skip: quotes, actions, not understood.
    shortened = sum(
        text != body.strip() for (text, _), (body, _) in zip(current, archive_bodies, strict=True)
    )
    assert shortened > ARCHIVE_POSTS // 4
    assert sum(len(parsed.actions) for _, parsed in current) > 20
    assert any(parsed.not_understood for _, parsed in current)
