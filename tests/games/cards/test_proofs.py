"""The hidden-v1 lines of an archive, audited from the archive alone (``verify-dice``)."""

from __future__ import annotations

from bot.games.cards import CardTable, DealId, HiddenDeal, deal_hidden, deal_key, key_commitment
from bot.games.cards.proofs import (
    audit_hidden,
    key_commitment_line,
    key_reveal_line,
    packs_line,
    return_line,
)

MASTER = bytes(range(32))
PACKS = 1


def dealt(count: int) -> list[HiddenDeal]:
    """``count`` deals of nweek 1 from a one-Pack Deck, to alternating players."""
    table = CardTable.new(PACKS)
    key = deal_key(MASTER, 1)
    deals = []
    for serial in range(1, count + 1):
        table, outcome = deal_hidden(table, f"player{serial % 2}", key, DealId(1, serial))
        assert isinstance(outcome, HiddenDeal)
        deals.append(outcome)
    return deals


def archive(deals: list[HiddenDeal], shown: list[HiddenDeal], key: bool) -> list[str]:
    """The report of ``deals``, then a Showdown returning ``shown`` and revealing them."""
    report = [packs_line(PACKS), key_commitment_line(1, key_commitment(deal_key(MASTER, 1)))]
    report += [deal.commitment.proof for deal in deals]
    result = [return_line(deal.card.number) for deal in shown]
    result += [deal.reveal.proof for deal in shown]
    if key:
        result.append(key_reveal_line(1, deal_key(MASTER, 1).hex()))
    return ["\n".join(report), "\n".join(result)]


def test_every_reveal_and_the_key_verify() -> None:
    deals = dealt(30)
    audit = audit_hidden(archive(deals, deals, key=True))
    assert (audit.checked, audit.wrong, audit.unconfirmed, audit.keys_checked) == (30, 0, 0, 1)


def test_a_reveal_whose_rerolls_the_archive_cannot_place_is_unconfirmed_not_wrong() -> None:
    deals = dealt(30)
    rerolled = [deal for deal in deals if len(deal.rolls) > 1]
    assert rerolled, "thirty deals from 52 Cards re-roll at least once"
    audit = audit_hidden(archive(deals, [rerolled[-1]], key=False))
    assert audit.wrong == 0 and audit.unconfirmed == 1


def test_a_changed_card_or_key_is_found() -> None:
    deals = dealt(5)
    texts = archive(deals, deals, key=True)
    first = deals[0]
    other = 1 if first.card.number != 1 else 2
    forged = first.reveal.proof.replace(f"card={first.card.number} ", f"card={other} ")
    audit = audit_hidden([texts[0], texts[1].replace(first.reveal.proof, forged)])
    assert audit.wrong == 1 and "TAMPERED" in audit.lines[0]
    wrong_key = key_reveal_line(1, deal_key(MASTER, 2).hex())
    audit = audit_hidden(
        [texts[0], texts[1].replace(key_reveal_line(1, deal_key(MASTER, 1).hex()), wrong_key)]
    )
    assert audit.wrong == 1 and "deal key of nweek 1" in audit.lines[0]
