"""Life (seed 000) refereed by mail: selection, Initialize, Tweak, the scheduled Evolve, a win.

Posts go through the real pipeline, engine and outbox one at a time, as the
daemon judges them (``FieldTable``).  Squares and Teams come from the state
the bot shows after each step, never from a hard-coded draw.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner

from bot.audit import verify_archive
from bot.cli import main
from bot.config import FieldSettings
from bot.games.field.life import Colour
from bot.outbound.transports import MaildirTransport
from bot.runner import deliver
from bot.testing.apps import body_of, maildir_mails
from bot.testing.field_matches import (
    ALICE,
    BOB,
    PLAYERS,
    RITA,
    FieldTable,
    LifePosition,
    check_field_draws,
    field_app,
    field_rulings,
    nweek_start,
    play_life,
    write_field_config,
)

NAMES = [name for name, _ in PLAYERS]
DAY = nweek_start(0)


def started(tmp_path: Path, **sections: object) -> FieldTable:
    table = FieldTable(field_app(tmp_path / "bot", **sections))
    table.post(RITA, DAY + timedelta(hours=10), "I select Life as the Current Field Match.")
    table.post(RITA, DAY + timedelta(hours=11), "I initialize the field.")
    return table


def last_ruling(table: FieldTable) -> tuple[str, str, str, str, str]:
    return field_rulings(table.app)[-1]


def test_only_the_referee_selects_and_initializes(tmp_path: Path) -> None:
    table = FieldTable(field_app(tmp_path / "bot"))
    table.post(ALICE, DAY + timedelta(hours=9), "I select Life as the Current Field Match.")
    table.post(BOB, DAY + timedelta(hours=9, minutes=30), "I tweak cell B2")
    table.post(RITA, DAY + timedelta(hours=10), "I select Life as the Current Field Match.")
    table.post(BOB, DAY + timedelta(hours=11), "I initialize the field.")
    table.post(RITA, DAY + timedelta(hours=12), "I initialize the field. I initialize the field.")
    rulings = [(text, ruling, rule, why) for _, text, ruling, rule, why in field_rulings(table.app)]
    assert rulings[0][1:3] == ("rejected", "Field Matches (seed 003)")
    assert "only the Referee (Rita) may choose" in rulings[0][3]
    assert "there is no Current Field Match" in rulings[1][3]
    assert rulings[2][1] == "applied" and "Life is now the Current Field Match" in rulings[2][3]
    assert rulings[3][1:] == (
        "rejected",
        "Life: Initialize (seed 000)",
        "only the Referee may Initialize Life (Turn 1 of the Field)",
    )
    # Both Initializes of one post are requests of one Turn: the second sees Cells.
    assert rulings[4][1] == "applied" and "(Turn 2 of the Field)" in rulings[4][3]
    assert rulings[5][1] == "rejected"
    assert rulings[5][3] == "Life is already initialized: Cells exist (Turn 2 of the Field)"
    state = table.state()
    assert len(state.objects) == 25
    assert set(LifePosition.of(state, NAMES).teams) == set(NAMES)  # each Player got a Team


def test_tweak_refusals_before_evolve_twice_and_of_another_colour(tmp_path: Path) -> None:
    table = started(tmp_path)
    position = LifePosition.of(table.state(), NAMES)
    grid = position.grid
    null = next(s for s in range(25) if grid.colour_at(s) is None)
    null_name = grid.geometry.format_square(null)
    table.post(ALICE, DAY + timedelta(hours=12), f"I tweak cell {null_name}")
    assert "has not yet performed Evolve in nweek 1" in last_ruling(table)[4]
    table.post(RITA, DAY + timedelta(hours=13), "I evolve the field")
    assert last_ruling(table)[2] == "applied"
    grid = LifePosition.of(table.state(), NAMES).grid
    nulls = [grid.geometry.format_square(s) for s in range(25) if grid.colour_at(s) is None]
    # Two Tweaks in one post are one Turn: the second is a second Tweak in the nweek.
    table.post(
        ALICE, DAY + timedelta(hours=14), f"I tweak cell {nulls[0]}. I tweak cell {nulls[1]}"
    )
    first, second = field_rulings(table.app)[-2:]
    team = position.teams["Alice"].value
    assert first[2] == "applied" and f"null -> {team}" in first[4]
    assert second[2] == "rejected" and "Alice has already tweaked a Cell in nweek 1" in second[4]
    table.post(ALICE, DAY + timedelta(hours=15), f"I tweak cell {nulls[2]}")
    assert "Alice has already tweaked a Cell in nweek 1" in last_ruling(table)[4]
    # Seed 000: one Tweak "during the current nweek"; the refusal says when again.
    assert (
        "Alice may tweak again from nweek 2, nday 1 (2026-01-11 00:00 UTC)" in last_ruling(table)[4]
    )
    player, square, colour = _foreign_cell(table)
    author = next(p for p in PLAYERS if p[0] == player)
    table.post(author, DAY + timedelta(hours=16), f"I tweak cell {square}")
    assert last_ruling(table)[2:4] == ("rejected", "Life: Tweak (seed 000)")
    assert f"Cell {square} is {colour.value}" in last_ruling(table)[4]


def _foreign_cell(table: FieldTable) -> tuple[str, str, Colour]:
    """A player other than Alice and a Cell of a colour not eir Team's."""
    position = LifePosition.of(table.state(), NAMES)
    for player, team in position.teams.items():
        for square, colour in position.grid.colours().items():
            if player != "Alice" and colour is not team:
                return player, position.grid.geometry.format_square(square), colour
    raise AssertionError("every coloured Cell is of every player's Team")


def test_the_bot_evolves_at_the_start_of_each_nweek_and_reports(tmp_path: Path) -> None:
    table = started(tmp_path)
    before = LifePosition.of(table.state(), NAMES)
    table.advance(nweek_start(1) + timedelta(hours=1))
    table.advance(nweek_start(2) + timedelta(hours=1))
    turns = table.turns()
    scheduled = [turn for turn in turns if turn["source"] == {"kind": "referee"}]
    assert [turn["context"] for turn in scheduled] == [
        "nweek-1-field-evolve",
        "nweek-2-field-evolve",
    ]
    assert [turn["record"]["nweek"] for turn in scheduled] == [2, 3]  # as displayed
    evolved = LifePosition.of(table.state(), NAMES)
    assert evolved.grid != before.grid or evolved.grid.population == 0
    deliver(table.app, MaildirTransport(tmp_path / "out"))
    reports = [m for m in maildir_mails(tmp_path / "out") if m["X-Nomicbot-Kind"] == "field-turn"]
    reports.sort(key=lambda mail: str(mail["Subject"]))
    assert [str(m["Subject"]) for m in reports] == [
        "[field] Life: Evolve by the Referee (Turn 2)",
        "[field] Life: Evolve by the Referee (Turn 3)",
    ]
    body = body_of(reports[0])
    assert "Turn 2 of the Field (nweek 2)" in body and "Life: 5 x 5 torus" in body
    assert "Priority List used: Cell #" in body


def test_no_scheduled_evolve_when_it_is_switched_off(tmp_path: Path) -> None:
    table = started(tmp_path, field_matches=FieldSettings(referee="Rita", auto_evolve=False))
    table.advance(nweek_start(2) + timedelta(hours=1))
    assert [turn["context"] for turn in table.turns()] == ["field-002@example.test#1"]


def test_a_match_played_to_a_win_with_verifiable_draws(tmp_path: Path) -> None:
    table = FieldTable(field_app(tmp_path / "bot"))
    script = play_life(table, first_nweek=0)
    ending = table.turns()[-1]["record"]["ending"]
    assert ending["reason"] == f"only {script.target.value} Cells remain"
    rulings = field_rulings(table.app)
    assert all(ruling == "applied" for _, _, ruling, _, _ in rulings), rulings
    # Reveal the seeds of every nweek played, then audit the archive of the bot's mails.
    table.advance(nweek_start(script.won_in_nweek + 1) + timedelta(hours=1))
    deliver(table.app, MaildirTransport(tmp_path / "out"))
    mails = maildir_mails(tmp_path / "out")
    win = next(m for m in mails if "Win by Field Match" in body_of(m))
    assert "A copy of the October 1970 issue of Scientific American" in body_of(win)
    assert 'a solid gold chalice engraved with the name of the Field Match, engraved "Life"' in (
        body_of(win)
    )
    audit = verify_archive(tmp_path / "out")
    assert audit.ok and audit.checked >= 1, audit.lines  # Initialize's Priority List shuffle
    draws = check_field_draws(mails)
    assert draws.wrong == () and draws.unrevealed == 0 and draws.checked > 25


def test_state_and_turns_commands(tmp_path: Path) -> None:
    config = write_field_config(tmp_path / "bot")
    table = started(tmp_path)
    table.post(RITA, DAY + timedelta(hours=12), "I evolve the field")
    runner = CliRunner()
    turns = runner.invoke(main, ["field", "turns", "--json", "--config", str(config)])
    assert turns.exit_code == 0, turns.output
    records = json.loads(turns.stdout)
    assert [entry["record"]["number"] for entry in records] == [1, 2]
    assert [entry["record"]["carried_out"][0]["action"] for entry in records] == [
        "Initialize",
        "Evolve",
    ]
    assert len(records[0]["record"]["priority_order"]) == 25
    text = runner.invoke(main, ["field", "turns", "--config", str(config)])
    assert "Turn 2 of the Field (nweek 1)" in text.output and "Priority List used:" in text.output
    state = runner.invoke(main, ["state", "field", "--json", "--config", str(config)])
    data = json.loads(state.output)
    assert data["match"] == "Life" and data["turn_count"] == 2
    assert set(data["player_attributes"]) == set(NAMES)
    assert data["board"].startswith("Life: 5 x 5 torus")
