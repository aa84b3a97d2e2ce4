"""Hidden deals: the documented derivation, commitments, reveals and their checks."""

from __future__ import annotations

import hashlib
import textwrap
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

import bot.games.cards as cards_package
from bot.games.cards import (
    Card,
    CardTable,
    DealCommitment,
    DealId,
    DealReveal,
    HiddenDeal,
    HiddenDie,
    HiddenOutcome,
    PublicDeal,
    PublicEvent,
    PublicReturn,
    Whereabouts,
    card_commitment,
    deal_hidden,
    deal_key,
    deal_secret,
    key_commitment,
    rederive_card,
    verify_deal,
    verify_deal_secret,
    whereabouts_before,
)
from bot.games.dice import nweek_seed

MASTER = bytes(range(32))
KEY_13 = deal_key(MASTER, 13)
DEAL = DealId(13, 2)


def reference() -> dict[str, Callable[..., Any]]:
    """Execute the reference implementation printed in the package docstring."""
    doc = cards_package.__doc__ or ""
    block = doc.split("Reference implementation", 1)[1].split("::\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if line and not line.startswith(" "):
            break
        lines.append(line)
    namespace: dict[str, Any] = {}
    exec(textwrap.dedent("\n".join(lines)), namespace)
    return namespace


def hidden_deal(table: CardTable, recipient: str, deal_id: DealId) -> tuple[CardTable, HiddenDeal]:
    table, outcome = deal_hidden(table, recipient, deal_key(MASTER, deal_id.nweek), deal_id)
    assert isinstance(outcome, HiddenDeal)
    return table, outcome


def a_deal_with_rerolls() -> tuple[CardTable, HiddenDeal, CardTable]:
    """A Deck with most Cards in Hands, so the die re-rolls; also the table the deal saw."""
    before = CardTable.new().moved(range(1, 190), "bob")
    after, dealt = hidden_deal(before, "alice", DealId(13, 3))
    assert len(dealt.rolls) > 3
    return before, dealt, after


def test_known_answers_are_frozen() -> None:
    # Cross-checked with `openssl dgst -sha256 -mac HMAC`; a change here breaks
    # every commitment already published.
    assert KEY_13.hex() == "984a6b74fe10da7e0cd509f9f37702d27489747ceacebac0f3474fcaef9a8982"
    assert key_commitment(KEY_13) == hashlib.sha256(KEY_13).hexdigest()
    secret = deal_secret(KEY_13, DEAL)
    assert secret.hex() == "9eb7a5f2326a1efab31a150a5c1467a5a5a15effb8ca7f3da5cf5355daedd1ac"
    _, dealt = hidden_deal(CardTable.new(), "alice", DEAL)
    assert dealt.rolls == (15,) and dealt.card.short == "Red 2S"
    assert dealt.commitment.proof == (
        "hidden-v1 deal=13/2 back=Red "
        "commitment=cbcea6eddc603046ca816ff95a57abf00cc750978578c0d784eb799ce0035d35"
    )


def test_the_documented_reference_implementation_agrees() -> None:
    ref = reference()
    for nweek in (0, 1, 13, 999):
        assert ref["deal_key"](MASTER, nweek) == deal_key(MASTER, nweek)
    assert ref["key_commitment"](KEY_13) == key_commitment(KEY_13)
    before, dealt, _ = a_deal_with_rerolls()
    secret = ref["deal_secret"](KEY_13, "13/3")
    assert secret == dealt.secret
    assert ref["card_commitment"]("13/3", secret, dealt.card.number) == dealt.commitment.commitment
    assert tuple(ref["deal_card"](secret, "13/3", 4, set(before.deck()))) == dealt.rolls
    assert ref["card_number"](1, 2, 12) == 90  # the Blue Queen of Hearts
    for serial in range(1, 40):
        deal_id = DealId(7, serial)
        secret = deal_secret(deal_key(MASTER, 7), deal_id)
        die = HiddenDie(secret, deal_id)
        expected = ref["deal_card"](secret, str(deal_id), 2, {104})
        assert [die.roll_die(104) for _ in expected] == expected


def test_deal_keys_are_not_the_dice_seeds() -> None:
    # The nweek's dice seed is revealed when the nweek ends; it must not be,
    # or give, the deal key of any nweek.
    seeds = {nweek_seed(MASTER, nweek) for nweek in range(50)}
    keys = {deal_key(MASTER, nweek) for nweek in range(50)}
    assert not seeds & keys and len(keys) == 50
    assert deal_secret(KEY_13, DealId(13, 1)) != deal_secret(KEY_13, DealId(13, 2))


def test_a_revealed_deal_verifies_when_the_archive_places_its_rerolls() -> None:
    before, dealt, after = a_deal_with_rerolls()
    assert after.holder_of(dealt.card.number) == "alice"
    whereabouts = {number: Whereabouts.IN_HAND for number in dealt.rolls[:-1]}
    result = verify_deal(dealt.reveal, dealt.commitment, 4, whereabouts)
    assert result.ok, result.explanation
    assert result.rolls == dealt.rolls
    assert dealt.card.name in result.explanation
    assert rederive_card(dealt.secret, dealt.deal, set(before.deck()), 4) == dealt.card.number


def test_the_proof_lines_survive_the_archive() -> None:
    _, dealt, _ = a_deal_with_rerolls()
    assert DealCommitment.parse(f"  Red back   {dealt.commitment.proof}") == dealt.commitment
    assert DealReveal.parse(f"shown: {dealt.reveal.proof}.") == dealt.reveal
    with pytest.raises(ValueError, match="no hidden-v1 reveal"):
        DealReveal.parse(dealt.commitment.proof)


def test_rerolls_the_archive_cannot_place_yet_leave_the_deal_unconfirmed() -> None:
    _, dealt, _ = a_deal_with_rerolls()
    result = verify_deal(dealt.reveal, dealt.commitment, 4, {})
    assert result.outcome is HiddenOutcome.UNCONFIRMED
    assert result.unconfirmed == tuple(sorted(set(dealt.rolls[:-1])))
    assert dealt.exposed_by_reveal({}) == result.unconfirmed
    placed = {number: Whereabouts.IN_HAND for number in dealt.rolls}
    assert dealt.exposed_by_reveal(placed) == ()


def test_the_archive_places_cards_from_the_deals_revealed_and_the_returns() -> None:
    history: list[PublicEvent] = [
        PublicDeal(DealId(1, 1), 17),
        PublicDeal(DealId(1, 2), 40),
        PublicReturn(17),
        PublicDeal(DealId(2, 1), 5),
        PublicDeal(DealId(2, 2), None),  # not revealed yet: any Card then in the Deck
        PublicDeal(DealId(2, 3), 99),
        PublicDeal(DealId(3, 1), 6),
    ]
    before_2_1 = whereabouts_before(history, DealId(2, 1), 4)
    assert before_2_1[17] is Whereabouts.IN_DECK and before_2_1[40] is Whereabouts.IN_HAND
    assert len(before_2_1) == 208
    before_3_1 = whereabouts_before(history, DealId(3, 1), 4)
    assert before_3_1 == {
        40: Whereabouts.IN_HAND,
        5: Whereabouts.IN_HAND,
        99: Whereabouts.IN_HAND,
    }
    with pytest.raises(ValueError, match="not in the history"):
        whereabouts_before(history, DealId(9, 9), 4)


def test_a_whole_game_of_deals_verifies_once_every_card_is_revealed() -> None:
    # Twelve nweeks of deals to three players, with shown Cards returning to
    # the Deck; when everything is revealed, every deal checks out from the
    # public history alone.
    table = CardTable.new(pack_count=1)
    history: list[PublicEvent] = []
    deals: list[HiddenDeal] = []
    for nweek in range(12):
        for serial, recipient in enumerate(("alice", "bob", "carol"), start=1):
            table, dealt = hidden_deal_packs(table, recipient, DealId(nweek, serial))
            deals.append(dealt)
            history.append(PublicDeal(dealt.deal, dealt.card.number))
        if nweek % 4 == 3:  # a Showdown: alice shows her Hand
            for shown in table.hand_of("alice"):
                history.append(PublicReturn(shown.number))
            table = table.without_hand_of("alice")
    assert any(len(dealt.rolls) > 1 for dealt in deals)
    for dealt in deals:
        places = whereabouts_before(history, dealt.deal, 1)
        assert dealt.exposed_by_reveal(places) == ()
        result = verify_deal(dealt.reveal, dealt.commitment, 1, places)
        assert result.ok, result.explanation


def hidden_deal_packs(
    table: CardTable, recipient: str, deal_id: DealId
) -> tuple[CardTable, HiddenDeal]:
    table, outcome = deal_hidden(table, recipient, deal_key(MASTER, deal_id.nweek), deal_id)
    assert isinstance(outcome, HiddenDeal)
    return table, outcome


def test_a_tampered_card_or_secret_fails_the_commitment() -> None:
    _, dealt, _ = a_deal_with_rerolls()
    places = {number: Whereabouts.IN_HAND for number in dealt.rolls[:-1]}
    other_card = replace(dealt.reveal, number=dealt.card.number % 208 + 1)
    other_secret = replace(dealt.reveal, secret_hex=deal_secret(KEY_13, DEAL).hex())
    other_deal = replace(dealt.reveal, deal=DEAL)
    for tampered in (other_card, other_secret, other_deal):
        result = verify_deal(tampered, dealt.commitment, 4, places)
        assert result.outcome is HiddenOutcome.COMMITMENT_MISMATCH, tampered
    wrong_back = replace(dealt.commitment, back="Fish" if dealt.card.back != "Fish" else "Red")
    result = verify_deal(dealt.reveal, wrong_back, 4, places)
    assert result.outcome is HiddenOutcome.COMMITMENT_MISMATCH


def test_a_card_other_than_rule_387s_is_caught_once_a_reroll_is_placed_in_the_deck() -> None:
    # A dishonest Dealer deals the Card of a later roll and commits to it: the
    # commitment matches, but the archive shows an earlier roll was in the Deck.
    before, dealt, _ = a_deal_with_rerolls()
    first_roll = dealt.rolls[0]
    assert first_roll != dealt.card.number
    # Pretend the first roll's Card had been in the Deck: the Dealer should have
    # dealt it, so the Card revealed is not rule 387's.
    places = {first_roll: Whereabouts.IN_DECK}
    result = verify_deal(dealt.reveal, dealt.commitment, 4, places)
    assert result.outcome is HiddenOutcome.CARD_DIFFERS
    assert f"rolled {first_roll} first" in result.explanation
    # A Card committed to that was itself in a Hand at the deal is refused too.
    held = dealt.rolls[0]
    forged = DealReveal(dealt.deal, held, dealt.reveal.secret_hex)
    commitment = card_commitment(dealt.deal, dealt.secret, held)
    published = DealCommitment(dealt.deal, Card.from_number(held).back, commitment)
    result = verify_deal(forged, published, 4, {held: Whereabouts.IN_HAND})
    assert result.outcome is HiddenOutcome.CARD_DIFFERS
    assert before.holder_of(held) == "bob"


def test_the_revealed_key_proves_each_secret_came_from_it() -> None:
    _, dealt, _ = a_deal_with_rerolls()
    commitment = key_commitment(KEY_13)
    assert verify_deal_secret(KEY_13.hex(), commitment, dealt.reveal) is None
    other_key = deal_key(MASTER, 14)
    assert "SHA-256 of the deal key" in (
        verify_deal_secret(other_key.hex(), commitment, dealt.reveal) or ""
    )
    chosen = replace(dealt.reveal, secret_hex="ab" * 32)
    assert "does not give the secret" in (
        verify_deal_secret(KEY_13.hex(), commitment, chosen) or ""
    )
    assert "not 32 bytes" in (verify_deal_secret("xyz", commitment, dealt.reveal) or "")


def test_nothing_before_the_reveal_tells_the_card() -> None:
    # What the archive holds before the reveal is the deal's name, the Back and
    # the commitment.  Trying every Card of that Back against the commitment
    # with any secret the archive could know (the revealed dice seeds, the
    # commitment of the key) finds nothing.
    _, dealt, _ = a_deal_with_rerolls()
    public_guesses = [nweek_seed(MASTER, nweek) for nweek in range(20)]
    public_guesses.append(bytes.fromhex(key_commitment(KEY_13)))
    for guess in public_guesses:
        for number in range(1, 209):
            assert card_commitment(dealt.deal, guess, number) != dealt.commitment.commitment
