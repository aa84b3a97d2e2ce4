"""The sentences of the contests (A Nomic rules 336-343) as a deployment that plays them reads them.

Enabled, the game takes its sentences from the catch-all of unrefereed
subgames (``Game.refereed_subgames``); disabled, they stay "not refereed".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.parser import parse_post
from bot.pipeline.context import PipelineSettings
from bot.testing.apps import pipeline_with

READINGS = [
    (
        "I post the Similarity Challenge: apple, fire engine, ladybird.",
        ("contests.challenge", {"contest": "similarity", "text": "apple, fire engine, ladybird"}),
    ),
    (
        "I post a new Similarity challenge: cat, dog, mouse",
        ("contests.challenge", {"contest": "similarity", "text": "cat, dog, mouse"}),
    ),
    (
        "I set the Poetry Challenge: topic the sea, in one line",
        ("contests.challenge", {"contest": "poetry", "text": "topic the sea, in one line"}),
    ),
    (
        "I announce the next Mediocrity challenge: submit your quantities.",
        ("contests.challenge", {"contest": "mediocrity", "text": "submit your quantities"}),
    ),
    (
        # A challenge's number before the colon, not the start of a repeat ("3 times").
        "I announce Mediocrity sub-game 2: submit your quantities.",
        ("contests.challenge", {"contest": "mediocrity", "text": "submit your quantities"}),
    ),
    (
        "I judge Carol's answer the winner of the Similarity Game challenge 3.",
        ("contests.judge", {"contest": "similarity", "players": ["Carol"], "verdict": "best"}),
    ),
    (
        "My answer to the Similarity Game: red",
        ("contests.answer", {"contest": "similarity", "answer": "red"}),
    ),
    (
        "My answer to the Similarity Game is striped and round.",
        ("contests.answer", {"contest": "similarity", "answer": "striped and round"}),
    ),
    (
        "My poem for the Poetry Contest: salt remembers every shore",
        ("contests.answer", {"contest": "poetry", "answer": "salt remembers every shore"}),
    ),
    ("My quantity is 17", ("contests.answer", {"contest": "mediocrity", "answer": "17"})),
    (
        "I judge Carol's answer the winner of the Similarity Game.",
        ("contests.judge", {"contest": "similarity", "players": ["Carol"], "verdict": "best"}),
    ),
    (
        "I judge Dave's and Carol's answers most correct.",
        ("contests.judge", {"contest": None, "players": ["Dave", "Carol"], "verdict": "best"}),
    ),
    (
        "I judge the answers of Carol and Dave the most correct",
        ("contests.judge", {"contest": None, "players": ["Carol", "Dave"], "verdict": "best"}),
    ),
    (
        "I judge Erin's answer incomplete.",
        ("contests.judge", {"contest": None, "players": ["Erin"], "verdict": "incomplete"}),
    ),
    (
        "I start a Mediocrity game: level 2, at least 3 players, 2 sub-games.",
        ("contests.start", {"level": 2, "players": 3, "sub_games": 2}),
    ),
]


def pipeline(folder: Path, enabled: bool) -> PipelineSettings:
    return pipeline_with(folder, "contests") if enabled else pipeline_with(folder)


@pytest.fixture(scope="module")
def playing(tmp_path_factory: pytest.TempPathFactory) -> PipelineSettings:
    return pipeline(tmp_path_factory.mktemp("contests"), enabled=True)


@pytest.mark.parametrize(("text", "expected"), READINGS)
def test_the_game_reads_its_sentences(
    playing: PipelineSettings, text: str, expected: tuple[str, dict[str, object]]
) -> None:
    found = parse_post(text, areas=playing.areas, refereed_subgames=playing.refereed_subgames)
    assert found.not_understood == ()
    assert [(action.action, dict(action.args)) for action in found.actions] == [expected]


def test_the_other_games_still_read_their_own(playing: PipelineSettings) -> None:
    for text, action in [
        ("I place a stone at E5.", "go.place"),
        ("I submit a proposal: {{ Cake for all. }}", "proposals.submit"),
    ]:
        found = parse_post(text, areas=playing.areas, refereed_subgames=playing.refereed_subgames)
        assert [each.action for each in found.actions] == [action]


def test_without_the_game_they_are_not_refereed(tmp_path: Path) -> None:
    settings = pipeline(tmp_path, enabled=False)
    found = parse_post(
        "I start a new game of Mediocrity.",
        areas=settings.areas,
        refereed_subgames=settings.refereed_subgames,
    )
    assert [action.action for action in found.actions] == ["unrefereed.mediocrity"]
