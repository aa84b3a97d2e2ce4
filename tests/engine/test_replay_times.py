"""An archived post's time is its delivery time, the Date header only as a last resort."""

from __future__ import annotations

import mailbox
from datetime import UTC, datetime
from pathlib import Path

from bot.ingress.replay import archive_posts
from bot.testing.apps import write_mbox

RECEIVED = (
    "Received: from mx.example.test by lists.example.test; Sat, 21 Nov 2026 13:37:27 +0000\r\n"
    "Received: from laptop by mx.example.test; Sat, 21 Nov 2026 13:37:25 +0000\r\n"
)


def mail(
    message_id: str, extra_headers: str = "", date: str = "Thu, 01 Jan 2026 00:00:00 +0000"
) -> bytes:
    return (
        f"{extra_headers}From: a@example.test\r\nDate: {date}\r\n"
        f"Message-ID: <{message_id}>\r\nSubject: x\r\n\r\nI pass.\r\n"
    ).encode()


def test_mbox_from_lines_give_the_time_and_keep_archive_order(tmp_path: Path) -> None:
    path = tmp_path / "a.mbox"
    write_mbox(
        path,
        [
            (mail("2", RECEIVED), "From a@example.test Mon Jan  5 10:00:00 2026"),
            (mail("1"), "From a@example.test Sun Jan  4 09:30:00 2026"),
        ],
    )
    posts = list(archive_posts(path))
    assert [p.received_at for p in posts] == [
        datetime(2026, 1, 5, 10, tzinfo=UTC),
        datetime(2026, 1, 4, 9, 30, tzinfo=UTC),
    ]


def test_maildir_uses_the_topmost_received_header_then_the_date(tmp_path: Path) -> None:
    box = mailbox.Maildir(str(tmp_path / "md"), create=True)
    box.add(mail("received", RECEIVED))
    box.add(mail("dated", date="Wed, 18 Nov 2026 08:00:00 -0500"))
    posts = list(archive_posts(tmp_path / "md"))
    # Sorted by delivery time: the Date-only post (13:00 UTC on the 18th) first.
    assert [p.received_at for p in posts] == [
        datetime(2026, 11, 18, 13, tzinfo=UTC),
        datetime(2026, 11, 21, 13, 37, 27, tzinfo=UTC),
    ]
