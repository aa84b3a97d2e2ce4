"""A forfeit (rule 14, seed 004) reaching every game and office the Lost Soul held a part in.

Rule 14: a player who forfeits "loses all game defined properties and
attributes except for eir Name, and becomes a Lost Soul".  The ledger was
always stripped; these tests pin what the forfeit takes from Political Go
(both rule sets), the Field, the Ministries and the Elections, each read in
docs/readings.md ("Forfeiting").  Every test plays by posts through the real
pipeline, engine and scheduler.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.app import App, build_app
from bot.config import GoSettings, MinistryEntry, PlayerEntry
from bot.engine.go_admin import point_history
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.games.field.life.rules import grid_of, team_of
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import advance_to, replay_archive, store_message
from bot.store.models import ActionRecord, GoPosition, Message
from bot.testing.apps import (
    body_of,
    game_settings,
    go_state,
    maildir_mails,
    make_app,
    write_mbox,
)
from bot.testing.field_matches import ALICE as FIELD_ALICE
from bot.testing.field_matches import RITA, FieldTable, field_app, grant_macks, nweek_start
from bot.testing.go_game import ALICE, BOB, EPOCH

Script = tuple[tuple[datetime, tuple[str, str], str], ...]
CAROL = ("Carol", "carol@example.test")
THREE = tuple(PlayerEntry(name, (address,)) for name, address in (ALICE, BOB, CAROL))


def day(number: int, hour: int = 10) -> datetime:
    """``hour`` o'clock of (one-based) day ``number``: ndays are days (rule 3 A)."""
    return EPOCH + timedelta(days=number - 1, hours=hour)


def replayed(tmp_path: Path, script: Script, until: datetime, **sections: Any) -> App:
    """Replay ``script`` (when, author, body) as an mbox archive, up to ``until``."""
    posts = []
    for number, (when, (name, address), body) in enumerate(script, start=1):
        raw = compose_post(name, address, "[Nomic] Go", body, f"f-{number:02d}@example.test", when)
        posts.append((raw, mbox_from_line(address, when)))
    write_mbox(tmp_path / "posts.mbox", posts)
    app = make_app(tmp_path / "bot", **sections)
    replay_archive(app, tmp_path / "posts.mbox", MaildirTransport(tmp_path / "out"), until=until)
    return app


def statuses(app: App) -> list[tuple[str, str]]:
    """(status, reason) of every post, in arrival order."""
    with app.session_factory() as session:
        rows = session.execute(
            select(Message.status, Message.status_reason).order_by(Message.received_at)
        ).all()
        return [(row.status, row.status_reason) for row in rows]


def rulings(app: App) -> list[tuple[str, str, str]]:
    """(action, ruling, summary or reason) of every judged action, in order."""
    with app.session_factory() as session:
        rows = session.scalars(select(ActionRecord).order_by(ActionRecord.id)).all()
        return [(row.action, row.ruling, row.summary or row.reason) for row in rows]


# -- Political Go, rule set B (rule 1639) --------------------------------------------------


def test_go_b_a_forfeited_players_stones_no_longer_stop_the_game(tmp_path: Path) -> None:
    """Trust II, item 1: the exact posts that shunted every post after the Checkpoint."""
    script: Script = (
        (day(1), ALICE, "I place a stone at E5."),
        (day(1, 11), BOB, "I place a stone at C3."),
        (day(2), ALICE, "I forfeit the game."),
        (day(5), BOB, "I pass."),
        (day(16), BOB, "I roll 1d6."),
    )
    app = replayed(tmp_path, script, until=day(16, 12))
    assert [status for status, _ in statuses(app)] == ["processed"] * 5
    forfeit = rulings(app)[2]
    assert forfeit[:2] == ("roster.forfeit", "applied")
    # Rule 14 and 1639 A: a Stone belongs to a player, so the Lost Soul's go.
    assert "Political Go: eir stone at E5 is removed" in forfeit[2]
    state = go_state(app)
    assert state["stones"] == {}  # the game ended at day 13 and was reset (1639 F, G)
    (report,) = end_reports(tmp_path / "out")
    # Rule 1639 G: Bob's stone is alone on the board; the Lost Soul scores nothing.
    assert "Bob: Go Score 0 + territory 160 = 160; Nomic points gained: 160" in report
    assert "Alice" not in report


def end_reports(outbox: Path) -> list[str]:
    return [body_of(mail) for mail in maildir_mails(outbox) if mail["X-Nomicbot-Kind"] == "go-end"]


def test_go_b_a_forfeit_ends_alliances_and_consents_and_a_rejoining_player_starts_afresh(
    tmp_path: Path,
) -> None:
    script: Script = (
        (day(1), ALICE, "I place a stone at E5. I form an alliance with Bob."),
        (day(1, 11), BOB, "I form an alliance with Alice."),
        (day(1, 12), CAROL, "I form an alliance with Alice."),
        (day(2), ALICE, "I forfeit the game."),
        # Rule 14: a Lost Soul may become a player again, under eir old name.
        (day(4), ALICE, "I request to become a player with the name Alice."),
        (day(4, 11), ALICE, "I place a stone at E5."),
    )
    app = replayed(tmp_path, script, until=day(4, 12), players=THREE)
    judged = rulings(app)
    assert [ruling for _, ruling, _ in judged] == ["applied"] * 7
    forfeit = judged[4][2]
    assert forfeit.startswith("Alice forfeits, loses all e held and becomes a Lost Soul; ")
    assert "Political Go: eir stone at E5 is removed from the board" in forfeit
    assert "eir alliance with Bob ends (1639 B)" in forfeit
    assert "the pending consent Carol to Alice lapses (1639 C)" in forfeit
    state = go_state(app)
    # The old record keeps its mark "a" for the ko history, under a Lost Soul label;
    # the player who rejoined is new to the game: a fresh record, a fresh mark.
    (old,) = [record for record in state["players"] if record["lost_soul"]]
    assert (old["name"], old["mark"], old["score"]) == ("Alice  (Lost Soul, record 1)", "a", 0)
    assert state["marks"] == {"Alice": "L", "Bob": "b", "Carol": "c"}
    assert state["stones"] == {"E5": "Alice"}
    assert state["alliances"] == [] and state["pending_consents"] == []
    # Rule 1639 E: the stored positions' alliances follow the old record's label.
    assert position_names(app) == {"Alice  (Lost Soul, record 1)", "Bob"}
    # ``nomicbot go history E5`` shows the removal.
    with app.session_factory() as session:
        changes = [(event.change, event.owner) for event in point_history(session, "E5")]
    assert changes == [
        ("placed", "Alice"),
        ("removed (rule 14: its owner forfeited)", "Alice"),
        ("placed", "Alice"),
    ]


def position_names(app: App) -> set[str]:
    with app.session_factory() as session:
        rows = session.scalars(select(GoPosition.alliances)).all()
        return {name for alliances in rows for pair in alliances for name in pair}


def test_go_b_actions_after_a_forfeit_in_the_same_post_are_a_lost_souls(tmp_path: Path) -> None:
    script: Script = (
        (day(1, 9), BOB, "I place a stone at C3."),
        (day(1), ALICE, "I place a stone at E5. I forfeit the game. I place a stone at D4."),
    )
    app = replayed(tmp_path, script, until=day(1, 12))
    judged = rulings(app)
    assert [(action, ruling) for action, ruling, _ in judged] == [
        ("go.place", "applied"),
        ("go.place", "applied"),
        ("roster.forfeit", "applied"),
        ("go.place", "rejected"),
    ]
    # The Go state loaded for the first placement took the forfeit too, and was saved.
    assert "eir stone at E5 is removed" in judged[2][2]
    assert "is not a player's address" in judged[3][2]
    assert go_state(app)["stones"] == {"C3": "Bob"}


def test_renaming_onto_the_name_a_forfeited_player_left_takes_nothing_of_eirs(
    tmp_path: Path,
) -> None:
    """Trust II, item 1: it was shunted with "'Alice' already has a record"."""
    script: Script = (
        (day(1), ALICE, "I place a stone at E5."),
        (day(1, 11), BOB, "I place a stone at C3."),
        (day(2), ALICE, "I forfeit the game."),
        # The Lost Soul rejoins under another name, which frees "Alice" (rule 151).
        (day(2, 11), ALICE, "I request to become a player with the name Alys."),
        (day(2, 12), BOB, "I change my name to Alice."),
        (day(4), BOB, "I place a stone at D4."),
    )
    app = replayed(tmp_path, script, until=day(4, 12))
    assert [status for status, _ in statuses(app)] == ["processed"] * 6
    judged = rulings(app)
    assert [ruling for _, ruling, _ in judged] == ["applied"] * 6
    assert judged[4][2] == "Bob is now known as Alice"
    state = go_state(app)
    # Bob, now Alice, keeps eir own stones and mark, and nothing of the Lost Soul's.
    assert state["stones"] == {"C3": "Alice", "D4": "Alice"}
    assert state["marks"] == {"Alice": "b"}


def test_renaming_onto_a_lost_souls_own_name_is_refused_by_rule_2(tmp_path: Path) -> None:
    script: Script = (
        (day(1), ALICE, "I forfeit the game."),
        (day(1, 11), BOB, "I change my name to Alice."),
    )
    app = replayed(tmp_path, script, until=day(1, 12))
    judged = rulings(app)
    assert judged[1][:2] == ("roster.rename", "rejected")
    assert 'the name "Alice" belongs to Alice; names are unique' in judged[1][2]
    with app.session_factory() as session:
        roster = game_view(session, app.services, "players").data
    alice = next(entry for entry in roster if entry["name"] == "Alice")
    # Rule 212 reads when e left: re-entering in the same nweek gives 0BW.
    assert (alice["status"], alice["left_nweek"]) == ("Lost Soul", 1)


# -- Political Go, rule set A (A Nomic rules 365-377) --------------------------------------

A_START = datetime(2026, 1, 5, 9, tzinfo=UTC)


def test_go_a_a_forfeit_takes_stones_in_play_reserve_and_offers(tmp_path: Path) -> None:
    def at(hours: int) -> datetime:
        return A_START + timedelta(hours=hours)

    script: Script = (
        (at(0), BOB, "I place a stone at c4"),
        (at(1), ALICE, "I place a stone at d4"),
        (at(21), ALICE, "I offer an alliance to Bob. I buy a stone."),
        (at(22), ALICE, "I forfeit the game."),
        (at(40), BOB, "I place a stone at d4"),
    )
    app = replayed(tmp_path, script, until=at(41), go=GoSettings(rules="A", size=7))
    judged = rulings(app)
    assert [ruling for _, ruling, _ in judged] == ["applied"] * 6
    forfeit = judged[4][2]
    assert "Political Go: eir Stones In Play at d4 leave the Board" in forfeit
    assert "e loses eir 1 Reserve Stone (rules 373, 370)" in forfeit
    assert "the alliance offer Alice to Bob is void (368.2)" in forfeit
    state = go_state(app)
    assert state["stones"] == {"c4": "Bob", "d4": "Bob"}
    assert state["offers"] == [] and state["marks"] == {"Bob": "B"}
    (old,) = [record for record in state["players"] if record["lost_soul"]]
    assert (old["reserve"], old["is_go_player"]) == (0, False)
    assert "Alice" not in state["stones_held"]


# -- Field Matches: B-Chess and Life (seeds 003, 000) --------------------------------------


def test_bchess_a_forfeit_destroys_the_players_king_and_pieces(tmp_path: Path) -> None:
    app = field_app(tmp_path / "bot")
    grant_macks(app)
    table = FieldTable(app)
    start = nweek_start(0)
    table.post(
        RITA,
        start + timedelta(hours=10),
        "I select B-Chess as the Current Field Match. I initialize the field.",
    )
    table.post(FIELD_ALICE, start + timedelta(hours=11), "I purchase a piece.")
    assert len([item for item in table.state().objects if item.owner == "Alice"]) == 2
    table.post(FIELD_ALICE, start + timedelta(hours=12), "I forfeit the game.")
    forfeit = rulings(app)[-1]
    assert forfeit[:2] == ("roster.forfeit", "applied")
    assert "The Field (seed 003): eir Field Objects leave the Field" in forfeit[2]
    assert "King at " in forfeit[2]
    state = table.state()
    assert not [item for item in state.objects if item.owner == "Alice"]
    assert "Alice" not in dict(state.player_attributes)


def test_life_a_forfeit_takes_the_team_and_keeps_eir_tweak_as_a_lost_souls(
    tmp_path: Path,
) -> None:
    table = FieldTable(field_app(tmp_path / "bot"))
    start = nweek_start(0)
    table.post(RITA, start + timedelta(hours=10), "I select Life as the Current Field Match.")
    table.post(RITA, start + timedelta(hours=11), "I initialize the field.")
    table.post(RITA, start + timedelta(hours=11, minutes=30), "I evolve the field.")
    state = table.state()
    team = team_of(state, "Alice")
    grid = grid_of(state)
    cell = next(
        square
        for square in range(state.geometry.square_count)
        if grid.colour_at(square) in (None, team)
    )
    square = state.geometry.format_square(cell)
    table.post(FIELD_ALICE, start + timedelta(hours=12), f"I tweak cell {square}.")
    table.post(FIELD_ALICE, start + timedelta(hours=13), "I forfeit the game.")
    assert "e loses eir player attributes Team" in rulings(table.app)[-1][2]
    state = table.state()
    assert "Alice" not in dict(state.player_attributes) and team_of(state, "Alice") is None
    # The match's record of the Tweak stays, as a Lost Soul's: no later "Alice" has tweaked.
    invokers = {record.invoker for record in state.history if record.action == "Tweak"}
    assert invokers == {"Alice  (Lost Soul)"}


# -- Ministries, Deputies and Elections (rules 625, 1272, 1823) -----------------------------

TWIDDLES = "Ministry of Twiddles"
JUSTICE = "Ministry of Justice"


def governance_app(folder: Path) -> App:
    settings = game_settings(
        folder,
        players=THREE,
        ministries=(MinistryEntry(TWIDDLES, "Alice"), MinistryEntry(JUSTICE)),
    )
    app = build_app(settings)
    advance_to(app, EPOCH)
    return app


def post(app: App, author: tuple[str, str], body: str, when: datetime) -> None:
    """``body`` from ``author`` to the list, judged as the daemon would."""
    message_id = f"{author[0]}-{when:%d%H%M}@example.test"
    store_message(app, compose_post(*author, "Elections", body, message_id, when), "smtp", when)
    process_queue(app.session_factory, app.services)


def test_a_forfeit_opens_eir_ministry_ends_its_deputies_and_withdraws_eir_nomination(
    tmp_path: Path,
) -> None:
    app = governance_app(tmp_path / "bot")
    post(app, ALICE, "I designate Bob as my Deputy.", day(1, 10))
    post(app, CAROL, f"I call an election for {JUSTICE}.", day(1, 11))
    post(app, ALICE, f"I nominate myself for {JUSTICE}.", day(2, 10))
    post(app, BOB, f"I nominate myself for {JUSTICE}.", day(2, 11))
    post(app, ALICE, "I forfeit the game.", day(3, 10))
    judged = rulings(app)
    assert [ruling for _, ruling, _ in judged] == ["applied"] * 5
    forfeit = judged[4][2]
    assert (
        f"{TWIDDLES} is Open (rule 625 A) and Bob is no longer a Deputy for it (rule 1272)"
        in forfeit
    )
    assert f"Election #1 for {JUSTICE}: eir nomination is withdrawn" in forfeit
    with app.session_factory() as session:
        ministries = game_view(session, app.services, "ministries").data["ministries"]
        (election,) = game_view(session, app.services, "elections").data
    twiddles = next(item for item in ministries if item["name"] == TWIDDLES)
    assert (twiddles["holder"], twiddles["deputies"]) == (None, [])
    assert twiddles["open_since"] == day(3, 10).isoformat()
    assert [nomination[0] for nomination in election["nominations"]] == ["Bob"]
    # Rule 625 B: the Ministry held until the forfeit waits five ndays for an Election.
    post(app, BOB, f"I call an election for {TWIDDLES}.", day(4, 10))
    assert rulings(app)[-1][1] == "rejected"
    assert (
        "Alice  (Lost Soul) held Ministry of Twiddles within the last five ndays"
        in (rulings(app)[-1][2])
    )


def test_an_election_whose_every_candidate_forfeits_closes_with_nobody(tmp_path: Path) -> None:
    app = governance_app(tmp_path / "bot")
    post(app, CAROL, f"I call an election for {JUSTICE}.", day(1, 11))
    post(app, ALICE, f"I nominate myself for {JUSTICE}.", day(2, 10))
    advance_to(app, day(6, 12))  # the nominations close, the voting starts
    post(app, BOB, f"I vote Alice for {JUSTICE}.", day(7))
    post(app, ALICE, "I forfeit the game.", day(7, 13))
    assert "e is no longer a Candidate" in rulings(app)[-1][2]
    advance_to(app, day(12))  # the voting closes (four ndays)
    with app.session_factory() as session:
        elections = game_view(session, app.services, "elections").data
    # Later ones are nweek 2's Ministry Rotation (rule 625 B).
    election = next(item for item in elections if item["number"] == 1)
    assert (election["phase"], election["winner"], election["candidates"]) == (
        "closed",
        None,
        [],
    )
    assert "the voting closed with no candidate left" in " ".join(election["report"])
