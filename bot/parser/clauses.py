"""The cheap prefilter: find the clauses of a sentence that could be actions.

Whole-body LALR fails on free prose, so each sentence is searched with
regular expressions for *anchors*, the places where an action can start:

* "I" (or "I hereby", "I now also", ...) directly followed by a trigger word
  of some area ("I place", "I roll", "I'd like to become a player");
* "please" plus a trigger at the start of a sentence ("Please register me");
* a bare trigger at the start of a line: an imperative ("Place a stone at g3.");
* a trigger right after "and", "then", "," or ";" that follows another
  action ("I place a stone at G3 and roll 2d6").

A clause runs from its anchor to the next anchor.  What is *not* an anchor is
as important (rule 1896, seed 004, says conditional or open-ended actions are
not taken): "I will place", "I want to roll" and "I don't pass" never match,
because only adverbs like "hereby" may stand between "I" and the verb; past
tenses ("I placed") are other words; anchors inside quotation marks, after
"said"/"wrote", after "yesterday" or "maybe", or inside the condition of an
"if" are skipped; and anchors governed by a condition ("If Bob passes, I
pass", "I pass unless...") or by an open-ended repeat ("until", "forever")
are marked conditional.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bot.parser.area import Area
from bot.parser.areas import AREAS

# Adverbs and courtesies that may stand between "I" and the verb ("I hereby
# respectfully vote"); grammar/common.lark's _adverb lists the same words.
ADVERB_WORDS = (
    "hereby|now|also|then|just|simply|formally|officially|publicly|therefore|respectfully"
    "|humbly|kindly|gladly|happily|reluctantly|sadly|cheerfully|proudly|duly|again|first"
    "|firstly|next|finally|further|additionally|thus|hence|accordingly|herewith|immediately"
    "|quickly|boldly|really|definitely|openly|solemnly|hereupon|likewise|similarly"
)
ADVERBS = rf"(?:(?:{ADVERB_WORDS})\s+)*"
# "Please" and "kindly" open a request addressed to the referee.
COURTESY = r"(?:please|kindly|pls|plz)"
CONNECTOR = r"(?:[,;]|\band\b|\bthen\b|\bplus\b|&)\s*(?:(?:and|then|also|afterwards)\s+)*"
LINE_LEAD = r"(?:(?:then|also|and|now|so|ok|okay)[\s,]+)*"

# Rule 1896: "An Outsider does not take a game action if e states that e does
# something conditionally [...] or if the number of times the action is
# repeated is infinite or cannot be determined."
CONDITION_ANYWHERE = (
    r"if|iff|unless|provided|providing|assuming|supposing|as\s+long\s+as|so\s+long\s+as"
    r"|in\s+case|on\s+condition|when|whenever|until|till"
)
CONDITION_LEADING = r"should|once(?!\s+(?:again|more))|as\s+soon\s+as|in\s+the\s+event|otherwise"
OPEN_ENDED = (
    r"forever|repeatedly|indefinitely|infinitely|endlessly|over\s+and\s+over"
    r"|as\s+(?:many|often)\s+(?:times\s+)?as"
    r"|(?:many|several|multiple|some|a\s+few|a\s+number\s+of|infinite|unlimited|countless|n|x)"
    r"\s+times"
)
CONDITION = re.compile(
    rf"\b(?:(?P<anywhere>{CONDITION_ANYWHERE})|(?P<leading>{CONDITION_LEADING})"
    rf"|(?P<open>{OPEN_ENDED}))\b",
    re.IGNORECASE,
)
CONDITION_END = re.compile(r"(?:,\s*(?:then\b)?|;|\bthen\b)\s*", re.IGNORECASE)
LEADING_BREAKS = ",;:(—–"
LEADING_JOINERS = frozenset({"and", "but", "so", "or", "then", "also"})
# Single quotes double as apostrophes, so a quoted span must close within a
# line and a few words; this also keeps the search linear.
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|(?<!\w)'[^'\n]{0,200}'(?!\w)|‘[^’]*’")
REPORTED = re.compile(
    r"\b(?:said|says|say|wrote|writes|stated|states|claimed|claims|announced|announces"
    r"|thinks|(?<!much\s)(?<!some\s)(?<!long\s)(?<!more\s)(?<!deep\s)(?<!careful\s)thought|told\s+\w+|asked|asks|posted|declared|replied|believes|suggested"
    r"|suggests)\b(?:\s+that)?[\s,:]*$",
    re.IGNORECASE,
)
PAST_OR_HEDGE = re.compile(
    r"\b(?:yesterday|earlier|previously|ago|last\s+(?:week|night|time|turn|nweek|nday|month)"
    r"|maybe|perhaps|probably|possibly)\b",
    re.IGNORECASE,
)
CLAUSE_BREAK = re.compile(r"[,;:]")
TRAILING_PUNCTUATION = ",;:.!&"
TRAILING_JOINERS = frozenset({"and", "then", "plus", "also", "so", "but"})
# How far before an anchor to look for "said", "yesterday" or "maybe".
LEAD_IN_WINDOW = 120
QUESTION_END = re.compile(r"\?[\s\"'”’)\]]*$")


class AnchorKind(enum.Enum):
    SUBJECT = "subject"  # "I place ...", "please register me ..."
    LINE_START = "line start"  # an imperative as the first words of a line
    CONTINUATION = "continuation"  # "... and roll 2d6"
    AFTER_CONDITION = "after condition"  # "If Bob passes, roll 2d6"


# Kinds of anchor that are a bare verb not following another action: these
# may just be prose that opens with a verb ("Roll call is on Monday").
BARE_VERB_KINDS = frozenset({AnchorKind.LINE_START, AnchorKind.AFTER_CONDITION})


@dataclass(frozen=True)
class Anchor:
    start: int  # where the grammar starts reading
    joined_at: int  # where the words joining it to the clause before begin
    kind: AnchorKind


@dataclass(frozen=True)
class Clause:
    """A stretch of a sentence to hand to the grammar, as offsets into it."""

    start: int
    end: int
    conditional: bool
    imperative: bool = False  # a bare verb, without "I", that follows no other action


@dataclass(frozen=True)
class _Condition:
    start: int  # the condition word
    end: int  # where the condition's own words stop
    leading: bool  # governs what follows ("If X, I pass") rather than what precedes


@dataclass(frozen=True)
class Prefilter:
    """The anchor patterns, and a cheap test for sentences that hold no trigger at all.

    Most triggers begin with a plain word or a choice of plain words ("roll",
    "(?:select|choose|make)"); a sentence without any of those ``first_words``
    can only hold a trigger of the ``residual`` pattern (the few others).
    Looking words up in a set is much cheaper than searching every sentence
    with the alternation of all triggers, and most sentences are prose.
    """

    first_words: frozenset[str]
    residual: re.Pattern[str] | None
    bare_trigger: re.Pattern[str]
    subject: re.Pattern[str]
    line_start: re.Pattern[str]
    continuation: re.Pattern[str]

    def may_hold_action(self, sentence: str) -> bool:
        if not self.first_words.isdisjoint(PLAIN_WORD.findall(sentence.lower())):
            return True
        return self.residual is not None and self.residual.search(sentence) is not None


# A trigger's leading plain word, or choice of plain words: "roll", "(?:buy|sell)".
LEADING_WORD = re.compile(
    r"(?P<word>[a-z]+)(?![a-z?*+{\[(|])|\(\?:(?P<words>[a-z]+(?:\|[a-z]+)*)\)(?![?*+{])"
)
PLAIN_WORD = re.compile(r"[a-z]+")


def leading_words(trigger: str) -> tuple[str, ...]:
    """The words one of which starts every match of ``trigger``; () if it cannot tell."""
    match = LEADING_WORD.match(trigger)
    if match is None:
        return ()
    return (match["word"],) if match["word"] else tuple(match["words"].split("|"))


@functools.cache
def prefilter(areas: tuple[Area, ...] = AREAS, extra: tuple[str, ...] = ()) -> Prefilter:
    """The anchor patterns for the triggers of ``areas`` and the ``extra`` triggers."""
    every = (*(t for area in areas for t in area.triggers), *extra)
    trigger = "(?:" + "|".join(every) + r")(?:(?<=\W)|\b)"
    residual = [each for each in every if not leading_words(each)]
    return Prefilter(
        first_words=frozenset(word for each in every for word in leading_words(each)),
        residual=(
            re.compile(r"(?<!\w)(?:" + "|".join(residual) + r")(?:(?<=\W)|\b)", re.IGNORECASE)
            if residual
            else None
        ),
        bare_trigger=re.compile(trigger, re.IGNORECASE),
        subject=re.compile(
            rf"(?<![\w'’-])(?:i(?:\s+|(?=['’][dm]\b))|(?<![^\s(\"“]){COURTESY}\s+){ADVERBS}{trigger}",
            re.IGNORECASE,
        ),
        line_start=re.compile(rf"{LINE_LEAD}(?P<trigger>{trigger})", re.IGNORECASE),
        continuation=re.compile(rf"{CONNECTOR}(?P<trigger>{trigger})", re.IGNORECASE),
    )


def is_question(sentence: str) -> bool:
    return QUESTION_END.search(sentence) is not None


def find_clauses(sentence: str, starts_line: bool, patterns: Prefilter) -> tuple[Clause, ...]:
    """The candidate action clauses of ``sentence`` in order; none for a question."""
    if is_question(sentence) or not patterns.may_hold_action(sentence):
        return ()  # most prose sentences stop at this one cheap search
    leading = list(_leading_anchors(sentence, starts_line, patterns))
    if not leading and patterns.continuation.search(sentence) is None:
        # Without a leading anchor only a continuation ("If Bob passes, roll
        # 2d6") can start a clause: prose that merely shares a word with a
        # trigger ("the proposal") stops here, before quotes and conditions.
        return ()
    quoted = [match.span() for match in QUOTED.finditer(sentence)]
    anchors = [anchor for anchor in leading if not _is_reported(sentence, anchor, quoted)]
    conditions = _conditions(sentence, anchors, quoted, patterns)
    anchors = [anchor for anchor in anchors if not _inside_condition(anchor.start, conditions)]
    anchors = _with_continuations(sentence, anchors, conditions, patterns, quoted)
    return tuple(_clauses(sentence, anchors, conditions))


def _leading_anchors(sentence: str, starts_line: bool, patterns: Prefilter) -> Iterator[Anchor]:
    if starts_line:
        match = patterns.line_start.match(sentence)
        if match is not None:
            start = match.start("trigger")
            yield Anchor(start=start, joined_at=start, kind=AnchorKind.LINE_START)
    for match in patterns.subject.finditer(sentence):
        if match.group()[:1] not in "iI" and not _opens_sentence(sentence, match):
            continue  # "Bob, please pass" asks Bob, not the referee
        yield Anchor(start=match.start(), joined_at=match.start(), kind=AnchorKind.SUBJECT)


def _opens_sentence(sentence: str, match: re.Match[str]) -> bool:
    return not sentence[: match.start()].strip(' \t\n("“')


def _is_reported(sentence: str, anchor: Anchor, quoted: list[tuple[int, int]]) -> bool:
    """Quoted or reported speech, or an action told as past or as a maybe."""
    if _is_quoted(anchor.start, quoted):
        return True
    lead_in = sentence[max(0, anchor.start - LEAD_IN_WINDOW) : anchor.start]
    if REPORTED.search(lead_in):
        return True
    breaks = [match.end() for match in CLAUSE_BREAK.finditer(lead_in)]
    return PAST_OR_HEDGE.search(lead_in, breaks[-1] if breaks else 0) is not None


def _conditions(
    sentence: str, anchors: list[Anchor], quoted: list[tuple[int, int]], patterns: Prefilter
) -> list[_Condition]:
    conditions = []
    for match in CONDITION.finditer(sentence):
        if _is_quoted(match.start(), quoted):
            continue
        condition = _condition_at(sentence, match, anchors, patterns)
        if condition is not None:
            conditions.append(condition)
    return conditions


def _condition_at(
    sentence: str, match: re.Match[str], anchors: list[Anchor], patterns: Prefilter
) -> _Condition | None:
    if _in_leading_position(sentence, match.start()) and match.group("open") is None:
        end = _leading_condition_end(sentence, match, anchors)
        # It leads only if an action follows: "I pass, if nobody objects" trails.
        verb_follows = patterns.bare_trigger.match(sentence, end) is not None
        if verb_follows or any(anchor.start >= end for anchor in anchors):
            return _Condition(start=match.start(), end=end, leading=True)
    if match.group("leading") is not None:
        return None  # "should", "once" and "otherwise" only lead
    following_break = CLAUSE_BREAK.search(sentence, match.end())
    end = following_break.start() if following_break else len(sentence)
    return _Condition(start=match.start(), end=end, leading=False)


def _in_leading_position(sentence: str, position: int) -> bool:
    """Whether a condition word here opens its clause: "If ...", ", and if ..."."""
    before = sentence[max(0, position - LEAD_IN_WINDOW) : position].rstrip()
    if not before:
        return position <= LEAD_IN_WINDOW
    words = before.rsplit(maxsplit=1)
    return words[-1].lower() in LEADING_JOINERS or before[-1] in LEADING_BREAKS


def _leading_condition_end(sentence: str, match: re.Match[str], anchors: list[Anchor]) -> int:
    """Where the words of "If Bob passes," stop and the governed action begins."""
    boundary = CONDITION_END.search(sentence, match.end())
    if boundary is not None:
        return boundary.end()
    later = [anchor.start for anchor in anchors if anchor.start > match.start()]
    return later[-1] if later else len(sentence)


def _inside_condition(position: int, conditions: list[_Condition]) -> bool:
    # "If I roll a 6, I pass": "I roll" is part of the condition, not an action.
    return any(condition.start <= position < condition.end for condition in conditions)


def _with_continuations(
    sentence: str,
    anchors: list[Anchor],
    conditions: list[_Condition],
    patterns: Prefilter,
    quoted: list[tuple[int, int]],
) -> list[Anchor]:
    """Add "... and roll 2d6" anchors that follow an accepted action or a condition."""
    first_start = min((anchor.start for anchor in anchors), default=len(sentence))
    condition_ends = {condition.end for condition in conditions if condition.leading}
    result = list(anchors)
    for match in patterns.continuation.finditer(sentence):
        start = match.start("trigger")
        if _inside_condition(start, conditions) or _is_quoted(start, quoted):
            continue
        if first_start < match.start():
            kind = AnchorKind.CONTINUATION
        elif start in condition_ends:  # "If Bob passes, roll 2d6" follows no action
            kind = AnchorKind.AFTER_CONDITION
        else:
            continue
        result.append(Anchor(start=start, joined_at=match.start(), kind=kind))
        first_start = min(first_start, start)
    return _unique_sorted(result)


def _is_quoted(position: int, quoted: list[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in quoted)


def _unique_sorted(anchors: Iterable[Anchor]) -> list[Anchor]:
    by_start: dict[int, Anchor] = {}
    for anchor in anchors:
        by_start.setdefault(anchor.start, anchor)
    return [by_start[start] for start in sorted(by_start)]


def _clauses(
    sentence: str, anchors: list[Anchor], conditions: list[_Condition]
) -> Iterator[Clause]:
    for index, anchor in enumerate(anchors):
        end = anchors[index + 1].joined_at if index + 1 < len(anchors) else len(sentence)
        cuts = [condition.start for condition in conditions if anchor.start < condition.start]
        end = min([end, *cuts])
        text = trim_joiners(sentence[anchor.start : end])
        if text:
            yield Clause(
                start=anchor.start,
                end=anchor.start + len(text),
                conditional=_is_conditional(sentence, anchor, conditions),
                imperative=anchor.kind in BARE_VERB_KINDS,
            )


def _is_conditional(sentence: str, anchor: Anchor, conditions: list[_Condition]) -> bool:
    for condition in conditions:
        if condition.leading and anchor.start >= condition.end:
            return True
        # A trailing condition governs the actions before it, back to a ";".
        if (
            not condition.leading
            and anchor.start < condition.start
            and sentence.find(";", anchor.start, condition.start) < 0
        ):
            return True
    return False


def trim_joiners(text: str) -> str:
    """``text`` without trailing punctuation and joining words (", and then")."""
    while True:
        trimmed = text.rstrip().rstrip(TRAILING_PUNCTUATION).rstrip()
        words = trimmed.rsplit(maxsplit=1)
        if words and words[-1].lower() in TRAILING_JOINERS:
            trimmed = trimmed[: len(trimmed) - len(words[-1])]
        if trimmed == text:
            return text
        text = trimmed
