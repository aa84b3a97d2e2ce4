"""The sentences of Knucklebones (seed 001) as a deployment that plays it reads them.

Enabled, the game takes its sentences from the catch-all of unrefereed
subgames (``Game.refereed_subgames``) and reads them with
``grammar/knucklebones.lark``; disabled, they stay "not refereed: seed 001".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.parser import parse_post
from bot.pipeline.context import PipelineSettings
from bot.testing.apps import pipeline_with

READINGS = [
    (
        "I want to play Knucklebones against Bob.",
        ("knucklebones.intend", {"opponents": ["Bob"], "mode": "one_of"}),
    ),
    (
        "I want to play Knucklebones against one of Bob, Carol.",
        ("knucklebones.intend", {"opponents": ["Bob", "Carol"], "mode": "one_of"}),
    ),
    (
        "I want to play Knucklebones, a game against each of Bob and Carol.",
        ("knucklebones.intend", {"opponents": ["Bob", "Carol"], "mode": "each"}),
    ),
    (
        "I would like to play a game of Knucklebones against each of Bob and Carol.",
        ("knucklebones.intend", {"opponents": ["Bob", "Carol"], "mode": "each"}),
    ),
    (
        "I want to play Knucklebones against Bob and Carol.",
        ("knucklebones.intend", {"opponents": ["Bob", "Carol"], "mode": None}),
    ),
    ("I want to play Knucklebones.", ("knucklebones.intend", {"opponents": [], "mode": "one_of"})),
    (
        "I challenge Bob to Knucklebones.",
        ("knucklebones.intend", {"opponents": ["Bob"], "mode": "one_of"}),
    ),
    ("I place my die in column 2.", ("knucklebones.place", {"column": 2})),
    ("I put the 4 in column 3.", ("knucklebones.place", {"value": 4, "column": 3})),
    ("column 1", ("knucklebones.place", {"column": 1})),
    ("I place my die in column 2 in game 3.", ("knucklebones.place", {"column": 2, "game": 3})),
]


def pipeline(folder: Path, enabled: bool) -> PipelineSettings:
    return pipeline_with(folder, "knucklebones") if enabled else pipeline_with(folder)


@pytest.fixture(scope="module")
def playing(tmp_path_factory: pytest.TempPathFactory) -> PipelineSettings:
    return pipeline(tmp_path_factory.mktemp("knucklebones"), enabled=True)


@pytest.mark.parametrize(("text", "expected"), READINGS)
def test_the_game_reads_its_sentences(
    playing: PipelineSettings, text: str, expected: tuple[str, dict[str, object]]
) -> None:
    found = parse_post(text, areas=playing.areas, refereed_subgames=playing.refereed_subgames)
    assert found.not_understood == ()
    assert [(action.action, dict(action.args)) for action in found.actions] == [expected]


def test_go_still_reads_its_own_placements(playing: PipelineSettings) -> None:
    found = parse_post(
        "I place a stone at E5.", areas=playing.areas, refereed_subgames=playing.refereed_subgames
    )
    assert [action.action for action in found.actions] == ["go.place"]


def test_without_the_game_they_are_not_refereed(tmp_path: Path) -> None:
    settings = pipeline(tmp_path, enabled=False)
    # (The catch-all knows "want to play", not "would like to play".)
    for text, _expected in READINGS[:3]:
        found = parse_post(text, areas=settings.areas, refereed_subgames=settings.refereed_subgames)
        assert [action.action for action in found.actions] == ["unrefereed.knucklebones"]
