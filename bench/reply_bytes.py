"""The cost of turning the bot's mails into bytes: its policy against plain compat32.

    .venv/bin/python bench/reply_bytes.py [--posts 4000] [--seed 1639] [--rounds 7]
        [--workdir DIR]

1. Generates bench/pipeline.py's deterministic archive (the same posts for
   the same ``--posts`` and ``--seed``) and replays it in process
   (``build_app`` + ``replay_archive``, as ``nomicbot replay`` does), keeping
   every mail the bot writes as the ``Message`` that ``_outbox_row`` turns
   into the outbox row's bytes (rulings, dice commitments and reveals,
   digests).
2. For ``--rounds`` rounds, in turn so that machine noise hits both, writes
   every kept mail with ``as_bytes()`` (the policy the bot composes with,
   ``bot.outbound.folding.direct_compat32``) and with
   ``as_bytes(policy=compat32)`` (what the bot wrote before); prints the
   median of each, the time per mail, the saving and the ratio.
3. Checks that both write the same bytes for every mail, and that those are
   the bytes the replay put in the outbox.
"""

from __future__ import annotations

import argparse
import functools
import shutil
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from email.message import Message
from email.policy import Compat32, compat32
from pathlib import Path
from typing import Any

from archive_game import plan_archive
from archive_mail import game_end, write_archive, write_config
from runs import workspace
from sqlalchemy import select
from timing import Timing

import bot.engine.governance.digests
import bot.outbound.compose
from bot.app import build_app
from bot.config import load_settings
from bot.outbound.transports import MaildirTransport
from bot.runner import replay_archive
from bot.store.models import OutboxMessage

# Where ``_outbox_row`` is looked up when a mail is composed.
CALLERS = (bot.outbound.compose, bot.engine.governance.digests)


@contextmanager
def kept_mails() -> Iterator[list[tuple[str, Message]]]:
    """Every (kind, mail) given to ``_outbox_row`` while the block runs."""
    kept: list[tuple[str, Message]] = []
    original = bot.outbound.compose._outbox_row

    @functools.wraps(original)
    def keeping(mail: Message, kind: str, *arguments: Any) -> OutboxMessage:
        kept.append((kind, mail))
        return original(mail, kind, *arguments)

    for module in CALLERS:
        module._outbox_row = keeping  # type: ignore[attr-defined]
    try:
        yield kept
    finally:
        for module in CALLERS:
            module._outbox_row = original  # type: ignore[attr-defined]


def replay_keeping_mails(
    folder: Path, posts: int, seed: int
) -> tuple[list[Message], Counter[str], dict[str, bytes]]:
    """The archive's mails as composed, their kinds, and the outbox's bytes by Message-ID."""
    planned = plan_archive(posts, seed)
    archive = folder / "game.mbox"
    write_archive(archive, planned, seed)
    data = folder / "replay"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir()
    config = write_config(data / "nomicbot.toml", data)
    app = build_app(load_settings(config, environ={}))
    try:
        started = time.perf_counter()
        with kept_mails() as kept:
            replay_archive(app, archive, MaildirTransport(data / "outbox"), until=game_end(planned))
        print(f"replayed {posts} posts in process in {time.perf_counter() - started:.1f} s")
        with app.session_factory() as session:
            rows = session.scalars(select(OutboxMessage)).all()
            outbox = {row.message_id: row.raw for row in rows}
    finally:
        app.dispose()
    return [mail for _kind, mail in kept], Counter(kind for kind, _mail in kept), outbox


def write_all(mails: Sequence[Message], policy: Compat32 | None) -> float:
    started = time.perf_counter()
    for mail in mails:
        mail.as_bytes(policy=policy)
    return time.perf_counter() - started


def time_rounds(mails: Sequence[Message], rounds: int) -> tuple[Timing, Timing]:
    ours: list[float] = []
    theirs: list[float] = []
    for _round in range(rounds):
        ours.append(write_all(mails, None))
        theirs.append(write_all(mails, compat32))
    return (
        Timing("as_bytes(), the bot's policy", len(mails), tuple(ours), "mails"),
        Timing("as_bytes(policy=compat32)   ", len(mails), tuple(theirs), "mails"),
    )


def check_bytes(mails: Sequence[Message], outbox: dict[str, bytes]) -> None:
    differing = sum(mail.as_bytes() != mail.as_bytes(policy=compat32) for mail in mails)
    written = sum(
        outbox.get(str(mail["Message-ID"]).strip("<>")) == mail.as_bytes() for mail in mails
    )
    print(f"mails whose bytes differ between the two policies: {differing} of {len(mails)}")
    print(f"mails whose bytes are the outbox row's: {written} of {len(mails)}")


def print_result(ours: Timing, theirs: Timing, posts: int) -> None:
    print(ours.line())
    print(theirs.line())
    per_mail = 1e6 * (theirs.median - ours.median) / ours.count
    print(
        f"per mail: {1e6 * ours.median / ours.count:.1f} µs against "
        f"{1e6 * theirs.median / theirs.count:.1f} µs, {per_mail:.1f} µs saved; "
        f"{theirs.median - ours.median:.3f} s saved over the {posts}-post replay; "
        f"ratio compat32 / the bot's policy {theirs.median / ours.median:.2f}"
    )


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=4_000)
    parser.add_argument("--seed", type=int, default=1639)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--workdir", type=Path, help="keep the archive and database here")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    with workspace(arguments.workdir, "nomicbot-reply-bytes-") as folder:
        mails, kinds, outbox = replay_keeping_mails(folder, arguments.posts, arguments.seed)
    print(f"{len(mails)} mails composed: {dict(kinds.most_common())}")
    check_bytes(mails, outbox)
    ours, theirs = time_rounds(mails, arguments.rounds)
    print_result(ours, theirs, arguments.posts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
