"""What the engine needs, built once by the composition root and passed down."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from jinja2 import Environment
from sqlalchemy.orm import Session

from bot.config import Settings
from bot.engine.clock import GameClock
from bot.engine.game import Game, TimedEvent
from bot.engine.games.base import GameAdapter
from bot.engine.rule_changes import RuleBook
from bot.pipeline import PipelineSettings


@dataclass(frozen=True)
class Services:
    settings: Settings
    clock: GameClock
    pipeline_settings: PipelineSettings
    master_secret: bytes
    templates: Environment
    rules: RuleBook  # the settings in force at an instant (bot.engine.rule_changes)
    # The games this nomic plays, in the order their adapters see a post
    # (``bot.engine.registry.enabled_games``; the engine imports none of them).
    games: tuple[Game, ...] = ()

    def at(self, instant: datetime) -> Services:
        """These services with the settings in force at ``instant`` (a change recorded
        by an admin record takes effect from its instant on, never before)."""
        settings = self.rules.settings_at(instant)
        return self if settings is self.settings else replace(self, settings=settings)

    def make_adapters(self, session: Session) -> dict[str, GameAdapter]:
        """Fresh adapters for one post, by prefix: each loads its state from ``session``."""
        adapters = [adapter for game in self.games for adapter in game.adapters(session, self)]
        by_prefix = {adapter.prefix: adapter for adapter in adapters}
        assert len(by_prefix) == len(adapters), "two enabled games handle one action prefix"
        return by_prefix

    def allowed_while_clock_off(self, action: str) -> bool:
        """Whether an enabled game lets ``action`` take effect while the Clock is Off (3 B)."""
        return any(action in game.while_clock_off for game in self.games)

    def timed_events(self) -> tuple[TimedEvent, ...]:
        """The enabled games' timed events, in declaration order (the scheduler sorts them)."""
        return tuple(event for game in self.games for event in game.timed_events)
