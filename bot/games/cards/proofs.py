"""The hidden-v1 lines of the archive, and their audit from the archive alone.

The Dealer's report, the Showdown's result and the deal-key mails print
these lines (the scheme is in the package docstring):

* ``hidden-v1 packs=4``: how many Packs the deals roll over (rule 385);
* ``hidden-v1 deal=13/2 back=Red commitment=C``: a deal (rule 390's report);
* ``hidden-v1 return card=N``: a Card shown and returned to the Deck (rule
  396); the Card is public already, shown in the same mail;
* ``hidden-v1 deal=13/2 card=N secret=S``: a deal revealed;
* ``hidden-v1 key nweek=13 commitment=K``: the commitment to nweek 13's deal
  key (zero-based nweek, as in deal names), published one nweek ahead;
* ``hidden-v1 key nweek=13 key=K``: the key, once every deal of the nweek
  is revealed.

``audit_hidden`` reads them in archive order and checks every reveal
(``verify_deal``) and every key; ``nomicbot verify-dice`` runs it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.games.cards.cards import PACKS_IN_PLAY, CardNumber
from bot.games.cards.hidden import (
    PROOF_VERSION,
    DealCommitment,
    DealId,
    DealReveal,
    HiddenOutcome,
    PublicDeal,
    PublicEvent,
    PublicReturn,
    key_commitment,
    verify_deal,
    verify_deal_secret,
    whereabouts_before,
)

_HEX_64 = r"[0-9a-f]{64}"
_PACKS = re.compile(rf"{PROOF_VERSION} packs=(\d)\b")
_RETURN = re.compile(rf"{PROOF_VERSION} return card=(\d{{1,3}})\b")
_KEY_COMMITMENT = re.compile(rf"{PROOF_VERSION} key nweek=(\d{{1,9}}) commitment=({_HEX_64})\b")
_KEY_REVEAL = re.compile(rf"{PROOF_VERSION} key nweek=(\d{{1,9}}) key=({_HEX_64})\b")
_ANY = re.compile(rf"{PROOF_VERSION} [^\n]*")


def packs_line(pack_count: int) -> str:
    return f"{PROOF_VERSION} packs={pack_count}"


def return_line(number: CardNumber) -> str:
    return f"{PROOF_VERSION} return card={number}"


def key_commitment_line(nweek: int, commitment: str) -> str:
    return f"{PROOF_VERSION} key nweek={nweek} commitment={commitment}"


def key_reveal_line(nweek: int, key_hex: str) -> str:
    return f"{PROOF_VERSION} key nweek={nweek} key={key_hex}"


@dataclass
class HiddenAudit:
    """What the audit found: reveals checked, wrong, and still unconfirmed."""

    checked: int = 0
    wrong: int = 0
    unconfirmed: int = 0
    keys_checked: int = 0
    lines: list[str] = field(default_factory=list)


@dataclass
class _Archive:
    pack_count: int = PACKS_IN_PLAY
    history: list[PublicEvent] = field(default_factory=list)
    commitments: dict[DealId, DealCommitment] = field(default_factory=dict)
    reveals: dict[DealId, DealReveal] = field(default_factory=dict)
    key_commitments: dict[int, str] = field(default_factory=dict)
    keys: dict[int, str] = field(default_factory=dict)


def audit_hidden(texts: Iterable[str]) -> HiddenAudit:
    """Check every hidden-v1 reveal and key in ``texts`` (the bot's mails, archive order)."""
    archive = _read(texts)
    audit = HiddenAudit()
    revealed_history = [
        PublicDeal(event.deal, _number(archive, event.deal))
        if isinstance(event, PublicDeal)
        else event
        for event in archive.history
    ]
    for deal, reveal in sorted(archive.reveals.items()):
        _check_reveal(audit, archive, revealed_history, deal, reveal)
    for nweek, key_hex in sorted(archive.keys.items()):
        _check_key(audit, archive, nweek, key_hex)
    return audit


def _number(archive: _Archive, deal: DealId) -> CardNumber | None:
    reveal = archive.reveals.get(deal)
    return None if reveal is None else reveal.number


def _read(texts: Iterable[str]) -> _Archive:
    archive = _Archive()
    for text in texts:
        flat = text.replace("\r\n", "\n")
        deals_here: list[DealCommitment] = []
        for match in _ANY.finditer(flat):
            line = match.group(0)
            _read_line(archive, line, deals_here)
        # One mail's deals in the order they were made (its report lists them by recipient).
        for commitment in sorted(deals_here, key=lambda each: each.deal):
            if commitment.deal not in archive.commitments:
                archive.commitments[commitment.deal] = commitment
                archive.history.append(PublicDeal(commitment.deal, None))
    return archive


def _read_line(archive: _Archive, line: str, deals_here: list[DealCommitment]) -> None:
    if packs := _PACKS.search(line):
        archive.pack_count = int(packs[1])
    elif returned := _RETURN.search(line):
        archive.history.append(PublicReturn(int(returned[1])))
    elif key := _KEY_COMMITMENT.search(line):
        archive.key_commitments.setdefault(int(key[1]), key[2])
    elif key := _KEY_REVEAL.search(line):
        archive.keys.setdefault(int(key[1]), key[2])
    elif " card=" in line:
        try:
            reveal = DealReveal.parse(line)
        except ValueError:
            return
        archive.reveals.setdefault(reveal.deal, reveal)
    elif " commitment=" in line:
        try:
            deals_here.append(DealCommitment.parse(line))
        except ValueError:
            return


def _check_reveal(
    audit: HiddenAudit,
    archive: _Archive,
    history: list[PublicEvent],
    deal: DealId,
    reveal: DealReveal,
) -> None:
    commitment = archive.commitments.get(deal)
    if commitment is None:
        audit.wrong += 1
        audit.lines.append(f"hidden deal {deal}: revealed, but no Dealer's report committed to it")
        return
    whereabouts = whereabouts_before(history, deal, archive.pack_count)
    result = verify_deal(reveal, commitment, archive.pack_count, whereabouts)
    if result.outcome is HiddenOutcome.UNCONFIRMED:
        audit.unconfirmed += 1
        return
    audit.checked += 1
    if not result.ok:
        audit.wrong += 1
        audit.lines.append(f"TAMPERED or wrong: hidden deal {deal}: {result.explanation}")


def _check_key(audit: HiddenAudit, archive: _Archive, nweek: int, key_hex: str) -> None:
    commitment = archive.key_commitments.get(nweek)
    if commitment is None:
        audit.wrong += 1
        audit.lines.append(f"deal key of nweek {nweek}: revealed, but never committed to")
        return
    audit.keys_checked += 1
    if not _key_matches(key_hex, commitment):
        audit.wrong += 1
        audit.lines.append(
            f"TAMPERED or wrong: deal key of nweek {nweek} does not match {commitment}"
        )
        return
    for deal, reveal in sorted(archive.reveals.items()):
        if deal.nweek != nweek:
            continue
        problem = verify_deal_secret(key_hex, commitment, reveal)
        if problem is not None:
            audit.wrong += 1
            audit.lines.append(f"TAMPERED or wrong: deal key of nweek {nweek}: {problem}")
            return


def _key_matches(key_hex: str, commitment: str) -> bool:
    try:
        return key_commitment(bytes.fromhex(key_hex)) == commitment
    except ValueError:
        return False
