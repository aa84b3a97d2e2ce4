"""Explain to a player, in plain words, why part of a post was not understood."""

from __future__ import annotations

import re

from bot.parser.grammar import END, PostGrammar
from bot.parser.reading import ClauseOutcome, Failure
from bot.parser.results import NotUnderstood

MAX_EXPECTED = 6
MAX_WORD = 40
# The quoted sentence is shown on one line under the headline, indented two
# spaces; longer sentences are cut to a window around the caret.
LINE_WIDTH = 76
INDENT = "  "
WORD = re.compile(r"\S+")
WORD_PUNCTUATION = ".,;:!?)\"'”’"
TRAILING_HINTS = {
    "and": (
        ": to take another action too, start it with its own verb,"
        ' as in "I place a stone at G3 and roll 2d6".'
    ),
    "or": ": rule 1896 takes only the actions you state, so I cannot choose between alternatives.",
}
TRAILING_HINTS["&"] = TRAILING_HINTS["plus"] = TRAILING_HINTS["and"]
TRAILING_HINTS["nor"] = TRAILING_HINTS["or"]
REGISTRATION_HINT = (
    "You asked to become a player, but rule 14 also needs the name you wish to be known by,"
    ' and I could not find it: write, for example, "I request to become a player,'
    ' with the name Alice".'
)


def not_understood(
    sentence: str, clause_start: int, clause: str, outcome: ClauseOutcome, grammar: PostGrammar
) -> NotUnderstood:
    """The ``NotUnderstood`` for a clause of ``sentence`` that failed to read."""
    failure = outcome.failure or Failure(position=len(clause), expected=frozenset())
    expected = describe_expected(failure.expected, grammar)
    headline = _headline(clause, outcome, failure, expected, grammar)
    column = clause_start + failure.position
    return NotUnderstood(
        text=sentence,
        column=column + 1,
        expected=expected,
        message=headline + "\n" + caret_lines(sentence, column),
    )


def missing_name(sentence: str, column: int) -> NotUnderstood:
    """Rule 14: a request to become a player must carry the name to be known by."""
    return NotUnderstood(
        text=sentence,
        column=column + 1,
        expected=('your name, as in "with the name Alice"',),
        message=REGISTRATION_HINT + "\n" + caret_lines(sentence, column),
    )


def is_registration_problem(problem: NotUnderstood) -> bool:
    """Whether ``problem`` is a request to become a player that lacks its name (rule 14)."""
    return problem.message.startswith(REGISTRATION_HINT)


def ambiguous(sentence: str, column: int, readings: tuple[str, ...]) -> NotUnderstood:
    """Rule 1896: a sentence that states one action or another states neither."""
    quoted = " or ".join(f'"{reading}"' for reading in readings)
    return NotUnderstood(
        text=sentence,
        column=column + 1,
        expected=(),
        message=(
            f"This could mean {quoted}: rule 1896 takes only the actions you state,"
            " so I took none of them; post again with the one you mean.\n"
            + caret_lines(sentence, column)
        ),
        readings=readings,
    )


def describe_expected(expected: frozenset[str], grammar: PostGrammar) -> tuple[str, ...]:
    """What could have come next: the meaningful slots if any, else the keywords."""
    named = {grammar.describe(t) for t in expected if t != END and not grammar.is_keyword(t)}
    keywords = {grammar.describe(t) for t in expected if grammar.is_keyword(t)}
    chosen = sorted(named) if named else sorted(keywords)
    described = tuple(chosen[:MAX_EXPECTED])
    return described + (grammar.describe(END),) if END in expected else described


def caret_lines(sentence: str, column: int) -> str:
    """The sentence on one line and a caret under 0-based ``column``."""
    line = "".join(" " if character.isspace() else character for character in sentence)
    start = max(0, min(column - LINE_WIDTH // 2, len(line) - LINE_WIDTH))
    end = min(len(line), start + LINE_WIDTH)
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(line) else ""
    caret = len(prefix) + column - start
    return f"{INDENT}{prefix}{line[start:end]}{suffix}\n{INDENT}{' ' * caret}^"


def _headline(
    clause: str,
    outcome: ClauseOutcome,
    failure: Failure,
    expected: tuple[str, ...],
    grammar: PostGrammar,
) -> str:
    word = offending_word(clause, failure.position)
    if outcome.reading is not None and not clause[outcome.end : failure.position].strip():
        understood = clause[: outcome.end].strip()
        rest = _shortened(clause[outcome.end :].strip())
        first_word = rest.split(maxsplit=1)[0].lower() if rest else ""
        return (
            f'I understood "{understood}" but not what follows it, "{rest}",'
            f" so I did not take it{TRAILING_HINTS.get(first_word, '.')}"
        )
    if not word:
        before = _shortened(clause.strip())
        return f'The action stops short after "{before}": I expected {_or_list(expected)}.'
    return _slot_problem(word, failure, grammar) or (
        f'I could not understand "{word}" here: I expected {_or_list(expected)}.'
    )


def _slot_problem(word: str, failure: Failure, grammar: PostGrammar) -> str | None:
    # A specific explanation when the failure is in a slot such as a point or
    # dice; sorted so that the choice does not depend on set order.
    for terminal in sorted(failure.expected):
        template = grammar.problems.get(terminal.rsplit("__", 1)[-1])
        if template is not None:
            return template.replace("{word}", word) + "."
    return None


def offending_word(clause: str, position: int) -> str:
    """The word at ``position``, without trailing punctuation, shortened if long."""
    match = WORD.match(clause, position)
    if match is None:
        return ""
    word = match.group().rstrip(WORD_PUNCTUATION) or match.group()
    return _shortened(word)


def _shortened(text: str) -> str:
    return text if len(text) <= MAX_WORD else text[: MAX_WORD - 1] + "…"


def _or_list(items: tuple[str, ...]) -> str:
    if not items:
        return "something else"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]
