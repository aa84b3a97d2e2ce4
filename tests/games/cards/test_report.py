"""The Dealer's report (A Nomic rule 390): who received Cards and their Backs, nothing else."""

from __future__ import annotations

import re

from bot.games.cards import CardTable, DealCommitment, DealId, HiddenDeal, deal_hidden, deal_key
from bot.games.cards.cards import Rank, Suit
from bot.games.cards.report import render_deal_notice, render_report, report_entries

KEY = deal_key(bytes(range(32)), 13)


def nweek_of_deals() -> list[tuple[str, HiddenDeal]]:
    table, deals = CardTable.new(), []
    for serial, recipient in enumerate(["carol", "alice", "bob", "alice", "Dave"], start=1):
        table, dealt = deal_hidden(table, recipient, KEY, DealId(13, serial))
        assert isinstance(dealt, HiddenDeal)
        deals.append((recipient, dealt))
    return deals


def test_the_report_names_recipients_and_backs_only() -> None:
    # Rule 390: "a report of who recieved Cards in that nweek, and what the Back
    # of each Card was. No other information about the Cards should be given".
    deals = nweek_of_deals()
    text = render_report(14, report_entries(deals))
    assert text.startswith("Dealer's report for nweek 14 (rule 390)")
    assert "alice received 2 Cards:" in text and "Dave received 1 Card:" in text
    for _, dealt in deals:
        assert f"{dealt.card.back} back   {dealt.commitment.proof}" in text
        assert dealt.secret.hex() not in text
    # Searched: no Rank or Suit word, no short Face, no card number.
    words = set(re.findall(r"[A-Za-z0-9]+", text.replace(" back ", " ")))
    faces = {f"{rank.letter}{suit.letter}" for rank in Rank for suit in Suit}
    names = {rank.title for rank in Rank if not rank.title.isdigit()} | {s.title for s in Suit}
    assert not words & (faces | names)
    assert "card=" not in text
    assert [line.split()[0] for line in text.splitlines() if "received" in line] == [
        "alice",
        "bob",
        "carol",
        "Dave",
    ]


def test_the_commitments_in_the_report_read_back() -> None:
    deals = nweek_of_deals()
    text = render_report(14, report_entries(deals))
    published = [DealCommitment.parse(line) for line in text.splitlines() if "hidden-v1" in line]
    assert sorted(published, key=lambda c: c.deal) == [dealt.commitment for _, dealt in deals]


def test_an_nweek_without_deals_says_so() -> None:
    assert "Nobody received Cards this nweek." in render_report(3, [])


def test_the_private_notice_tells_the_recipient_the_card() -> None:
    # Rule 387: the Dealer "notifies that Player of what the Card is".
    recipient, dealt = nweek_of_deals()[0]
    notice = render_deal_notice(recipient, dealt.card, dealt.commitment)
    assert dealt.card.name in notice and f"deal {dealt.deal}" in notice
    assert dealt.secret.hex() not in notice
