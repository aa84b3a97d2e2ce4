"""The judging process's cost per Political Go post and per mail, side by side with a baseline.

    .venv/bin/python bench/go_state.py [--rounds 7] [--baseline REF] [--stones 56]
        [--loads 1000] [--mails 1400]

What a replay of ``bench/pipeline.py``'s archive does about a thousand times
(its stage table: "Go state load", the saves, "outbox delivery"), alone:

1. load: the stored game of rule 1639 (a ``game`` row in a fresh SQLite
   database: 9x9, ten players, ``--stones`` stones drawn into a legal
   position; the pipeline's 4,000 posts leave 68, the few draws of a
   random fill stop near 56) read by ``bot.engine.games.go.load_game`` ``--loads``
   times, the session emptied before each, as the worker empties it between
   posts;
2. save: ``state_to_json`` without the ko history, then the text the JSON
   column stores (``json.dumps``), ``--loads`` times;
3. delivery: ``--mails`` mails of 3.5 kB (a ruling's median size) through a
   ``MaildirTransport`` within ``deferred()``, settled every 50 as the sender
   does (``bot.outbound.sender.BATCH_SIZE``), into a fresh Maildir; timed
   with and without the settles, whose two ``os.sync`` calls measure the
   disk more than the code; the median of three such deliveries.

Each round runs this checkout and, with ``--baseline REF``, the ``bot``
package of git revision REF (``git archive`` on ``PYTHONPATH``) in a child
process each, in turn, the order alternating between rounds so that machine
noise hits both.  Prints the median of the rounds per operation and the
ratio baseline / this checkout (above 1: this checkout is faster), and
fails loudly unless both load the same state, store the same text and write
the same files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from runs import ROOT

SIZE = 9
PLAYERS = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy")
MAIL_BYTES = 3_500
SETTLE_EVERY = 50


def stored_game(stones: int) -> Any:
    """A legal 9x9 position of ``PLAYERS`` with ``stones`` stones, placed by a fixed draw."""
    from bot.games import go

    generator = random.Random(1639)
    state = go.add_players(go.new_game(go.GoParameters(size=SIZE)), PLAYERS)
    placed: dict[int, str] = {}
    for point in generator.sample(range(SIZE * SIZE), SIZE * SIZE):
        if len(placed) == stones:
            return state
        trial = placed | {point: generator.choice(PLAYERS)}
        try:
            state = go.with_stones(state, trial)
        except ValueError:
            continue  # a Dragon without Liberties (rule 1639 D): not a position of play
        placed = trial
    raise SystemExit(f"no legal position with {stones} stones found")


def time_loads(folder: Path, stones: int, loads: int) -> tuple[float, str]:
    """Microseconds per ``load_game``, and a digest of what it loaded."""
    from sqlalchemy.orm import Session

    from bot.engine.games.go import load_game
    from bot.games import go
    from bot.store.database import make_engine
    from bot.store.models import Base, GameRecord

    engine = make_engine(f"sqlite:///{folder / 'go.sqlite3'}")
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        state = go.state_to_json(stored_game(stones), include_history=False)
        session.add(GameRecord(name="go", state=state, version=1))
        session.commit()
        load_game(session, SIZE)  # the statement compiled once, as in any long run
        start = time.perf_counter()
        for _ in range(loads):
            session.expunge_all()
            _record, loaded = load_game(session, SIZE)
        elapsed = time.perf_counter() - start
    engine.dispose()
    text = json.dumps(go.state_to_json(loaded))
    return elapsed / loads * 1e6, hashlib.sha256(text.encode()).hexdigest()


def time_saves(stones: int, saves: int) -> tuple[float, str]:
    """Microseconds per encoding of the state as the column stores it, and the text's digest."""
    from bot.games import go

    state = stored_game(stones)
    start = time.perf_counter()
    for _ in range(saves):
        text = json.dumps(go.state_to_json(state, include_history=False))
    elapsed = time.perf_counter() - start
    return elapsed / saves * 1e6, hashlib.sha256(text.encode()).hexdigest()


def time_delivery(folder: Path, mails: int) -> tuple[float, float, str]:
    """Microseconds per mail with and without the settles, and a digest of the files.

    The median of three deliveries, each into a fresh Maildir: creating a
    file waits on whatever else the disk is doing.
    """
    trials = [deliver_once(folder / f"outbox-{trial}", mails) for trial in range(3)]
    whole = statistics.median(trial[0] for trial in trials)
    writing = statistics.median(trial[1] for trial in trials)
    digests = {trial[2] for trial in trials}
    if len(digests) != 1:
        raise SystemExit("three deliveries of the same mails wrote different files")
    return whole, writing, digests.pop()


def deliver_once(outbox: Path, mails: int) -> tuple[float, float, str]:
    from bot.outbound.transports import MaildirTransport

    body = (b"The ruling on your post. " * (MAIL_BYTES // 25 + 1))[:MAIL_BYTES]
    raws = [f"Subject: ruling {number}\n\n".encode() + body for number in range(mails)]
    transport = MaildirTransport(outbox)
    writing = 0.0
    start = time.perf_counter()
    with transport.deferred():
        for first in range(0, mails, SETTLE_EVERY):
            written = time.perf_counter()
            for number in range(first, min(first + SETTLE_EVERY, mails)):
                transport.send(raws[number], "bot@example.test", [], f"{number}@example.test")
            writing += time.perf_counter() - written
            transport.settle()
    whole = time.perf_counter() - start
    files = sorted((outbox / "new").iterdir())
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    if len(files) != mails or any((outbox / "tmp").iterdir()):
        raise SystemExit(f"{len(files)} mails in new/ of {mails}, or some left in tmp/")
    return whole / mails * 1e6, writing / mails * 1e6, digest.hexdigest()


def run_child(options: argparse.Namespace) -> None:
    """One round of this process's ``bot`` package: one JSON line on stdout."""
    with tempfile.TemporaryDirectory(prefix="nomicbot-go-state-") as scratch:
        folder = Path(scratch)
        load, loaded = time_loads(folder, options.stones, options.loads)
        save, saved = time_saves(options.stones, options.loads)
        delivery, writing, files = time_delivery(folder, options.mails)
    figures = {"load": load, "save": save, "delivery": delivery, "writing": writing}
    print(json.dumps({"figures": figures, "digests": [loaded, saved, files]}))


def child_round(code: Path, options: argparse.Namespace) -> dict[str, Any]:
    arguments = ["--child", "--stones", str(options.stones), "--loads", str(options.loads)]
    arguments += ["--mails", str(options.mails)]
    environment = os.environ | {"PYTHONPATH": str(code)}
    command = [sys.executable, str(Path(__file__).resolve()), *arguments]
    output = subprocess.run(command, check=True, capture_output=True, text=True, env=environment)
    result: dict[str, Any] = json.loads(output.stdout.splitlines()[-1])
    return result


def baseline_code(reference: str, scratch: Path) -> Path:
    """The tree of git revision ``reference``, exported into ``scratch``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", reference], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive, check=True)
    return scratch


LABELS = {
    "load": "Go state load (load_game), per load",
    "save": "Go state save (state_to_json + json.dumps)",
    "delivery": "Maildir delivery, per mail, with settles",
    "writing": "Maildir delivery, per mail, sends alone",
}


def report(rounds: dict[str, list[dict[str, Any]]]) -> None:
    sides = list(rounds)
    print(f"medians of {len(rounds[sides[0]])} rounds, microseconds per operation")
    print(f"{'operation':46s}" + "".join(f"{side:>14s}" for side in sides) + "   ratio")
    for key, label in LABELS.items():
        medians = [statistics.median(r["figures"][key] for r in rounds[side]) for side in sides]
        ratio = f"   {medians[0] / medians[-1]:.2f}" if len(sides) == 2 else ""
        print(f"{label:46s}" + "".join(f"{median:14.1f}" for median in medians) + ratio)
    if len(sides) == 2:
        print("ratio: baseline / this checkout (above 1: this checkout is faster)")
    for side in sides:
        for key in LABELS:
            every = ", ".join(f"{r['figures'][key]:.0f}" for r in rounds[side])
            print(f"  {side}, {key}, every round: {every}")
    digests = {tuple(r["digests"]) for side in sides for r in rounds[side]}
    if len(digests) != 1:
        raise SystemExit(f"the sides loaded, stored or wrote different things: {digests}")
    print("both sides loaded the same state, stored the same text and wrote the same files")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", help="git revision to compare with, side by side")
    parser.add_argument("--stones", type=int, default=56)
    parser.add_argument("--loads", type=int, default=1000)
    parser.add_argument("--mails", type=int, default=1400)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        run_child(options)
        return
    with tempfile.TemporaryDirectory(prefix="nomicbot-baseline-") as scratch:
        codes = {"this checkout": ROOT}
        if options.baseline:
            codes = {options.baseline: baseline_code(options.baseline, Path(scratch))} | codes
        rounds: dict[str, list[dict[str, Any]]] = {side: [] for side in codes}
        for number in range(options.rounds):
            order = list(codes) if number % 2 == 0 else list(reversed(codes))
            for side in order:
                rounds[side].append(child_round(codes[side], options))
        report(rounds)


if __name__ == "__main__":
    main()
