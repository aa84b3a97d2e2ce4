"""The sentences of Cards and Pooker (seed 002) as a deployment that plays them reads them.

Enabled, the game takes Pooker's sentences from the catch-all of unrefereed
subgames (``Game.refereed_subgames``) and reads them with
``grammar/cards.lark``; the composed grammar stays free of LALR conflicts,
and Go, the Field and the polls still read their own sentences.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from lark import logger as lark_logger

from bot.app import build_services
from bot.parser import parse_post
from bot.parser.areas import AREAS
from bot.parser.areas import cards as cards_area
from bot.parser.grammar import build_post_grammar
from bot.pipeline.context import PipelineSettings
from bot.testing.apps import game_settings, pipeline_with

READINGS = [
    ("I move to show cards.", ("cards.motion", {})),
    ("I make a Motion to Show Cards.", ("cards.motion", {})),
    ("I declare a Showdown.", ("cards.declare", {})),
    (
        "I show QH QS QD 2C 2H; 7D 8D.",
        ("cards.show", {"hands": [["QH", "QS", "QD", "2C", "2H"], ["7D", "8D"]]}),
    ),
    (
        "I show my cards: Red QH, Blue QH and 10S | 7D",
        ("cards.show", {"hands": [["Red QH", "Blue QH", "10S"], ["7D"]]}),
    ),
    (
        "I show Queen of Hearts, 2 of Clubs (Blue back)",
        ("cards.show", {"hands": [["Queen of Hearts", "2 of Clubs (Blue)"]]}),
    ),
    (
        "I trade my 7 of Hearts (Red) for Bob's Queen of Spades (Blue).",
        (
            "cards.trade",
            {
                "gives": ["7 of Hearts (Red)"],
                "partner": "Bob",
                "receives": ["Queen of Spades (Blue)"],
            },
        ),
    ),
    (
        "I trade my 7H and Red 8H for Bob’s QS, KS.",
        ("cards.trade", {"gives": ["7H", "Red 8H"], "partner": "Bob", "receives": ["QS", "KS"]}),
    ),
]


@pytest.fixture(scope="module")
def playing(tmp_path_factory: pytest.TempPathFactory) -> PipelineSettings:
    return pipeline_with(tmp_path_factory.mktemp("cards-parsing"), "cards")


@pytest.mark.parametrize(("text", "expected"), READINGS)
def test_the_game_reads_its_sentences(
    playing: PipelineSettings, text: str, expected: tuple[str, dict[str, object]]
) -> None:
    found = parse_post(text, areas=playing.areas, refereed_subgames=playing.refereed_subgames)
    assert found.not_understood == ()
    assert [(action.action, dict(action.args)) for action in found.actions] == [expected]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("I vote yes on poll 1.", "polls.vote"),
        ("I move my knight to e4.", "field.move"),
        ("I place a stone at E5.", "go.place"),
    ],
)
def test_the_other_games_still_read_their_own(
    playing: PipelineSettings, text: str, action: str
) -> None:
    found = parse_post(text, areas=playing.areas, refereed_subgames=playing.refereed_subgames)
    assert [reading.action for reading in found.actions] == [action]


def test_without_the_game_pooker_is_not_refereed(tmp_path: Path) -> None:
    settings = build_services(game_settings(tmp_path)).pipeline_settings
    found = parse_post(
        "I declare a Showdown.", areas=settings.areas, refereed_subgames=settings.refereed_subgames
    )
    assert [action.action for action in found.actions] == ["unrefereed.pooker"]


def test_the_grammar_composed_with_the_game_has_no_lalr_conflicts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    previous_level = lark_logger.level
    lark_logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            build_post_grammar((*AREAS, cards_area.AREA))
    finally:
        lark_logger.setLevel(previous_level)
    assert not [record for record in caplog.records if "conflict" in record.getMessage()]
