"""Trust II, item 9: a mail's Date is when the daemon sent it; a replay's stays put.

The daemon's scheduler runs an hour behind its clock (``SCHEDULER_LAG``): it
handles an nweek that began at 00:00 when the clock reads 01:46, and the
reveal and commitment it mails then used to be dated 00:00.  Here the daemon
(its clock scripted) mails them to a real SMTP server.  A replay of the same
game keeps the Date each mail was composed with, so it stays reproducible.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from email import message_from_bytes
from email.policy import default
from email.utils import format_datetime, parsedate_to_datetime
from pathlib import Path

from sqlalchemy import select

from bot.app import App
from bot.config import OutboundSettings
from bot.daemon import SCHEDULER_LAG
from bot.outbound.transports import MaildirTransport
from bot.runner import advance_to, deliver
from bot.store.models import OutboxMessage
from bot.testing import go_game
from bot.testing.apps import maildir_mails, make_app
from bot.testing.daemons import ScriptClock, running
from bot.testing.smtp_sink import SmtpSink
from bot.testing.support import wait_until


def nweek_two(app: App) -> datetime:
    """The instant nweek 1 ends and nweek 2 begins."""
    later = go_game.EPOCH + timedelta(days=30)
    return app.services.clock.nweek_changes_between(go_game.EPOCH, later)[0].instant


def all_sent(app: App) -> bool:
    with app.session_factory() as session:
        return set(session.scalars(select(OutboxMessage.status))) == {"sent"}


def composed_dates(app: App) -> dict[str, str]:
    """Subject: the Date each stored row was composed with."""
    with app.session_factory() as session:
        raws = session.scalars(select(OutboxMessage.raw)).all()
    mails = [message_from_bytes(raw, policy=default) for raw in raws]
    return {str(mail["Subject"]): str(mail["Date"]) for mail in mails}


def test_scheduled_mails_are_dated_when_the_daemon_sent_them(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    outbound = OutboundSettings(smtp_host=smtp_sink.host, smtp_port=smtp_sink.port)
    app = make_app(tmp_path, outbound=outbound)
    advance_to(app, go_game.EPOCH)  # nweek 1's commitment, composed for the epoch
    began = nweek_two(app)
    sent_at = began + SCHEDULER_LAG + timedelta(minutes=46)
    with running(app, ScriptClock(sent_at)):
        assert wait_until(lambda: all_sent(app), timeout=30)
    mails = [message_from_bytes(m.data, policy=default) for m in smtp_sink.messages]
    subjects = {str(mail["Subject"]): str(mail["Date"]) for mail in mails}
    assert "[dice] Seed revealed for nweek 1" in subjects
    # Every mail says when it went out, not the instant it reports on...
    assert set(subjects.values()) == {format_datetime(sent_at)}
    # ...which its stored row keeps: the reveal is about 00:00, sent at 01:46.
    composed = composed_dates(app)
    assert composed["[dice] Seed revealed for nweek 1"] == format_datetime(began)
    assert composed.keys() == subjects.keys()


def test_a_mail_is_never_dated_before_the_instant_it_reports_on(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    """A clock behind the composed instant (skew with the server that stamped a post's
    arrival) leaves the composed Date: a reply never predates its post."""
    outbound = OutboundSettings(smtp_host=smtp_sink.host, smtp_port=smtp_sink.port)
    app = make_app(tmp_path, outbound=outbound)
    advance_to(app, go_game.EPOCH)
    with running(app, ScriptClock(go_game.EPOCH - timedelta(minutes=5))):
        assert wait_until(lambda: all_sent(app), timeout=30)
    [mail] = [message_from_bytes(m.data, policy=default) for m in smtp_sink.messages]
    assert parsedate_to_datetime(str(mail["Date"])) == go_game.EPOCH


def test_a_replay_dates_each_mail_with_the_instant_it_reports_on(tmp_path: Path) -> None:
    """Without a clock (``nomicbot replay``) the sender leaves the composed Date: two
    replays of the same game, whenever they run, write the same bytes."""
    written = []
    for run in ("first", "second"):
        app = make_app(tmp_path / run)
        advance_to(app, go_game.EPOCH)
        advance_to(app, nweek_two(app) + timedelta(minutes=46))
        deliver(app, MaildirTransport(tmp_path / run / "out"))
        mails = maildir_mails(tmp_path / run / "out")
        written.append(sorted(mail.as_bytes() for mail in mails))
        assert {str(m["Subject"]): str(m["Date"]) for m in mails} == composed_dates(app)
        app.dispose()
    assert written[0] == written[1]
