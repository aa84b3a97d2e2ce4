"""The Drinks' timers between Checkpoints (rule 1914 C.2's Rainbow's end), by the
scheduler: ``next_due`` is the earliest of the next Checkpoint and those timers, and the
events of that instant are run and mailed to the list."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from sqlalchemy import select

from bot.config import DEFAULT_GAMES, GamesSettings
from bot.engine.games.garden_clock import instant_of
from bot.engine.games.garden_economy import StoredEconomy
from bot.engine.games.garden_events import checkpoint_due, synced
from bot.games.drinks import RainbowWalk
from bot.games.economy import Moment
from bot.runner import advance_to
from bot.store.models import OutboxMessage
from bot.testing.apps import game_settings
from bot.testing.go_game import EPOCH
from bot.testing.records import recording_app

RAINBOW_ENDS = Moment(1, 12 * 3600)  # nday 2 at noon: between two Checkpoints


def test_a_rainbows_end_between_checkpoints_is_run_and_reported(tmp_path: Path) -> None:
    games = GamesSettings(enabled=(*DEFAULT_GAMES, "garden"))
    app = recording_app(game_settings(tmp_path, games=games))
    try:
        start = EPOCH + timedelta(minutes=1)
        advance_to(app, start)
        with app.session_factory() as session:
            stored = StoredEconomy()
            economy, _ = synced(session, app.services, stored, Moment(0, 60))
            walker = economy.garden.players[0]
            walk = RainbowWalk(walker, 7, RAINBOW_ENDS)
            drunk = replace(economy.drinks, rainbow_walks=(walk,))
            stored.save(session, replace(economy, drinks=drunk))
            session.commit()
            due = checkpoint_due(session, app.services, start)
        assert due is not None and due == instant_of(app.services, RAINBOW_ENDS)
        advance_to(app, due + timedelta(minutes=1))
        with app.session_factory() as session:
            rows = session.scalars(
                select(OutboxMessage).where(OutboxMessage.kind == "garden-checkpoint")
            ).all()
            bodies = [
                str(message_from_bytes(row.raw, policy=default).get_body().get_content())  # type: ignore[union-attr]
                for row in rows
            ]
            left = StoredEconomy().load(session, economy.store)
        assert len(bodies) == 1 and bodies[0].startswith("At nweek 1, nday 2, 12:00:00")
        assert (
            f"{walker} is no longer Following the Rainbow and finds (gets) a Pot of Gold"
            in (bodies[0])
        )
        assert left is not None and left.drinks.rainbow_walks == ()
    finally:
        app.dispose()
