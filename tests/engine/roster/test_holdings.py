"""The ledger of holdings: statements by post, points, Renown (rules 21, 1899)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from bot.engine import holdings, ledger
from bot.engine.holdings import POINTS, TILDEX, renown
from bot.games.errors import IllegalActionError
from bot.store.models import Player
from bot.testing.go_game import ALICE, EPOCH

if TYPE_CHECKING:
    from conftest import Table
    from sqlalchemy.orm import Session

CAROL = ("Carol", "carol@example.test")


def player_id(session: Session, name: str) -> int:
    found = session.scalar(select(Player.id).where(Player.name == name))
    assert found is not None
    return found


def test_my_holdings_please_replies_with_the_statement(table: Table) -> None:
    table.post(CAROL, "I request to become a player with the name Carol.")
    judged = table.post(CAROL, "Hello all.\n\nMy holdings please.\n\nCarol", table.at(1, 2))
    assert judged.rulings == [
        ("roster.holdings", "applied", "21 A.2", "Carol's statement of holdings is below")
    ]
    assert "Carol's holdings, after this post:" in judged.reply
    assert "Carol holds: 1 point, 500~, 4BW" in judged.reply
    assert "The last 3 change(s), oldest first:" in judged.reply
    assert "+500~" in judged.reply and "rule 21 A.2, entering the game" in judged.reply
    assert "<roster-001@example.test>" in judged.reply  # the cause of each entry
    assert "The roster" not in judged.reply  # asking changes nothing


def test_a_statement_of_a_configured_player_in_the_first_nweek(table: Table) -> None:
    judged = table.post(ALICE, "What are my holdings")
    # Rule 212: the nweek the game starts in gave em 10BW, like any other.
    assert "Alice holds: 0 points, 0~, 10BW" in judged.reply
    assert "The last 1 change(s), oldest first:" in judged.reply
    assert "the game starts in nweek 1: Bandwidth becomes 10BW" in judged.reply


def test_points_never_go_below_zero(table: Table) -> None:
    # Rule 21 A.1: a player loses points "but it shall never become less than zero".
    with table.app.session_factory.begin() as session:
        alice = player_id(session, "Alice")
        holdings.gain(session, alice, POINTS, 3, at=EPOCH, rule="19", note="passed")
        lost = holdings.lose(session, alice, POINTS, 5, at=EPOCH, rule="19", note="failed")
        assert (lost, ledger.balance(session, alice, POINTS)) == (3, 0)
        assert holdings.lose(session, alice, POINTS, 2, at=EPOCH, rule="19", note="failed") == 0
        with pytest.raises(ValueError, match="below zero"):
            ledger.record(session, alice, POINTS, -1, occurred_at=EPOCH, source="admin")
        with pytest.raises(IllegalActionError, match="costs 5 ~, and you hold 0") as refused:
            holdings.spend(session, alice, TILDEX, 5, at=EPOCH, rule="21 A.2", note="x")
        assert refused.value.rule == "21 A.2"


def test_ten_temporary_renown_become_one_permanent(table: Table) -> None:
    honor = renown("Honor", permanent=False)
    with table.app.session_factory.begin() as session:
        alice = player_id(session, "Alice")
        holdings.gain(session, alice, honor, 9, at=EPOCH, rule="19", note="nine passed")
        assert ledger.balance(session, alice, honor) == 9
        holdings.gain(session, alice, honor, 1, at=EPOCH, rule="19", note="the tenth")
        assert ledger.balance(session, alice, honor) == 0
        assert ledger.balance(session, alice, renown("Honor", permanent=True)) == 1
        statement = holdings.statement(session, alice, "Alice")
    assert ("Permanent Honor", 1) in [
        (holdings.currency_label(currency), amount) for currency, amount in statement.balances
    ]
    assert [(line.amount, line.rule) for line in statement.latest[-2:]] == [
        (-10, "1899"),
        (1, "1899"),
    ]


def test_a_statement_may_be_asked_for_privately_but_leave_may_not(table: Table) -> None:
    judged = table.post(ALICE, "My holdings please.\n\nI go On Leave.", private=True)
    assert [(action, ruling, rule) for action, ruling, rule, _ in judged.rulings] == [
        ("roster.holdings", "applied", "21 A.2"),
        ("roster.leave", "rejected", "1896"),  # rule 205: "on a public forum"
    ]
    assert "Alice holds:" in judged.reply
    assert not table.player("Alice").on_leave
