"""What the engine needs, built once by the composition root and passed down."""

from __future__ import annotations

from dataclasses import dataclass

from jinja2 import Environment
from sqlalchemy.orm import Session

from bot.config import Settings
from bot.engine.clock import GameClock
from bot.engine.games.base import GameAdapter
from bot.pipeline import PipelineSettings


@dataclass(frozen=True)
class Services:
    settings: Settings
    clock: GameClock
    pipeline_settings: PipelineSettings
    master_secret: bytes
    templates: Environment

    def make_adapters(self, session: Session) -> dict[str, GameAdapter]:
        """Fresh adapters for one post: each loads its state from ``session``."""
        from bot.engine.games.dice import DiceAdapter
        from bot.engine.games.go import GoAdapter
        from bot.engine.games.roster import RosterAdapter

        adapters: tuple[GameAdapter, ...] = (
            RosterAdapter(session, self.settings.bot.accept_registrations),
            DiceAdapter(session, self),
            GoAdapter(session, self.settings.go.size),
        )
        return {adapter.prefix: adapter for adapter in adapters}
