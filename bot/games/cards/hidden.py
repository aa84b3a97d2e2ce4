"""Hidden draws: private deals that anyone can check once the Card is shown.

Rule 387 (A Nomic, seed 002) has the Dealer notify only the recipient of the
Card, and rule 390 lets the Dealer's report say only who received Cards and
their Backs; yet every roll must be verifiable from the archive (rule 9 of
seed 004, and STYLE.md's "Randomness is data").  The nweek's dice seed is
revealed when the nweek ends, so a deal must not roll from it: it rolls from
its own secret, which is published only when the Card is shown or returns to
the Deck.  The package docstring writes the derivation out for third parties;
this module is the implementation the tests hold to that text.

Identity and timeline:

* ``DealId(nweek, serial)``: the ``serial``-th deal (from 1) of the zero-based
  ``nweek``, written ``13/2``.  The serial is the order of dealing, which
  rule 391 fixes (``voters_to_deal``), so the bot chooses no identity.
* ``deal_key(master, nweek)``: one key per nweek, committed one nweek
  ahead (the commitment to nweek n's key is published when nweek n - 1
  starts), so it is fixed before the votes and transfers that decide who is
  dealt what; the bot cannot pick a key that favours anyone.
* ``deal_secret(key, deal)``: each deal's own secret, and from it the deal's
  die (``HiddenDie``), rolled as rule 387 says.
* ``card_commitment``: published for each Card in the Dealer's report; it
  binds the deal, the Card's number and the secret, and tells nothing.
* ``DealReveal``: the deal, the Card's number and the secret, published when
  the Card is shown or returns to the Deck; ``verify_deal`` checks it.
* When every deal of nweek n is revealed, the key itself is published and
  ``verify_deal_secret`` shows each secret came from it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.games.cards.cards import (
    CARDS_PER_PACK,
    Card,
    CardNumber,
    PlayerName,
    check_card_number,
)
from bot.games.cards.dealing import MOST_ROLLS, DeckEmpty, deal
from bot.games.cards.table import CardTable
from bot.games.dice.seeds import MINIMUM_MASTER_SECRET_LENGTH
from bot.games.dice.stream import SEED_LENGTH, HmacStream, check_seed, draw_below

PROOF_VERSION = "hidden-v1"
_KEY_MESSAGE = "nomicbot deal key v1\n"
_SECRET_MESSAGE = "nomicbot hidden deal v1\n"
_STREAM_LABEL = "nomicbot hidden v1\ndeal\n"
_COMMITMENT_MESSAGE = "nomicbot hidden card v1\n"
_HEX_64 = r"[0-9a-f]{64}"
_SOME_HAND = "(a Hand)"  # rederive_card needs only where each Card was, not whose


@dataclass(frozen=True, order=True)
class DealId:
    """The ``serial``-th deal (from 1) in the zero-based ``nweek``: ``13/2``."""

    nweek: int
    serial: int

    def __post_init__(self) -> None:
        if self.nweek < 0 or self.serial < 1:
            raise ValueError(f"deal {self.nweek}/{self.serial}: nweek from 0, serial from 1")

    @classmethod
    def parse(cls, text: str) -> DealId:
        """Read ``13/2``; ``ValueError`` for anything else."""
        match = re.fullmatch(r"(\d{1,9})/(\d{1,9})", text.strip())
        if match is None:
            raise ValueError(f"{text!r} is not a deal (nweek/serial, e.g. 13/2)")
        return cls(int(match[1]), int(match[2]))

    def __str__(self) -> str:
        return f"{self.nweek}/{self.serial}"


def deal_key(master_secret: bytes, nweek: int) -> bytes:
    """The 32-byte key of the deals made in (zero-based) ``nweek``.

    HMAC-SHA256 keyed by the master secret under its own message, so neither
    the nweek's dice seed nor its reveal tells anything about it.  Raises
    ``ValueError`` for a master secret shorter than 32 bytes or a negative nweek.
    """
    if len(master_secret) < MINIMUM_MASTER_SECRET_LENGTH:
        raise ValueError(f"the master secret must be at least {MINIMUM_MASTER_SECRET_LENGTH} bytes")
    if nweek < 0:
        raise ValueError(f"nweek {nweek} is negative (use the zero-based Clock value)")
    return _hmac(master_secret, f"{_KEY_MESSAGE}{nweek}")


def key_commitment(key: bytes) -> str:
    """SHA-256 of the 32 raw key bytes, lowercase hex (as a dice seed's commitment)."""
    return hashlib.sha256(check_seed(key)).hexdigest()


def deal_secret(key: bytes, deal: DealId) -> bytes:
    """The 32-byte secret of one deal, from its nweek's key."""
    return _hmac(check_seed(key), f"{_SECRET_MESSAGE}{deal}")


def card_commitment(deal: DealId, secret: bytes, number: CardNumber) -> str:
    """SHA-256 of the deal, the Card's number and the secret's hex, lowercase hex.

    The 256 secret bits hide the Card (there are only 208 numbers to try
    without them); the hash binds the bot to the Card once it is published.
    """
    message = f"{_COMMITMENT_MESSAGE}{deal}\n{number}\n{check_seed(secret).hex()}"
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


class HiddenDie:
    """Rule 387's die for one deal, rolled from the deal's secret; ``rolls`` keeps every roll."""

    def __init__(self, secret: bytes, deal: DealId) -> None:
        self._stream = HmacStream(secret, f"{_STREAM_LABEL}{deal}")
        self.deal = deal
        self.rolls: list[int] = []

    def roll_die(self, faces: int) -> int:
        value = draw_below(self._stream, faces) + 1
        self.rolls.append(value)
        return value


@dataclass(frozen=True)
class DealCommitment:
    """What the Dealer's report publishes of one deal: its Back and commitment (rule 390)."""

    deal: DealId
    back: str
    commitment: str

    @property
    def proof(self) -> str:
        """``hidden-v1 deal=13/2 back=Red commitment=<64 hex>``."""
        return f"{PROOF_VERSION} deal={self.deal} back={self.back} commitment={self.commitment}"

    @classmethod
    def parse(cls, line: str) -> DealCommitment:
        """Read a ``proof`` line; ``ValueError`` for anything else."""
        match = re.search(rf"{PROOF_VERSION} deal=(\S+) back=(\w+) commitment=({_HEX_64})\b", line)
        if match is None:
            raise ValueError(f"no {PROOF_VERSION} commitment in {line!r}")
        return cls(DealId.parse(match[1]), match[2], match[3])


@dataclass(frozen=True)
class DealReveal:
    """A shown deal: its Card's number and the deal's secret, as 64 hex digits."""

    deal: DealId
    number: CardNumber
    secret_hex: str

    @property
    def proof(self) -> str:
        """``hidden-v1 deal=13/2 card=131 secret=<64 hex>``."""
        return f"{PROOF_VERSION} deal={self.deal} card={self.number} secret={self.secret_hex}"

    @classmethod
    def parse(cls, line: str) -> DealReveal:
        """Read a ``proof`` line; ``ValueError`` for anything else."""
        match = re.search(
            rf"{PROOF_VERSION} deal=(\S+) card=(\d{{1,3}}) secret=({_HEX_64})\b", line
        )
        if match is None:
            raise ValueError(f"no {PROOF_VERSION} reveal in {line!r}")
        return cls(DealId.parse(match[1]), int(match[2]), match[3])


@dataclass(frozen=True)
class HiddenDeal:
    """One private deal as the bot keeps it: everything needed to publish and reveal it."""

    deal: DealId
    card: Card
    rolls: tuple[int, ...]
    secret: bytes

    @property
    def commitment(self) -> DealCommitment:
        return DealCommitment(
            self.deal, self.card.back, card_commitment(self.deal, self.secret, self.card.number)
        )

    @property
    def reveal(self) -> DealReveal:
        return DealReveal(self.deal, self.card.number, self.secret.hex())

    def exposed_by_reveal(
        self, whereabouts: Mapping[CardNumber, Whereabouts]
    ) -> tuple[CardNumber, ...]:
        """The re-rolled numbers the archive does not yet show in a Hand at this deal.

        Each re-roll named a Card outside the Deck, so revealing the secret
        tells that those Cards were in some Hand at the deal.  ``whereabouts``
        is ``whereabouts_before`` this deal; the engine waits to reveal until
        nothing is left here, so a reveal discloses nothing but the shown Card.
        """
        rerolled = set(self.rolls[:-1])
        known = {number for number in rerolled if whereabouts.get(number) is Whereabouts.IN_HAND}
        return tuple(sorted(rerolled - known))


def deal_hidden(
    table: CardTable,
    recipient: PlayerName,
    key: bytes,
    deal_id: DealId,
    dealer: PlayerName | None = None,
) -> tuple[CardTable, HiddenDeal | DeckEmpty]:
    """Rule 387's deal to ``recipient`` with the die of ``deal_id`` under its nweek's ``key``.

    Raises ``IllegalActionError`` as ``deal`` does (the Dealer has no Hand).
    """
    secret = deal_secret(key, deal_id)
    table, outcome = deal(table, recipient, HiddenDie(secret, deal_id), dealer)
    if isinstance(outcome, DeckEmpty):
        return table, outcome
    return table, HiddenDeal(deal_id, outcome.card, outcome.rolls, secret)


def rederive_card(
    secret: bytes, deal_id: DealId, deck: Collection[CardNumber], pack_count: int
) -> CardNumber:
    """Rule 387 replayed: the Card the deal gives when the Deck held exactly ``deck``.

    This is the whole check when the Deck the deal saw is public; ``verify_deal``
    needs only the whereabouts of the numbers the die actually rolled.
    Raises ``ValueError`` for an empty Deck.
    """
    if not deck:
        raise ValueError("rule 387: no Card can be dealt from an empty Deck")
    table = CardTable(
        pack_count,
        tuple(
            None if number in deck else _SOME_HAND
            for number in range(1, CARDS_PER_PACK * pack_count + 1)
        ),
    )
    _, outcome = deal(table, "recipient", HiddenDie(secret, deal_id))
    if isinstance(outcome, DeckEmpty):  # cannot happen: the Deck was checked above
        raise RuntimeError(f"deal {deal_id} found an empty Deck holding {len(deck)} Cards")
    return outcome.card.number


def deal_rolls(
    secret: bytes, deal: DealId, faces: int, number: CardNumber
) -> tuple[int, ...] | None:
    """The deal's rolls up to the first that names ``number``; None if none does within
    ``MOST_ROLLS`` (an honest deal always does)."""
    die = HiddenDie(secret, deal)
    for _ in range(MOST_ROLLS):
        if die.roll_die(faces) == number:
            return tuple(die.rolls)
    return None


class Whereabouts(Enum):
    """Where the archive shows a Card was when a deal was made."""

    IN_HAND = "in a Hand"
    IN_DECK = "in the Deck"


@dataclass(frozen=True)
class PublicDeal:
    """A deal as the archive shows it: its Card's number once revealed, else None."""

    deal: DealId
    number: CardNumber | None


@dataclass(frozen=True)
class PublicReturn:
    """A revealed Card going back to the Deck (shown in a Showdown, or a Hand given up)."""

    number: CardNumber


PublicEvent = PublicDeal | PublicReturn


def whereabouts_before(
    history: Sequence[PublicEvent], deal: DealId, pack_count: int
) -> dict[CardNumber, Whereabouts]:
    """Where the archive places each Card just before ``deal``; unplaced Cards are absent.

    ``history`` is every deal and return in the order they happened, each deal
    with its Card if revealed by now.  Every Card starts in the Deck (rule
    389); a revealed deal puts its Card in a Hand and a return puts it back.
    A deal not yet revealed may have taken any Card then in the Deck, so it
    leaves all of those unplaced.  Trades move Cards between Hands only and
    change nothing here.  Raises ``ValueError`` if ``deal`` is not in ``history``.
    """
    places: dict[CardNumber, Whereabouts] = {
        number: Whereabouts.IN_DECK for number in range(1, CARDS_PER_PACK * pack_count + 1)
    }
    for event in history:
        if isinstance(event, PublicReturn):
            places[event.number] = Whereabouts.IN_DECK
        elif event.deal == deal:
            return places
        elif event.number is not None:
            places[event.number] = Whereabouts.IN_HAND
        else:
            places = {n: where for n, where in places.items() if where is Whereabouts.IN_HAND}
    raise ValueError(f"deal {deal} is not in the history")


class HiddenOutcome(Enum):
    OK = "ok"
    COMMITMENT_MISMATCH = "the reveal does not match the commitment"
    CARD_DIFFERS = "the Card is not the one rule 387 deals"
    UNCONFIRMED = "matches the commitment; some re-rolls are not yet shown to be outside the Deck"


@dataclass(frozen=True)
class HiddenVerifyResult:
    """The check of one revealed deal; ``unconfirmed`` lists the re-rolls still to be shown."""

    outcome: HiddenOutcome
    rolls: tuple[int, ...]
    unconfirmed: tuple[CardNumber, ...]
    explanation: str

    @property
    def ok(self) -> bool:
        return self.outcome is HiddenOutcome.OK


def verify_deal(
    reveal: DealReveal,
    published: DealCommitment,
    pack_count: int,
    whereabouts: Mapping[CardNumber, Whereabouts],
) -> HiddenVerifyResult:
    """Check a revealed deal against the commitment of the Dealer's report and rule 387.

    ``whereabouts`` holds what the archive shows of where Cards were when the
    deal was made: a Card is ``IN_HAND`` if a revealed deal before it gave it
    out and it had not been shown back into the Deck, ``IN_DECK`` if it was
    never dealt or had been returned.  Only the re-rolled numbers and the Card
    itself are looked up: each re-roll must have been ``IN_HAND`` (otherwise
    rule 387 would have dealt it), the Card must not have been.  A re-roll
    the archive cannot place yet leaves the result ``UNCONFIRMED``.
    """
    failure = _commitment_failure(reveal, published, pack_count)
    if failure is not None:
        return HiddenVerifyResult(HiddenOutcome.COMMITMENT_MISMATCH, (), (), failure)
    secret = bytes.fromhex(reveal.secret_hex)
    faces = CARDS_PER_PACK * pack_count
    rolls = deal_rolls(secret, reveal.deal, faces, reveal.number)
    if rolls is None or whereabouts.get(reveal.number) is Whereabouts.IN_HAND:
        explanation = f"Card {reveal.number} was not in the Deck or the die never rolled it"
        return HiddenVerifyResult(HiddenOutcome.CARD_DIFFERS, rolls or (), (), explanation)
    return _judge_rerolls(reveal, rolls, whereabouts, pack_count)


def _commitment_failure(
    reveal: DealReveal, published: DealCommitment, pack_count: int
) -> str | None:
    if reveal.deal != published.deal:
        return f"the reveal is of deal {reveal.deal}, the commitment of deal {published.deal}"
    if not re.fullmatch(_HEX_64, reveal.secret_hex):
        return f"the secret {reveal.secret_hex!r} is not 64 lowercase hex digits"
    try:
        card = Card.from_number(check_card_number(reveal.number, pack_count), pack_count)
    except ValueError as error:
        return str(error)
    expected = card_commitment(reveal.deal, bytes.fromhex(reveal.secret_hex), reveal.number)
    if expected != published.commitment:
        return (
            f"the commitment of this reveal is {expected}, the report says {published.commitment}"
        )
    if card.back != published.back:
        return f"Card {reveal.number} has a {card.back} back, the report says {published.back}"
    return None


def _judge_rerolls(
    reveal: DealReveal,
    rolls: tuple[int, ...],
    whereabouts: Mapping[CardNumber, Whereabouts],
    pack_count: int,
) -> HiddenVerifyResult:
    rerolled = rolls[:-1]
    in_deck = [number for number in rerolled if whereabouts.get(number) is Whereabouts.IN_DECK]
    if in_deck:
        explanation = f"the die rolled {in_deck[0]} first, a Card then in the Deck (rule 387)"
        return HiddenVerifyResult(HiddenOutcome.CARD_DIFFERS, rolls, (), explanation)
    unknown = tuple(sorted({n for n in rerolled if whereabouts.get(n) is not Whereabouts.IN_HAND}))
    card = Card.from_number(reveal.number, pack_count)
    if unknown:
        explanation = (
            f"the {card.name} matches its commitment; re-rolls {', '.join(map(str, unknown))} "
            "must still be shown to have been in Hands at the deal"
        )
        return HiddenVerifyResult(HiddenOutcome.UNCONFIRMED, rolls, unknown, explanation)
    explanation = f"the die rolled {', '.join(map(str, rolls))}: the {card.name} (rule 387)"
    return HiddenVerifyResult(HiddenOutcome.OK, rolls, (), explanation)


def verify_deal_secret(key_hex: str, key_commitment_hex: str, reveal: DealReveal) -> str | None:
    """Once the nweek's key is revealed: None if it matches its commitment and gives the
    reveal's secret, else the reason it does not."""
    try:
        key = bytes.fromhex(key_hex.strip())
        check_seed(key)
    except ValueError:
        return f"the deal key {key_hex!r} is not {SEED_LENGTH} bytes of hex"
    if key_commitment(key) != key_commitment_hex.strip().lower():
        return f"SHA-256 of the deal key is {key_commitment(key)}, not {key_commitment_hex}"
    if deal_secret(key, reveal.deal).hex() != reveal.secret_hex:
        return f"the deal key does not give the secret revealed for deal {reveal.deal}"
    return None


def _hmac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()
