"""The Gardens' sentences as a deployment that plays them reads them (seed 004).

Enabled, the game takes the catch-all's Gardens, Tomatoes and Thorns
(``Game.refereed_subgames``) and reads them with ``grammar/garden.lark``
(its phrasings are ``tests/parser/phrasings/garden.txt``); the composed
grammar stays free of LALR conflicts, and every other sentence of the
phrasing corpus and the case table reads as it does without the game: no
other game's sentence is taken, and none of the Gardens' is taken by another.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from lark import logger as lark_logger

from bot.mail.visible import visible_text
from bot.parser import parse_post
from bot.parser.areas import AREAS
from bot.parser.areas import garden as garden_area
from bot.parser.grammar import build_post_grammar
from bot.pipeline.context import PipelineSettings
from bot.testing.apps import pipeline_with
from bot.testing.case_table import load_cases, observed

PARSER_TESTS = Path(__file__).parents[2] / "parser"
TAKEN = (
    "unrefereed.gardens",
    "unrefereed.tomatoes",
    "unrefereed.thorns",
    "unrefereed.thorn_seeds",
    "unrefereed.store",
    "unrefereed.alcohol",
    "unrefereed.potions",
    "unrefereed.waterspouts",
    "unrefereed.garden_objects",
    "unrefereed.more_plants",
)


@pytest.fixture(scope="module")
def playing(tmp_path_factory: pytest.TempPathFactory) -> PipelineSettings:
    return pipeline_with(tmp_path_factory.mktemp("garden-parsing"), "garden")


def test_without_the_game_its_actions_are_not_refereed() -> None:
    # The default areas: what a deployment without the game reads.
    found = parse_post("I buy a Thorn Seed. I water my Garden. I throw a Tomato at Bob.")
    assert [action.action for action in found.actions] == [
        "unrefereed.thorn_seeds",
        "unrefereed.gardens",
        "unrefereed.tomatoes",
    ]


def test_every_other_sentence_reads_as_without_the_game(playing: PipelineSettings) -> None:
    sources = [*sorted((PARSER_TESTS / "phrasings").glob("*.txt")), PARSER_TESTS / "cases.txt"]
    cases = [case for path in sources if path.name != "garden.txt" for case in load_cases(path)]
    changed = []
    for case in cases:
        before = observed(case.text, lambda text: parse_post(visible_text(text)))
        after = observed(
            case.text,
            lambda text: parse_post(
                visible_text(text),
                areas=playing.areas,
                refereed_subgames=playing.refereed_subgames,
            ),
        )
        if before != after:
            changed.append((case.text, before))
    assert len(cases) > 900
    # Only the catch-all's readings of the subgames the game referees change, and
    # the one Tomatoes sentence about Cards, which the catch-all answers as Cards.
    for text, before in changed:
        actions = {str(entry.get("action")) for entry in before}
        assert actions & set(TAKEN), text
    # 37, the catch-all's five More Plants sentences (rule 1918), which the game reads, and
    # three gifts of rule 1918's objects and Drinks (a Huge Seed, a Sasquash, a Lemon Drink).
    assert len(changed) == 45


def test_the_grammar_composed_with_the_game_has_no_lalr_conflicts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    previous_level = lark_logger.level
    lark_logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            build_post_grammar((*AREAS, garden_area.AREA))
    finally:
        lark_logger.setLevel(previous_level)
    assert not [record for record in caplog.records if "conflict" in record.getMessage()]
