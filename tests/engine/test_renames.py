"""A change of name (rule 151, seed 004) keeps a player's stones, pieces, alliances and offices.

Every test plays by posts through the real pipeline and engine.  A rename
comes two ways: in a post of its own, when the games' stored states are
rewritten (``bot.engine.renames.rename_in_games``), and after another
action of the same post, when the adapter that already loaded its state is
told too (``rename_in_adapters``).  Both are covered for each game.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App, build_app
from bot.config import GoSettings, MinistryEntry, PlayerEntry
from bot.engine.governance.election_desk import actual_votes
from bot.engine.governance.election_state import load_book
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.games import go
from bot.games.field import FieldState, Square
from bot.games.field.bchess import KING, reach_of
from bot.games.field.bchess.board import kings_of, occupants
from bot.games.field.life import Colour
from bot.games.field.life.rules import grid_of, team_of
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import advance_to, replay_archive, store_message
from bot.store.models import ActionRecord, GoPosition
from bot.testing.apps import game_settings, go_state, make_app, write_mbox
from bot.testing.field_matches import (
    ALICE,
    RITA,
    FieldTable,
    field_app,
    grant_macks,
    nweek_start,
)
from bot.testing.go_game import EPOCH, period_start

Script = tuple[tuple[datetime, tuple[str, str], str], ...]


def replayed(tmp_path: Path, script: Script, **sections: Any) -> tuple[App, list[tuple[str, ...]]]:
    """Replay ``script`` (when, author, body) as an mbox archive; the app and its rulings."""
    posts = []
    for number, (when, (name, address), body) in enumerate(script, start=1):
        raw = compose_post(name, address, "[Nomic] Go", body, f"r-{number:02d}@example.test", when)
        posts.append((raw, mbox_from_line(address, when)))
    write_mbox(tmp_path / "posts.mbox", posts)
    app = make_app(tmp_path / "bot", **sections)
    until = script[-1][0] + timedelta(hours=1)
    replay_archive(app, tmp_path / "posts.mbox", MaildirTransport(tmp_path / "out"), until=until)
    return app, rulings(app)


def rulings(app: App) -> list[tuple[str, ...]]:
    """(action, ruling, summary or reason) of every judged action, in order."""
    with app.session_factory() as session:
        rows = session.scalars(select(ActionRecord).order_by(ActionRecord.id)).all()
        return [(row.action, row.ruling, row.summary or row.reason) for row in rows]


def position_alliances(app: App) -> set[str]:
    """Every name in the alliances of rule set B's stored ko positions (rule 1639 E)."""
    with app.session_factory() as session:
        rows = session.scalars(select(GoPosition.alliances)).all()
        return {name for alliances in rows for pair in alliances for name in pair}


# -- the pure ``renamed`` functions -------------------------------------------------------


def test_go_renamed_keeps_codes_and_refuses_a_second_record_of_the_new_name() -> None:
    stones = go.with_stones(go.new_game(), {0: "Alice", 10: "Bob"})
    state = go.with_alliances(stones, [("Alice", "Bob")])
    renamed = go.renamed(state, "Alice", "Alicia")
    assert renamed.board == state.board and renamed.stones == {0: "Alicia", 10: "Bob"}
    assert renamed.alliances == {frozenset({"Alicia", "Bob"})}
    # Rule 1639 E: the ko history's alliances follow the name too.
    history = [record for records in renamed.history.values() for record in records]
    assert {name for record in history for pair in record.alliances for name in pair} == {
        "Alicia",
        "Bob",
    }
    assert go.renamed(state, "Carol", "Cara") is state
    with pytest.raises(ValueError, match="already has a record"):
        go.renamed(state, "Alice", "Bob")


# -- Political Go, rule set B (rule 1639) ------------------------------------------------

ALICIA = ("Alicia", ALICE[1])  # the same address: the same player, renamed
BOB = ("Bob", "bob@example.test")
CAROL = ("Carol", "carol@example.test")
THREE = tuple(PlayerEntry(name, (address,)) for name, address in (ALICE, BOB, CAROL))


def test_go_b_a_renamed_player_keeps_eir_stones_alliance_and_mark(tmp_path: Path) -> None:
    script: Script = (
        (period_start(0) + timedelta(hours=10), ALICE, "I place a stone at E5."),
        (period_start(0) + timedelta(hours=11), ALICE, "I form an alliance with Bob."),
        (period_start(0) + timedelta(hours=12), BOB, "I form an alliance with Alice."),
        # Allies may not move one after the other (rule 1639 C): Carol moves between.
        (period_start(0) + timedelta(hours=13), CAROL, "I place a stone at A1."),
        # The rename comes first in its post: the Go state is loaded after it.
        (period_start(1) + timedelta(hours=10), ALICE, "I change my name to Alicia. I play E6."),
        (period_start(1) + timedelta(hours=11), BOB, "I place a stone at A2."),
        (period_start(1) + timedelta(hours=12), CAROL, "I place a stone at A3."),
        (period_start(2) + timedelta(hours=10), ALICIA, "I place a stone at D5."),
    )
    app, judged = replayed(tmp_path, script, players=THREE)
    outcomes = [ruling for _, ruling, _ in judged]
    assert outcomes == ["applied"] * 6 + ["rejected"] + ["applied"] * 2
    assert judged[4][2] == "Alice is now known as Alicia"
    # Bob's Ally, renamed, made the most recent Move (rule 1639 C).
    assert judged[6][2] == (
        "Bob cannot place a stone at A2: eir Ally Alicia made the most recent Move."
    )
    state = go_state(app)
    alicia = {"E5": "Alicia", "E6": "Alicia", "D5": "Alicia"}
    assert state["stones"] == alicia | {"A1": "Carol", "A3": "Carol"}
    assert state["alliances"] == [["Alicia", "Bob"]]
    # Rule 1639 H: Alice's mark was "a" (A is a column letter on 9x9); it stays hers.
    assert state["marks"] == {"Alicia": "a", "Bob": "b", "Carol": "c"}
    assert "Alice" not in state["scores"]
    assert position_alliances(app) == {"Alicia", "Bob"}


def test_go_b_a_rename_after_a_move_in_the_same_post_reaches_the_loaded_game(
    tmp_path: Path,
) -> None:
    script: Script = (
        (
            period_start(0) + timedelta(hours=10),
            ALICE,
            "I place a stone at E5. I form an alliance with Bob. I change my name to Alicia.",
        ),
        # Alice's consent, given before the rename, is Alicia's.
        (period_start(0) + timedelta(hours=12), BOB, "I form an alliance with Alicia."),
        (period_start(0) + timedelta(hours=13), CAROL, "I place a stone at A1."),
        (period_start(1) + timedelta(hours=10), ALICIA, "I place a stone at E6."),
    )
    app, judged = replayed(tmp_path, script, players=THREE)
    assert [ruling for _, ruling, _ in judged] == ["applied"] * 6
    assert judged[3][2] == "Bob and Alicia are now allied"
    state = go_state(app)
    assert state["stones"] == {"E5": "Alicia", "E6": "Alicia", "A1": "Carol"}
    assert state["alliances"] == [["Alicia", "Bob"]]
    assert sorted(state["marks"]) == ["Alicia", "Bob", "Carol"]
    assert position_alliances(app) == {"Alicia", "Bob"}


# -- Political Go, rule set A (A Nomic rules 365-377) -------------------------------------

ALYS = ("Alys", ALICE[1])
A_START = datetime(2026, 1, 5, 9, tzinfo=UTC)


def test_go_a_a_renamed_player_keeps_eir_stones_offer_reserve_and_last_placement(
    tmp_path: Path,
) -> None:
    def at(hours: int) -> datetime:
        return A_START + timedelta(hours=hours)

    script: Script = (
        (at(0), BOB, "I place a stone at c4"),
        (at(1), ALICE, "I place a stone at d4"),
        (at(2), ALICE, "I change my name to Alicia"),
        # Rule 368 c: Alicia placed the last stone as Alice, so she may not place again.
        (at(21), ALICIA, "I place a stone at e4"),
        (at(22), ALICIA, "I offer an alliance to Bob. I buy a stone."),
        (at(23), ALICIA, "I change my name to Alys"),
        (at(40), BOB, "I accept Alys's alliance offer"),
        (at(41), BOB, "I place a stone at c3"),
        (at(42), ALYS, "I place a stone at e4"),
    )
    app, judged = replayed(tmp_path, script, go=GoSettings(rules="A", size=7))
    outcomes = [(action, ruling) for action, ruling, _ in judged]
    assert outcomes == [
        ("go.place", "applied"),
        ("go.place", "applied"),
        ("roster.rename", "applied"),
        ("go.place", "rejected"),
        ("go.offer", "applied"),
        ("go.purchase", "applied"),
        ("roster.rename", "applied"),
        ("go.accept", "applied"),
        ("go.place", "applied"),
        ("go.place", "applied"),
    ]
    assert judged[3][2] == (
        "Alicia cannot place a stone at e4: the last stone placed was eirs, and a Go player "
        "may never place two stones consecutively"
    )
    state = go_state(app)
    assert state["stones"] == {"c4": "Bob", "d4": "Alys", "c3": "Bob", "e4": "Alys"}
    assert state["alliances"] == [["Alys", "Bob"]]
    assert state["stones_held"]["Alys"] == {"reserve": 1, "in_play": 2, "captured": 0}
    assert sorted(state["marks"]) == ["Alys", "Bob"]


# -- Field Matches: Life and B-Chess (seeds 003, 000) --------------------------------------


def tweakable_square(state: FieldState, player: str) -> str:
    """A Cell ``player`` may tweak (seed 000: a null one or one of eir Team's colour)."""
    grid = grid_of(state)
    team = team_of(state, player)
    square = next(
        square
        for square in range(state.geometry.square_count)
        if grid.colour_at(square) in (None, team)
    )
    return state.geometry.format_square(square)


def test_life_a_renamed_player_keeps_eir_team_and_eir_tweak_of_the_nweek(tmp_path: Path) -> None:
    table = FieldTable(field_app(tmp_path / "bot"))
    day = nweek_start(0)
    table.post(RITA, day + timedelta(hours=10), "I select Life as the Current Field Match.")
    table.post(RITA, day + timedelta(hours=11), "I initialize the field.")
    table.post(RITA, day + timedelta(hours=11, minutes=30), "I evolve the field.")
    team: Colour | None = team_of(table.state(), "Alice")
    # A post of its own: the stored Field is rewritten, and Alicia's Team lets her tweak.
    table.post(ALICE, day + timedelta(hours=12), "I change my name to Alicia.")
    square = tweakable_square(table.state(), "Alicia")
    table.post(ALICIA, day + timedelta(hours=13), f"I tweak cell {square}.")
    # The Field is loaded for the Tweak before the rename: the loaded copy follows it.
    again = tweakable_square(table.state(), "Alicia")
    table.post(
        ALICIA, day + timedelta(hours=14), f"I tweak cell {again}. I change my name to Alys."
    )
    table.post(ALYS, day + timedelta(hours=15), f"I tweak cell {again}.")
    judged = [ruling for ruling in rulings(table.app) if ruling[0] != "field.evolve"][-5:]
    assert [(action, ruling) for action, ruling, _ in judged] == [
        ("roster.rename", "applied"),
        ("field.tweak", "applied"),
        ("field.tweak", "rejected"),  # seed 000: one Tweak an nweek, whatever the name
        ("roster.rename", "applied"),
        ("field.tweak", "rejected"),
    ]
    assert "Alicia has already tweaked a Cell in nweek 1" in judged[2][2]
    assert "Alys has already tweaked a Cell in nweek 1" in judged[4][2]
    state = table.state()
    assert team is not None and team_of(state, "Alys") is team
    assert {"Alice", "Alicia"}.isdisjoint(dict(state.player_attributes))


def king_step(state: FieldState, owner: str) -> str:
    """A move of ``owner``'s King to a free square it reaches, as a post says it."""
    (king,) = kings_of(state, owner)
    standing = occupants(state)
    others = {square: item for square, item in standing.items() if item is not king}
    free: list[Square] = sorted(
        square for square in reach_of(state.current_match, king, others) if square not in standing
    )
    assert king.square is not None
    start, end = (state.geometry.format_square(at) for at in (king.square, free[0]))
    return f"I move my king at {start} to {end}."


def test_bchess_a_renamed_player_keeps_eir_king_and_purchased_piece(tmp_path: Path) -> None:
    app = field_app(tmp_path / "bot")
    grant_macks(app)
    table = FieldTable(app)
    day = nweek_start(0)
    table.post(
        RITA,
        day + timedelta(hours=10),
        "I select B-Chess as the Current Field Match. I initialize the field.",
    )
    table.post(ALICE, day + timedelta(hours=11), "I purchase a piece.")
    # A post of its own: the stored Field is rewritten.
    table.post(ALICE, day + timedelta(hours=12), "I change my name to Alicia.")
    table.post(ALICIA, day + timedelta(hours=13), king_step(table.state(), "Alicia"))
    judged = rulings(table.app)
    assert [ruling for _, ruling, _ in judged[-3:]] == ["applied"] * 3
    owned = [item.kind for item in table.state().objects if item.owner == "Alicia"]
    assert KING in owned and len(owned) == 2
    assert not [item for item in table.state().objects if item.owner == "Alice"]


# -- Ministries and Elections (rules 625, 1272, 1823) ---------------------------------------

ALIX = ("Alix", ALICE[1])
JUSTICE = "Minister of Justice"


def governance_app(folder: Path) -> App:
    settings = game_settings(
        folder,
        players=THREE,
        ministries=(
            MinistryEntry("Ministry of Twiddles", "Alice"),
            MinistryEntry("Ministry of Justice"),
        ),
    )
    app = build_app(settings)
    advance_to(app, EPOCH)
    return app


def post(app: App, author: tuple[str, str], body: str, when: datetime) -> None:
    """``body`` from ``author`` to the list, judged as the daemon would."""
    message_id = f"{author[0]}-{when:%d%H%M}@example.test"
    store_message(app, compose_post(*author, "Elections", body, message_id, when), "smtp", when)
    process_queue(app.session_factory, app.services)


def day(number: int, hour: int = 12) -> datetime:
    return datetime(2026, 1, number, hour, tzinfo=UTC)


def test_a_renamed_minister_keeps_eir_ministry_nomination_and_single_vote(tmp_path: Path) -> None:
    app = governance_app(tmp_path / "bot")
    post(app, BOB, f"I call an election for {JUSTICE}.", day(1, 10))
    # No Ministries row yet: the configured holder "Alice" is seeded and renamed.
    post(app, ALICE, "I change my name to Alicia.", day(1, 11))
    post(app, ALICIA, "I designate Bob as my Deputy.", day(1, 12))
    post(app, CAROL, f"I nominate Alicia for {JUSTICE}.", day(2, 10))
    # The Election is loaded and changed before the rename of the same post.
    post(app, ALICIA, f"I accept my nomination for {JUSTICE}. I change my name to Alys.", day(2))
    post(app, BOB, f"I nominate myself for {JUSTICE}.", day(2, 13))
    advance_to(app, day(6, 11))  # the nominations close, the voting starts
    post(app, ALYS, f"I vote Alys, Bob for {JUSTICE}.", day(7))
    post(app, ALYS, "I change my name to Alix.", day(7, 13))
    post(app, ALIX, f"I vote Bob, Alix for {JUSTICE}.", day(8))
    assert [ruling for _, ruling, _ in rulings(app)] == ["applied"] * 10
    with app.session_factory() as session:
        _record, book = load_book(session)
        ministries = game_view(session, app.services, "ministries").data
    (election,) = book.elections
    assert election.candidates == ("Alix", "Bob")
    assert {ballot.voter for ballot in election.ballots} == {"Alix"}
    assert len(actual_votes(election)) == 1  # rule 1823: Alix's last vote is eir only one
    twiddles = next(item for item in ministries["ministries"] if "Twiddles" in item["name"])
    assert (twiddles["holder"], twiddles["deputies"]) == ("Alix", ["Bob"])


def test_a_renamed_proponent_is_named_by_eir_new_name_and_still_revises(tmp_path: Path) -> None:
    app = governance_app(tmp_path / "bot")
    nweek_2 = datetime(2026, 1, 11, 1, tzinfo=UTC)
    advance_to(app, nweek_2)  # rule 212: the Bandwidth to propose with
    proposal = "I submit the following proposal:\n\n__More Cake__\n\n{{\nEveryone gets cake.\n}}\n"
    post(app, ALICE, f"{proposal}\nI change my name to Alicia.", nweek_2 + timedelta(hours=1))
    with app.session_factory() as session:
        (submitted,) = game_view(session, app.services, "proposals").data
    serial = submitted["serial"]
    post(
        app,
        ALICIA,
        f"I revise proposal {serial} to read {{{{ Some cake. }}}}",
        nweek_2 + timedelta(hours=2),
    )
    assert [ruling for _, ruling, _ in rulings(app)] == ["applied"] * 3
    with app.session_factory() as session:
        (revised,) = game_view(session, app.services, "proposals").data
    assert (revised["proponent"], revised["text"]) == ("Alicia", "Some cake.")
