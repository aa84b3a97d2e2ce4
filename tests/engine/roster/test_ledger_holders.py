"""The ledger's holders that are no players, and the Basin's count (rule 21 A.2, 1911).

"All Players should be able to easily find out the amount of Tildex any
game entity possesses by consulting an available public display"; the Basin
"may create or destroy Tildex, but only as specified by the Rules, and under
no circumstances may it create more than 10000 Tildex each nweek".
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from bot.engine import holdings, ledger
from bot.engine.views import game_view
from bot.games.errors import IllegalActionError
from bot.store.models import LedgerEntry

if TYPE_CHECKING:
    from conftest import Table

AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
STORE = "the Store"
SHOP = {"at": AT, "rule": "1911", "note": "a purchase"}


def _alice(table: Table) -> int:
    return table.player("Alice").id


def test_an_entity_holds_tildex_beside_the_players(table: Table) -> None:
    with table.app.session_factory.begin() as session:
        alice = _alice(table)
        holdings.gain(session, alice, holdings.TILDEX, 300, **SHOP)
        holdings.spend(session, alice, holdings.TILDEX, 250, **SHOP)
        holdings.gain_for_entity(session, STORE, holdings.TILDEX, 250, **SHOP)
        holdings.spend_for_entity(session, STORE, holdings.TILDEX, 40, **SHOP)
        assert ledger.entity_balance(session, STORE, holdings.TILDEX) == 210
        assert ledger.balance(session, alice, holdings.TILDEX) == 50
        # Rule 21: no holder goes below zero, an entity no more than a player.
        with pytest.raises(IllegalActionError, match="the Store holds 210") as refused:
            holdings.spend_for_entity(session, STORE, holdings.TILDEX, 211, **SHOP)
        assert refused.value.rule == "1911"
        assert ledger.entity_holdings(session) == {STORE: {holdings.TILDEX: 210}}
        # The players' own tables do not count the Store as one of them.
        assert STORE not in ledger.holdings(session)


@pytest.mark.parametrize("player_id, entity", [(None, None), (1, STORE)])
def test_an_entry_belongs_to_exactly_one_holder(
    table: Table, player_id: int | None, entity: str | None
) -> None:
    with table.app.session_factory() as session:
        session.add(
            LedgerEntry(
                player_id=player_id,
                entity=entity,
                currency=holdings.TILDEX,
                amount=1,
                source="admin",
                rule="",
                note="",
                occurred_at=AT,
            )
        )
        with pytest.raises(IntegrityError, match="ck_ledger_entry_one_holder|CHECK"):
            session.flush()


def test_the_basin_cuts_a_grant_to_what_is_left_of_the_nweeks_10000(table: Table) -> None:
    with table.app.session_factory.begin() as session:
        alice, bob = _alice(table), table.player("Bob").id
        grant = {"at": AT, "rule": "125", "note": "a reward"}
        assert holdings.create_tildex(session, alice, 9800, nweek=3, **grant).created == 9800
        # Destroying tildex gives the Basin no room back: the cap counts what it created.
        holdings.spend(session, alice, holdings.TILDEX, 9000, **grant)
        cut = holdings.create_tildex(session, bob, 500, nweek=3, **grant)
        assert (cut.asked, cut.created, cut.withheld) == (500, 200, 300)
        assert cut.shortfall() == (
            "the Basin may create no more than 10000~ each nweek and had 200~ left of "
            "nweek 4's, so 300~ of the 500~ were not created"
        )
        nothing = holdings.create_tildex(session, bob, 5, nweek=3, **grant)
        assert (nothing.created, nothing.withheld) == (0, 5)
        # Another nweek is another 10000~.
        assert holdings.create_tildex(session, bob, 5, nweek=4, **grant).shortfall() == ""
        assert ledger.basin_created(session, 3) == 10000
        assert ledger.basin_created(session, 4) == 5
        assert ledger.balance(session, bob, holdings.TILDEX) == 205
        # Tildex moved from a holder are no creation (a purchase, a gift).
        holdings.gain(session, bob, holdings.TILDEX, 50, **grant)
        assert ledger.basin_created(session, 4) == 5


def test_the_twiddlers_display_lists_players_then_entities_then_the_basin(
    table: Table,
) -> None:
    with table.app.session_factory.begin() as session:
        alice = _alice(table)
        holdings.create_tildex(session, alice, 500, nweek=0, at=AT, rule="21 A.2", note="joined")
        holdings.spend(session, alice, holdings.TILDEX, 250, **SHOP)
        holdings.gain_for_entity(session, STORE, holdings.TILDEX, 250, **SHOP)
    with table.app.session_factory() as session:
        shown = game_view(session, table.app.services, "holdings", at=table.at(1, 5))
        later = game_view(session, table.app.services, "holdings", at=table.at(2, 5))
        # Before the epoch the Clock has no reading: the first nweek's count is shown.
        early = game_view(session, table.app.services, "holdings", at=AT - timedelta(days=30))
    # No timed event has run: nobody has Bandwidth, and Bob, without entries, no line.
    assert shown.text == (
        "Alice: 0 points, 250~, 0BW\n"
        "the Store: 250~\n"
        "the Basin: created 500~ of its 10000~ in nweek 1 (rule 21 A.2)\n"
    )
    assert shown.data == {
        "Alice": {"tildex": 250},
        "the Store": {"tildex": 250},
        "the Basin": {"created": 500, "cap": 10000, "nweek": 1},
    }
    assert early == shown
    # In nweek 2 the Basin has created nothing yet: no line, the Store's stays.
    assert later.text.endswith("the Store: 250~\n") and "the Basin" not in later.data


def test_balances_and_the_basins_count_are_read_through_indexes(table: Table) -> None:
    """A balance costs the same however long the game has run: one row, by a unique index."""
    queries = {
        "ix_balance_entity_currency": "SELECT amount FROM balance"
        " WHERE entity = 'the Store' AND currency = 'tildex'",
        "ix_ledger_entry_basin_nweek": "SELECT sum(amount) FROM ledger_entry WHERE basin_nweek = 3",
        "ix_balance_player_currency": "SELECT amount FROM balance"
        " WHERE player_id = 1 AND currency = 'tildex'",
        # The nweek's Bandwidth reset asks what it did at its instant (rule 212).
        # A player's addresses (``Player.addresses``): not every address of the roster.
        "ix_player_address_player_id": "SELECT address FROM player_address WHERE player_id = 1",
        "ix_ledger_entry_occurred_at": "SELECT player_id FROM ledger_entry WHERE currency ="
        " 'bandwidth' AND source = 'scheduler' AND rule = '212'"
        " AND occurred_at = '2026-01-11 00:00:00.000000'",
    }
    with table.app.session_factory() as session:
        for index, query in queries.items():
            plan = " ".join(
                str(row[-1]) for row in session.execute(text(f"EXPLAIN QUERY PLAN {query}"))
            )
            assert f"USING INDEX {index}" in plan, plan
