r"""A Nomic's Cards (rules 384-391) and Pooker (394-399), seed 002: the pure rules.

Modules: ``cards`` (Suits, Ranks, Packs, rule 387's numbers), ``table`` (the
Deck and the Hands, 388-389), ``dealing`` (387, and Cards for Votes, 391),
``hidden`` (private deals that the archive verifies later), ``report`` (the
Dealer's report, 390), and ``pooker`` (PCards, Trades, scoring, arrangement
and the Showdown, 394-399).  Readings are in ``docs/readings.md``.

Hidden deals, version 1
=======================

A dealt Card is known to its holder alone until it is shown, and then anyone
can check it from the archive.  The nweek's dice seed is revealed when the
nweek ends (``bot.games.dice``), so deals do not roll from it.

1. Each nweek has a deal key: ``key = HMAC-SHA256(key=master_secret,
   msg="nomicbot deal key v1\n" + decimal nweek)``, 32 bytes, nweek
   zero-based.  Its commitment ``SHA-256(key)`` (lowercase hex of the hash of
   the 32 raw bytes) is published one nweek ahead: when nweek n - 1 starts,
   before any vote or transfer that decides who is dealt what in nweek n.
2. A deal is named ``nweek/serial`` (``13/2``: the second deal of nweek 13,
   serials from 1 in the order dealt, which rule 391 fixes).  Its secret is
   ``HMAC-SHA256(key, "nomicbot hidden deal v1\n" + deal)``.
3. The deal's die rolls from the stream ``HMAC-SHA256(secret, label + "\n0")
   || HMAC-SHA256(secret, label + "\n1") || ...`` with label
   ``"nomicbot hidden v1\ndeal\n" + deal``, each roll of 1d(52 x Packs) being
   1 + an integer below 52 x Packs by the dice's rejection rule (``below``).
   Rule 387: the Card is the first roll that numbers a Card in the Deck
   (number = pack x 52 + suit x 13 + rank; Red 0, Blue 1, Fish 2, Corporate
   3; Diamonds 0, Spades 1, Hearts 2, Clubs 3; Ace 1 ... King 13).
4. The Dealer's report (rule 390) prints, for each Card dealt, its recipient,
   its Back and ``hidden-v1 deal=13/2 back=Red commitment=C`` with
   ``C = SHA-256("nomicbot hidden card v1\n" + deal + "\n" + decimal number
   + "\n" + lowercase hex of the secret)``.
5. When the Card is shown or returns to the Deck the bot publishes
   ``hidden-v1 deal=13/2 card=N secret=S``.  Anyone recomputes C from it,
   checks the Back, and rolls the die of step 3: every roll before N must
   name a Card that was in a Hand at the deal, and N must have been in the
   Deck.  The archive shows where each Card was from every deal in order
   (with its Card once revealed) and every return to the Deck
   (``whereabouts_before``).  The reveal waits until the archive already
   places each re-rolled Card in a Hand at the deal, so that it tells
   nothing more than the shown Card (``HiddenDeal.exposed_by_reveal``).
6. When every deal of nweek n is revealed, the bot publishes the deal key of
   nweek n; anyone checks it against its commitment and that it gives each
   deal's secret (step 2).  The key was fixed before the deals' inputs were
   known, so the bot could not pick one that favours anyone.

The operator who holds the master secret can compute every Card, as a human
Dealer who owns the Deck (rule 386) knows what e deals; the scheme keeps the
Cards from everyone else and makes any departure from rule 387 detectable.

Reference implementation (the tests run this very text against the package)::

    import hashlib
    import hmac

    def deal_key(master_secret, nweek):
        message = f"nomicbot deal key v1\n{nweek}".encode()
        return hmac.new(master_secret, message, hashlib.sha256).digest()

    def key_commitment(key):
        return hashlib.sha256(key).hexdigest()

    def deal_secret(key, deal):
        message = f"nomicbot hidden deal v1\n{deal}".encode()
        return hmac.new(key, message, hashlib.sha256).digest()

    def card_commitment(deal, secret, number):
        message = f"nomicbot hidden card v1\n{deal}\n{number}\n{secret.hex()}"
        return hashlib.sha256(message.encode()).hexdigest()

    def stream(secret, label):
        block = 0
        while True:
            message = f"{label}\n{block}".encode()
            yield from hmac.new(secret, message, hashlib.sha256).digest()
            block += 1

    def below(source, n):
        size = max(1, ((n - 1).bit_length() + 7) // 8)
        limit = 256**size - 256**size % n
        while True:
            x = int.from_bytes(bytes(next(source) for _ in range(size)), "big")
            if x < limit:
                return x % n

    def card_number(pack, suit, rank):
        return pack * 52 + suit * 13 + rank

    def deal_card(secret, deal, packs, deck):
        source = stream(secret, f"nomicbot hidden v1\ndeal\n{deal}")
        rolls = [below(source, 52 * packs) + 1]
        while rolls[-1] not in deck:
            rolls.append(below(source, 52 * packs) + 1)
        return rolls
"""

from bot.games.cards.cards import (
    PACKS_IN_PLAY,
    Card,
    CardName,
    Face,
    Pack,
    Rank,
    Suit,
    all_cards,
    parse_card_name,
)
from bot.games.cards.dealing import (
    Dealt,
    DeckEmpty,
    DieRoller,
    deal,
    deal_for_votes,
    voters_to_deal,
)
from bot.games.cards.hidden import (
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
from bot.games.cards.table import CardTable

__all__ = [
    "PACKS_IN_PLAY",
    "Card",
    "CardName",
    "CardTable",
    "DealCommitment",
    "DealId",
    "DealReveal",
    "Dealt",
    "DeckEmpty",
    "DieRoller",
    "Face",
    "HiddenDeal",
    "HiddenDie",
    "HiddenOutcome",
    "PublicDeal",
    "PublicEvent",
    "PublicReturn",
    "Pack",
    "Rank",
    "Suit",
    "Whereabouts",
    "all_cards",
    "card_commitment",
    "deal",
    "deal_for_votes",
    "deal_hidden",
    "deal_key",
    "deal_secret",
    "key_commitment",
    "parse_card_name",
    "rederive_card",
    "verify_deal",
    "verify_deal_secret",
    "voters_to_deal",
    "whereabouts_before",
]
