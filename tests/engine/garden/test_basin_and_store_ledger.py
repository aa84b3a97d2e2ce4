"""The Store's tildex and the Basin's cap in the Gardens, by mail (rules 1911, 1902 D, 21 A.2).

Bob buys a Thorn Seed (its 130~ given to the Store, an entry of the Store's
in the same post), plants it and burns the Thorn Bush: rule 1902 D's 2~
come from no holder, so the Basin creates them, and with only 1~ left of
the nweek's 10000~ it creates 1~, and the ruling says so (rule 21 A.2).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from bot.config import DEFAULT_GAMES, GamesSettings
from bot.engine import holdings, ledger
from bot.engine.players import find_player_by_name
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.games.store.rules import STORE_HOLDER
from bot.posts import compose_post
from bot.runner import advance_to, store_message
from bot.store.models import ActionRecord, LedgerEntry, Message
from bot.testing.apps import game_settings
from bot.testing.go_game import ALICE, BOB, EPOCH, LIST_ADDRESS
from bot.testing.records import recording_app

BODY = "I buy a Thorn Seed. I plant my Thorn Seed in my Garden. I burn a Thorn Bush."


def test_a_burning_at_the_basins_cap_gets_what_is_left_and_the_store_is_paid(
    tmp_path: Path,
) -> None:
    games = GamesSettings(enabled=(*DEFAULT_GAMES, "garden"))
    app = recording_app(game_settings(tmp_path, games=games))
    try:
        at = EPOCH + timedelta(hours=1)
        advance_to(app, at)
        with app.session_factory.begin() as session:
            alice, bob = (find_player_by_name(session, who[0]).id for who in (ALICE, BOB))
            cause = {"at": at, "rule": "125", "note": "earlier rewards"}
            holdings.create_tildex(session, alice, 9999, nweek=0, **cause)
            holdings.gain(session, bob, holdings.TILDEX, 200, rule="", note="a gift", at=at)
        raw = compose_post(*BOB, "Gardens", BODY, "burn@example.test", at, LIST_ADDRESS)
        store_message(app, raw, "smtp", at)
        process_queue(app.session_factory, app.services)
        with app.session_factory() as session:
            rows = session.scalars(select(ActionRecord).where(ActionRecord.action.like("garden.%")))
            rulings = [(row.action, row.ruling, row.summary) for row in rows]
            burn = select(Message.id).where(Message.message_id == "burn@example.test")
            post = session.scalar(burn)
            store_entries = session.execute(
                select(LedgerEntry.amount, LedgerEntry.rule, LedgerEntry.message_pk).where(
                    LedgerEntry.entity == STORE_HOLDER
                )
            ).all()
            bob_tildex = ledger.balance(session, bob, holdings.TILDEX)
            created = ledger.basin_created(session, 0)
            shown = game_view(session, app.services, "holdings", at=at)
    finally:
        app.dispose()
    assert [ruling[:2] for ruling in rulings] == [
        ("garden.buy", "applied"),
        ("garden.plant", "applied"),
        ("garden.burn", "applied"),
    ]
    assert rulings[2][2].endswith(
        "Bob receives 1~: the Basin may create no more than 10000~ each nweek and had 1~ "
        "left of nweek 1's, so 1~ of the 2~ were not created (rule 21 A.2)"
    )
    # The price is the Store's, in the same post and under the same rule as the purchase.
    assert [tuple(entry) for entry in store_entries] == [(130, "1911", post)]
    assert bob_tildex == 200 - 130 + 1 and created == 10000
    assert "the Store: 130~\n" in shown.text
    assert shown.text.endswith("the Basin: created 10000~ of its 10000~ in nweek 1 (rule 21 A.2)\n")
