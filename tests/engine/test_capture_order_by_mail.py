"""Rule 1639 D by mail: the mover names the capture order in the post.

The position of ``tests/games/go/test_capture.py``'s OVERLAPPING diagram is
built by posts (the alliances) and ``nomicbot go setup`` (the stones); then
Rob posts "I place a stone at D2, capturing H1 first", and the Dragon YYZZZ
goes first, which gives XXX a Liberty: the reverse of the default order.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner

from bot.cli import main
from bot.config import PlayerEntry
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.testing.apps import go_state, make_app, write_config, write_mbox
from bot.testing.go_game import EPOCH

PLAYERS = {name: f"{name.lower()}@example.test" for name in ("Rob", "Xan", "Yul", "Zed")}
STONES = {
    "Rob": "A2 B2 C2 E2 F2 G2 H2 I2 I1",
    "Xan": "A1 B1 C1",
    "Yul": "D1 E1",
    "Zed": "F1 G1 H1",
}


def archive(path: Path, posts: list[tuple[int, str, str]]) -> Path:
    mails = []
    for number, (hours, name, body) in enumerate(posts, start=1):
        date = EPOCH + timedelta(hours=hours)
        raw = compose_post(
            name, PLAYERS[name], "[Nomic] Go", body, f"{path.stem}-{number}@x.test", date
        )
        mails.append((raw, mbox_from_line(PLAYERS[name], date)))
    write_mbox(path, mails)
    return path


def test_the_capture_order_named_in_the_post_is_followed(tmp_path: Path) -> None:
    entries = tuple(PlayerEntry(name, (address,)) for name, address in PLAYERS.items())
    app = make_app(tmp_path / "bot", players=entries)
    alliances = archive(
        tmp_path / "alliances.mbox",
        [
            (10, "Xan", "I form an alliance with Yul"),
            (11, "Yul", "I form an alliance with Xan"),
            (80, "Zed", "I form an alliance with Yul"),
            (81, "Yul", "I form an alliance with Zed"),
        ],
    )
    out = MaildirTransport(tmp_path / "out")
    replay_archive(app, alliances, out, until=EPOCH + timedelta(hours=90))
    config = write_config(
        tmp_path / "bot",
        "".join(
            f'[[players]]\nname = "{name}"\naddresses = ["{address}"]\n'
            for name, address in PLAYERS.items()
        ),
    )
    runner = CliRunner()
    for owner, points in STONES.items():
        result = runner.invoke(
            main, ["go", "setup", "--config", str(config), owner, *points.split()]
        )
        assert result.exit_code == 0, result.output
    move = archive(
        tmp_path / "move.mbox", [(180, "Rob", "I place a stone at D2, capturing H1 first.")]
    )
    replay_archive(app, move, out, until=EPOCH + timedelta(hours=181))
    stones = go_state(app)["stones"]
    assert sorted(point for point in stones if point.endswith("1") and len(point) == 2) == [
        "A1",
        "B1",
        "C1",
        "I1",
    ]
    assert go_state(app)["scores"]["Zed"] == -3
