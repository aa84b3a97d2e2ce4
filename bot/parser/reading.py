"""Read one candidate clause with the strict LALR post grammar.

The clause is fed token by token through Lark's interactive parser so that,
when reading fails, we still know whether a whole action had been read before
the failure ("I pass, which ends the game" is a pass followed by prose) and
which terminals could have come next (for the player's error message).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from bot.parser.grammar import END, ClauseReading, PostGrammar


@dataclass(frozen=True)
class Failure:
    """Where reading stopped and what the grammar would have accepted there."""

    position: int  # offset in the clause; len(clause) when the clause ran out
    expected: frozenset[str]  # terminal names


@dataclass(frozen=True)
class ClauseOutcome:
    """A clause read in full, read up to ``end`` then failed, or not read at all.

    ``reading`` is the action read from ``clause[:end]`` (None when no whole
    action was read); ``failure`` is None when the whole clause was read.
    """

    reading: ClauseReading | None
    end: int
    failure: Failure | None


def read_clause(clause: str, grammar: PostGrammar) -> ClauseOutcome:
    """Read ``clause``; syntax errors come back as a ``Failure``, never raised."""
    interactive = grammar.parser.parse_interactive(clause)
    complete_end: int | None = None
    read_end = 0
    choices: Mapping[str, object] = {}
    try:
        # lark's interactive parser is not annotated; hence the ignores below.
        tokens = interactive.lexer_thread.lex(interactive.parser_state)  # type: ignore[no-untyped-call]
        while True:
            # Taken before each token: when the lexer or the parser rejects the
            # next token, these are exactly the terminals that were acceptable.
            choices = interactive.choices()  # type: ignore[no-untyped-call]
            if END in choices:
                complete_end = read_end
            token = next(tokens, None)
            if token is None:
                break
            interactive.feed_token(token)
            read_end = _end_of(token, read_end)
        tree = interactive.feed_eof()  # type: ignore[no-untyped-call]
    except UnexpectedInput as error:
        expected = frozenset(name for name in choices if name in grammar.terminal_names)
        failure = Failure(position=_error_position(clause, error), expected=expected)
        return _partial(clause, grammar, complete_end, failure)
    return ClauseOutcome(reading=_transformed(grammar, tree), end=len(clause), failure=None)


def _end_of(token: Token, fallback: int) -> int:
    return token.end_pos if token.end_pos is not None else fallback


def _error_position(clause: str, error: UnexpectedInput) -> int:
    if isinstance(error, UnexpectedToken):
        return clause_position(clause, error.token)
    if isinstance(error, UnexpectedCharacters) and error.pos_in_stream is not None:
        return error.pos_in_stream
    return len(clause)


def clause_position(clause: str, token: Token) -> int:
    """Where ``token`` starts; the end-of-input token has no position of its own."""
    if token.type == END or token.start_pos is None:
        return len(clause)
    return token.start_pos


def _partial(
    clause: str, grammar: PostGrammar, complete_end: int | None, failure: Failure
) -> ClauseOutcome:
    if not complete_end:
        return ClauseOutcome(reading=None, end=0, failure=failure)
    try:
        tree = grammar.parser.parse(clause[:complete_end])
    except UnexpectedInput:
        # LALR merges lookaheads, so "$END" can be on offer yet still fail.
        return ClauseOutcome(reading=None, end=0, failure=failure)
    return ClauseOutcome(reading=_transformed(grammar, tree), end=complete_end, failure=failure)


def _transformed(grammar: PostGrammar, tree: object) -> ClauseReading:
    reading = grammar.transformer.transform(tree)  # type: ignore[arg-type]
    if not isinstance(reading, ClauseReading):
        raise TypeError(f"the post transformer returned {reading!r}")
    return reading
