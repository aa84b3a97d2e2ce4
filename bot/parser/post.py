"""Find the game actions in the visible text of one post.

The pipeline is: split the text into sentences; skip questions; let the
prefilter (``clauses``) cut out the clauses that could be actions; read each
clause with the strict LALR grammar (``reading``); and turn each outcome into
a ``ParsedAction`` or a ``NotUnderstood``.  Rule 1896 (seed 004): the actions
of one post are taken in the order written, so results keep that order.

Rule 217: before any of that, every ``{{ ... }}`` block is set apart
(``delimiters``), so no text inside one is read as an action; an action
whose argument is a block (a proposal's text) gets the block's text back,
and its ``__Title__`` if the block starts with one.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import replace

from bot.mail.comments import strip_comments
from bot.parser.area import Area
from bot.parser.areas import AREAS
from bot.parser.ballots import NumberedBallot, numbered_ballot
from bot.parser.clauses import Clause, Prefilter, find_clauses, prefilter
from bot.parser.delimiters import PLACEHOLDER, TITLE, Delimited, set_apart, split_title
from bot.parser.forms import plain_forms
from bot.parser.grammar import ClauseReading, PostGrammar, post_grammar
from bot.parser.messages import ambiguous, missing_name, not_understood
from bot.parser.reading import ClauseOutcome, read_clause
from bot.parser.results import NotUnderstood, ParsedAction, ParseResult
from bot.parser.sentences import Sentence, split_sentences
from bot.parser.unrefereed import LEAD, read_unrefereed
from bot.parser.unrefereed import triggers as unrefereed_triggers

# What may follow a complete action in the same clause without changing it:
# "I pass, which ends the game", "I roll 3d6 for the Arena".
PROSE_STARTERS = frozenset(
    {
        "because",
        "since",
        "as",
        "so",
        "which",
        "who",
        "for",
        "to",
        "please",
        "thanks",
        "thank",
        "but",
        "now",
        "today",
        "hoping",
        "hopefully",
        "while",
        "with",
    }
)
# After a comma or a bracket, any plain word starts prose, except these, which
# would add to the action ("I place a stone at G3, and G4").
JOINING_WORDS = frozenset({"and", "or", "plus", "nor"})
ADDING_WORDS = frozenset({"and", "plus", "&"})
# "I put a stone at G3 yesterday" reports the past; it takes no action.
PAST = re.compile(
    r"(?:yesterday|earlier|already|previously|ago"
    r"|last\s+(?:week|night|time|turn|round|nweek|nday|month|year))\b",
    re.IGNORECASE,
)
LEADING_PUNCTUATION = ",;:()[]{}—–-\"'“”‘’"
WORD_PUNCTUATION = ".,;:!?)\"'”’"
NAME_STATEMENT = re.compile(
    r"(?:and\s+)?(?:my\s+name\s+(?:is|will\s+be|shall\s+be)|(?:please\s+|you\s+(?:can|may)\s+)?"
    r"call\s+me|i\s+(?:would|['’]d)\s+like\s+to\s+be\s+(?:known\s+as|called)"
    r"|i\s+(?:will|shall)\s+be\s+known\s+as|i\s+go\s+by)\s*:?\s+(?P<name>\S.*?)[\s.!]*",
    re.IGNORECASE | re.DOTALL,
)
FIRST_WORD = re.compile(r"\S+\s*")
# Rule 217 blocks often start on the line after "I submit the following
# proposal:"; the line break (and a title line) before one joins the sentence.
BEFORE_BLOCK = re.compile(
    r"[ \t]*\n\s*(?=(?:" + TITLE.pattern + r"[ \t]*:?[ \t]*\n?\s*)?" + PLACEHOLDER.pattern + ")"
)
QUOTES = "\"'“”‘’"
# "... or 3d6", "..., or place a stone at G4": an alternative to the action read.
ALTERNATIVE = re.compile(r"[\s,]*or\s+(?P<rest>[^\s.!].*?)[\s.!]*", re.IGNORECASE | re.DOTALL)
MAX_REPLACED_WORDS = 3
# How many words after a verb a failure may come and still be prose.
PROSE_WINDOW = 2
# Verbs nobody on a nomic list uses but to act: "I vote against the proposal"
# lacks its target (rule 1896) and is answered, not taken for prose.
ALWAYS_ACTIONS = frozenset({"vote", "abstain"})


class Trailing(enum.Enum):
    """What the words after a complete action make of it."""

    PROSE = "prose"  # ignorable: the action stands
    PAST = "past"  # a report of the past: no action at all
    UNCLEAR = "unclear"  # might change the action: not understood


def parse_post(
    text: str,
    limit: int | None = None,
    areas: tuple[Area, ...] = AREAS,
    refereed_subgames: frozenset[str] = frozenset(),
    grammar_folder: str = "",
) -> ParseResult:
    """The actions and not-understood clauses of ``text``, in the order written.

    Never raises for any string: a clause that cannot be read is returned as
    a ``NotUnderstood``.  With ``limit``, reading stops at the clause that
    would make the items read (actions, each part of a list such as "I vote
    FOR 12, AGAINST 13" counted, and not-understood clauses) more than
    ``limit``; the result's ``unread`` is that clause's sentence (the
    referee's limits on one post, ``bot.parser.limits``).  ``areas`` are
    the grammar areas read (a deployment's enabled games'; all by default);
    ``refereed_subgames`` the subgames of ``bot.parser.unrefereed`` that an
    enabled game referees, whose sentences its grammar reads instead;
    ``grammar_folder`` where the composed grammar is kept between processes
    (``bot.parser.saved_grammar``).
    """
    grammar = post_grammar(areas, grammar_folder)
    # Rule 8: comment text has no force.  The pipeline drops comments with the
    # quotes (bot.mail.visible); dropping any left here also covers text read
    # directly ("nomicbot parse --text"), and is a no-op on text without them.
    delimited = set_apart(strip_comments(text))
    written = BEFORE_BLOCK.sub(" ", delimited.masked)
    # "I'm placing" is read as "I place", offsets unchanged (bot.parser.forms);
    # rulings quote the sentence as written.
    sentences = split_sentences(plain_forms(written))
    # Looked up once per post: the cache's key hashes every area's triggers.
    patterns = prefilter(areas, unrefereed_triggers(refereed_subgames))
    actions: list[ParsedAction] = []
    problems: list[NotUnderstood] = []
    index = 0
    while index < len(sentences):
        ballot = numbered_ballot(sentences, index, written)
        results = (
            [_ballot_action(ballot, sentences, index, written)]
            if ballot is not None
            else _sentence_results(sentences, index, grammar, written, patterns, refereed_subgames)
        )
        index += ballot.count if ballot is not None else 1
        for found in results:
            parts = _restored_parts(found, delimited)
            if limit is not None and len(actions) + len(problems) + len(parts) > limit:
                unread = delimited.restore(found.text)
                return ParseResult(tuple(actions), tuple(problems), unread=unread)
            for part in parts:
                if isinstance(part, ParsedAction):
                    actions.append(part)
                else:
                    problems.append(part)
    return ParseResult(actions=tuple(actions), not_understood=tuple(problems))


def _ballot_action(
    ballot: NumberedBallot, sentences: tuple[Sentence, ...], index: int, written: str
) -> ParsedAction:
    """Rule 1823 C.1: a numbered list of lines is a ranked ballot, first place first."""
    last = sentences[index + ballot.count - 1]
    return ParsedAction(
        action="elections.vote",
        args={"choices": list(ballot.choices), "ministry": ballot.ministry},
        text=written[sentences[index].start : last.start + len(last.text)],
    )


def _restored_parts(
    found: ParsedAction | NotUnderstood, delimited: Delimited
) -> list[ParsedAction | NotUnderstood]:
    if isinstance(found, NotUnderstood):
        return [_restored_problem(found, delimited)]
    return [with_blocks(each, delimited) for each in split_each(found)]


def split_each(action: ParsedAction) -> list[ParsedAction]:
    """One action per element of ``args["each"]`` ("I vote FOR 12, AGAINST 13"), in order."""
    each = action.args.get("each")
    if not isinstance(each, list):
        return [action]
    return [
        ParsedAction(
            action=action.action,
            args=dict(part),
            text=action.text,
            conditional=action.conditional,
            repeat=action.repeat,
        )
        for part in each
    ]


def with_blocks(action: ParsedAction, delimited: Delimited) -> ParsedAction:
    """``action`` with its block argument's text (and leading title) put back (rule 217)."""
    args = dict(action.args)
    placeholder = args.get("text")
    if not isinstance(placeholder, str):
        return replace(action, text=delimited.restore(action.text))
    inner = delimited.block(placeholder)
    if inner is not None:
        title, body = split_title(inner, headings=delimited.is_undelimited(placeholder))
        args["text"] = body
        if title is not None and "title" not in args:
            args["title"] = title
    return ParsedAction(
        action=action.action,
        args=args,
        text=delimited.restore(action.text),
        conditional=action.conditional,
        repeat=action.repeat,
    )


def _restored_problem(problem: NotUnderstood, delimited: Delimited) -> NotUnderstood:
    # The caret in ``message`` points into the text as read, placeholders and all.
    return NotUnderstood(
        text=delimited.restore(problem.text),
        column=problem.column,
        expected=problem.expected,
        message=problem.message,
        readings=tuple(delimited.restore(reading) for reading in problem.readings),
    )


def _sentence_results(
    sentences: tuple[Sentence, ...],
    index: int,
    grammar: PostGrammar,
    written: str,
    patterns: Prefilter,
    refereed_subgames: frozenset[str],
) -> Iterator[ParsedAction | NotUnderstood]:
    sentence = sentences[index]
    as_written = written[sentence.start : sentence.start + len(sentence.text)]
    for clause in find_clauses(sentence.text, sentence.starts_line, patterns):
        found = _read(sentence, clause, grammar, as_written, refereed_subgames)
        if isinstance(found, ParsedAction) and _lacks_name(found):
            found = _with_registration_name(found, sentences, index, clause)
        if found is not None:
            yield found


def _read(
    sentence: Sentence,
    clause: Clause,
    grammar: PostGrammar,
    as_written: str,
    refereed_subgames: frozenset[str],
) -> ParsedAction | NotUnderstood | None:
    text = sentence.text[clause.start : clause.end]
    unrefereed = read_unrefereed(text, refereed_subgames)
    if unrefereed is not None:  # before any grammar: "I play a card" is no Go move
        return ParsedAction(
            action=unrefereed.action,
            args=unrefereed.args,
            text=as_written,
            conditional=clause.conditional,
        )
    outcome = read_clause(text, grammar)
    if outcome.reading is not None:
        verdict = judge_trailing(text[outcome.end :]) if outcome.failure else Trailing.PROSE
        if verdict is Trailing.PAST:
            return None
        if verdict is Trailing.PROSE:
            return _action(outcome.reading, as_written, clause)
        readings = alternatives(text, outcome.end, grammar)
        if readings:
            at_or = outcome.end + len(text[outcome.end :]) - len(text[outcome.end :].lstrip(" ,"))
            return ambiguous(as_written, clause.start + at_or, readings)
    if clause.imperative and _fails_at_second_word(text, outcome):
        return None  # "Roll call is on Monday": prose that happens to start with a verb
    if _prose_after_verb(text, outcome):
        return None  # "I put more information about my system there"
    written_clause = as_written[clause.start : clause.end]
    return not_understood(as_written, clause.start, written_clause, outcome, grammar)


def _fails_at_second_word(text: str, outcome: ClauseOutcome) -> bool:
    first_word = FIRST_WORD.match(text)
    failed_at = outcome.failure.position if outcome.failure else len(text)
    return first_word is None or failed_at <= first_word.end()


def alternatives(text: str, end: int, grammar: PostGrammar) -> tuple[str, ...]:
    """The readings of "I roll 2d6 or 3d6" (read up to ``end``), or () if it offers none.

    The second reading puts the words after "or" in place of the last one
    to three words before it, whichever first makes a whole action.
    """
    choice = ALTERNATIVE.fullmatch(text, end)
    if choice is None:
        return ()
    first = text[:end].strip()
    words = first.split()
    for dropped in range(1, min(MAX_REPLACED_WORDS, len(words) - 1) + 1):
        second = " ".join([*words[:-dropped], choice.group("rest")])
        outcome = read_clause(second, grammar)
        if outcome.reading is not None and outcome.failure is None:
            return (first, second)
    return ()


def _prose_after_verb(text: str, outcome: ClauseOutcome) -> bool:
    """Whether the clause fails at a plain lower-case word just after its verb.

    Verbs such as "put", "play" or "pick" are everyday English: "I put more
    information there" or "I play the piano" shares only its verb with an
    action (rule 1896 takes what a player states as an action), so it is
    prose, not a garbled action.  The failing word must be one of the first
    two after the verb, and every word up to it plain lower case; a failure
    at a point, a number or a name ("I place a stone at G33") is still shown.
    """
    if outcome.reading is not None or outcome.failure is None:
        return False
    lead = LEAD.match(text)
    verb = FIRST_WORD.match(text, lead.end() if lead else 0)
    if verb is None or verb.group().strip().lower() in ALWAYS_ACTIONS:
        return False
    position = verb.end()
    for _ in range(PROSE_WINDOW):
        word = FIRST_WORD.match(text, position)
        bare = word.group().strip() if word else ""
        if not (bare.isalpha() and bare.islower()):
            return False
        if outcome.failure.position == position:
            return True
        position = word.end() if word else position
    return False


def _action(reading: ClauseReading, as_written: str, clause: Clause) -> ParsedAction:
    return ParsedAction(
        action=reading.action.action,
        args=reading.action.args,
        text=as_written,
        conditional=clause.conditional,
        repeat=reading.repeat,
    )


def judge_trailing(trailing: str) -> Trailing:
    """Whether the words after a complete action leave it standing."""
    stripped = trailing.lstrip()
    after_punctuation = stripped.lstrip(LEADING_PUNCTUATION).lstrip()
    words = after_punctuation.split(maxsplit=1)
    if not words:
        return Trailing.PROSE
    if PAST.match(after_punctuation):
        return Trailing.PAST
    first = words[0].lower().rstrip(WORD_PUNCTUATION)
    if first in ADDING_WORDS:
        # "and hope for the best" is prose; "and G4", "and Carol" add to the action.
        rest = words[1].split(maxsplit=1) if len(words) > 1 else []
        return Trailing.PROSE if rest and _is_plain_word(rest[0]) else Trailing.UNCLEAR
    if len(after_punctuation) < len(stripped):  # it began with punctuation
        # "I pass, Bob." is prose; "I place a stone at G3, G4" is not.
        plain = first.isalpha() and first not in JOINING_WORDS
        return Trailing.PROSE if plain else Trailing.UNCLEAR
    return Trailing.PROSE if first in PROSE_STARTERS else Trailing.UNCLEAR


def _is_plain_word(word: str) -> bool:
    """A lower-case word that is neither a name, a point, a number nor a joiner."""
    bare = word.rstrip(WORD_PUNCTUATION)
    return bare.isalpha() and bare.islower() and bare not in JOINING_WORDS


def _lacks_name(action: ParsedAction) -> bool:
    return action.action == "roster.register" and "name" not in action.args


def _with_registration_name(
    action: ParsedAction, sentences: tuple[Sentence, ...], index: int, clause: Clause
) -> ParsedAction | NotUnderstood:
    # Rule 14 wants the request and the name in the same message, not the
    # same sentence: "I wish to become a player. My name is Alice."
    for other in sentences[index + 1 :] + sentences[:index]:
        match = NAME_STATEMENT.fullmatch(other.text)
        if match is not None:
            name = " ".join(match.group("name").strip(QUOTES).split())
            if name:
                return ParsedAction(
                    action=action.action,
                    args={"name": name},
                    text=action.text,
                    conditional=action.conditional,
                    repeat=action.repeat,
                )
    return missing_name(action.text, clause.end)
