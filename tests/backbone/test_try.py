"""``nomicbot try``: a scripted or typed nweek on a fast clock, never the live game."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.games import dice
from bot.trial import ScriptLine, When, parse_script

LIVE_SECRET = "11" * 32
CONFIG = f"""\
[bot]
address = "referee@nomic.test"
list_address = "nomic@nomic.test"
list_id = "nomic.nomic.test"
master_secret = "{LIVE_SECRET}"
data_dir = "{{live}}"

[ntime]
epoch = "2026-03-01T00:00:00Z"

[[players]]
name = "Alice"
addresses = ["alice@example.org"]

[[players]]
name = "Bob"
addresses = ["bob@example.org"]
"""
SCRIPT = """\
# The first nweek of the game.
nweek 1, nday 1, 09:00  Alice: I place a stone at E5. I roll 2d6.
+1h  Alice: I place a stone at E4.
+1d  Carol <carol@example.org>: I request to become a player with the name Carol.
+1h  Alice: I submit a proposal:
    __Cake__ {{ Everyone gets cake. }}
nweek 1, nday 8, 10:00  Bob: I vote FOR 100.
"""


def nomicbot(*arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def configured(tmp_path: Path) -> tuple[Path, Path]:
    live = tmp_path / "live"
    config = tmp_path / "game.toml"
    config.write_text(CONFIG.replace("{live}", str(live)), encoding="utf-8")
    return config, live


def test_a_scripted_nweek_runs_in_seconds_and_leaves_the_live_game_alone(tmp_path: Path) -> None:
    config, live = configured(tmp_path)
    script = tmp_path / "week.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    done = nomicbot("--config", str(config), "try", str(script))
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "post 1: Alice, nweek 1, nday 1 (2026-03-01 09:00 UTC)" in out
    assert "Alice placed a stone at E5 (rule 1639 C)" in out
    # Rule 1639 C: one Move per Checking Period; the refusal says when again.
    assert (
        "Alice may move again from the next Checking Period, nweek 1, nday 4 "
        "(2026-03-04 00:00 UTC)" in out
    )
    assert "carol@example.org is now a player, known as Carol" in out
    assert 'proposal 100/0 "Cake" submitted by Alice for 2BW' in out  # rules 5, 19, 212
    assert "[ballot] Results of the Ballot of nweek 1" in out
    assert "[dice] Seed revealed for nweek 1" in out
    assert "5 post(s) judged" in out
    assert "the trial ends at nweek 2, nday 1." in out
    # Nothing of the live game: no data directory, and not its dice secret.
    assert not live.exists()
    live_commitment = dice.commitment(dice.nweek_seed(bytes.fromhex(LIVE_SECRET), 0))
    assert live_commitment not in done.stdout


def test_typed_posts_brief_and_until(tmp_path: Path) -> None:
    config, _ = configured(tmp_path)
    typed = "Alice: I roll 1d6.\n+3d\nBob: I place a stone at A1.\n"
    done = nomicbot(
        "--config", str(config), "try", "--brief", "--until", "2026-03-22T00:00:00Z", stdin=typed
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "  -> 2026-03-01 00:00 UTC  ruling           Re: [try] I roll 1d6." in lines
    assert any("action=1 spec=1d6" in line for line in lines)  # the ruling's item 1
    assert "===== post 2: Bob, nweek 1, nday 4 (2026-03-04 01:00 UTC) " in done.stdout
    assert sum("[dice] Seed revealed" in line for line in lines) == 2  # nweeks 1 and 2
    assert lines[-1] == (
        "2 post(s) judged, 7 mail(s) the bot would have sent; the trial ends at nweek 3, nday 2."
    )


def test_a_script_going_back_in_time_is_refused_naming_the_line(tmp_path: Path) -> None:
    config, _ = configured(tmp_path)
    script = tmp_path / "back.txt"
    script.write_text("nweek 1, nday 3  Alice: I roll 1d6.\nnweek 1, nday 2  Bob: hi\n")
    done = nomicbot("--config", str(config), "try", str(script))
    assert done.returncode == 1
    assert (
        "script: line 2: 2026-03-02 00:00 UTC is before the previous post (2026-03-03 00:00 UTC)"
        in done.stderr
    )
    assert "Traceback" not in done.stderr


def test_the_script_format() -> None:
    lines = parse_script(
        "# comment\n"
        "Alice: I pass.\n"
        "+90m  Bob <bob@elsewhere.test>: I submit a proposal:\n"
        "    __T__ {{ x }}\n"
        "\n"
        "2026-03-05T12:00Z\n"
        "nweek 2, nday 3, 18:30  Carol: I roll 1d6.\n"
    )
    assert lines == [
        ScriptLine(2, When(), "Alice", "", "I pass."),
        ScriptLine(
            3,
            When(after=timedelta(minutes=90)),
            "Bob",
            "bob@elsewhere.test",
            "I submit a proposal:\n__T__ {{ x }}",
        ),
        ScriptLine(6, When(instant=datetime(2026, 3, 5, 12, tzinfo=UTC))),
        ScriptLine(7, When(clock=(2, 3, 18, 30)), "Carol", "", "I roll 1d6."),
    ]
