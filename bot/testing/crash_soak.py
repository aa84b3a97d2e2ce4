"""Pieces of the crash soak of the real daemon (tests/engine/test_crash_soak.py).

* ``plan_posts``: a game of more than a thousand posts: the moves of a real
  KGS record under Political Go rule set A (A Nomic rules 365-377, seed
  002), with the rest of a nomic around them: newcomers registering
  (rule 14), dice (rule 9, with repeats and one over the limit), holdings
  statements (rule 21 A.2), proposals (rule 19), leave (rule 205), a
  non-player's dice and chatter quoting earlier moves.  Seeded, so every
  run posts the same bytes.
* ``Feeder``: what the list's MTA does in front of the SMTP ingress: it
  delivers the posts in order, each until it hears 250, retrying while the
  ingress is down (connection refused, dropped mid-transaction) or says
  451, at a steady pace so that posts keep arriving while the daemon is
  killed and restarted.
* ``Availability``: the wall-clock intervals during which a daemon could
  work (started, holding the lock, the database up); a post's judging
  latency counts only the time inside them.
* ``judged_record`` and ``replay_reference``: what a database holds after
  the game (posts, the action log, the outbox, the ledger, the ``state``
  views), and the same posts judged without interruption in a fresh
  database, for comparison.
"""

from __future__ import annotations

import random
import smtplib
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.app import App, build_app
from bot.config import Settings
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.ingress.ingest import ArrivingPost, ingest_many
from bot.posts import compose_post
from bot.runner import advance_to
from bot.store.models import ActionRecord, LedgerEntry, Message, OutboxMessage, Player
from bot.testing.go_game import LIST_ADDRESS
from bot.testing.kgs import PLAYERS, KgsGame
from bot.testing.support import LOOPBACK

# Registered by post during the game (rule 14); they are the ones with the
# Bandwidth a proposal costs (rule 212: 4BW for a new player, 2BW each).
NEWCOMERS = (
    "Ada", "Basil", "Cleo", "Dorian", "Edith", "Felix", "Gwen", "Hugo",
    "Iris", "Jonas", "Kira", "Lionel", "Mira", "Nestor", "Opal", "Perrin",
)  # fmt: skip
CONFIGURED = (("Alice", "alice@example.test"), ("Bob", "bob@example.test"), *PLAYERS.values())
OUTSIDER = ("Mallory", "mallory@example.test")  # never registers
# Non-Go posts by kind, with their weights.
KINDS = {
    "dice": 30,
    "chatter": 24,
    "holdings": 10,
    "proposal": 10,
    "leave": 8,
    "mixed": 10,
    "outsider": 4,
}
DICE = ("I roll 3d6.", "I roll a d20.", "I roll two d10.", "I roll 2d6 twice.", "I roll 500d6.")


@dataclass(frozen=True)
class SoakPost:
    number: int
    kind: str
    author: tuple[str, str]
    raw: bytes

    @property
    def message_id(self) -> str:
        return message_id_for(self.number)


def message_id_for(number: int) -> str:
    return f"soak-{number:04d}@example.test"


def address_of(name: str) -> str:
    return f"{name.lower()}@players.example.test"


class _Planner:
    """Chooses the posts around the KGS moves (seeded test data, not game randomness)."""

    def __init__(self, game: KgsGame, others: int, seed: int) -> None:
        self.chooser = random.Random(seed)
        self.placements = iter(game.placements)
        self.registered: list[tuple[str, str]] = []
        # Which of the other posts are registrations: all within the first third.
        self.registrations = set(self.chooser.sample(range(others // 3), len(NEWCOMERS)))
        self.others_planned = 0
        self.on_leave: set[str] = set()
        self.moves_said: list[str] = []

    def move(self) -> tuple[str, tuple[str, str], str]:
        """The game's next placement: (kind, author, body)."""
        colour, point = next(self.placements)
        author = PLAYERS[colour]
        line = f"I place a stone at {point}"
        self.moves_said.append(line)
        return "go", author, f"{line}\n\n-- \n{author[0]}\n"

    def other(self) -> tuple[str, tuple[str, str], str]:
        """The next post that is not a move: (kind, author, body)."""
        self.others_planned += 1
        if self.others_planned - 1 in self.registrations:
            name = NEWCOMERS[len(self.registered)]
            self.registered.append((name, address_of(name)))
            return (
                "register",
                self.registered[-1],
                (f"I request to become a player with the name {name}."),
            )
        kind = self.chooser.choices(list(KINDS), weights=list(KINDS.values()))[0]
        author = OUTSIDER if kind == "outsider" else self.poster()
        return kind, author, self.body(kind, author)

    def poster(self) -> tuple[str, str]:
        return self.chooser.choice([*CONFIGURED, *self.registered])

    def body(self, kind: str, author: tuple[str, str]) -> str:
        if kind in ("dice", "outsider"):
            return self.chooser.choice(DICE)
        if kind == "holdings":
            return self.chooser.choice(("My holdings please.", "What are my holdings?"))
        if kind == "proposal":
            number = self.chooser.randrange(1000)
            return (
                f"I submit the following proposal: __Amendment {number}__ "
                f"{{{{ Rule {number} is amended to read: a Player may roll dice. }}}}"
            )
        if kind == "leave":
            going = author[0] not in self.on_leave
            (self.on_leave.add if going else self.on_leave.discard)(author[0])
            return "I go On Leave." if going else "I return from leave."
        if kind == "mixed":
            return "Good morning all.\n\nI roll 1d6.\n\nMy holdings please.\n\n-- \n" + author[0]
        return self.chatter()

    def chatter(self) -> str:
        if not self.moves_said:
            return "Looking forward to the game."
        quoted = self.chooser.choice(self.moves_said[-20:])
        # The quoted move must stay a quotation, never a second placement.
        return f"> {quoted}\n\nA bold move.  I would not have played there."


def plan_posts(game: KgsGame, total: int, seed: int, dated: datetime) -> tuple[SoakPost, ...]:
    """``total`` posts: every placement of ``game`` in order, spread evenly, and others between.

    Post ``n`` carries the Date ``dated`` + ``n`` seconds (its arrival is
    what counts, rule 3 B).  Raises ValueError if ``total`` cannot hold the
    game's placements and the registrations.
    """
    moves = len(game.placements)
    if total < moves + 3 * len(NEWCOMERS):
        raise ValueError(f"{total} posts cannot hold {moves} moves and the registrations")
    go_slots = {index * total // moves for index in range(moves)}
    planner = _Planner(game, total - moves, seed)
    posts = []
    for number in range(total):
        kind, author, body = planner.move() if number in go_slots else planner.other()
        subject = "[Nomic] Political Go" if kind == "go" else "[Nomic] The game"
        at = dated + timedelta(seconds=number)
        raw = compose_post(*author, subject, body, message_id_for(number), at, to=LIST_ADDRESS)
        posts.append(SoakPost(number, kind, author, raw))
    return tuple(posts)


class Feeder:
    """The list's MTA in front of the ingress: every post delivered, in order, until 250.

    Post ``n`` is due ``n / rate`` seconds after the start; a post that
    could not be delivered is tried again after ``retry_delay`` (half a
    second after a 451), and the ones due meanwhile follow at once, as a
    queue runner would.  The last ``held_back`` posts wait for ``release``
    and then come at the same rate from that instant, so that a phase of
    the soak can count on posts arriving whenever it comes, however slowly
    a busy machine ran the phases before it.  ``answers`` counts what the
    attempts met.  Use as a context manager.
    """

    def __init__(
        self,
        port: int,
        posts: Sequence[SoakPost],
        rate: float,
        retry_delay: float = 0.1,
        held_back: int = 0,
    ) -> None:
        self.port, self.posts, self.rate, self.retry_delay = port, posts, rate, retry_delay
        self.accepted = 0  # posts that heard 250, a prefix of ``posts``
        self.answers: Counter[str] = Counter()
        self._held_from = len(posts) - held_back
        self._released = threading.Event()
        if not held_back:
            self._released.set()
        self._stop = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="soak-feeder", daemon=True)
        self._client: smtplib.SMTP | None = None

    def __enter__(self) -> Feeder:
        self._thread.start()
        return self

    def __exit__(self, *_exception: object) -> None:
        self._stop.set()
        self._thread.join(30)
        self._close()

    def wait_done(self, timeout: float) -> bool:
        return self._done.wait(timeout)

    def release(self) -> None:
        """Let the held-back posts come, paced from now."""
        self._released.set()

    def _run(self) -> None:
        started = time.monotonic()
        while self.accepted < len(self.posts) and not self._stop.is_set():
            if self.accepted == self._held_from and not self._released.is_set():
                self._stop.wait(0.1)
                if self._released.is_set():  # paced from the release, not the start
                    started = time.monotonic() - self.accepted / self.rate
                continue
            delay = started + self.accepted / self.rate - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)
                continue
            pause = self._deliver(self.posts[self.accepted])
            if pause:
                self._stop.wait(pause)
            else:
                self.accepted += 1
        self._close()
        if self.accepted == len(self.posts):
            self._done.set()

    def _deliver(self, post: SoakPost) -> float:
        """Try once; 0.0 on 250, else how long to wait before trying again."""
        try:
            if self._client is None:
                self._client = smtplib.SMTP(LOOPBACK, self.port, timeout=30)
            self._client.sendmail(post.author[1], [LIST_ADDRESS], post.raw)
        except smtplib.SMTPResponseException as answer:  # 451: stored nothing, try later
            self.answers[f"{answer.smtp_code}"] += 1
            return self.retry_delay * 5
        except (OSError, smtplib.SMTPException) as error:  # the ingress is down or died mid-way
            self.answers[type(error).__name__] += 1
            self._close()
            return self.retry_delay
        self.answers["250"] += 1
        return 0.0

    def _close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()


@dataclass
class Availability:
    """When a daemon could work: started, holding the lock and with its database up.

    ``begin`` and ``end`` mark the intervals (wall clock, UTC); ``within``
    measures how much of a stretch of time fell inside them.
    """

    intervals: list[tuple[datetime, datetime]] = field(default_factory=list)
    _open: datetime | None = None

    def begin(self, at: datetime | None = None) -> None:
        if self._open is None:
            self._open = at or datetime.now(UTC)

    def end(self, at: datetime | None = None) -> None:
        if self._open is not None:
            self.intervals.append((self._open, at or datetime.now(UTC)))
            self._open = None

    def within(self, start: datetime, end: datetime) -> float:
        """Seconds of [start, end] during which a daemon could work."""
        return sum(self._overlaps(start, end))

    def longest_within(self, start: datetime, end: datetime) -> float:
        """The most seconds of [start, end] that one daemon could work without a break."""
        return max(self._overlaps(start, end), default=0.0)

    def _overlaps(self, start: datetime, end: datetime) -> list[float]:
        spans = list(self.intervals)
        if self._open is not None:
            spans.append((self._open, end))
        overlaps = [
            (min(end, closed) - max(start, opened)).total_seconds() for opened, closed in spans
        ]
        return [overlap for overlap in overlaps if overlap > 0]


@dataclass(frozen=True)
class Stall:
    """The longest stretch in which work waited, one daemon could work, and none was finished."""

    seconds: float
    ended: datetime | None  # when work was finished again


def longest_stall(spans: Sequence[tuple[datetime, datetime]], availability: Availability) -> Stall:
    """The longest time one daemon could work and had work waiting, yet finished none of it.

    ``spans`` are (arrived, finished) of each piece of one kind of work: a
    post stored and judged, or a mail composed and sent.  Between two
    consecutive finishes, work waited from the earlier finish or from the
    first arrival of what was still unfinished, whichever is later.  Of
    that stretch, the longest part that one daemon could work without a
    break (``availability``) is its stall: a daemon killed before its first
    ruling (its start-up ends at its first post, when the grammar is built)
    does not add to the next one's.  A backlog is not a stall: each finish
    ends one.
    """
    ordered = sorted(spans, key=lambda span: span[1])
    # waiting_since[i]: the earliest arrival among the spans finished at or after ordered[i].
    waiting_since = [start for start, _finished in ordered]
    for index in range(len(ordered) - 2, -1, -1):
        waiting_since[index] = min(waiting_since[index], waiting_since[index + 1])
    longest = Stall(0.0, None)
    previous = min((start for start, _finished in ordered), default=None)
    for index, (_start, finished) in enumerate(ordered):
        if previous is not None and waiting_since[index] < finished:
            waited = max(previous, waiting_since[index])
            seconds = availability.longest_within(waited, finished)
            if seconds > longest.seconds:
                longest = Stall(seconds, finished)
        previous = finished
    return longest


OutboxEntry = tuple[str, tuple[str, ...], bytes]  # kind, recipients, the stored bytes


@dataclass(frozen=True)
class JudgedRecord:
    """What a database holds after the game, in forms two databases can be compared by."""

    statuses: dict[str, str]
    actions: list[tuple[Any, ...]]
    outbox: dict[str, OutboxEntry]  # by Message-ID
    ledger: list[tuple[Any, ...]]
    views: dict[str, str]


VIEWS = ("go", "players", "holdings", "dice", "proposals", "ballot", "polls")


def judged_record(app: App) -> JudgedRecord:
    """Read the posts' statuses, the action log, the outbox, the ledger and the state views.

    Rows name their post by Message-ID and their player by name: the
    surrogate keys may differ between two databases that agree, since a
    PostgreSQL sequence does not give back the numbers of a transaction
    that was rolled back (or cut short by a kill).
    """
    with app.session_factory() as session:
        ids: dict[int | None, str] = dict(
            session.execute(select(Message.id, Message.message_id)).all()
        )
        names: dict[int | None, str] = dict(session.execute(select(Player.id, Player.name)).all())
        statuses = dict(session.execute(select(Message.message_id, Message.status)).all())
        actions = [
            (ids.get(row.message_pk), row.position, names.get(row.player_id), row.action, row.args,
             row.text, row.ruling, row.summary, row.reason, row.rule, row.draws, row.effects,
             row.ntime, row.occurred_at)
            for row in session.scalars(select(ActionRecord).order_by(ActionRecord.id))
        ]  # fmt: skip
        outbox = {
            row.message_id: (row.kind, tuple(row.recipients), row.raw)
            for row in session.scalars(select(OutboxMessage))
        }
        ledger = [
            (names.get(row.player_id) if row.entity is None else row.entity, row.currency,
             row.amount, ids.get(row.message_pk), row.source, row.rule, row.note,
             row.occurred_at, row.basin_nweek)
            for row in session.scalars(select(LedgerEntry).order_by(LedgerEntry.id))
        ]  # fmt: skip
        views = {name: game_view(session, app.services, name).text for name in VIEWS}
    return JudgedRecord(statuses, actions, outbox, ledger, views)


def stored_posts(session_factory: sessionmaker[Session]) -> list[ArrivingPost]:
    """Every stored post's bytes and arrival, in the order they were stored."""
    with session_factory() as session:
        rows = session.execute(select(Message.raw, Message.received_at).order_by(Message.id))
        return [ArrivingPost(row.raw, row.received_at) for row in rows]


def replay_reference(
    settings: Settings, posts: Sequence[ArrivingPost], game_begins: datetime
) -> JudgedRecord:
    """Judge ``posts`` at their arrivals in a fresh database (``settings``), without a break.

    The game's clock starts at ``game_begins``, as it did in the live
    database (``bot.engine.scheduler``: its first instant publishes the
    nweek's dice commitment and grants the starting Bandwidth).  Nothing is
    sent: the outbox rows are what is compared.
    """
    app = build_app(settings)
    try:
        advance_to(app, game_begins)
        with app.session_factory.begin() as session:
            ingest_many(session, list(posts), "smtp")
        process_queue(app.session_factory, app.services)
        return judged_record(app)
    finally:
        app.dispose()
