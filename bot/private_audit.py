"""Auditing an archive's private votes: every commitment against its reveal (rule 15 B).

Reads the signed records of an mbox or Maildir (the list archive): each
``private.commit`` published when the bot accepted a private vote, and each
``private.reveal`` published when the poll concluded
(``bot.engine.private_records``).  A record whose signature does not verify
with the bot's key is a failure; so is a revealed vote whose
``sha256(canonical JSON of {"action", "nonce"})`` is not its commitment, a
vote revealed that was never committed to, and a reveal dated before the
commitment it opens.  A commitment with no reveal yet is listed as pending
(its poll has not concluded in this archive), not as a failure.  Uses the
archive and the bot's public key alone, so anyone can run it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.engine.admin_records import AdminRecord, RecordError, carries_record, read_record
from bot.engine.private_records import COMMIT, REVEAL, commitment_of
from bot.ingress.ingest import message_id_of
from bot.ingress.replay import archive_posts
from bot.trust.keys import DnsFunction


@dataclass(frozen=True)
class Commitment:
    poll: int
    subject: str
    commitment: str
    reveal: str  # the reveal record's id
    record: str
    issued_at: datetime


@dataclass
class PrivateAudit:
    lines: list[str] = field(default_factory=list)
    matched: int = 0
    pending: int = 0
    failures: int = 0

    @property
    def ok(self) -> bool:
        return self.failures == 0

    @property
    def summary(self) -> str:
        return (
            f"{self.matched + self.pending} private vote(s) committed to: {self.matched} "
            f"revealed and matching, {self.pending} not revealed yet; {self.failures} failure(s)"
        )

    def fail(self, line: str) -> None:
        self.failures += 1
        self.lines.append(f"FAIL {line}")


def verify_private_votes(path: Path, bot_domain: str, lookup: DnsFunction) -> PrivateAudit:
    """Check every private-vote commitment of the archive at ``path`` against its reveal."""
    audit = PrivateAudit()
    commitments: list[Commitment] = []
    reveals: dict[str, AdminRecord] = {}
    for record in _records(path, bot_domain, lookup, audit):
        if record.command == COMMIT:
            commitments.extend(_commitments(record))
        elif record.command == REVEAL:
            reveals[record.record_id] = record
    opened: set[str] = set()
    for commitment in commitments:
        _check(commitment, reveals.get(commitment.reveal), audit)
        opened.add(commitment.commitment)
    for reveal in reveals.values():
        for item in _votes(reveal):
            if str(item.get("commitment")) not in opened:
                audit.fail(
                    f"poll {reveal.arguments.get('poll')}: the reveal lists "
                    f"{item.get('commitment')}, which no commitment in the archive names"
                )
    return audit


def _records(
    path: Path, bot_domain: str, lookup: DnsFunction, audit: PrivateAudit
) -> Iterator[AdminRecord]:
    seen: set[str] = set()
    for post in archive_posts(path):
        if not carries_record(post.raw):
            continue
        message_id = message_id_of(post.raw)
        try:
            record = read_record(post.raw, bot_domain.lower(), lookup)
        except RecordError as error:
            audit.fail(f"<{message_id}>: {error}")
            continue
        if record.command in (COMMIT, REVEAL) and record.record_id not in seen:
            seen.add(record.record_id)  # a record met twice (two copies) counts once
            yield record


def _commitments(record: AdminRecord) -> Iterator[Commitment]:
    for item in _votes(record):
        yield Commitment(
            int(item["poll"]),
            str(item.get("subject", "")),
            str(item["commitment"]),
            str(item["reveal"]),
            record.record_id,
            record.issued_at,
        )


def _votes(record: AdminRecord) -> list[Mapping[str, Any]]:
    votes = record.arguments.get("votes")
    return [item for item in votes if isinstance(item, dict)] if isinstance(votes, list) else []


def _check(commitment: Commitment, reveal: AdminRecord | None, audit: PrivateAudit) -> None:
    label = (
        f"poll {commitment.poll} ({commitment.subject}), committed "
        f"{commitment.issued_at.isoformat()}: {commitment.commitment}"
    )
    if reveal is None:
        audit.pending += 1
        audit.lines.append(f"pending {label}: not revealed in this archive yet")
        return
    found = [item for item in _votes(reveal) if item.get("commitment") == commitment.commitment]
    if not found:
        audit.fail(f"{label}: the poll's reveal does not open it")
        return
    action, nonce = found[0].get("action"), found[0].get("nonce")
    if not isinstance(action, dict) or not isinstance(nonce, str):
        audit.fail(f"{label}: the reveal lacks its action or nonce")
    elif commitment_of(action, nonce) != commitment.commitment:
        audit.fail(f"{label}: the revealed vote hashes to {commitment_of(action, nonce)}")
    elif reveal.issued_at < commitment.issued_at or action.get("poll") != commitment.poll:
        audit.fail(f"{label}: the reveal is dated before it, or opens another poll's vote")
    else:
        audit.matched += 1
        audit.lines.append(
            f"ok {label}: {action.get('voter')} voted {action.get('text')!r} at "
            f"{action.get('at')}, revealed {reveal.issued_at.isoformat()}"
        )
