"""Unbounded repeats: one post's cost is bounded, and its ruling says what was not taken.

"I roll 1d6 100000 times." (a 300-byte post, even from a non-player) used to
take a quarter of a minute and half a gigabyte, and mail a 17 MB ruling to
the list; a billion times ran out of memory.  The reading "Limits on one
post" of rule 1896 (docs/readings.md) takes at most 20 repeats of one action
and 50 actions from a post, and one ruling mail is at most 256 KiB of text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

from bot.app import App
from bot.engine.rulings import Outcome, Ruling
from bot.engine.unit import PostOutcome
from bot.outbound.compose import compose_ruling_reply
from bot.outbound.size import MAX_QUOTE_CHARS, MAX_RULING_CHARS
from bot.parser.limits import MAX_ACTIONS, MAX_REPEATS
from bot.pipeline import PostContext
from bot.store.models import Message
from bot.testing import go_game

MALLORY = "Mallory <mallory@example.test>"
LIMITS = 'this referee\'s reading "Limits on one post"'


def test_repeats_past_twenty_are_not_taken_and_the_ruling_says_why(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    judge(game_app, [make_post("thirty@example.test", "I roll 1d6 30 times. I pass.")])
    rows = records.actions(game_app, "thirty@example.test")
    outcomes = [(row.position, row.action, row.ruling) for row in rows]
    assert outcomes == [
        *[(n, "dice.roll", "applied") for n in range(1, MAX_REPEATS + 1)],
        (21, "dice.roll", "not_taken"),
        (22, "go.pass", "applied"),  # the actions after it are still taken, in order
    ]
    assert rows[20].rule == "1896"
    body = records.ruling_text(game_app, "thirty@example.test")
    not_taken = body[body.index("NOT TAKEN") :]
    assert '21. "I roll 1d6 30 times."' in not_taken
    assert (
        "Not taken: repeats 21 to 30, as one action is done at most 20 times in one post "
        f"({LIMITS}) (rule 1896)"
    ) in not_taken


def test_a_post_takes_at_most_fifty_actions_and_is_read_no_further(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    body = "I roll 1d6 twice.\n" * 30  # 60 actions in 30 clauses
    body += "".join(f"I roll {n}d6.\n" for n in range(1, 30))  # 29 more clauses
    judge(game_app, [make_post("many@example.test", body)])
    rows = records.actions(game_app, "many@example.test")
    assert [row.ruling for row in rows].count("applied") == MAX_ACTIONS
    withheld = [row for row in rows if row.ruling == "not_taken"]
    assert len(withheld) == 25  # clauses 26-50, each answered once
    assert all(row.rule == "1896" for row in withheld)
    text = records.ruling_text(game_app, "many@example.test")
    assert "it comes after the first 50 actions of the post" in text
    assert '- Not read, from here to the end of the post: "I roll 21d6."' in text
    assert "One post is read up to its 50th action or clause not understood" in text


def test_a_billion_repeats_by_a_non_player_cost_next_to_nothing(tmp_path: Path) -> None:
    # In a process of its own with a 1.5 GB address space, so that the old
    # behaviour (building a billion items) fails fast instead of taking the
    # machine's memory.
    script = tmp_path / "billion.py"
    script.write_text(BILLION_SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "run")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.splitlines()[-1])
    assert figures["status"] == "processed"
    assert figures["rulings"] == {"rejected": MAX_REPEATS, "not_taken": 1}
    assert figures["seconds"] < 10
    assert figures["peak_mib"] < 400
    assert figures["ruling_bytes"] < 20_000


BILLION_SCRIPT = """
import json, resource, sys, time
from collections import Counter
from pathlib import Path

resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
from sqlalchemy import select
from bot.engine.worker import process_queue
from bot.runner import store_message
from bot.store.models import ActionRecord, Message, OutboxMessage
from bot.posts import compose_post
from bot.testing.apps import make_app
from bot.testing.go_game import EPOCH, LIST_ADDRESS

app = make_app(Path(sys.argv[1]))
body = "I roll 1d6 1000000000 times."
mallory = ("Mallory", "mallory@example.test")
raw = compose_post(*mallory, "Dice", body, "billion@example.test", EPOCH, LIST_ADDRESS)
started = time.perf_counter()
store_message(app, raw, "smtp", EPOCH)
process_queue(app.session_factory, app.services)
seconds = time.perf_counter() - started
with app.session_factory() as session:
    status = session.scalar(select(Message.status))
    rulings = Counter(session.scalars(select(ActionRecord.ruling)))
    ruling = session.scalars(select(OutboxMessage.raw).where(OutboxMessage.kind == "ruling")).all()
print(json.dumps({
    "status": status,
    "rulings": dict(rulings),
    "seconds": seconds,
    "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "ruling_bytes": sum(len(r) for r in ruling),
}))
"""


def test_a_sentence_a_quarter_megabyte_long_is_quoted_short(
    game_app: App, make_post: Callable[..., bytes], judge: Any, records: Any
) -> None:
    # Every action read from a sentence quotes the sentence: twenty of them
    # quoting 300 kB each made a six-megabyte ruling.
    sentence = "I roll 1d6 20 times for " + "a very long reason " * 16_000 + "."
    judge(game_app, [make_post("long@example.test", sentence)])
    [row] = records.rulings(game_app, "long@example.test")
    assert len(row.raw) < 40_000
    text = records.ruling_text(game_app, "long@example.test")
    quotes = [line for line in text.splitlines() if line.startswith("  1. ")]
    assert quotes and len(quotes[0]) < MAX_QUOTE_CHARS + 10
    assert quotes[0].endswith(' [...]"')


def test_a_ruling_mail_is_cut_with_a_line_saying_so(game_app: App) -> None:
    # Nothing a post can say makes a ruling this long any more; the cap is
    # the last line of defence, so it is exercised with a made-up outcome.
    identifier = "huge@example.test"
    message = Message(id=1, message_id=identifier, subject="Huge", raw=b"")
    context = PostContext(raw=b"", settings=game_app.services.pipeline_settings)
    context.author = go_game.ALICE[1]
    at = datetime(2026, 1, 1, 1, tzinfo=UTC)
    ruling = Ruling(1, "go.pass", {}, "I pass. " * 50, Outcome.APPLIED, "Alice passed " * 20)
    rulings = tuple(replace(ruling, position=n) for n in range(1, 3001))
    outcome = PostOutcome(rulings, (None,) * len(rulings), (), (), at)
    row = compose_ruling_reply(message, context, outcome, game_app.services)
    mail = message_from_bytes(row.raw, policy=default)
    assert isinstance(mail, EmailMessage)
    part = mail.get_body(preferencelist=("plain",))
    assert part is not None
    text = str(part.get_content())
    assert len(text) <= MAX_RULING_CHARS
    assert text.startswith("Ruling on the post by")
    assert "of this ruling are left out here: one ruling mail is cut at 262,144" in text
    assert (
        f"The full ruling is in the bot's records: the action log of the post\n<{identifier}>"
        in (text)
    )
    assert text.rstrip().endswith(
        "A ruling you believe wrong can be questioned by a CFI (rule 125)."
    )
