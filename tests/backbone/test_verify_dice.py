"""``nomicbot verify-dice`` re-derives every roll of a replayed game from its outbox.

The scripted game (one roll) plus a post with four more rolls is replayed to
an outbox Maildir; the real command then checks it, and catches a ruling or
a revealed seed edited afterwards.  Before an nweek's seed is revealed its
rolls are reported as not yet verifiable.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from datetime import datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest

from bot.outbound.transports import MaildirTransport
from bot.posts import mbox_from_line
from bot.runner import replay_archive
from bot.testing import go_game
from bot.testing.apps import make_app, write_mbox

MANY_ROLLS = go_game.ScriptedPost(
    go_game.BOB,
    go_game.SCRIPT[-1].at + timedelta(hours=1),
    "I roll 2d6. I roll a d20.\nI roll 1d4 twice.",
    900,
)
POSTS = (*go_game.SCRIPT, MANY_ROLLS)
ROLLS = 1 + 4  # the scripted game's 3d6, and this post's 2d6, d20, 1d4, 1d4
PAST_THE_END = go_game.GAME_END
INSIDE_THE_LAST_NWEEK = MANY_ROLLS.at + timedelta(hours=1)


def replay_outbox(folder: Path, until: datetime) -> Path:
    archive = folder / "game.mbox"
    write_mbox(archive, [(post.raw(), mbox_from_line(post.author[1], post.at)) for post in POSTS])
    app = make_app(folder / "bot")
    report = replay_archive(app, archive, MaildirTransport(folder / "outbox"), until=until)
    assert report.queue.processed == len(POSTS)
    app.dispose()
    return folder / "outbox"


@pytest.fixture(scope="module")
def finished_outbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return replay_outbox(tmp_path_factory.mktemp("finished"), PAST_THE_END)


@pytest.fixture
def outbox_copy(finished_outbox: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished_outbox, tmp_path / "outbox"))


def verify_dice(outbox: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "verify-dice", str(outbox)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def mail_file(outbox: Path, header: str, value: str) -> tuple[Path, EmailMessage]:
    """The one mail of the Maildir whose ``header`` is ``value``."""
    found = []
    for path in sorted((outbox / "new").iterdir()):
        mail = message_from_bytes(path.read_bytes(), policy=default)
        assert isinstance(mail, EmailMessage)
        if str(mail.get(header, "")) == value:
            found.append((path, mail))
    assert len(found) == 1, f"{len(found)} mails with {header}: {value}"
    return found[0]


def edit_body(outbox: Path, header: str, value: str, old: str, new: str) -> None:
    path, mail = mail_file(outbox, header, value)
    part = mail.get_body(preferencelist=("plain",))
    assert part is not None
    body = str(part.get_content())
    assert body.count(old) == 1, f"{old!r} not found once in the mail"
    mail.set_content(body.replace(old, new), charset="utf-8")
    path.write_bytes(mail.as_bytes())


def body_of(mail: EmailMessage) -> str:
    part = mail.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def roll_text(outbox: Path, message_id: str, action: int) -> tuple[str, int]:
    """The ruling's text for one roll of a single die, and the face it shows."""
    _path, mail = mail_file(outbox, "In-Reply-To", f"<{message_id}>")
    pattern = (
        r"rolled 1d\d+: (\d+) = \d+ +\[verify: [^\]]*"
        rf"message-id={re.escape(message_id)} action={action} [^\]]*\]"
    )
    match = re.search(pattern, body_of(mail))
    assert match is not None, f"no roll {action} in the ruling on <{message_id}>"
    return match[0], int(match[1])


def test_every_roll_of_the_finished_game_verifies(finished_outbox: Path) -> None:
    done = verify_dice(finished_outbox)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == (
        f"{ROLLS} roll(s) and draw(s) checked: {ROLLS} correct, 0 wrong; 0 not yet verifiable "
        "(seed not revealed); 0 seed(s) not matching their commitment: all verified"
    )


def test_an_edited_roll_is_named(outbox_copy: Path) -> None:
    text, face = roll_text(outbox_copy, MANY_ROLLS.message_id, 2)  # the d20, the ruling's item 2
    changed = face % 20 + 1
    forged = text.replace(f"{face} = {face}", f"{changed} = {changed}").replace(
        f"faces={face}]", f"faces={changed}]"
    )
    edit_body(outbox_copy, "In-Reply-To", f"<{MANY_ROLLS.message_id}>", text, forged)
    done = verify_dice(outbox_copy)
    assert done.returncode == 1
    [line] = [line for line in done.stdout.splitlines() if line.startswith("TAMPERED")]
    assert f"roll 2 of <{MANY_ROLLS.message_id}>" in line
    assert f"should have rolled [{face}], not [{changed}]" in line
    assert f"{ROLLS} roll(s) and draw(s) checked: {ROLLS - 1} correct, 1 wrong" in done.stdout


def test_an_edited_result_with_its_proof_line_untouched_is_named(outbox_copy: Path) -> None:
    text, face = roll_text(outbox_copy, MANY_ROLLS.message_id, 2)
    changed = face % 20 + 1
    forged = text.replace(f"{face} = {face}", f"{changed} = {changed}")
    edit_body(outbox_copy, "In-Reply-To", f"<{MANY_ROLLS.message_id}>", text, forged)
    done = verify_dice(outbox_copy)
    assert done.returncode == 1
    assert f"TAMPERED or wrong: roll 2 of <{MANY_ROLLS.message_id}>" in done.stdout
    assert f"the ruling shows '1d20: {changed} = {changed}'" in done.stdout


def test_an_edited_seed_is_reported(outbox_copy: Path) -> None:
    _path, reveal = mail_file(outbox_copy, "Subject", "[dice] Seed revealed for nweek 1")
    seed = body_of(reveal).split("Seed: ", 1)[1].split()[0]
    forged = ("0" if seed[0] != "0" else "1") + seed[1:]
    edit_body(
        outbox_copy,
        "Subject",
        "[dice] Seed revealed for nweek 1",
        f"Seed: {seed}",
        f"Seed: {forged}",
    )
    done = verify_dice(outbox_copy)
    assert done.returncode == 1
    assert "nweek 1: revealed seed does NOT match its commitment" in done.stdout
    assert f"roll 2 of <{go_game.SCRIPT[0].message_id}>" in done.stdout  # the 3d6 of nweek 1
    assert "1 seed(s) not matching their commitment: PROBLEMS FOUND" in done.stdout


def test_an_archive_with_nothing_to_check_says_so_and_fails(tmp_path: Path) -> None:
    # The players' posts alone: no ruling of the bot's, so no roll to check.
    archive = tmp_path / "posts.mbox"
    write_mbox(archive, [(post.raw(), mbox_from_line(post.author[1], post.at)) for post in POSTS])
    done = verify_dice(archive)
    assert done.returncode == 1
    assert done.stdout.strip() == (
        f"nothing to check: none of the {len(POSTS)} message(s) in the archive is the bot's "
        "(give the list archive, or the bot's outbox Maildir)"
    )
    (tmp_path / "empty").mkdir()
    for folder in ("cur", "new", "tmp"):
        (tmp_path / "empty" / folder).mkdir()
    assert verify_dice(tmp_path / "empty").returncode == 1


def test_only_unrevealed_rolls_verify_nothing_yet_and_fail(tmp_path: Path) -> None:
    outbox = replay_outbox(tmp_path, MANY_ROLLS.at + timedelta(seconds=1))
    reveal, _mail = mail_file(outbox, "Subject", "[dice] Seed revealed for nweek 1")
    reveal.unlink()  # as if nweek 1 had not ended
    done = verify_dice(outbox)
    assert done.returncode == 1
    assert done.stdout.strip().splitlines()[-1] == (
        "nothing verified yet: 5 roll(s) and draw(s) wait for the seed of their nweek, "
        "revealed when it ends"
    )


def test_rolls_before_their_seed_is_revealed_are_not_yet_verifiable(tmp_path: Path) -> None:
    outbox = replay_outbox(tmp_path, INSIDE_THE_LAST_NWEEK)
    done = verify_dice(outbox)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == (
        "1 roll(s) and draw(s) checked: 1 correct, 0 wrong; 4 not yet verifiable "
        "(seed not revealed); 0 seed(s) not matching their commitment: all verified"
    )
