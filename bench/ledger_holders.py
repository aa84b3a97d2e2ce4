"""The ledger's holders that are no players and the Basin's count, as the history grows.

    .venv/bin/python bench/ledger_holders.py [--short 1000] [--long 200000] [--rounds 7]
        [--baseline REF]

Rule 21 A.2: the Twiddler's display shows the tildex of every entity, and
the Basin may create no more than 10000~ each nweek.  On one SQLite
database (the schema from the migrations) with 50 players, each operation
a post or a display performs is timed ``--rounds`` times (rolled back where
it writes), and the medians are printed side by side with their ratio:

* ``entity_balance``: what the Store holds (a purchase's check, rule 1911);
* ``basin_created``: what the Basin created in the nweek in progress;
* ``create_tildex``: a registration's 500~ through the Basin (count, cap, entry);
* ``balance``: a player's tildex (every payment's check, as before);
* ``holdings view``: the whole Twiddler's display (``nomicbot state holdings``).

Two histories, each from ``--short`` entries to ``--long``:

1. **others' history grows**: the entries added are other players' and
   past nweeks' (the Store keeps 300 entries, the player measured 50, the
   nweek in progress 20 of the Basin's).  A post's reads should stay flat.
2. **the Store's own history grows**: every entry added is a purchase paid
   to the Store.  Since revision 0013 its balance is one ``balance`` row,
   as a player's is, so it should stay flat too; before, it was a sum over
   its own entries and grew with them.  (The Basin's nweek cannot grow: at
   most 10000~ a nweek.)

The entries are loaded in bulk and their balances written from their sums
(``ledger.rebuild_balances``).  ``--baseline REF`` first runs the same
measures on git revision REF's ``bot`` package (``runs.run_baseline``), so
the two trees' figures are printed one above the other in one run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from runs import run_baseline

PLAYERS = 50
NWEEKS = 40
STORE = "the Store"
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def entry(number: int, holder: str, nweek: int | None) -> dict[str, object]:
    """One ledger entry of 5~: a player's ("Player07"), the Store's, or the Basin's creation."""
    player = None if holder == STORE else int(holder.removeprefix("Player")) + 1
    return {
        "player_id": player,
        "entity": STORE if holder == STORE else None,
        "currency": "tildex",
        "amount": 5,
        "source": "post",
        "rule": "1911" if holder == STORE else "125",
        "note": "",
        "occurred_at": EPOCH + timedelta(seconds=number),
        "basin_nweek": nweek,
    }


def base_rows() -> list[dict[str, object]]:
    """The Store's 300 entries, the measured player's 50, the nweek in progress's 20."""
    rows = [entry(n, STORE, None) for n in range(300)]
    rows += [entry(n, "Player00", None) for n in range(50)]
    rows += [entry(n, "Player01", NWEEKS - 1) for n in range(20)]
    return rows


def others(count: int) -> list[dict[str, object]]:
    """Entries of the other players, the Basin's in past nweeks."""
    return [entry(n, f"Player{2 + n % (PLAYERS - 2):02d}", n % (NWEEKS - 1)) for n in range(count)]


def purchases(count: int) -> list[dict[str, object]]:
    return [entry(n, STORE, None) for n in range(count)]


def grow(session: object, rows: list[dict[str, object]]) -> None:
    from sqlalchemy import insert
    from sqlalchemy.orm import Session

    from bot.engine import ledger
    from bot.store.models import LedgerEntry

    assert isinstance(session, Session)
    if rows:
        session.execute(insert(LedgerEntry), rows)
    # The entries went in around ``ledger.record``: their balances are written
    # after them.  A tree that sums the ledger for each balance (a baseline
    # before revision 0013) keeps none.
    rebuild = getattr(ledger, "rebuild_balances", None)
    if rebuild is not None:
        rebuild(session)
    session.commit()


def median_seconds(operation: Callable[[], object], rounds: int) -> float:
    durations = []
    for _ in range(rounds):
        started = time.perf_counter()
        operation()
        durations.append(time.perf_counter() - started)
    return statistics.median(durations)


def measure(app: object, rounds: int) -> dict[str, float]:
    from bot.app import App
    from bot.engine import holdings, ledger
    from bot.engine.views import game_view

    assert isinstance(app, App)
    at = EPOCH + timedelta(days=10 * (NWEEKS - 1), hours=1)
    nweek = app.services.clock.reading(at).nweek
    results: dict[str, float] = {}
    with app.session_factory() as session:
        results["entity_balance"] = median_seconds(
            lambda: ledger.entity_balance(session, STORE, holdings.TILDEX), rounds
        )
        results["basin_created"] = median_seconds(
            lambda: ledger.basin_created(session, nweek), rounds
        )

        def registration() -> None:
            with session.begin_nested() as savepoint:
                holdings.create_tildex(
                    session, 1, 500, nweek=nweek, at=at, rule="21 A.2", note="entering"
                )
                savepoint.rollback()

        results["create_tildex"] = median_seconds(registration, rounds)
        results["balance"] = median_seconds(
            lambda: ledger.balance(session, 1, holdings.TILDEX), rounds
        )  # Player00's
        results["holdings view"] = median_seconds(
            lambda: game_view(session, app.services, "holdings", at=at), rounds
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", type=int, default=1000)
    parser.add_argument("--long", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", default="", help="git revision to run first, e.g. main")
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.baseline and not options.here:
        arguments = ["--short", str(options.short), "--long", str(options.long)]
        arguments += ["--rounds", str(options.rounds)]
        print(f"baseline ({options.baseline}):", flush=True)
        run_baseline(Path(__file__), options.baseline, arguments)
        print("this checkout:", flush=True)

    from bot.app import build_app
    from bot.config import PlayerEntry
    from bot.testing.apps import game_settings

    players = tuple(
        PlayerEntry(f"Player{n:02d}", (f"player{n:02d}@example.test",)) for n in range(PLAYERS)
    )
    added = options.long - options.short
    histories = {
        "others' history grows": (others(options.short), others(added)),
        "the Store's own history grows": (purchases(options.short), purchases(added)),
    }
    for title, (first, then) in histories.items():
        with tempfile.TemporaryDirectory(prefix="nomicbot-ledger-") as scratch:
            app = build_app(game_settings(Path(scratch) / "bot", players=players))
            try:
                with app.session_factory() as session:
                    grow(session, base_rows() + first)
                short = measure(app, options.rounds)
                with app.session_factory() as session:
                    grow(session, then)
                long = measure(app, options.rounds)
            finally:
                app.dispose()
        print(
            f"{title}: {options.short:,} entries, then {options.long:,} (medians of "
            f"{options.rounds} rounds)"
        )
        for name in short:
            ratio = long[name] / short[name]
            print(
                f"  {name:<15} {short[name] * 1000:9.3f} ms  {long[name] * 1000:9.3f} ms"
                f"  long/short {ratio:6.2f}"
            )


if __name__ == "__main__":
    main()
