"""Compare what the referee did on a replayed archive with what the generator expected.

The generator knows, for each post, the ruling each action should get (it
simulated the Go game with the same pure rules) and whether the post should
get a ruling reply.  Differences are either generator slips or referee bugs;
the benchmark prints them so that a person can tell which.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from archive_game import Expected, PlannedPost
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bot.store.models import ActionRecord, Message, OutboxMessage, Shunt


@dataclass(frozen=True)
class Mismatch:
    post: PlannedPost
    expected: tuple[str, ...]
    actual: tuple[str, ...]


@dataclass(frozen=True)
class CheckReport:
    statuses: dict[str, int]
    outbox_kinds: dict[str, int]
    rulings: dict[str, int]
    ruling_mismatches: tuple[Mismatch, ...]
    reply_mismatches: tuple[Mismatch, ...]
    status_mismatches: tuple[Mismatch, ...]
    shunts: tuple[tuple[str, str], ...]  # (Message-ID, traceback)

    @property
    def clean(self) -> bool:
        mismatches = self.ruling_mismatches + self.reply_mismatches + self.status_mismatches
        return not (mismatches or self.shunts)


def check_replay(session: Session, posts: Sequence[PlannedPost]) -> CheckReport:
    logged = _logged_rulings(session)
    replied = _replied_message_ids(session)
    ruling_mismatches = [
        Mismatch(post, _labels(post.expected), logged.get(post.message_id, ()))
        for post in posts
        if _labels(post.expected) != logged.get(post.message_id, ())
    ]
    reply_mismatches = [
        Mismatch(post, (str(post.expects_reply),), (str(post.message_id in replied),))
        for post in posts
        if post.expects_reply != (post.message_id in replied)
    ]
    statuses = dict(session.execute(select(Message.message_id, Message.status)).tuples().all())
    status_mismatches = [
        Mismatch(post, (_expected_status(post),), (statuses.get(post.message_id, "missing"),))
        for post in posts
        if statuses.get(post.message_id) != _expected_status(post)
    ]
    return CheckReport(
        statuses=_counts(session, Message.status),
        outbox_kinds=_counts(session, OutboxMessage.kind),
        rulings=dict(Counter(label for labels in logged.values() for label in labels)),
        ruling_mismatches=tuple(ruling_mismatches),
        reply_mismatches=tuple(reply_mismatches),
        status_mismatches=tuple(status_mismatches),
        shunts=_shunts(session),
    )


def _expected_status(post: PlannedPost) -> str:
    # Auto-replies are set aside by the loop guard; everything else is judged.
    return "ignored" if post.automatic else "processed"


def _labels(expected: Sequence[Expected]) -> tuple[str, ...]:
    return tuple(f"{item.action} {item.outcome}" for item in expected)


def _logged_rulings(session: Session) -> dict[str, tuple[str, ...]]:
    rows = session.execute(
        select(Message.message_id, ActionRecord.action, ActionRecord.ruling)
        .join(Message, Message.id == ActionRecord.message_pk)
        .order_by(ActionRecord.message_pk, ActionRecord.position)
    ).all()
    logged: dict[str, list[str]] = {}
    for message_id, action, ruling in rows:
        logged.setdefault(message_id, []).append(f"{action} {ruling}")
    return {message_id: tuple(labels) for message_id, labels in logged.items()}


def _replied_message_ids(session: Session) -> set[str]:
    rows = session.scalars(
        select(Message.message_id)
        .join(OutboxMessage, OutboxMessage.in_reply_to_pk == Message.id)
        .where(OutboxMessage.kind == "ruling")
    )
    return set(rows)


def _counts(session: Session, column: object) -> dict[str, int]:
    rows = session.execute(select(column, func.count()).group_by(column)).all()  # type: ignore[call-overload]
    return {str(value): int(count) for value, count in rows}


def _shunts(session: Session) -> tuple[tuple[str, str], ...]:
    rows = session.execute(
        select(Message.message_id, Shunt.traceback).join(Message, Message.id == Shunt.message_pk)
    ).all()
    return tuple((str(message_id), str(trace)) for message_id, trace in rows)


def describe(report: CheckReport, show: int = 5) -> list[str]:
    lines = [
        f"message statuses: {report.statuses}",
        f"outbox mails by kind: {report.outbox_kinds}",
        f"rulings logged: {dict(sorted(report.rulings.items()))}",
        f"posts whose rulings differ from the generator's expectation: "
        f"{len(report.ruling_mismatches)}",
    ]
    lines += [_mismatch_line(item) for item in report.ruling_mismatches[:show]]
    lines.append(
        f"posts whose ruling reply differs (expected/actual): {len(report.reply_mismatches)}"
    )
    lines += [_mismatch_line(item) for item in report.reply_mismatches[:show]]
    lines.append(f"posts whose status differs (expected/actual): {len(report.status_mismatches)}")
    lines += [_mismatch_line(item) for item in report.status_mismatches[:show]]
    lines.append(f"shunted posts: {len(report.shunts)}")
    for message_id, trace in report.shunts[:show]:
        lines.append(f"  <{message_id}>:\n    " + trace.strip().replace("\n", "\n    "))
    return lines


def _mismatch_line(item: Mismatch) -> str:
    action_lines = [line for line in item.post.text.visible_lines() if line.strip()][-3:]
    return (
        f"  post {item.post.number} <{item.post.message_id}> ({item.post.kind}, "
        f"{item.post.author.client}): expected {list(item.expected)}, got {list(item.actual)}; "
        f"last lines: {action_lines}"
    )
