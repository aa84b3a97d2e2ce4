"""Balances kept as rows (revision 0013): each is always the sum of its holder's entries.

``bot.engine.ledger`` writes a holder's ``balance`` row in the same flush
as each entry, so a balance is one row however long the game has run (a
payment's check, rule 21; the Store's, rule 1911; the Twiddler's display,
rule 21 A.2).  A seeded random run of every kind of write the engine makes
(gains, payments, losses, the Store's sales, the Basin's creations, the
nweek's Bandwidth for every player, a player ceasing to be one) checks
after each step that every row equals its entries' sum and the figure a
model of the rules expects; a refused payment changes neither.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.orm import Session

from bot.engine import bandwidth, holdings, ledger
from bot.engine.views import game_view
from bot.games.errors import IllegalActionError

if TYPE_CHECKING:
    from conftest import Table

AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
STORE = "the Store"
STEPS = 300
CURRENCIES = (holdings.TILDEX, holdings.POINTS)


class Model:
    """What each holder should hold: (player id or entity, currency) -> amount."""

    def __init__(self) -> None:
        self.held: dict[tuple[int | str, str], int] = {}

    def get(self, holder: int | str, currency: str) -> int:
        return self.held.get((holder, currency), 0)

    def add(self, holder: int | str, currency: str, amount: int) -> None:
        self.held[(holder, currency)] = self.get(holder, currency) + amount


def step(session: Session, model: Model, players: list[int], rng: random.Random, n: int) -> str:
    """One random write, applied to ``model`` as the rules say; its name."""
    at = AT + timedelta(minutes=n)
    cause = {"at": at, "rule": "13", "note": f"step {n}"}
    player = rng.choice(players)
    currency = rng.choice(CURRENCIES)
    amount = rng.randint(1, 400)
    kind = rng.choice(["gain", "spend", "lose", "sale", "store pays", "basin", "nweek", "leaves"])
    if kind == "gain":
        holdings.gain(session, player, currency, amount, **cause)
        model.add(player, currency, amount)
    elif kind == "spend":
        try:
            holdings.spend(session, player, currency, amount, **cause)
        except IllegalActionError:
            assert model.get(player, currency) < amount
            return "spend refused"
        model.add(player, currency, -amount)
    elif kind == "lose":
        lost = holdings.lose(session, player, currency, amount, **cause)
        assert lost == min(amount, model.get(player, currency))
        model.add(player, currency, -lost)
    elif kind == "sale":  # rule 1911: the buyer pays the Store
        try:
            holdings.spend(session, player, holdings.TILDEX, amount, **cause)
        except IllegalActionError:
            return "sale refused"
        holdings.gain_for_entity(session, STORE, holdings.TILDEX, amount, **cause)
        model.add(player, holdings.TILDEX, -amount)
        model.add(STORE, holdings.TILDEX, amount)
    elif kind == "store pays":
        try:
            holdings.spend_for_entity(session, STORE, holdings.TILDEX, amount, **cause)
        except IllegalActionError:
            assert model.get(STORE, holdings.TILDEX) < amount
            return "store refused"
        model.add(STORE, holdings.TILDEX, -amount)
    elif kind == "basin":
        made = holdings.create_tildex(session, player, amount, nweek=n // 50, **cause)
        model.add(player, holdings.TILDEX, made.created)
    elif kind == "nweek":  # rule 212: every player's Bandwidth becomes the nweek's
        reset = bandwidth.reset_at_nweek_start(session, n, at, amount)
        assert reset == len(players)
        for each in players:
            model.held[(each, holdings.BANDWIDTH)] = amount
    else:  # rule 14: one who ceases to be a player loses everything
        holdings.strip_holdings(session, player, at=at, message_pk=None)
        for key in [key for key in model.held if key[0] == player]:
            model.held[key] = 0
    return kind


def assert_kept(session: Session, model: Model, players: list[int]) -> None:
    kept = ledger.kept_balances(session)
    assert kept == ledger.summed_balances(session)
    for player_id, entity, currency, amount in kept:
        holder = player_id if player_id is not None else entity
        assert holder is not None
        assert amount == model.get(holder, currency) >= 0, (holder, currency)
    for player in players:
        for currency in (*CURRENCIES, holdings.BANDWIDTH):
            assert ledger.balance(session, player, currency) == model.get(player, currency)
    assert ledger.entity_balance(session, STORE, holdings.TILDEX) == model.get(
        STORE, holdings.TILDEX
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_every_balance_row_stays_the_sum_of_its_entries(table: Table, seed: int) -> None:
    rng = random.Random(seed)
    model = Model()
    players = [table.player("Alice").id, table.player("Bob").id]
    done: list[str] = []
    with table.app.session_factory.begin() as session:
        for n in range(STEPS):
            done.append(step(session, model, players, rng, n))
            assert_kept(session, model, players)
    with table.app.session_factory() as session:  # as committed
        assert_kept(session, model, players)
    # Every kind of write was made, and every refusal met.
    assert {"gain", "spend", "lose", "sale", "store pays", "basin", "nweek", "leaves"} <= set(done)
    assert {"spend refused", "sale refused", "store refused"} <= set(done)


def test_a_balance_spent_to_zero_keeps_its_row_and_the_display_its_line(table: Table) -> None:
    cause = {"at": AT, "rule": "13", "note": "spent"}
    with table.app.session_factory.begin() as session:
        alice = table.player("Alice").id
        holdings.gain(session, alice, "renown:wisdom:permanent", 2, **cause)
        holdings.spend(session, alice, "renown:wisdom:permanent", 2, **cause)
        holdings.gain_for_entity(session, STORE, holdings.TILDEX, 5, **cause)
        holdings.spend_for_entity(session, STORE, holdings.TILDEX, 5, **cause)
    with table.app.session_factory() as session:
        assert ledger.kept_balances(session) == ledger.summed_balances(session)
        assert ledger.holdings(session) == {"Alice": {"renown:wisdom:permanent": 0}}
        shown = game_view(session, table.app.services, "holdings", at=table.at(1, 5))
    # As when the display summed the entries: the player's line shows the
    # currency e has had, at 0; an entity with nothing has no line.
    assert shown.data == {"Alice": {"renown:wisdom:permanent": 0}}
    assert "the Store" not in shown.text
