"""Issue 15, acceptance 2: the daemon keeps the site current.

Posts reach the daemon over real IMAP (Dovecot); the site is served by
``nomicbot serve``'s server while a reader fetches pages as fast as it can.
After each post, the Go board's page and its JSON show the new stone, and
the history shows the ruling; the time from the ruling's commit to the page
showing it is printed (not asserted).  Every response the reader got was
200 and whole.  At the end, the site the daemon kept (built incrementally,
most pages linked from earlier builds) is the site a whole build gives at
the same instant, but for the instant each page says it was built.
"""

from __future__ import annotations

import logging
import re
import statistics
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.app import build_app
from bot.config import SiteSettings
from bot.daemon import Daemon, Supervision
from bot.runner import store_message
from bot.site import build_site
from bot.testing import go_game
from bot.testing.apps import append_to_mailbox, make_app, message_statuses
from bot.testing.daemons import ScriptClock, running
from bot.testing.dovecot import ImapAccount
from bot.testing.live_site import (
    PollingReader,
    fetch,
    json_document,
    judged_at,
    live_settings,
    player,
    post,
    served,
    wait_for,
)
from bot.testing.support import wait_until

# One Move per player (rule 1639 C: one a Checking Period), on points far apart.
POINTS = ("E5", "C3", "G7")
TIMEOUT = 20.0  # generous: the machine may be busy; the figure is printed, not asserted
BUILT_INSTANT = re.compile(r'Built \S+ from|"generated": "[^"]*"')


def shows_the_move(base: str, number: int, point: str, message_id: str) -> bool:
    board = json_document(base, "view-go")
    history = json_document(base, "history")
    if board is None or history is None:
        return False
    if board["data"]["stones"].get(point) != player(number)[0]:
        return False
    status, page = fetch(f"{base}/view-go.html")
    return (
        status == 200
        and f'data-point="{point}"' in page.decode()
        and any(mail["post_message_id"] == message_id for mail in history["data"])
    )


def without_build_instants(path: Path) -> str:
    return BUILT_INSTANT.sub("BUILT", path.read_text(encoding="utf-8"))


def test_each_post_shows_on_the_site_while_a_reader_polls(
    tmp_path: Path, imap_user: ImapAccount
) -> None:
    site = tmp_path / "site"
    app = build_app(live_settings(tmp_path, imap_user, site, players=len(POINTS)))
    daemon = Daemon(app, lambda: datetime.now(UTC))
    latencies: list[float] = []
    try:
        daemon.start()
        with served(site) as base:
            assert wait_for(lambda: fetch(f"{base}/index.html")[0] == 200, TIMEOUT)
            reader = PollingReader(base)
            reader.start()
            try:
                for number, point in enumerate(POINTS):
                    message_id = f"live-{number}@example.test"
                    raw = post(number, f"I place a stone at {point}.", message_id)
                    append_to_mailbox(imap_user, [(raw, datetime.now(UTC))])
                    committed = wait_for(lambda m=message_id: judged_at(app, m), TIMEOUT)
                    assert committed is not None, f"{message_id} was not judged"
                    shown = wait_for(
                        lambda n=number, p=point, m=message_id: shows_the_move(base, n, p, m),
                        TIMEOUT,
                    )
                    assert shown, f"the site does not show {point} of {message_id}"
                    latencies.append((datetime.now(UTC) - committed).total_seconds())
            finally:
                reader.finish()
        assert daemon.site_failures == 0
        builder = daemon.site_builder
        assert builder is not None
    finally:
        daemon.shutdown()
    print(
        f"\ncommit to visible: median {statistics.median(latencies):.3f} s, "
        f"max {max(latencies):.3f} s over {len(latencies)} posts "
        f"({daemon.site_builds} builds; the reader made {reader.responses} requests)"
    )
    assert reader.problems == []
    assert reader.responses > 0

    instant = datetime.now(UTC)
    report = builder.rebuild(instant)
    assert report.linked > report.written  # the history and the Moves were kept
    build_site(app, tmp_path / "whole", at=instant)
    app.dispose()
    kept, whole = sorted(site.iterdir()), sorted((tmp_path / "whole").iterdir())
    assert [path.name for path in kept] == [path.name for path in whole]
    for ours, theirs in zip(kept, whole, strict=True):
        assert without_build_instants(ours) == without_build_instants(theirs), ours.name


def test_a_site_that_cannot_be_built_is_retried_and_judging_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    site = tmp_path / "site"
    site.mkdir()  # a plain directory: never overwritten (bot.site.SiteError)
    app = make_app(tmp_path, site=SiteSettings(directory=str(site)))
    first = go_game.SCRIPT[0]
    with (
        caplog.at_level(logging.ERROR, logger="bot.daemon"),
        running(app, ScriptClock(first.at), Supervision(backoff_first=0.05)) as daemon,
    ):
        store_message(app, first.raw(), "smtp", first.at)
        daemon.work_ready.set()
        assert wait_until(lambda: message_statuses(app).get(first.message_id) == "processed", 30)
        assert wait_until(lambda: daemon.site_failures >= 2, 30)
        site.rmdir()
        assert wait_until(lambda: (site / "view-go.html").is_file(), 30)
        assert all(thread.is_alive() for thread in daemon.threads)
    assert daemon.failure is None
    assert "site: the build failed" in caplog.text
    assert '"E5": "Alice"' in (site / "view-go.json").read_text()
    app.dispose()
