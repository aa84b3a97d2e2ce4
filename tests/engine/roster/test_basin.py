"""The Basin's cap by mail: rule 21 A.2 of seed 004.

"When the rules dictate that a player shall receive Tildex without
specifying a source, the Basin creates them [...] under no circumstances
may it create more than 10000 Tildex each nweek."  Twenty registrations of
one nweek take its 10000~; the twenty-first player receives nothing and the
ruling says why; the next nweek the Basin creates again.  The list archive
replayed into a fresh database gives the same rulings and display.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.app import App
from bot.engine.holdings import TILDEX
from bot.engine.views import game_view
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.testing.apps import make_app, write_mbox
from bot.testing.go_game import LIST_ADDRESS
from bot.testing.judged import recorded_rulings

if TYPE_CHECKING:
    from conftest import Table

NEWCOMERS = [(f"Newcomer{n:02d}", f"newcomer{n:02d}@example.test") for n in range(1, 23)]
CUT = (
    "receives 1 Welcome Point, 0~ (rule 21 A.2: the Basin may create no more than 10000~ "
    "each nweek and had 0~ left of nweek 1's, so 500~ of the 500~ were not created) "
    "and 4BW (rule 212)"
)


def _join(name: str) -> str:
    return f"I request to become a player with the name {name}."


def _posts(table: Table) -> list[tuple[tuple[str, str], str, Any]]:
    """Twenty-one newcomers in nweek 1, an hour apart; the twenty-second in nweek 2."""
    first = [(who, _join(who[0]), table.at(1, 1 + hour)) for hour, who in enumerate(NEWCOMERS)]
    return [*first[:21], (NEWCOMERS[21], _join(NEWCOMERS[21][0]), table.at(2, 1))]


def _holdings(app: App, table: Table, nweek: int) -> tuple[str, Any]:
    with app.session_factory() as session:
        shown = game_view(session, app.services, "holdings", at=table.at(nweek, 23))
        return shown.text, shown.data


def test_registrations_past_the_basins_cap_get_less_and_the_replay_agrees(
    table: Table, tmp_path: Path
) -> None:
    posts = _posts(table)
    summaries = [table.post(who, body, at).rulings[0][3] for who, body, at in posts]
    assert all("500~ (rule 21 A.2) and 4BW" in summary for summary in summaries[:20])
    assert summaries[20].endswith(CUT)
    assert summaries[21].endswith("500~ (rule 21 A.2) and 4BW (rule 212)")  # a new nweek
    assert table.balance("Newcomer20", TILDEX) == 500
    assert table.balance("Newcomer21", TILDEX) == 0
    assert table.entries("Newcomer21", TILDEX) == []  # nothing created, no entry
    text, data = _holdings(table.app, table, 1)
    assert "Newcomer21: 1 point, 0~, 10BW\n" in text  # nweek 2 has begun: 10BW (rule 212)
    assert text.endswith("the Basin: created 10000~ of its 10000~ in nweek 1 (rule 21 A.2)\n")
    assert data["the Basin"] == {"created": 10000, "cap": 10000, "nweek": 1}
    assert _holdings(table.app, table, 2)[1]["the Basin"]["created"] == 500

    archive = tmp_path / "archive.mbox"
    write_mbox(
        archive,
        [
            (
                compose_post(
                    *who, "[Nomic] Roster", body, f"roster-{n:03d}@example.test", at,
                    to=LIST_ADDRESS,
                ),
                mbox_from_line(who[1], at),
            )
            for n, (who, body, at) in enumerate(posts, start=1)
        ],
    )  # fmt: skip
    replayed = make_app(tmp_path / "replayed")
    try:
        replay_archive(replayed, archive, MaildirTransport(tmp_path / "out"), until=posts[-1][2])
        again = [
            recorded_rulings(replayed, f"roster-{n:03d}@example.test")[0][3]
            for n in range(1, len(posts) + 1)
        ]
        assert again == summaries
        for nweek in (1, 2):
            assert _holdings(replayed, table, nweek) == _holdings(table.app, table, nweek)
    finally:
        replayed.dispose()
