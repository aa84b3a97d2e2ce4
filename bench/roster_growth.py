"""A crowd registering by mail, and a start with thousands of configured players.

    .venv/bin/python bench/roster_growth.py [--players 3000] [--chunk 1000]
                                            [--configured 9000] [--baseline REF]

1. Registrations (rules 14, 21 A.2, 212): on the scripted game of
   ``election_growth.py`` (Alice, Bob and Carol configured, epoch
   2026-01-01), ``--players`` External Forces each post "I request to become
   a player with the name VoterX" on nday 1; the posts are replayed with
   ``replay_archive`` in chunks of ``--chunk`` posts on one SQLite database,
   and the time per 1,000 posts is printed for each chunk: 0-1,000 players,
   1,000-2,000, ...  A ruling's work should not grow with the roster; the
   last chunk / first chunk ratio says how flat it is.
2. Start-up (``build_app``, which syncs the configured players, rule 14)
   with ``--configured`` players listed in the configuration: the first
   start on an empty database, then a restart on the same one.

Every registration must be applied and the roster must list every player;
the bench fails loudly otherwise.  ``--baseline REF`` runs the same bench on
the ``bot`` package of git revision REF first (``runs.run_baseline``),
so both are printed side by side from one run.  ``--configured 0`` or
``--players 0`` skips a part.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from election_growth import CANDIDATES, address, registered_at, voter_name
from runs import run_baseline


def configured_name(number: int) -> str:
    return f"Configured{voter_name(number)[len('Voter') :]}"


def time_registrations(players: int, size: int) -> list[float]:
    """Seconds per 1,000 registrations of each chunk, replayed on one database."""
    from bot.app import build_app
    from bot.config import PlayerEntry
    from bot.engine.views import game_view
    from bot.outbound.transports import MaildirTransport
    from bot.posts import compose_post, mbox_from_line
    from bot.runner import replay_archive
    from bot.testing.apps import game_settings, write_mbox
    from bot.testing.judged import recorded_rulings

    with tempfile.TemporaryDirectory(prefix="nomicbot-roster-") as scratch:
        folder = Path(scratch)
        configured = tuple(PlayerEntry(name, (address(name),)) for name in CANDIDATES)
        app = build_app(game_settings(folder / "bot", players=configured))
        transport = MaildirTransport(folder / "out")
        per_thousand: list[float] = []
        for start in range(0, players, size):
            numbers = range(start, min(start + size, players))
            posts = [
                (
                    compose_post(
                        voter_name(number),
                        address(voter_name(number)),
                        "Joining",
                        f"I request to become a player with the name {voter_name(number)}.",
                        f"roster-growth-{number}@example.test",
                        registered_at(number, players),
                    ),
                    mbox_from_line(address(voter_name(number)), registered_at(number, players)),
                )
                for number in numbers
            ]
            mbox = folder / f"chunk-{start}.mbox"
            write_mbox(mbox, posts)
            started = time.perf_counter()
            replay_archive(app, mbox, transport, until=registered_at(numbers[-1], players))
            seconds = time.perf_counter() - started
            per_thousand.append(seconds * 1000 / len(numbers))
            print(
                f"  registrations {start:6,}-{numbers[-1] + 1:6,}: {seconds:8.2f} s"
                f"  ({per_thousand[-1]:7.2f} s per 1,000)",
                flush=True,
            )
        last = players - 1
        rulings = recorded_rulings(app, f"roster-growth-{last}@example.test")
        with app.session_factory() as session:
            listed = game_view(session, app.services, "players").data
        app.dispose()
    if rulings[0][1] != "applied" or len(listed) != players + len(CANDIDATES):
        raise SystemExit(f"not as planned: last ruling {rulings}, {len(listed)} listed")
    return per_thousand


def time_start(configured: int) -> tuple[float, float]:
    """Seconds of the first start with ``configured`` players listed, and of a restart."""
    from bot.app import build_app
    from bot.config import PlayerEntry
    from bot.engine.players import all_players
    from bot.testing.apps import game_settings

    entries = tuple(
        PlayerEntry(configured_name(number), (address(configured_name(number)),))
        for number in range(configured)
    )
    with tempfile.TemporaryDirectory(prefix="nomicbot-start-") as scratch:
        settings = game_settings(Path(scratch) / "bot", players=entries)
        seconds = []
        for _start in ("first", "restart"):
            started = time.perf_counter()
            app = build_app(settings)
            seconds.append(time.perf_counter() - started)
            with app.session_factory() as session:
                count = len(all_players(session))
            app.dispose()
            if count != configured:
                raise SystemExit(f"{count} players after a start with {configured} configured")
    return seconds[0], seconds[1]


def run_here(players: int, size: int, configured: int) -> None:
    if players:
        times = time_registrations(players, size)
        print(
            f"  registrations per 1,000: first {times[0]:.2f} s, last {times[-1]:.2f} s, "
            f"median {statistics.median(times):.2f} s; last/first {times[-1] / times[0]:.2f}",
            flush=True,
        )
    if configured:
        first, restart = time_start(configured)
        print(
            f"  start with {configured:,} configured players: first {first:.2f} s, "
            f"restart {restart:.2f} s",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument("--configured", type=int, default=9000)
    parser.add_argument("--baseline", default="", help="git revision to run first, e.g. main")
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    arguments = [
        *("--players", str(options.players), "--chunk", str(options.chunk)),
        *("--configured", str(options.configured)),
    ]
    if options.baseline and not options.here:
        print(f"baseline ({options.baseline}):", flush=True)
        run_baseline(Path(__file__), options.baseline, arguments)
    print("this checkout:" if not options.here else "code:", flush=True)
    run_here(options.players, options.chunk, options.configured)


if __name__ == "__main__":
    main()
