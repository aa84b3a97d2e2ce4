"""The Drinks' timers and gates by mail, on a stored state: a Rainbow's end between
Checkpoints (rule 1914 C.2) is due (``next_due``: the earliest of the next Checkpoint and
those timers), run and mailed to the list; a Blacked Out player (rule 1913, BAC 10) is
refused every action the rule lists, saying when e may act again."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from sqlalchemy import select

from bot.app import App
from bot.config import DEFAULT_GAMES, GamesSettings
from bot.engine.games.garden_clock import instant_of
from bot.engine.games.garden_economy import StoredEconomy
from bot.engine.games.garden_events import checkpoint_due, synced
from bot.engine.worker import process_queue
from bot.games.drinks import RainbowWalk
from bot.games.economy import Moment
from bot.games.store import StoreState
from bot.posts import compose_post
from bot.runner import advance_to, store_message
from bot.store.models import ActionRecord, OutboxMessage
from bot.testing.apps import game_settings
from bot.testing.go_game import ALICE, BOB, EPOCH, LIST_ADDRESS
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
        blacked_out_refusals(app, walker, due + timedelta(minutes=2))
    finally:
        app.dispose()


def blacked_out_refusals(app: App, player: str, at: datetime) -> None:
    """``player``, given BAC 10, posts three of rule 1913's actions: each is refused."""
    with app.session_factory() as session:
        stored = StoredEconomy()
        economy = stored.load(session, StoreState())
        assert economy is not None
        stored.save(session, replace(economy, drinks=economy.drinks.with_bac(player, 10)))
        session.commit()
    address = dict((ALICE, BOB))[player]
    body = "I water my Garden. I pick a Tomato from the Town Square. I drink my Tomato Drink."
    raw = compose_post(player, address, "Drinks", body, "drunk@example.test", at, LIST_ADDRESS)
    advance_to(app, at)
    store_message(app, raw, "smtp", at)
    process_queue(app.session_factory, app.services)
    with app.session_factory() as session:
        rows = session.scalars(select(ActionRecord).where(ActionRecord.action.like("garden.%")))
        refusals = [(row.action, row.ruling, row.reason, row.rule) for row in rows]
    assert [refusal[:2] for refusal in refusals] == [
        ("garden.water", "rejected"),
        ("garden.pick", "rejected"),
        ("garden.drink", "rejected"),
    ]
    water, pick, drink = refusals
    assert water[2].startswith("you are Blacked Out (BAC 10, 10 or more), and a Blacked Out")
    assert "may not perform Watering plants" in water[2] and water[3] == "1913"
    # BAC 10 falls to 9 at the next Checking Period's end: possible again from then.
    assert "may perform Picking fruits again from nweek 1, nday 4" in pick[2]
    assert drink[2].startswith("you are Blacked Out") and drink[3] == "1913"
