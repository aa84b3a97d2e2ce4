"""The phrasing corpus: sentences as players write them, and what each states.

Rule 4 E (seed 004): game actions are valid "regardless of capitalization,
punctuation, or exact wording".  ``phrasings/*.txt`` hold, per area, every
refereed action in the plain performative, with "hereby" and other adverbs,
with courtesies, in the progressive ("I'm placing ..."), after a lead-in
phrase, with its game named, with several objects at once, as ballot lines
and numbered Borda ballots, in rule 217's undelimited shapes, and the
sentences that must *not* be read: intents, reports, comments (rule 8),
prose sharing a verb with an action, and ambiguous sentences (answered with
their readings, none taken).  ``unrefereed.txt`` holds the actions of the
seeds' subgames that the bot does not referee, each answered "not refereed".
A file whose header says ``# enabled games: <names>`` is read as a deployment
that enables those games besides the defaults reads it (``garden.txt``).

Each post goes through the pipeline's own text stage (``visible_text``, which
drops comments) and then ``parse_post``.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.mail.visible import visible_text
from bot.parser import ParseResult, parse_post
from bot.parser.clauses import leading_words
from bot.parser.unrefereed import SUBGAMES
from bot.testing.apps import pipeline_with
from bot.testing.case_table import Case, in_table_order, load_cases, observed

PHRASINGS = Path(__file__).with_name("phrasings")
ENABLED_GAMES = re.compile(r"^#\s*enabled games:\s*(.+)$", re.MULTILINE)
CASES = [case for path in sorted(PHRASINGS.glob("*.txt")) for case in load_cases(path)]
# Every action the grammars read, so that the corpus covers each one.
REFEREED_ACTIONS = frozenset(
    [
        "go.place",
        "go.pass",
        "go.ally",
        "go.break_alliance",
        "go.offer",
        "go.accept",
        "go.withdraw",
        "go.war",
        "go.purchase",
        "go.transfer",
        "go.sell",
        "dice.roll",
        "roster.register",
        "roster.forfeit",
        "roster.rename",
        "roster.leave",
        "roster.return",
        "roster.holdings",
        "roster.secret",
        "give.currency",
        "give.object",
        "field.select",
        "field.initialize",
        "field.evolve",
        "field.tweak",
        "field.join",
        "field.rejoin",
        "field.purchase",
        "field.move",
        "field.capture",
        "proposals.submit",
        "proposals.revise",
        "proposals.rescind",
        "polls.vote",
        "cfi.vote",
        "cfi.submit",
        "cfi.argue",
        "elections.call",
        "elections.nominate",
        "elections.accept",
        "elections.reject",
        "elections.vote",
        "elections.pick",
        "elections.designate",
        "elections.revoke",
        "elections.resign",
        "digest.request",
        # Gardens, Tomatoes and Thorns (phrasings/garden.txt, the game enabled)
        "garden.buy",
        "garden.plant",
        "garden.water",
        "garden.pick",
        "garden.burn",
        "garden.throw",
        "garden.claim",
        "garden.permit",
        "garden.withdraw",
    ]
)


def read(text: str) -> ParseResult:
    return parse_post(visible_text(text))


@functools.cache
def enabled_games(source: str) -> tuple[str, ...]:
    """The games a corpus file's header enables besides the defaults."""
    found = ENABLED_GAMES.search((PHRASINGS / source).read_text(encoding="utf-8"))
    return tuple(found[1].replace(",", " ").split()) if found else ()


class Readers:
    """How a deployment enabling some games reads a post, built once per set of games."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.built: dict[tuple[str, ...], Callable[[str], ParseResult]] = {(): read}

    def __call__(self, games: tuple[str, ...]) -> Callable[[str], ParseResult]:
        if games not in self.built:
            settings = pipeline_with(self.folder / "-".join(games), *games)

            def read_with_games(text: str) -> ParseResult:
                return parse_post(
                    visible_text(text),
                    areas=settings.areas,
                    refereed_subgames=settings.refereed_subgames,
                )

            self.built[games] = read_with_games
        return self.built[games]


@pytest.fixture(scope="module")
def readers(tmp_path_factory: pytest.TempPathFactory) -> Readers:
    return Readers(tmp_path_factory.mktemp("phrasings"))


def expected_actions(cases: list[Case]) -> Counter[str]:
    return Counter(
        str(entry["action"]) for case in cases for entry in case.expected if "action" in entry
    )


def test_the_corpus_has_at_least_600_sentences_and_covers_every_action() -> None:
    assert len(CASES) >= 600
    assert set(expected_actions(CASES)) >= REFEREED_ACTIONS


def test_every_unrefereed_subgame_has_at_least_three_actions_in_the_seeds_words() -> None:
    found = expected_actions([case for case in CASES if case.source == "unrefereed.txt"])
    for subgame in SUBGAMES:
        assert found[f"unrefereed.{subgame.key}"] >= 3, subgame.name


@pytest.mark.parametrize("case", CASES, ids=[f"{case.source}:{case.line}" for case in CASES])
def test_phrasing(case: Case, readers: Readers) -> None:
    read_as_deployed = readers(enabled_games(case.source))
    assert observed(case.text, read_as_deployed) == in_table_order(case.expected)


def test_each_subgame_action_starts_with_one_of_its_verbs() -> None:
    # read_unrefereed tries a clause only when its first word is such a verb.
    for subgame in SUBGAMES:
        for pattern in subgame.patterns:
            assert set(leading_words(pattern)) <= set(subgame.verbs), (subgame.name, pattern)
