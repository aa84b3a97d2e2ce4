"""Helpers for the election tests: votes written as diagrams, and scripted draws."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.games.governance.elections import RankedVote


def parse_ranked_diagram(diagram: str) -> list[RankedVote]:
    """``"2: alice > bob > carol"`` per line: that many votes ranking those choices."""
    votes: list[RankedVote] = []
    for line in diagram.strip().splitlines():
        count, _, ranking = line.partition(":")
        names = tuple(name.strip() for name in ranking.split(">"))
        votes.extend([RankedVote(names)] * int(count))
    return votes


class ScriptedSource:
    """A ChoiceSource that answers with the given picks in turn and records every call."""

    def __init__(self, *picks: str) -> None:
        self.picks = list(picks)
        self.calls: list[tuple[str, tuple[str, ...], str]] = []

    def choice(self, options: Sequence[str], purpose: str) -> str:
        assert self.picks, f"unexpected draw for {purpose!r} among {list(options)}"
        pick = self.picks.pop(0)
        self.calls.append((purpose, tuple(options), pick))
        return pick


@pytest.fixture
def ranked() -> Callable[[str], list[RankedVote]]:
    return parse_ranked_diagram


@pytest.fixture
def scripted() -> Callable[..., ScriptedSource]:
    """``scripted("bob")`` answers its first draw with bob; ``scripted()`` allows no draw."""
    return ScriptedSource


@pytest.fixture(scope="session")
def voting_corpus(corpora: Path) -> Path:
    return corpora / "voting"


@pytest.fixture(scope="session")
def expectations(voting_corpus: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((voting_corpus / "pref_voting_expectations.json").read_text())
    return data
