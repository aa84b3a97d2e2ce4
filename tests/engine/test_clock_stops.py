"""The Clock's stops of rules 23 and 205, and rule 3 B per action (seed 004).

Rule 23: "At the end of each nweek, the Clock Stops until the GM
recognizes, on a public forum, the rule changes brought about by that
nweek's proposals.  The GM is responsible for restarting the Clock when e
submits eir recognizer."

Rule 205: "If more than 2/3 of all players are On Leave, The Clock shall
become Off until such time as at least 1/3 of all players are Off Leave.
Players may place emselves On Leave or Off Leave while The Clock is Off."

Rule 3 B: "while the Clock is Off, actions taken by players aren't
implemented until the Clock is turned back on, except when the rules
specify otherwise.  Actions related to the submitting and judging of CFIs
... happen upon reaching the forum regardless of the state of the Clock."
Rule 14: "any player may forfeit the game at any time (regardless of the
clock, the watch, etc.)".

Each game is played live, then its list archive alone is replayed into a
fresh database: the stops, restarts and rulings are the same.
"""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes
from email.policy import default
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.config import MinistryEntry, PlayerEntry
from bot.engine.views import game_view
from bot.store.models import OutboxMessage, RuleChange
from bot.testing import go_game
from bot.testing.apps import game_settings
from bot.testing.records import RecordedGame, recording_app, rulings

ALICE, BOB = go_game.ALICE, go_game.BOB
CAROL = ("Carol", "carol@example.test")
GO_VIEWS = ("go", "players", "holdings", "dice")
CFI = (
    "I submit a CFI: {{ __Stones__\nDefendant: Bob\nArgument: Bob moved.\n"
    "Resolution: Bob loses.\n}}"
)


def day(number: int, hour: int = 0, minute: int = 0) -> datetime:
    """Day ``number`` of January 2026 (the epoch, nweek 1 nday 1, is the 1st)."""
    return datetime(2026, 1, number, hour, minute, tzinfo=UTC)


def settings(folder: Path, gm: str = "Alice") -> Any:
    players = (
        PlayerEntry(ALICE[0], (ALICE[1],)),
        PlayerEntry(BOB[0], (BOB[1],)),
        PlayerEntry(CAROL[0], (CAROL[1],)),
    )
    ministries = (MinistryEntry("Rules", gm), MinistryEntry("Roster", "Bob"))
    return game_settings(folder, players=players, ministries=ministries)


def stop_rows(game: RecordedGame) -> list[tuple[str, bool, str]]:
    with game.app.session_factory() as session:
        rows = session.scalars(
            select(RuleChange)
            .where(RuleChange.setting.like("ntime.stop.%"))
            .order_by(RuleChange.effective_at, RuleChange.id)
        )
        return [
            (row.setting, bool(row.value["stopped"]), row.effective_at.isoformat()) for row in rows
        ]


def outbox_subjects(game: RecordedGame, kind: str) -> list[str]:
    with game.app.session_factory() as session:
        rows = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind))
        return [str(message_from_bytes(row.raw, policy=default)["Subject"]) for row in rows]


def test_the_clock_stops_at_the_nweeks_end_until_the_gms_recognizer(tmp_path: Path) -> None:
    game = RecordedGame(recording_app(settings(tmp_path / "live")))
    assert game.post(day(2, 10), ALICE, "I place a stone at E5.") == "processed"
    # Nweek 1 ends at 2026-01-11 00:00: the Clock stops there.  A stone waits.
    assert game.post(day(11, 10), BOB, "I place a stone at C3.") == "held"
    # Rule 3 B per action: the CFI goes ahead at once, the roll waits.
    assert game.post(day(11, 11), CAROL, f"{CFI}\n\nI roll 1d6.") == "held"
    # Only the GM restarts the Clock (rules 23, 625 D.7): Bob is not the GM.
    assert game.post(day(12, 9), BOB, "I recognize the rule changes of nweek 1.") == "processed"
    assert game.post(day(12, 9, 30), ALICE, "I recognize the rule changes of nweek 2.") == (
        "processed"
    )
    clock = game.app.services.clock
    stopped = clock.reading(day(12, 9, 45))
    assert not stopped.is_on
    assert stopped.stopped_for == (
        "waiting for the GM (Alice) to recognise nweek 1's rule changes (rule 23)",
    )
    # The end of the nweek still ticks (bot.games.ntime): nweek 2 has begun.
    assert stopped.label.startswith("nweek 2, nday 1 (Clock Off")
    assert game.post(day(12, 10), ALICE, "I hereby recognise nweek 1's rule changes.") == (
        "processed"
    )
    assert game.post(day(13, 9), ALICE, "I place a stone at G7.") == "processed"

    live = rulings(game.app)
    assert [(action, ruling, instant) for action, ruling, _, _, instant in live] == [
        ("go.place", "applied", day(2, 10).isoformat()),
        ("cfi.submit", "applied", day(11, 11).isoformat()),  # at once (rule 3 B)
        ("clock.recognize", "rejected", day(12, 9).isoformat()),  # Bob is not the GM
        ("clock.recognize", "rejected", day(12, 9, 30).isoformat()),  # the wrong nweek
        ("clock.recognize", "applied", day(12, 10).isoformat()),
        ("go.place", "applied", day(12, 10).isoformat()),  # Bob's, held until the restart
        ("dice.roll", "applied", day(12, 10).isoformat()),  # Carol's roll, likewise
        ("go.place", "applied", day(13, 9).isoformat()),
    ]
    reasons = [reason for _, ruling, reason, _, _ in live if ruling == "rejected"]
    assert reasons == [
        "only the GM (the Minister of the Rules: Alice) or eir Deputy recognises the rule "
        "changes and restarts the Clock",
        "the Clock waits for the recognizer of nweek 1's rule changes, not nweek 2's",
    ]
    assert live[4][2] == (
        "Alice recognises nweek 1's rule changes: the Clock restarts; "
        "2 post(s) held while it was Off now take effect"
    )
    # Turned On at 10:00, the Clock first ticks at the next midnight (rule 3 A).
    assert clock.reading(day(12, 12)).is_on
    assert [clock.reading(day(n, 12)).label for n in (12, 13)] == [
        "nweek 2, nday 1",
        "nweek 2, nday 2",
    ]
    assert stop_rows(game) == [
        ("ntime.stop.23", True, day(11).isoformat()),
        ("ntime.stop.23", False, day(12, 10).isoformat()),
    ]
    assert outbox_subjects(game, "clock-stop") == [
        "[clock] The Clock stops until the GM recognises nweek 1's rule changes"
    ]
    # Carol got two rulings: the CFI's at once, saying the roll waits; the roll's later.
    carol = rulings_mailed_to_post(game, "post-3@example.test")
    assert len(carol) == 2
    assert 'item 2 ("I roll 1d6.") will take effect when it is turned On again' in (
        " ".join(carol[0].split())
    )
    roll = live[6][2]
    assert roll.startswith("rolled 1d6: ")
    # The roll keeps its item number (2) in its second ruling and its proof line.
    assert "[verify: nweek=2 dice-v2 message-id=post-3@example.test action=2 " in carol[1]

    # The Chairman's display of the Clock (rule 625 D.10): `nomicbot state clock --at`.
    with game.app.session_factory() as session:
        shown = game_view(session, game.app.services, "clock", day(11, 12))
    assert shown.data["on"] is False
    assert shown.data["stops"] == [
        {
            "cause": "rule 23",
            "reason": stopped.stopped_for[0],
            "since": day(11).isoformat(),
            "until": day(12, 10).isoformat(),
        }
    ]
    assert "Off: waiting for the GM (Alice)" in shown.text

    fresh = game.replay_into(settings(tmp_path / "fresh"), until=day(14))
    assert rulings(fresh) == live
    assert fresh.services.clock.config == game.app.services.clock.config
    assert stop_rows(RecordedGame(fresh)) == stop_rows(game)


def rulings_mailed_to_post(game: RecordedGame, message_id: str) -> list[str]:
    """The bodies of the rulings answering ``message_id``, in the order mailed."""
    with game.app.session_factory() as session:
        rows = session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "ruling").order_by(OutboxMessage.id)
        )
        bodies = []
        for row in rows:
            mail = message_from_bytes(row.raw, policy=default)
            if mail["In-Reply-To"] == f"<{message_id}>":
                body = mail.get_body(("plain",))
                assert body is not None
                bodies.append(str(body.get_content()))
        return bodies


def test_without_a_gm_the_bot_recognises_at_once(tmp_path: Path) -> None:
    """Rule 625: nobody holds the Ministry of the Rules, so the bot acts for it."""
    game = RecordedGame(recording_app(settings(tmp_path / "live", gm="")))
    assert game.post(day(11, 10), BOB, "I place a stone at C3.") == "processed"
    assert stop_rows(game) == []
    assert game.app.services.clock.reading(day(11, 10)).is_on


def test_the_gm_forfeiting_while_the_clock_waits_ends_the_stop(tmp_path: Path) -> None:
    """Rule 14: the forfeit goes ahead while the Clock is Off, and ends Alice's offices;
    with the Ministry of the Rules Open, the bot recognises at that instant."""
    game = RecordedGame(recording_app(settings(tmp_path / "live")))
    assert game.post(day(2, 10), CAROL, "I roll 1d6.") == "processed"
    assert game.post(day(11, 10), BOB, "I place a stone at C3.") == "held"
    assert game.post(day(11, 12), ALICE, "I forfeit the game.") == "processed"
    assert game.post(day(11, 13), CAROL, "I place a stone at D4.") == "processed"
    assert stop_rows(game) == [
        ("ntime.stop.23", True, day(11).isoformat()),
        ("ntime.stop.23", False, day(11, 12).isoformat()),
    ]
    live = rulings(game.app)
    assert [(action, ruling, instant) for action, ruling, _, _, instant in live] == [
        ("dice.roll", "applied", day(2, 10).isoformat()),
        ("roster.forfeit", "applied", day(11, 12).isoformat()),
        ("go.place", "applied", day(11, 12).isoformat()),  # Bob's, released
        ("go.place", "applied", day(11, 13).isoformat()),
    ]
    fresh = game.replay_into(settings(tmp_path / "fresh"), until=day(12))
    assert rulings(fresh) == live


def test_a_recognizer_and_a_move_in_one_post(tmp_path: Path) -> None:
    """The recognizer restarts the Clock, so the post's next action takes effect at once."""
    game = RecordedGame(recording_app(settings(tmp_path / "live")))
    assert game.post(day(2, 10), CAROL, "I roll 1d6.") == "processed"
    post = "I recognize the rule changes of nweek 1.\n\nI place a stone at D4."
    assert game.post(day(11, 10), ALICE, post) == "processed"
    live = rulings(game.app)
    assert [(action, ruling, instant) for action, ruling, _, _, instant in live] == [
        ("dice.roll", "applied", day(2, 10).isoformat()),
        ("clock.recognize", "applied", day(11, 10).isoformat()),
        ("go.place", "applied", day(11, 10).isoformat()),
    ]
    assert len(rulings_mailed_to_post(game, "post-2@example.test")) == 2


def test_more_than_two_thirds_on_leave_turn_the_clock_off(tmp_path: Path) -> None:
    game = RecordedGame(recording_app(settings(tmp_path / "live", gm="")))
    assert game.post(day(2, 9), ALICE, "I go On Leave.") == "processed"
    assert game.post(day(2, 10), BOB, "I go On Leave.") == "processed"
    assert game.app.services.clock.reading(day(2, 11)).is_on  # two of three: not more
    assert game.post(day(2, 11), CAROL, "I go On Leave.") == "processed"
    off = game.app.services.clock.reading(day(2, 12))
    assert not off.is_on
    assert off.stopped_for == (
        "3 of the 3 players are On Leave, more than two thirds (rule 205): the Clock "
        "is Off until at least a third are Off Leave",
    )
    # A game action does not take Alice Off Leave while it waits (rule 205's
    # implied Off Leave comes with the action's taking): it is held.
    assert game.post(day(3, 9), ALICE, "I place a stone at E5.") == "held"
    assert game.post(day(4, 9), BOB, "I go Off Leave.") == "processed"
    live = rulings(game.app)
    assert [(action, ruling, instant) for action, ruling, _, _, instant in live] == [
        ("roster.leave", "applied", day(2, 9).isoformat()),
        ("roster.leave", "applied", day(2, 10).isoformat()),
        ("roster.leave", "applied", day(2, 11).isoformat()),
        ("roster.return", "applied", day(4, 9).isoformat()),  # allowed while Off
        ("go.place", "applied", day(4, 9).isoformat()),  # Alice's, released
    ]
    assert stop_rows(game) == [
        ("ntime.stop.205", True, day(2, 11).isoformat()),
        ("ntime.stop.205", False, day(4, 9).isoformat()),
    ]
    fresh = game.replay_into(settings(tmp_path / "fresh", gm=""), until=day(5))
    assert rulings(fresh) == live
    assert fresh.services.clock.config == game.app.services.clock.config
