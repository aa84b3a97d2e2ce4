"""An IRV Election by mail with thousands of voters: the time per 1,000 ballots along the replay.

    .venv/bin/python bench/election_growth.py [--voters 2000] [--chunk 1000]
                                              [--baseline REF] [--profile]

Generates a deterministic game on the epoch of the scripted games
(2026-01-01): ``--voters`` players register on nday 1 (rule 14; written
straight to the roster as a registration leaves it, unless
``--registrations-by-mail``: the roster's cost per registration ruling is
another part of the work on long games, and by mail 2,000 registrations
take many minutes before the first ballot), Alice calls
an IRV Election for the Ministry of Justice (rules 625 B, 1823 C.3), Alice,
Bob and Carol nominate themselves; when the voting opens (five ndays on)
every player casts one ballot, evenly spaced over the four ndays of voting,
and the Election closes after the last.  The posts are replayed with
``replay_archive`` in chunks of ``--chunk`` posts on one SQLite database
(each chunk's scheduled events handled up to its last post), and the time
of each chunk is printed: registrations and ballots apart, since the
roster's cost per registration is not the Election's.  The per-ballot time
must stay flat along the ballots; the last chunk / first chunk ratio says
how flat.

Every post must be applied and the Election must select a winner; the
bench fails loudly otherwise.  ``--baseline REF`` runs the same bench on
the code of git revision REF (exported to a scratch folder) before this
checkout's, so the two are printed side by side from one run.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from runs import run_baseline

ROOT = Path(__file__).resolve().parents[1]
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
JUSTICE = "Ministry of Justice"
CANDIDATES = ("Alice", "Bob", "Carol")
CALLED = EPOCH + timedelta(hours=12)  # nday 1, 12:00
VOTING_OPENS = CALLED + timedelta(days=5)  # rule 625 B: five ndays of nominations
VOTING_CLOSES = VOTING_OPENS + timedelta(days=4)  # and four of voting
ALICE_FIRST, BOB_FIRST, CAROL_FIRST = (
    ("Alice", "Bob", "Carol"),
    ("Bob", "Carol", "Alice"),
    (
        "Carol",
        "Alice",
        "Bob",
    ),
)
RANKINGS = (ALICE_FIRST, ALICE_FIRST, BOB_FIRST, BOB_FIRST, CAROL_FIRST)


@dataclass(frozen=True)
class Post:
    author: str
    body: str
    at: datetime
    kind: str  # "registration", "ballot" or "setup"


def address(name: str) -> str:
    return f"{name.lower()}@example.test"


def voter_name(number: int) -> str:
    # Letters only: a name a player may take (rule 151).
    letters = "abcdefghijklmnopqrstuvwxyz"
    word = ""
    while True:
        number, digit = divmod(number, 26)
        word = letters[digit] + word
        if number == 0:
            break
        number -= 1
    return f"Voter{word.capitalize()}"


def registered_at(number: int, voters: int) -> datetime:
    return EPOCH + timedelta(minutes=10) + number * (timedelta(hours=11) / voters)


def script(voters: int, by_mail: bool) -> list[Post]:
    """Every post of the game, in time order (the registrations only ``by_mail``)."""
    names = [voter_name(number) for number in range(voters)]
    posts = [
        Post(
            name,
            f"I request to become a player with the name {name}.",
            registered_at(number, voters),
            "registration",
        )
        for number, name in enumerate(names)
        if by_mail
    ]
    posts.append(Post("Alice", f"I call an IRV election for the {JUSTICE}.", CALLED, "setup"))
    for offset, name in enumerate(CANDIDATES, start=1):
        at = CALLED + timedelta(hours=offset)
        posts.append(Post(name, f"I nominate myself for the {JUSTICE}.", at, "setup"))
    voting = timedelta(days=3, hours=12) / len(names)
    for number, name in enumerate(names):
        # Two in five rank Alice first, two Bob, one Carol: Carol's go to Alice,
        # so the count ends without a tie for the Moderator to break.
        ranking = RANKINGS[number % len(RANKINGS)]
        body = f"I vote {', '.join(ranking)} for the {JUSTICE}."
        at = VOTING_OPENS + timedelta(hours=1) + number * voting
        posts.append(Post(name, body, at, "ballot"))
    return posts


def chunks(posts: list[Post], size: int) -> list[list[Post]]:
    """Runs of at most ``size`` posts of one kind, in order."""
    found: list[list[Post]] = []
    for post in posts:
        if found and found[-1][-1].kind == post.kind and len(found[-1]) < size:
            found[-1].append(post)
        else:
            found.append([post])
    return found


def write_roster(app: Any, voters: int) -> None:
    """The voters as rule 14's registrations leave them (a player and an address
    each), written in one transaction: the roster without the rulings' cost."""
    from bot.store.models import Player, PlayerAddress

    with app.session_factory() as session, session.begin():
        for number in range(voters):
            name, at = voter_name(number), registered_at(number, voters)
            player = Player(name=name, origin="registration", joined_at=at, former_names=[])
            player.addresses.append(PlayerAddress(address=address(name)))
            session.add(player)


def run_here(voters: int, size: int, profile: bool, by_mail: bool) -> None:
    """The bench on the code importable here; prints one line per chunk and a summary."""
    from sqlalchemy import select

    from bot.app import build_app
    from bot.config import ElectionSettings, MinistryEntry, PlayerEntry
    from bot.engine.views import game_view
    from bot.outbound.transports import MaildirTransport
    from bot.posts import compose_post, mbox_from_line
    from bot.runner import advance_to, replay_archive
    from bot.store.models import ActionRecord
    from bot.testing.apps import game_settings, write_mbox

    with tempfile.TemporaryDirectory(prefix="nomicbot-election-") as scratch:
        folder = Path(scratch)
        settings = game_settings(
            folder / "bot",
            players=tuple(PlayerEntry(name, (address(name),)) for name in CANDIDATES),
            ministries=(MinistryEntry("Meta-Ministry", "Alice"), MinistryEntry(JUSTICE)),
            elections=ElectionSettings(),
        )
        app = build_app(settings)
        advance_to(app, EPOCH)
        if not by_mail:
            write_roster(app, voters)
        transport = MaildirTransport(folder / "out")
        profiler = cProfile.Profile() if profile else None
        ballot_times: list[float] = []
        for index, chunk in enumerate(chunks(script(voters, by_mail), size)):
            posts = [
                (
                    compose_post(
                        post.author,
                        address(post.author),
                        "Elections",
                        post.body,
                        f"growth-{index}-{number}@example.test",
                        post.at,
                    ),
                    mbox_from_line(address(post.author), post.at),
                )
                for number, post in enumerate(chunk)
            ]
            mbox = folder / f"chunk-{index}.mbox"
            write_mbox(mbox, posts)
            if profiler is not None and chunk[0].kind == "ballot":
                profiler.enable()
            started = time.perf_counter()
            replay_archive(app, mbox, transport, until=chunk[-1].at)
            seconds = time.perf_counter() - started
            if profiler is not None:
                profiler.disable()
            per_thousand = seconds * 1000 / len(chunk)
            if chunk[0].kind == "ballot":
                ballot_times.append(per_thousand)
            print(
                f"  {chunk[0].kind:12} {len(chunk):5} posts: {seconds:8.2f} s"
                f"  ({per_thousand:7.2f} s per 1,000)",
                flush=True,
            )
        advance_to(app, VOTING_CLOSES + timedelta(hours=1))
        with app.session_factory() as session:
            rulings = list(session.scalars(select(ActionRecord.ruling)))
            elections = game_view(session, app.services, "elections").data
        app.engine.dispose()
    refused = sum(1 for ruling in rulings if ruling != "applied")
    (election,) = elections
    if refused or election["winner"] is None:
        raise SystemExit(f"{refused} posts refused; {election}: not as planned")
    growth = ballot_times[-1] / ballot_times[0]
    print(
        f"  {len(rulings)} posts applied; {election['winner']} selected. Ballots per 1,000: "
        f"first {ballot_times[0]:.2f} s, last {ballot_times[-1]:.2f} s, median "
        f"{statistics.median(ballot_times):.2f} s; last/first {growth:.2f}"
    )
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--voters", type=int, default=2000)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument("--baseline", default="", help="git revision to run first, e.g. main")
    parser.add_argument("--profile", action="store_true", help="profile the ballots")
    parser.add_argument(
        "--registrations-by-mail",
        action="store_true",
        help="register the voters by mail too (slow: every ruling renders the roster)",
    )
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    arguments = ["--voters", str(options.voters), "--chunk", str(options.chunk)]
    if options.registrations_by_mail:
        arguments.append("--registrations-by-mail")
    if options.profile:
        arguments.append("--profile")
    if options.baseline and not options.here:
        print(f"baseline ({options.baseline}), {options.voters} voters:", flush=True)
        run_baseline(Path(__file__), options.baseline, arguments)
    print(f"{'this checkout' if not options.here else 'code'}, {options.voters} voters:")
    run_here(options.voters, options.chunk, options.profile, options.registrations_by_mail)


if __name__ == "__main__":
    main()
