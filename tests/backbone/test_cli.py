"""The ``nomicbot`` command line, run as a real subprocess."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine.registry import default_games
from bot.engine.views import game_view, views_of
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.testing import go_game
from bot.testing.apps import make_app, write_config, write_mbox

VIEWS = views_of(default_games())  # the views of the games enabled by default

POST_TEXT = (
    "Hello all.\n\n"
    "> I place a stone at A1.\n\n"
    "I place a stone at E5. If Bob passes, I pass.\n"
    "I roll 2d6 twice.\n"
    "I place a stone at G33.\n\n"
    "-- \nAlice\n"
)
EXPECTED_ACTIONS = [
    {"action": "go.place", "args": {"point": "E5"}, "text": "I place a stone at E5."},
    {"action": "go.pass", "args": {}, "text": "If Bob passes, I pass.", "conditional": True},
    {
        "action": "dice.roll",
        "args": {"count": 2, "sides": 6},
        "text": "I roll 2d6 twice.",
        "repeat": 2,
    },
]


def nomicbot(*arguments: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *arguments],
        input=stdin.decode(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done


def succeeded(*arguments: str, stdin: bytes = b"") -> str:
    done = nomicbot(*arguments, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return done.stdout


def json_lines(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines()]


def raw_post() -> bytes:
    return compose_post(
        "Alice", go_game.ALICE[1], "Moves", POST_TEXT, "cli@example.test", go_game.EPOCH
    )


def assert_parsed(items: list[dict[str, Any]]) -> None:
    assert items[:3] == EXPECTED_ACTIONS
    [garbled] = items[3:]
    assert "action" not in garbled
    assert garbled["text"] == "I place a stone at G33."
    assert 'could not read "G33"' in garbled["message"]


@pytest.mark.parametrize("source", ["email-file", "email-stdin", "text-file", "text-stdin"])
def test_parse_prints_one_json_object_per_action_in_order(tmp_path: Path, source: str) -> None:
    # Plain text is read as it is: no quotes to strip there.
    text = POST_TEXT.replace("> I place", "I said").encode()
    data = raw_post() if source.startswith("email") else text
    if source.endswith("file"):
        path = tmp_path / "post.eml"
        path.write_bytes(data)
        output = succeeded("parse", str(path))
    else:
        output = succeeded("parse", "-", stdin=data)
    assert_parsed(json_lines(output))


def test_parse_with_text_reads_an_email_s_headers_as_words(tmp_path: Path) -> None:
    path = tmp_path / "post.eml"
    path.write_bytes(
        compose_post("A", "a@example.test", "I roll 1d4.", "I pass.", "x@y", go_game.EPOCH)
    )
    assert [item["action"] for item in json_lines(succeeded("parse", str(path)))] == ["go.pass"]
    as_text = json_lines(succeeded("parse", "--text", str(path)))
    assert [item.get("action") for item in as_text if "action" in item] == ["dice.roll", "go.pass"]


def test_parse_reads_a_raw_mail_with_a_long_header_block(tmp_path: Path) -> None:
    post = compose_post("A", "a@example.test", "I roll 1d4.", "I pass.", "x@y", go_game.EPOCH)
    # A list's mail: kilobytes of Received and ARC headers before the body.
    received = b"".join(
        b"Received: from relay%d.example.test (relay%d.example.test [192.0.2.%d])\n"
        b"\tby mx.example.test with ESMTPS id %08d; Thu, 1 Jan 2026 00:00:00 +0000\n"
        % (hop, hop, hop, hop)
        for hop in range(80)
    )
    path = tmp_path / "long.eml"
    path.write_bytes(b"From a@example.test Thu Jan  1 00:00:00 2026\n" + received + post)
    assert len(received) > 8192
    # Read as a mail, the Subject is no action; only the body's "I pass." is.
    assert [item["action"] for item in json_lines(succeeded("parse", str(path)))] == ["go.pass"]


@pytest.fixture(scope="module")
def played_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The configuration of a bot that has replayed the scripted game."""
    folder = tmp_path_factory.mktemp("cli")
    archive = folder / "game.mbox"
    write_mbox(archive, [(p.raw(), mbox_from_line(p.author[1], p.at)) for p in go_game.SCRIPT])
    app = make_app(folder / "bot")
    replay_archive(app, archive, MaildirTransport(folder / "out"), until=go_game.GAME_END)
    app.dispose()
    return write_config(folder / "bot")


def test_state_go_json_has_the_board_as_data(played_config: Path) -> None:
    state = json.loads(succeeded("state", "go", "--json", "--config", str(played_config)))
    assert state["size"] == 9
    assert state["alliances"] == []
    assert state["scores"] == go_game.FINAL_SCORES
    assert state["stones"] == {
        **{point: "Alice" for point in go_game.FINAL_ALICE},
        **{point: "Bob" for point in go_game.FINAL_BOB},
    }


def test_state_go_prints_the_rule_1639_h_board(played_config: Path) -> None:
    assert succeeded("state", "go", "--config", str(played_config)) == go_game.EXPECTED_BOARD


PLAYERS = (
    "Players: 2 (0 On Leave)\n"
    "  Alice                          configured         1 address\n"
    "  Bob                            configured         1 address\n"
)


def test_state_players(played_config: Path) -> None:
    output = succeeded("state", "players", "--config", str(played_config))
    assert output == PLAYERS
    players = json.loads(succeeded("state", "players", "--json", "--config", str(played_config)))
    assert [(p["name"], p["active"], p["addresses"]) for p in players] == [
        ("Alice", True, ["alice@example.test"]),
        ("Bob", True, ["bob@example.test"]),
    ]


def test_an_unknown_view_is_a_clear_error_listing_every_view(played_config: Path) -> None:
    done = nomicbot("state", "chess", "--config", str(played_config))
    assert done.returncode == 1
    assert "no view called 'chess'; the views are:" in done.stderr
    listed = [line.split()[0] for line in done.stderr.splitlines()[1:] if line.strip()]
    assert listed == list(VIEWS)
    assert "Traceback" not in done.stderr


def test_state_help_lists_every_view(tmp_path: Path) -> None:
    shown = succeeded("state", "--help")
    for name, view in VIEWS.items():
        assert f"  {name}" in shown and view.description in shown
    # Every listed view is one game_view shows (it asserts the two agree).
    app = make_app(tmp_path)
    with app.session_factory() as session:
        assert all(game_view(session, app.services, name).text for name in VIEWS)
    app.dispose()


def schema(database: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()


def test_db_upgrade_is_idempotent(tmp_path: Path) -> None:
    database = tmp_path / "fresh.sqlite3"
    url = f"sqlite:///{database}"
    first = succeeded("db", "upgrade", "--db", url)
    assert "is at the newest schema" in first
    after_first = schema(database)
    assert {"message", "outbox", "action_log", "alembic_version"} <= {n for n, _ in after_first}
    assert succeeded("db", "upgrade", "--db", url) == first
    assert schema(database) == after_first
    with sqlite3.connect(database) as connection:
        assert len(connection.execute("SELECT version_num FROM alembic_version").fetchall()) == 1


@pytest.mark.parametrize("place", ["before", "after"])
def test_config_and_db_go_before_or_after_the_command(tmp_path: Path, place: str) -> None:
    config = write_config(tmp_path / "bot")
    database = tmp_path / f"elsewhere-{place}.sqlite3"
    options = ["--config", str(config), "--db", f"sqlite:///{database}"]
    command = ["state", "players"]
    arguments = [*options, *command] if place == "before" else [*command, *options]
    assert succeeded(*arguments) == PLAYERS
    assert database.exists()  # --db won over the configuration's database
    assert not (tmp_path / "bot" / "nomicbot.sqlite3").exists()
    upgrade = ["--db", f"sqlite:///{database}", "db", "upgrade"]
    if place == "after":
        upgrade = ["db", "upgrade", "--db", f"sqlite:///{database}"]
    assert "is at the newest schema" in succeeded(*upgrade)


BAD_CONFIGS = {
    "unknown-section": ("[bogus]\nx = 1\n", "unknown configuration section(s): bogus"),
    "unknown-key": ("[bot]\ncolour = 'red'\n", "unknown key(s) in [bot]: colour"),
    "wrong-type": ('[smtp_ingress]\nport = "abc"\n', "[smtp_ingress] port: expected int"),
    "bad-players": ("players = 3\n", "[[players]] must be an array of tables"),
    "toml-syntax": ("[bot\naddress = 1\n", "line 1"),
    "bad-epoch": ('[ntime]\nepoch = "yesterday"\n', "not an ISO 8601 instant"),
    "bad-master-secret": ('[bot]\nmaster_secret = "not hex"\n', "master_secret"),
}


@pytest.mark.parametrize("case", list(BAD_CONFIGS))
def test_a_bad_configuration_is_a_clear_error(tmp_path: Path, case: str) -> None:
    text, expected = BAD_CONFIGS[case]
    config = tmp_path / "bad.toml"
    config.write_text(text + f'\n[database]\nurl = "sqlite:///{tmp_path}/db.sqlite3"\n')
    done = nomicbot("state", "players", "--config", str(config))
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("Error: configuration: ")
    assert expected in done.stderr


def test_a_missing_configuration_file_is_a_usage_error(tmp_path: Path) -> None:
    done = nomicbot("state", "players", "--config", str(tmp_path / "absent.toml"))
    assert done.returncode == 2
    assert "does not exist" in done.stderr
