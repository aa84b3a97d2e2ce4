"""What the engine needs, built once by the composition root and passed down."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from jinja2 import Environment
from sqlalchemy.orm import Session

from bot.config import Settings
from bot.engine.clock import GameClock
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

    def at(self, instant: datetime) -> Services:
        """These services with the settings in force at ``instant`` (a change recorded
        by an admin record takes effect from its instant on, never before)."""
        settings = self.rules.settings_at(instant)
        return self if settings is self.settings else replace(self, settings=settings)

    def make_adapters(self, session: Session) -> dict[str, GameAdapter]:
        """Fresh adapters for one post: each loads its state from ``session``."""
        from bot.engine.clock_stops import ClockAdapter
        from bot.engine.games.dice import DiceAdapter
        from bot.engine.games.field import FieldAdapter
        from bot.engine.games.go import GoAdapter
        from bot.engine.games.go_anomic import AnomicGoAdapter
        from bot.engine.games.roster import RosterAdapter
        from bot.engine.games.unrefereed import UnrefereedAdapter
        from bot.engine.governance.cfis import CfiAdapter
        from bot.engine.governance.digests import DigestAdapter
        from bot.engine.governance.elections import ElectionsAdapter
        from bot.engine.governance.proposals import governance_adapters

        go: GameAdapter = (
            AnomicGoAdapter(session, self)
            if self.settings.go.rules == "A"
            else GoAdapter(session, self.settings.go.board_size, self.clock)
        )
        adapters: tuple[GameAdapter, ...] = (
            RosterAdapter.from_services(session, self),
            DiceAdapter(session, self),
            go,
            FieldAdapter(session, self),  # Field Matches (seeds 003, 000)
            ElectionsAdapter(session, self),
            DigestAdapter(session, self),  # a Minister's digest on request (issue 5)
            *governance_adapters(session, self),  # proposals and votes (rules 15, 19, 23)
            CfiAdapter(session, self),  # Calls For Inquiry (rule 125)
            ClockAdapter(session, self),  # the GM's recognizer (rule 23)
            UnrefereedAdapter(),  # the seeds' subgames not refereed yet: "rule N"
        )
        return {adapter.prefix: adapter for adapter in adapters}
