"""The console acts as the Referee: ``nomicbot field select / initialize / evolve / turns``.

Each console action is saved like a post's and reported to the list, so the
Public Display (seed 003) and the draws are published whoever acted.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from bot.cli import main
from bot.outbound.transports import MaildirTransport
from bot.runner import deliver
from bot.testing.apps import body_of, maildir_mails
from bot.testing.field_matches import field_app, write_field_config

AT = "2026-01-03T09:00:00Z"  # nweek 1 (zero-based 0)


def test_the_console_selects_initializes_and_evolves_as_referee(tmp_path: Path) -> None:
    config = write_field_config(tmp_path / "bot")
    runner = CliRunner()

    def field(*words: str) -> str:
        result = runner.invoke(main, ["field", *words, "--config", str(config)])
        assert result.exit_code == 0, result.output
        return result.output

    assert "Life is now the Current Field Match (5 x 5 torus)" in field(
        "select", "life", "--at", AT
    )
    initialized = field("initialize", "--at", AT)
    assert "Turn 1 of the Field (nweek 1)" in initialized
    assert "Initialize (requested by nomicbot)" not in initialized  # Rita is the Referee
    assert "Initialize (requested by Rita)" in initialized
    assert "[verify: nweek=1 draw-v1 context=console-turn-1 number=0 kind=randint" in initialized
    again = field("initialize", "--at", AT)  # a refused request is still a Turn, reported
    assert "refused Initialize by Rita: Life is already initialized: Cells exist" in again
    busy = runner.invoke(main, ["field", "select", "b-chess", "--at", AT, "--config", str(config)])
    assert busy.exit_code != 0 and "Life is already the Current Field Match" in busy.output
    evolved = field("evolve", "--at", AT)
    assert "Evolve (requested by Rita)" in evolved and "Life: 5 x 5 torus" in evolved
    turns = json.loads(field("turns", "--json"))
    assert [entry["context"] for entry in turns] == [
        "console-turn-1",
        "console-turn-2",
        "console-turn-3",
    ]
    app = field_app(tmp_path / "bot")
    deliver(app, MaildirTransport(tmp_path / "out"))
    reports = [m for m in maildir_mails(tmp_path / "out") if m["X-Nomicbot-Kind"] == "field-turn"]
    subjects = sorted(str(mail["Subject"]) for mail in reports)
    assert subjects == [
        "[field] Life is the Current Field Match",
        "[field] Life: Evolve by the Referee (Turn 3)",
        "[field] Life: Initialize by the Referee (Turn 1)",
        "[field] Life: Initialize by the Referee (Turn 2)",
    ]
    assert all("Life: 5 x 5 torus" in body_of(mail) for mail in reports)
