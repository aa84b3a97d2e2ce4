"""Trust II, acceptance 2: the crash soak of the real daemon with an SMTP relay.

The real ``nomicbot run`` works on a private PostgreSQL cluster, takes posts
through its SMTP ingress and sends every mail through an SMTP relay (the
sink, a real SMTP server).  An MTA-like feeder (``bot.testing.crash_soak``)
delivers 1,100 posts of a game, 9 a second: the 389 moves of the longest
playable KGS record under Political Go rule set A (the 19 hours of rule 368
set to 0, a number a proposal may change, since the game is played in
wall-clock minutes) with registrations, dice, holdings, proposals, leave
and chatter around them.  Meanwhile:

1. the daemon is SIGKILLed 26 times at seeded random points (one kill in
   five during its start-up, the others up to 1.5 s after it reported
   ``STATUS=working``) and started again each time;
2. PostgreSQL is stopped for 30 s under a working daemon, which must stay
   alive, keep feeding systemd's watchdog, judge again soon after, and
   work through the posts the outage held back;
3. 26 more kills;
4. a second daemon is started on the same database and configuration: it
   waits for the lock without judging anything while the first works (on
   the last 90 posts, which the feeder holds back until then); the
   first is killed and the second takes over and finishes the game.

Then every post is stored exactly once; the same posts judged without
interruption in a fresh database give the same statuses, action log,
outbox (byte for byte), ledger and ``state`` views; every KGS move was
applied and the stones equal sgfmill's; every outbox row reached the relay,
and a Message-ID arrived twice at most once per kill.  Never alive but
stalled: while one daemon could work (from its ``STATUS=working`` to its
kill, PostgreSQL up), work waiting was taken up within ``STALL_BOUND``, and
no post or mail waited longer than ``LATENCY_BOUND`` of such time, a
backlog included.  The counts are printed.

The game's clock is started before the first daemon, at the instant a
daemon's first pass would start it, and the reference starts it at the
same instant: the first instant publishes the nweek's dice commitment and
grants the starting Bandwidth, stamped with it (``bot.engine.scheduler``).
"""

from __future__ import annotations

import difflib
import os
import random
import re
import signal
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from bot.app import App, build_app
from bot.config import load_settings
from bot.daemon import SCHEDULER_LAG
from bot.ingress.ingest import message_id_of
from bot.runner import advance_to
from bot.store.models import Message, OutboxMessage
from bot.testing import kgs
from bot.testing.apps import write_config
from bot.testing.crash_soak import (
    Availability,
    Feeder,
    JudgedRecord,
    OutboxEntry,
    Stall,
    judged_record,
    longest_stall,
    plan_posts,
    replay_reference,
    stored_posts,
)
from bot.testing.daemons import NotifyListener, start_nomicbot
from bot.testing.postgres import PostgresServer
from bot.testing.smtp_sink import SmtpSink
from bot.testing.support import free_loopback_port, wait_until

pytestmark = pytest.mark.long_running

SEED = 1639
POSTS = 1100
FEED_RATE = 9.0  # posts a second: the feed lasts about as long as the kills
HELD_BACK = 90  # the last posts, fed while the rival waits (ten seconds of them)
KILLS_BEFORE_OUTAGE = 26
KILLS_AFTER_OUTAGE = 26
EARLY_KILL_SHARE = 0.2  # killed during start-up (imports, the schema check, the lock)
WORKING_UPTIME = (0.0, 1.5)  # seconds after STATUS=working
OUTAGE_SECONDS = 30.0
WATCHDOG_SECONDS = 3.0  # WatchdogSec: the daemon pings every third of it
# Seconds of the time a daemon could work: a stall (work waiting, none
# finished; about 1.5 s is measured), and the longest wait, a backlog
# included (the posts the outage held back arrive at once: 12 to 27 s is
# measured on the shared 2-core machine, hence a generous bound).
STALL_BOUND = 10.0
LATENCY_BOUND = 90.0
RESUME_BOUND = 20.0  # from PostgreSQL's return to a post judged
TAKEOVER_BOUND = 15.0  # from the first daemon's kill to the second's STATUS=working
BACKLOG_TIMEOUT = 60.0  # to judge what the outage held back
START_TIMEOUT = 60.0
WORKING = "STATUS=working"
WAITING = "STATUS=waiting for the database lock"


@dataclass
class Kill:
    during: str  # "start-up" or "working"
    after: float  # seconds after the spawn (start-up) or after STATUS=working


@dataclass
class Soak:
    """The daemons of one soak: how they are started and killed, and what happened."""

    config: Path
    environment: dict[str, str]
    log: Path
    chooser: random.Random
    kills: list[Kill] = field(default_factory=list)
    availability: Availability = field(default_factory=Availability)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def spawn(self, listener: NotifyListener, log: Path | None = None) -> subprocess.Popen[bytes]:
        """Start ``nomicbot run`` notifying ``listener``, its output appended to ``log``."""
        notify = {
            "NOTIFY_SOCKET": listener.address,
            "WATCHDOG_USEC": f"{WATCHDOG_SECONDS * 1e6:.0f}",
        }
        process = start_nomicbot(self.config, log or self.log, {**self.environment, **notify})
        self.processes.append(process)
        return process

    def kill_survivors(self) -> None:
        """SIGKILL every daemon of this soak still running (a failed test leaves none behind)."""
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)

    def wait_working(self, listener: NotifyListener, since: float) -> None:
        """Wait for ``STATUS=working`` after the monotonic ``since``; the daemon can work now."""
        assert wait_until(lambda: listener.count(WORKING, since) > 0, START_TIMEOUT), self.tail()
        self.availability.begin()

    def kill(self, process: subprocess.Popen[bytes], kill: Kill) -> None:
        self.availability.end()
        os.killpg(process.pid, signal.SIGKILL)
        assert process.wait(10) == -signal.SIGKILL, self.tail()
        self.kills.append(kill)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


def kill_repeatedly(soak: Soak, listener: NotifyListener, count: int) -> None:
    """Start the daemon and SIGKILL it ``count`` times, each at a seeded random point."""
    for _ in range(count):
        spawned = time.monotonic()
        process = soak.spawn(listener)
        if soak.chooser.random() < EARLY_KILL_SHARE:
            kill = Kill("start-up", soak.chooser.uniform(0.0, 1.0))
            time.sleep(kill.after)
            if listener.count(WORKING, spawned):
                soak.availability.begin()  # it was quicker than the kill
                kill.during = "working"
        else:
            soak.wait_working(listener, spawned)
            kill = Kill("working", soak.chooser.uniform(*WORKING_UPTIME))
            time.sleep(kill.after)
        assert process.poll() is None, soak.tail()  # alive until killed
        soak.kill(process, kill)


@dataclass(frozen=True)
class Outage:
    seconds: float
    pings: int
    longest_silence: float
    resumed_after: float  # the first post judged after PostgreSQL's return
    caught_up_after: float  # every post stored a second before then judged


def ride_out_outage(
    soak: Soak, listener: NotifyListener, server: PostgresServer, app: App
) -> Outage:
    """Stop PostgreSQL under a working daemon for ``OUTAGE_SECONDS``; it must stay and resume."""
    spawned = time.monotonic()
    process = soak.spawn(listener)
    soak.wait_working(listener, spawned)
    time.sleep(1.0)  # at work when the server goes
    soak.availability.end()
    server.pause()
    paused, paused_at = time.monotonic(), datetime.now(UTC)
    while time.monotonic() - paused < OUTAGE_SECONDS:
        assert process.poll() is None, soak.tail()  # riding it out, not dead
        time.sleep(0.5)
    server.resume()
    resumed, resumed_at = time.monotonic(), datetime.now(UTC)
    soak.availability.begin(resumed_at)
    pings = [
        at for at, line in listener.lines() if line == "WATCHDOG=1" and paused <= at <= resumed
    ]
    edges = [paused, *pings, resumed]
    gaps = [later - earlier for earlier, later in zip(edges, edges[1:], strict=False)]
    app.engine.dispose()  # the inspecting pool's connections died with the server
    assert wait_until(lambda: judged_since(app, resumed_at), RESUME_BOUND), soak.tail()
    resumed_after = time.monotonic() - resumed
    # The posts held back by the outage (the feeder heard 451) arrive now;
    # the daemon works through them before the kills go on.
    assert wait_until(lambda: caught_up(app), BACKLOG_TIMEOUT), soak.tail()
    caught_up_after = time.monotonic() - resumed
    assert process.poll() is None, soak.tail()
    kill = Kill("working", soak.chooser.uniform(*WORKING_UPTIME))
    time.sleep(kill.after)
    soak.kill(process, kill)
    seconds = (resumed_at - paused_at).total_seconds()
    return Outage(seconds, len(pings), max(gaps), resumed_after, caught_up_after)


def caught_up(app: App) -> bool:
    """Whether every post stored more than a second ago is judged."""
    second_ago = datetime.now(UTC) - timedelta(seconds=1)
    with app.session_factory() as session:
        waiting = select(func.count()).where(
            Message.status == "queued", Message.received_at < second_ago
        )
        return session.scalar(waiting) == 0


def judged_count(app: App) -> int:
    with app.session_factory() as session:
        return session.scalar(select(func.count()).where(Message.status == "processed")) or 0


def judged_since(app: App, instant: datetime) -> bool:
    with app.session_factory() as session:
        query = select(func.count()).where(Message.processed_at > instant)
        return bool(session.scalar(query))


def rival_takes_over(
    soak: Soak, listener: NotifyListener, app: App, feeder: Feeder
) -> tuple[subprocess.Popen[bytes], float]:
    """A second daemon waits while the first works, then takes over when it is killed.

    The feeder's held-back posts come now, so the first has posts to judge
    while the second waits, however long the kills before took.  Returns the
    second daemon, working, and the seconds its takeover took.
    """
    spawned = time.monotonic()
    first = soak.spawn(listener)
    soak.wait_working(listener, spawned)
    rival_log = soak.log.with_name("rival.log")
    with NotifyListener() as rival_listener:
        rival = soak.spawn(rival_listener, rival_log)
        assert wait_until(lambda: rival_listener.count(WAITING) > 0, START_TIMEOUT), soak.tail()
        feeder.release()
        judged_before = judged_count(app)
        time.sleep(3.0)  # the first judges on; the second waits, alive, judging nothing
        assert first.poll() is None and rival.poll() is None, soak.tail()
        assert judged_count(app) > judged_before  # posts kept coming, and were judged
        assert rival_listener.count(WORKING) == 0
        assert not re.search(r"judged \d+ post|sent \d+ mail", rival_log.read_text())
        assert rival_listener.count("WATCHDOG=1") > 0  # waiting is its work: not stalled
        killed = time.monotonic()
        soak.kill(first, Kill("working", 3.0))
        soak.wait_working(rival_listener, killed)
        takeover = time.monotonic() - killed
    return rival, takeover


def everything_done(app: App, posts: int) -> bool:
    with app.session_factory() as session:
        statuses = Counter(session.scalars(select(Message.status)))
        outbox = Counter(session.scalars(select(OutboxMessage.status)))
    return (
        sum(statuses.values()) == posts
        and set(statuses) == {"processed"}
        and (set(outbox) <= {"sent"})
    )


def without_date(raw: bytes) -> bytes:
    return re.sub(rb"(?m)^Date: [^\r\n]*\r?\n", b"", raw, count=1)


def crlf(raw: bytes) -> bytes:
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


@dataclass(frozen=True)
class Waits:
    """How long work waited while a daemon could work: the longest waits and stalls."""

    judging: float  # the longest a post waited to be judged (a backlog included)
    sending: float  # the longest a mail waited to be sent
    worker: Stall  # the longest the worker had posts waiting and judged none
    sender: Stall  # the longest the sender had mails waiting and sent none


def waits(app: App, availability: Availability) -> Waits:
    with app.session_factory() as session:
        posts = session.execute(select(Message.received_at, Message.processed_at)).all()
        mails = session.execute(select(OutboxMessage.created_at, OutboxMessage.sent_at)).all()
    judged = [(start, end) for start, end in posts if end is not None]
    sent = [(start, end) for start, end in mails if end is not None]
    return Waits(
        max(availability.within(start, end) for start, end in judged),
        max(availability.within(start, end) for start, end in sent),
        longest_stall(judged, availability),
        longest_stall(sent, availability),
    )


def reference_url(server: PostgresServer) -> str:
    """A fresh database on the soak's server for the uninterrupted replay."""
    admin = create_engine(server.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text("CREATE DATABASE nomicbot_reference"))
    admin.dispose()
    return make_url(server.url).set(database="nomicbot_reference").render_as_string(False)


def longest_playable_game(corpora: Path) -> kgs.KgsGame:
    """The longest even 19x19 KGS record whose moves alternate (rule 368 c)."""
    games = kgs.load_games(corpora / "go" / "kgs_sample")
    playable = [g for g in games if g.size == 19 and not g.setup and not g.places_twice_in_a_row]
    return max(playable, key=lambda game: (len(game.placements), game.name))


def test_the_daemon_survives_kills_an_outage_and_a_rival(
    tmp_path: Path, corpora: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.monotonic()
    game = longest_playable_game(corpora)
    posts = plan_posts(game, POSTS, SEED, datetime.now(UTC))
    midnight = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    with PostgresServer() as server, SmtpSink() as sink, NotifyListener() as listener:
        relay = f'[outbound]\nsmtp_host = "{sink.host}"\nsmtp_port = {sink.port}\n'
        go = '[go]\nrules = "A"\nconsul = "Black"\nmove_interval_hours = 0\n'
        players = "".join(
            f'[[players]]\nname = "{name}"\naddresses = ["{address}"]\n'
            for name, address in kgs.PLAYERS.values()
        )
        config = write_config(tmp_path / "bot", relay + go + players)
        port = free_loopback_port()
        overrides = {"NOMICBOT_NTIME_EPOCH": midnight.isoformat()}
        environment = {
            **overrides,
            "NOMICBOT_DATABASE_URL": server.url,
            "NOMICBOT_SMTP_INGRESS_ENABLED": "true",
            "NOMICBOT_SMTP_INGRESS_PORT": str(port),
        }
        soak = Soak(config, environment, tmp_path / "daemons.log", random.Random(SEED))
        settings = load_settings(config, environ=overrides, database_url=server.url)
        app = build_app(settings)
        # The game's clock starts where a daemon's first pass would start it
        # (bot.daemon.SCHEDULER_LAG), the same instant for the reference.
        game_begins = datetime.now(UTC) - SCHEDULER_LAG
        advance_to(app, game_begins)
        with Feeder(port, posts, FEED_RATE, held_back=HELD_BACK) as feeder:
            try:
                kill_repeatedly(soak, listener, KILLS_BEFORE_OUTAGE)
                outage = ride_out_outage(soak, listener, server, app)
                kill_repeatedly(soak, listener, KILLS_AFTER_OUTAGE)
                last, takeover = rival_takes_over(soak, listener, app, feeder)
                assert feeder.wait_done(120), (feeder.accepted, feeder.answers, soak.tail())
                assert wait_until(lambda: everything_done(app, POSTS), 120), soak.tail()
                soak.availability.end()
                last.send_signal(signal.SIGTERM)
                assert last.wait(30) == 0, soak.tail()
            finally:
                soak.kill_survivors()
        soaked = time.monotonic() - started
        live = judged_record(app)
        waited = waits(app, soak.availability)
        reference = replay_reference(
            load_settings(config, environ=overrides, database_url=reference_url(server)),
            stored_posts(app.session_factory),
            game_begins,
        )
        stones = go_stones(app)
        app.dispose()
        deliveries = [message_id_of(mail.data) for mail in sink.messages]
        sent = sink.messages
    kills = len(soak.kills)
    repeats = len(deliveries) - len(set(deliveries))
    with capsys.disabled():
        print(
            "\ncrash soak: "
            f"{POSTS} posts ({len(game.placements)} moves of {game.name}) in {soaked:.0f} s; "
            f"{kills} SIGKILLs ({dict(Counter(kill.during for kill in soak.kills))}); "
            f"a {outage.seconds:.0f} s PostgreSQL outage ({outage.pings} watchdog pings, "
            f"longest silence {outage.longest_silence:.1f} s, judging again "
            f"{outage.resumed_after:.1f} s after, caught up {outage.caught_up_after:.1f} s "
            f"after); a rival daemon took over in {takeover:.1f} s\n"
            f"  {len(live.actions)} actions as in the reference; {len(deliveries)} deliveries "
            f"of {len(set(deliveries))} mails, {repeats} repeated\n"
            f"  while a daemon could work: longest wait to be judged {waited.judging:.1f} s, "
            f"to be sent {waited.sending:.1f} s; longest stall: worker "
            f"{waited.worker.seconds:.1f} s, sender {waited.sender.seconds:.1f} s\n"
            f"  feeder's answers: {dict(feeder.answers)}\n"
            f"  kill points (seed {SEED}; s: start-up, w: working, seconds): "
            + " ".join(f"{kill.during[0]}{kill.after:.2f}" for kill in soak.kills)
        )
    assert kills >= 50
    assert outage.seconds >= OUTAGE_SECONDS and outage.longest_silence < WATCHDOG_SECONDS
    assert takeover <= TAKEOVER_BOUND
    # 0 posts lost, each stored once; judged as an uninterrupted run judges them.
    assert sorted(live.statuses) == sorted(post.message_id for post in posts)
    assert_same_as_reference(live, reference)
    # The real game: every KGS move applied, the stones as sgfmill has them.
    placements = [row for row in live.actions if row[3] == "go.place"]
    assert len(placements) == len(game.placements)
    assert {row[6] for row in placements} == {"applied"}
    assert stones == kgs.final_stones(game)
    # Every mail delivered; a kill repeated at most the one in flight.
    assert set(deliveries) == set(live.outbox)
    assert repeats <= kills
    stored = {mid: without_date(crlf(raw)) for mid, (_kind, _to, raw) in live.outbox.items()}
    assert all(without_date(mail.data) == stored[message_id_of(mail.data)] for mail in sent)
    # Never alive but stalled: work waiting was always taken up soon.
    assert waited.worker.seconds <= STALL_BOUND and waited.sender.seconds <= STALL_BOUND, waited
    assert waited.judging <= LATENCY_BOUND and waited.sending <= LATENCY_BOUND, waited


def assert_same_as_reference(live: JudgedRecord, reference: JudgedRecord) -> None:
    assert live.statuses == reference.statuses
    assert Counter(live.statuses.values()) == {"processed": POSTS}
    assert live.actions == reference.actions  # nothing applied twice, nothing missing
    assert live.outbox.keys() == reference.outbox.keys()
    differing = sorted(key for key in live.outbox if live.outbox[key] != reference.outbox[key])
    assert not differing, mail_difference(live.outbox[differing[0]], reference.outbox[differing[0]])
    assert live.ledger == reference.ledger
    assert live.views == reference.views


def mail_difference(live: OutboxEntry, reference: OutboxEntry) -> str:
    """A unified diff of two outbox rows (kind, recipients and bytes)."""
    live_lines, reference_lines = (
        f"{kind} {recipients}\n{raw.decode(errors='replace')}".splitlines()
        for kind, recipients, raw in (live, reference)
    )
    return "\n".join(
        difflib.unified_diff(live_lines, reference_lines, "live", "reference", lineterm="")
    )


def go_stones(app: App) -> dict[str, str]:
    from bot.engine.views import game_view

    with app.session_factory() as session:
        stones: dict[str, str] = game_view(session, app.services, "go").data["stones"]
        return stones


def test_a_backlog_is_not_a_stall_but_waiting_while_able_is() -> None:
    at = [datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=second) for second in range(60)]
    able = Availability()
    able.begin(at[0])
    able.end(at[20])
    able.begin(at[40])  # down from 20 s to 40 s
    backlog = [(at[0], at[second]) for second in range(1, 11)]  # one finished a second
    assert longest_stall(backlog, able) == Stall(1.0, at[1])
    idle_then_slow = [(at[0], at[1]), (at[10], at[13])]  # idle from 1 s to 10 s
    assert longest_stall(idle_then_slow, able) == Stall(3.0, at[13])
    across_the_break = [(at[0], at[1]), (at[12], at[45])]  # 8 s before, 5 s after
    assert longest_stall(across_the_break, able) == Stall(8.0, at[45])
    assert able.within(at[12], at[45]) == 13.0
