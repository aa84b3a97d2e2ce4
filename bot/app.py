"""The composition root: settings in, engine, sessions and services out.

Nothing else in the project opens connections or reads configuration; every
component receives what it needs from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from bot.config import Settings, TrustSettings, master_secret
from bot.engine.clock import GameClock
from bot.engine.game import Game
from bot.engine.players import sync_configured_players
from bot.engine.registry import enabled_games
from bot.engine.rule_changes import RuleBook
from bot.engine.services import Services
from bot.outbound.templates import make_environment
from bot.outbound.transports import Transport, make_transport
from bot.parser.saved_grammar import user_cache_folder
from bot.pipeline import PipelineSettings
from bot.store.database import make_engine, make_session_factory, upgrade_database
from bot.trust.bot_key import GENERATED_RECORD, load_bot_key
from bot.trust.keys import load_key_file, normalised_name
from bot.trust.policy import TrustPolicy


@dataclass(frozen=True)
class App:
    settings: Settings
    engine: Engine
    session_factory: sessionmaker[Session]
    services: Services

    def transport(self) -> Transport:
        return make_transport(self.settings.outbound, self.settings.outbox_maildir)

    def dispose(self) -> None:
        self.engine.dispose()


def build_services(settings: Settings) -> Services:
    clock = GameClock(settings.ntime_epoch, settings.ntime_switches)
    games = enabled_games(settings)  # raises ConfigError for a game it does not know
    return Services(
        settings=settings,
        clock=clock,
        pipeline_settings=pipeline_settings(settings, games),
        master_secret=master_secret(settings),
        templates=make_environment(),
        rules=RuleBook(settings, clock),
        games=games,
    )


def pipeline_settings(
    settings: Settings, games: tuple[Game, ...] | None = None
) -> PipelineSettings:
    """What the pipeline's stages know of this bot: from the configuration alone.

    No database is needed, so a replay starts preparing its first posts
    before the database is opened (``bot.runner.ArchiveAhead``).  ``games``:
    ``enabled_games(settings)``, when the caller has them.
    """
    if games is None:
        games = enabled_games(settings)  # raises ConfigError for a game it does not know
    return PipelineSettings(
        bot_addresses=frozenset({settings.bot.address.lower()}),
        list_addresses=frozenset({settings.bot.list_address.lower()}),
        required_list_id=settings.bot.list_id.strip().strip("<>").lower(),
        trust=trust_policy(settings.trust, own_key_records(settings)),
        bot_domain=settings.bot_domain.lower(),
        own_key_record_file=str(settings.data_path / GENERATED_RECORD),
        areas=tuple(area for game in games for area in game.areas),
        refereed_subgames=frozenset(key for game in games for key in game.refereed_subgames),
        grammar_folder=user_cache_folder(),
    )


def own_key_records(settings: Settings) -> dict[str, str]:
    """The bot's own published key record, so that it checks its records without DNS."""
    if settings.bot.dkim_key_file:
        key = load_bot_key(
            settings.bot.dkim_key_file,
            settings.bot.dkim_selector,
            settings.bot_domain,
            settings.data_path,
        )
        return {normalised_name(key.record_name): key.record}
    made = settings.data_path / GENERATED_RECORD
    return dict(load_key_file(made)) if made.exists() else {}


def trust_policy(trust: TrustSettings, own: dict[str, str] | None = None) -> TrustPolicy:
    records = {**(own or {}), **(load_key_file(trust.key_file) if trust.key_file else {})}
    return TrustPolicy(
        list_signature=trust.list_signature,
        list_signer=trust.list_signer.lower(),
        list_selector=trust.list_selector.lower(),
        list_authserv_id=trust.list_authserv_id.lower(),
        authserv_ids=frozenset(i.lower() for i in trust.authserv_ids),
        author_authentication=trust.author_authentication,
        key_records=tuple(sorted(records.items())),
        use_dns=trust.dns,
    )


def build_app(settings: Settings, upgrade: bool = True) -> App:
    """Connect, bring the schema up to date and register configured players."""
    engine = make_engine(settings.database_url)
    if upgrade:
        upgrade_database(engine)
    session_factory = make_session_factory(engine)
    with session_factory.begin() as session:
        # Configured players are there from the start of the game, so every
        # database (live or replayed) records the same instant.
        sync_configured_players(session, settings.players, settings.ntime_epoch)
    services = build_services(settings)
    with session_factory() as session:
        services.rules.refresh(session)  # the Clock switches and settings recorded so far
    return App(settings, engine, session_factory, services)
