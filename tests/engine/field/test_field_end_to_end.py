"""Acceptance 3 of issue 4: a Life match and a B-Chess match played by mail to a win.

The matches are scripted once against a scratch bot (the scripts read the
board after each step and pick their moves from it; see
``bot.testing.field_matches``).  The same posts then reach a second bot by
real IMAP (Dovecot) with its replies going to a real SMTP server, and a
third bot by an mbox replay.  All three end with the same Field, the same
Turn records, the same draws and the same macks, and the boards mailed back
by SMTP are the ones the replay writes.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from bot.app import App
from bot.audit import verify_archive
from bot.config import OutboundSettings
from bot.daemon import SCHEDULER_LAG
from bot.outbound.transports import MaildirTransport
from bot.runner import replay_archive
from bot.store.models import DiceSeed, Message
from bot.testing.apps import append_to_mailbox, body_of, imap_settings, maildir_mails
from bot.testing.daemons import ScriptClock, mails_received, running
from bot.testing.dovecot import ImapAccount
from bot.testing.field_matches import (
    FieldTable,
    check_field_draws,
    field_app,
    field_snapshot,
    grant_macks,
    nweek_start,
    play_bchess,
    play_life,
)
from bot.testing.smtp_sink import SmtpSink
from bot.testing.support import wait_until

PLAYERS_IN_EACH_MATCH = 4  # Rita (the Referee, who also plays), Alice, Bob, Carol


def judged(app: App) -> int:
    with app.session_factory() as session:
        statuses = session.scalars(select(Message.status)).all()
    return sum(status in ("processed", "ignored") for status in statuses)


def revealed(app: App) -> int:
    with app.session_factory() as session:
        rows = session.scalars(select(DiceSeed).where(DiceSeed.revealed_seed.is_not(None))).all()
    return len(rows)


def test_life_and_bchess_by_mail_over_imap_and_replayed_from_an_mbox(
    tmp_path: Path, imap_user: ImapAccount, smtp_sink: SmtpSink
) -> None:
    scratch = field_app(tmp_path / "script")
    grant_macks(scratch)
    table = FieldTable(scratch)
    life = play_life(table, first_nweek=0)
    bchess = play_bchess(table, first_nweek=life.won_in_nweek + 1)
    end = nweek_start(bchess.last_nweek + 1) + timedelta(hours=2)  # every seed revealed
    table.advance(end)
    expected = field_snapshot(scratch)
    posts = table.posts
    matches = expected["field"]["matches"]
    assert [(m["match"], m["ending"]["winners"]) for m in matches] == [
        ("Life", list(life.team)),
        ("B-Chess", ["Alice"]),
    ]
    assert len({post.author for post in posts}) == PLAYERS_IN_EACH_MATCH
    assert len({post.at.date() for post in posts}) > 10  # played over several nweeks

    append_to_mailbox(imap_user, [(post.raw(), post.at) for post in posts])
    live = field_app(
        tmp_path / "live",
        imap=imap_settings(imap_user),
        outbound=OutboundSettings(smtp_host=smtp_sink.host, smtp_port=smtp_sink.port),
    )
    grant_macks(live)
    clock = ScriptClock(posts[0].at)
    with running(live, clock) as daemon:
        assert wait_until(lambda: judged(live) == len(posts), timeout=40)
        clock.now = end + SCHEDULER_LAG
        daemon.work_ready.set()
        assert wait_until(lambda: revealed(live) == bchess.last_nweek + 1, timeout=40)
        rulings_expected = len(posts)
        assert wait_until(
            lambda: (
                sum(m["X-Nomicbot-Kind"] == "ruling" for m in mails_received(smtp_sink))
                == rulings_expected
            ),
            timeout=40,
        )
    assert field_snapshot(live) == expected

    replayed = field_app(tmp_path / "replay")
    grant_macks(replayed)
    archive = table.write_mbox(tmp_path / "field.mbox")
    replay_archive(replayed, archive, MaildirTransport(tmp_path / "out"), until=end)
    assert field_snapshot(replayed) == expected

    # SMTP carries CRLF line ends, the Maildir LF: the texts are compared.
    by_smtp = {
        str(m["In-Reply-To"]): body_of(m).replace("\r\n", "\n")
        for m in mails_received(smtp_sink)
        if m["X-Nomicbot-Kind"] == "ruling"
    }
    archived = maildir_mails(tmp_path / "out")
    by_replay = {
        str(m["In-Reply-To"]): body_of(m) for m in archived if m["X-Nomicbot-Kind"] == "ruling"
    }
    assert by_smtp == by_replay
    boards = "\n".join(by_smtp.values())
    assert "Life: 5 x 5 torus" in boards and "B-Chess: 20 x 20 torus" in boards
    wins = [body_of(m) for m in archived if "Win by Field Match" in body_of(m)]
    assert len(wins) == 2  # Life's at a scheduled Evolve, B-Chess's in a ruling
    assert verify_archive(tmp_path / "out").ok
    draws = check_field_draws(archived)
    assert draws.wrong == () and draws.unrevealed == 0 and draws.checked > 50
