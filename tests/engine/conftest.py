"""Fixtures for the scripted game: its mbox archive."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.posts import mbox_from_line
from bot.testing import go_game
from bot.testing.apps import write_mbox


@pytest.fixture
def game_mbox(tmp_path: Path) -> Path:
    path = tmp_path / "archive.mbox"
    write_mbox(
        path, [(post.raw(), mbox_from_line(post.author[1], post.at)) for post in go_game.SCRIPT]
    )
    return path
