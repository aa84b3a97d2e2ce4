"""Posts refused as possibly forged, told to a person (docs/trust.md).

A refused post is answered to nobody, since its claimed sender may be the
victim; the Referee's digest counts and lists those received since the last
digest, and ``nomicbot refused`` lists them all.  Here a post is refused
because it lacks the list's List-Id (``[bot] list_id``, checked by
``bot/pipeline/origin.py``), or because it is private mail nobody vouches for.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.config import MinistryEntry
from bot.engine.governance.digests import ON_REQUEST, digest_for
from bot.engine.private_secrets import UNAUTHENTICATED_PRIVATE_MAIL
from bot.engine.rulings import PlayerRef
from bot.runner import advance_to
from bot.testing.apps import write_config
from bot.testing.go_game import ALICE, BOB, EPOCH

if TYPE_CHECKING:
    from conftest import Desk, DeskMaker

LIST_ID = "nomic.example.test"
ON_THE_LIST = (("List-Id", f"Nomic game <{LIST_ID}>"),)
NOT_ON_THE_LIST = f"not delivered through the game's list (no List-Id <{LIST_ID}>)"
# Alice is the Referee (seed 003: the Minister of Play); Bob holds nothing.
MINISTRIES = (MinistryEntry("Ministry of Play", ALICE[0]),)
MALLORY = ("Alice", "alice@example.test")  # a forger, claiming to be Alice
HEAD = "Posts refused as possibly forged since the last digest"


def flat(text: str) -> str:
    return " ".join(text.split())


def midnight(day: int) -> datetime:
    """00:00 UTC of January ``day``, 2026: a daily digest's instant."""
    return EPOCH + timedelta(days=day - 1)


@pytest.fixture
def desk(make_desk: DeskMaker) -> Desk:
    return make_desk(list_id=LIST_ID, ministries=MINISTRIES)


def scheduled_digest(desk: Desk, day: int) -> str:
    """The body of the daily digest Alice, the Referee, was mailed on January ``day``."""
    date = f"{midnight(day):%a, %d %b %Y} 00:00:00 +0000"
    (mail,) = [m for m in desk.outbox("digest") if m.date == date and m.recipients == [ALICE[1]]]
    return mail.body


def refused_section(body: str) -> str:
    """The digest's "Refused posts" section, up to the next section or the end."""
    start = body.index("Refused posts since ")
    end = body.find("\n\n", start)
    return body[start : end if end > 0 else None]


def test_a_refused_post_is_in_the_referee_s_next_digest_and_answered_to_nobody(
    desk: Desk,
) -> None:
    genuine = desk.post(BOB, "I go On Leave.", EPOCH + timedelta(hours=1), headers=ON_THE_LIST)
    forged = desk.post(MALLORY, "I go On Leave.", at=EPOCH + timedelta(days=1, hours=5))
    advance_to(desk.app, midnight(4) + timedelta(hours=1))
    assert desk.status(forged) == ("refused", NOT_ON_THE_LIST)
    assert desk.replies_to(forged) == [] and desk.rulings(forged) == []
    assert desk.status(genuine)[0] == "processed"

    # January 2's digest covers January 1, before the post: none.
    assert refused_section(scheduled_digest(desk, 2)).splitlines() == [
        "Refused posts since nweek 1, nday 1 (2026-01-01 00:00 UTC) (docs/trust.md)",
        f"  {HEAD}: none.",
    ]
    section = flat(refused_section(scheduled_digest(desk, 3)))
    assert section.startswith("Refused posts since nweek 1, nday 2 (2026-01-02 00:00 UTC)")
    assert f"{HEAD}: 1 (see `nomicbot refused`)" in section
    assert f"- 2026-01-02 05:00 UTC, from alice@example.test: {NOT_ON_THE_LIST}" in section
    assert "bob@example.test" not in section  # carried by the list: not refused
    # January 4's digest covers January 3 alone: the post was told once.
    assert f"{HEAD}: none." in refused_section(scheduled_digest(desk, 4))


def test_a_digest_counts_its_own_period_however_late_it_is_written(desk: Desk) -> None:
    # A digest written after later posts were refused (a replay, or the console
    # long after) counts the same posts: its period ends at its instant, not now.
    desk.post(MALLORY, "I go On Leave.", at=midnight(2))  # at the last digest's instant
    desk.post(MALLORY, "I go On Leave.", at=EPOCH + timedelta(days=1, hours=5))
    desk.post(MALLORY, "I go On Leave.", at=midnight(3))  # at this digest's: the next one's
    assert "(see `nomicbot refused`)" in scheduled_digest(desk, 3)  # written live
    alice = PlayerRef(desk.player_id("Alice"), "Alice")
    with desk.app.session_factory() as session:
        digest = digest_for(session, desk.app.services, alice, midnight(3), ON_REQUEST)
    assert digest is not None
    (part,) = digest.served
    (_field, refused) = part.sections
    written = refused_section(scheduled_digest(desk, 3)).splitlines()[1:]
    assert refused.lines == tuple(line.removeprefix("  ") for line in written)
    assert refused.lines[0].endswith(": 2 (see `nomicbot refused`)")
    assert [line[:24] for line in refused.lines if line.startswith("- ")] == [
        "- 2026-01-02 05:00 UTC, ",
        "- 2026-01-02 00:00 UTC, ",
    ]


def test_a_digest_lists_ten_refused_posts_and_counts_the_rest(desk: Desk) -> None:
    start = EPOCH + timedelta(days=1, hours=1)
    for minute in range(12):
        desk.post(MALLORY, "I go On Leave.", at=start + timedelta(minutes=minute))
    advance_to(desk.app, midnight(3) + timedelta(hours=1))
    section = refused_section(scheduled_digest(desk, 3))
    assert ": 12 (see `nomicbot refused`)" in flat(section)
    assert flat(section).count("- 2026-01-02 01:") == 10
    assert "- 2026-01-02 01:11 UTC" in section  # the newest first
    assert "- 2026-01-02 01:01 UTC" not in section
    assert "... and 2 earlier." in section


# -- the console ------------------------------------------------------------------------------


def nomicbot(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def refused_config(make_desk: DeskMaker, tmp_path: Path) -> Path:
    """The configuration of a bot that refused two posts (and judged one)."""
    desk = make_desk(list_id=LIST_ID)
    desk.post(MALLORY, "I go On Leave.", at=EPOCH + timedelta(hours=5))
    desk.post(BOB, "My holdings please.", at=EPOCH + timedelta(hours=6), private=True)
    desk.post(BOB, "I go On Leave.", at=EPOCH + timedelta(hours=7), headers=ON_THE_LIST)
    desk.app.dispose()
    return write_config(tmp_path / "bot")  # the same data folder, so the same database


def test_nomicbot_refused_lists_each_refused_post_with_its_reason(refused_config: Path) -> None:
    done = nomicbot("refused", "--config", str(refused_config))
    assert done.returncode == 0, done.stderr
    lines = [line.split("\t") for line in done.stdout.splitlines()]
    assert [line[1:] for line in lines] == [  # newest first
        [
            "2026-01-01 06:00",
            "<trust-002@example.test>",
            "from bob@example.test",
            UNAUTHENTICATED_PRIVATE_MAIL,
        ],
        [
            "2026-01-01 05:00",
            "<trust-001@example.test>",
            "from alice@example.test",
            NOT_ON_THE_LIST,
        ],
    ]
    assert done.stderr.strip().endswith("2 refused post(s)")


def test_nomicbot_refused_json(refused_config: Path) -> None:
    done = nomicbot("refused", "--json", "--config", str(refused_config))
    assert done.returncode == 0, done.stderr
    posts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [
        (post["message_id"], post["claimed_sender"], post["subject"], post["reason"])
        for post in posts
    ] == [
        (
            "trust-002@example.test",
            "bob@example.test",
            "[Nomic] Trust",
            UNAUTHENTICATED_PRIVATE_MAIL,
        ),
        ("trust-001@example.test", "alice@example.test", "[Nomic] Trust", NOT_ON_THE_LIST),
    ]
    assert posts[1]["received_at"] == "2026-01-01T05:00:00+00:00"
    assert {type(post["number"]) for post in posts} == {int}
