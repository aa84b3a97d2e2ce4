"""``nomicbot state``: every view shows what the next ruling depends on (Trust II, item 13).

``state go --json`` used to leave out rule 1639 C's pending consents, so two
games that the next consent would judge differently compared equal; and
``state digests`` read the wall clock even when an instant was meant.  The
games are played by posts through the real pipeline.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bot.cli import main
from bot.config import GoSettings
from bot.engine.governance import digests
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.testing.apps import board_text, go_state, make_app, write_config, write_mbox
from bot.testing.go_game import ALICE, BOB, EPOCH

Script = tuple[tuple[datetime, tuple[str, str], str], ...]
# The keys ``state go --json`` had before item 13.
OLD_KEYS = ("rules", "size", "stones", "alliances", "scores", "marks", "moves")


def played(folder: Path, script: Script, **sections: Any) -> dict[str, Any]:
    """The ``state go --json`` data after replaying ``script``; its board text under "text"."""
    posts = []
    for number, (when, (name, address), body) in enumerate(script, start=1):
        raw = compose_post(name, address, "[Nomic] Go", body, f"v-{number:02d}@example.test", when)
        posts.append((raw, mbox_from_line(address, when)))
    folder.mkdir(parents=True)
    write_mbox(folder / "posts.mbox", posts)
    app = make_app(folder / "bot", **sections)
    until = script[-1][0] + timedelta(hours=1)
    replay_archive(app, folder / "posts.mbox", MaildirTransport(folder / "out"), until=until)
    return go_state(app) | {"text": board_text(app)}


def test_go_b_two_games_differing_only_in_a_pending_consent_compare_different(
    tmp_path: Path,
) -> None:
    moves: Script = (
        (EPOCH + timedelta(hours=10), ALICE, "I place a stone at E5."),
        (EPOCH + timedelta(hours=11), BOB, "I place a stone at C3."),
    )
    # Rule 1639 C: a first consent is not a Move; Bob's consent would now form the alliance.
    consent: Script = ((EPOCH + timedelta(hours=12), ALICE, "I form an alliance with Bob."),)
    plain = played(tmp_path / "plain", moves)
    consented = played(tmp_path / "consented", moves + consent)
    assert [plain[key] for key in OLD_KEYS] == [consented[key] for key in OLD_KEYS]
    assert plain != consented
    assert (plain["pending_consents"], consented["pending_consents"]) == ([], [["Alice", "Bob"]])
    assert consented["text"].endswith("Pending consents to alliances (rule 1639 C): Alice to Bob\n")
    # What rule 1639 C's one Move per Checking Period and 1639 F read is there too.
    alice = next(record for record in consented["players"] if record["name"] == "Alice")
    assert (alice["last_move_number"], alice["last_checking_period"]) == (1, 0)
    assert (consented["last_mover"], consented["last_move_was_pass"]) == ("Bob", False)
    assert consented["stones_quiet_since"] == 0
    # Rule 1639 E: the empty board, then the position after each placement.
    assert consented["ko_history"]["positions"] == 3
    assert consented["ko_history"] == plain["ko_history"]


def test_go_a_two_games_differing_only_in_the_19_hour_limit_compare_different(
    tmp_path: Path,
) -> None:
    start = datetime(2026, 1, 5, 9, tzinfo=UTC)
    placements: Script = (
        (start, BOB, "I place a stone at c4"),
        (start + timedelta(hours=1), ALICE, "I place a stone at d4"),
    )
    # An offer withdrawn leaves no offer, but rule 368's 19 hours run from it.
    offered: Script = (
        (start + timedelta(hours=30), BOB, "I offer an alliance to Alice."),
        (start + timedelta(hours=31), BOB, "I withdraw my alliance offer to Alice."),
    )
    settings = GoSettings(rules="A", size=7)
    plain = played(tmp_path / "plain", placements, go=settings)
    limited = played(tmp_path / "limited", placements + offered, go=settings)
    assert (plain["stones"], plain["offers"]) == (limited["stones"], limited["offers"])
    assert plain != limited
    bob = next(record for record in limited["players"] if record["name"] == "Bob")
    at = (start + timedelta(hours=30)).timestamp()
    assert bob["last_limited_move_at"] == int(at)
    assert limited["superko_history"]["positions"] >= 3
    assert {"breathless", "started_nweek", "last_placement_nweek"} <= set(limited)


BOARD_MINISTRY = '[[ministries]]\nministry = "Ministry of the Board"\nholder = "Alice"\n'


def state_output(config: Path, *arguments: str) -> str:
    result = CliRunner().invoke(main, ["state", *arguments, "--config", str(config)])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("as_json", [True, False])
def test_state_digests_at_an_instant_is_the_same_whatever_the_wall_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    config = write_config(tmp_path / "bot", BOARD_MINISTRY)
    flags = ["--json"] if as_json else []
    at_given, at_wall = [], []
    for wall in (datetime(2026, 1, 2, 5, tzinfo=UTC), datetime(2026, 3, 9, 17, tzinfo=UTC)):
        # The one clock the view reads when no instant is given.
        monkeypatch.setattr(digests, "wall_clock", lambda wall=wall: wall)
        at_given.append(state_output(config, "digests", *flags, "--at", "2026-01-05T12:00:00Z"))
        at_wall.append(state_output(config, "digests", *flags))
    assert at_given[0] == at_given[1]
    assert at_wall[0] != at_wall[1]  # the clock was really moved
    if as_json:
        assert json.loads(at_given[0])["at"] == "2026-01-05T12:00:00+00:00"
    else:
        # Rule 1639 F's next Checkpoint after the instant given, nweek 1, nday 8.
        assert "nweek 1, nday 8 (2026-01-08 00:00 UTC)" in at_given[0]
