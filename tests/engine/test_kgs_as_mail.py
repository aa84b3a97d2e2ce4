"""Issue 3, acceptance 1: the KGS sample replayed as mail under rule set A.

Every record of ``go/kgs_sample`` becomes an mbox of "I place a stone at
q16" posts by Black and White, 20 hours apart (A Nomic rule 368: one move
per 19 hours), replayed through ``nomicbot replay`` on a fresh database;
handicap stones are loaded first with ``nomicbot go setup``.  Every move must
be accepted and the final stones must equal sgfmill's board after the same
moves.  Records whose passes would make one player place twice in a row
(rule 368 c) cannot be played and are excluded and counted.

The deployment enables the roster and Political Go only (``kgs.GO_ONLY``):
A Nomic's game without B Nomic's Ballots, Elections and digests, as a nomic
that has the bot referee its Go alone would configure it.

Two processes replay games side by side (the machine has two cores), the
longest first so that no long game is left for one process at the end.
Each game starts from a copy of one migrated database, and its files are
kept in memory where the machine allows (``bot.testing.kgs``).
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC
from pathlib import Path

import pytest

from bot.testing import kgs
from bot.testing.apps import write_config, write_mbox

pytestmark = pytest.mark.long_running


@pytest.fixture(scope="module")
def records(corpora: Path) -> list[kgs.KgsGame]:
    return kgs.load_games(corpora / "go" / "kgs_sample")


def test_every_playable_kgs_game_replays_as_mail(
    records: list[kgs.KgsGame], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    playable = [game for game in records if not game.places_twice_in_a_row]
    excluded = [game for game in records if game.places_twice_in_a_row]
    longest_first = sorted(playable, key=lambda game: len(game.placements), reverse=True)
    context = multiprocessing.get_context("spawn")
    with (
        kgs.scratch_folder(tmp_path) as scratch,
        ProcessPoolExecutor(max_workers=2, mp_context=context) as pool,
    ):
        futures = [
            pool.submit(
                kgs.replay_and_tidy, str(game.path), str(scratch / game.path.stem), kgs.GO_ONLY
            )
            for game in longest_first
        ]
        outcomes = [future.result() for future in futures]
    refused = [(outcome.name, outcome.refusals[:3]) for outcome in outcomes if outcome.refusals]
    assert refused == []
    assert all(outcome.applied == outcome.placements for outcome in outcomes)
    different = [(o.name, o.differences) for o in outcomes if not o.same_stones]
    assert different == []
    handicap = sum(1 for outcome in outcomes if outcome.handicap)
    moves = sum(outcome.placements for outcome in outcomes)
    with capsys.disabled():
        print(
            f"\nKGS as mail: {len(records)} records; {len(playable) - handicap} even and "
            f"{handicap} handicap games replayed, {moves} placements, all accepted, final "
            f"stones equal to sgfmill's; {len(excluded)} excluded (368 c)"
        )
    assert len(playable) + len(excluded) == len(records)
    assert handicap > 0 and len(playable) > len(excluded)


def test_a_record_with_a_double_placement_is_one_the_engine_refuses(
    records: list[kgs.KgsGame], tmp_path: Path
) -> None:
    # The exclusion is not a convenience: replaying such a record, the second
    # of two consecutive placements by one player is refused (rule 368 c).
    game = next(game for game in records if game.places_twice_in_a_row and not game.setup)
    outcome = kgs.replay_as_mail(str(game.path), str(tmp_path))
    assert outcome.refusals
    assert all("two stones consecutively" in refusal for refusal in outcome.refusals[:1])


def test_the_installed_command_replays_a_handicap_game(
    records: list[kgs.KgsGame], tmp_path: Path
) -> None:
    # The real console entry point, in a subprocess, on one handicap record.
    game = next(game for game in records if game.setup and not game.places_twice_in_a_row)
    config = write_config(tmp_path / "bot", kgs.config_text())
    start = kgs.START.replace(tzinfo=UTC)
    command = [sys.executable, "-m", "bot.cli"]
    for colour in "bw":
        points = [point for setup_colour, point in game.setup if setup_colour == colour]
        if points:
            subprocess.run(
                [
                    *command,
                    "go",
                    "setup",
                    "--config",
                    str(config),
                    kgs.PLAYERS[colour][0],
                    *points,
                    "--at",
                    start.isoformat(),
                ],
                check=True,
                capture_output=True,
            )
    write_mbox(tmp_path / "game.mbox", list(kgs.posts(game, start)))
    until = (start + kgs.SPACING * (len(game.placements) + 1)).isoformat()
    replay = subprocess.run(
        [
            *command,
            "replay",
            str(tmp_path / "game.mbox"),
            "--config",
            str(config),
            "--until",
            until,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    assert f"{len(game.placements)} judged, 0 shunted" in replay.stdout
    state = subprocess.run(
        [*command, "state", "go", "--json", "--config", str(config)],
        check=True,
        capture_output=True,
        text=True,
    )
    assert json.loads(state.stdout)["stones"] == kgs.final_stones(game)
