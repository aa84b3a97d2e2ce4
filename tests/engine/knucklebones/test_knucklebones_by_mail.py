"""Knucklebones (seed 001) by mail: a complete game, a forfeit, golden rulings and boards.

Alice and Bob state their intents on the list; at the next Battle Phase
(00:00 UTC) their game starts, the bot rolls the turn order (1d2) and each
participant's 1d6 as it notifies em, and they place their dice by mail until
a matrix is full; the winner gains a Handy Pack and a Chip.  In a second
game the participant to move says nothing for 24 hours and forfeits.  The
posts are scripted against a scratch bot (each player reads the board), then
reach a second bot over real IMAP (Dovecot) with the list's arrival times:
its rulings and the boards it mails are compared with golden files, the
list's archive alone, replayed into a fresh database, gives the same state,
and every roll's proof line verifies once the nweek's seed is revealed.

Refresh the golden files after a deliberate change with
    NOMICBOT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/knucklebones
"""

from __future__ import annotations

import mailbox
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.audit import verify_archive
from bot.config import DEFAULT_GAMES, GamesSettings, Settings
from bot.engine import objects
from bot.engine.players import find_player_by_name
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.games.knucklebones.matrix import columns_with_room
from bot.games.knucklebones.serialize import state_from_json
from bot.ingress.imap import ImapPoller
from bot.runner import advance_to
from bot.store.models import OutboxMessage
from bot.testing import go_game
from bot.testing.apps import append_to_mailbox, game_settings, imap_settings
from bot.testing.dovecot import ImapAccount
from bot.testing.goldens import check_golden
from bot.testing.records import RecordedGame, recording_app, rulings

ALICE, BOB = go_game.ALICE, go_game.BOB
GOLDEN = Path(__file__).parent / "golden"
MOST_TURNS = 60  # a bound: destroyed dice make a game longer than 17 turns


def day(number: int, hour: int = 0, minute: int = 0) -> datetime:
    """Day ``number`` of January 2026 (the epoch is the 1st)."""
    return datetime(2026, 1, number, hour, minute, tzinfo=UTC)


def settings(folder: Path) -> Settings:
    # The one line that enables the game: seed 001 is its own nomic.
    games = GamesSettings(enabled=(*DEFAULT_GAMES, "knucklebones"))
    return game_settings(folder, games=games)


def state(game: RecordedGame) -> dict[str, Any]:
    with game.app.session_factory() as session:
        return dict(game_view(session, game.app.services, "knucklebones").data)


def play_to_the_end(game: RecordedGame, number: int, start: datetime) -> datetime:
    """The participant to move places eir die in the leftmost column with room, hourly."""
    at = start
    advance_to(game.app, start)  # the daemon's scheduler runs between posts
    for _ in range(MOST_TURNS):
        played = state_from_json(state(game)).game(number)
        if played.is_over:
            return at
        at += timedelta(hours=1)
        mover = played.player_to_move
        column = columns_with_room(played.matrices[played.to_move])[0]
        author = ALICE if mover == ALICE[0] else BOB
        assert game.post(at, author, f"I place my die in column {column}.") == "processed"
    assert state_from_json(state(game)).game(number).is_over
    return at


def mailed(game: RecordedGame, kinds: tuple[str, ...]) -> list[str]:
    """The bodies of the bot's mails of ``kinds``, in order."""
    with game.app.session_factory() as session:
        rows = session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind.in_(kinds)).order_by(OutboxMessage.id)
        )
        return [
            message_from_bytes(row.raw, policy=default).get_body().get_content()  # type: ignore[union-attr]
            for row in rows
        ]


def player_id(game: RecordedGame, name: str) -> int:
    with game.app.session_factory() as session:
        return find_player_by_name(session, name).id


def prizes(game: RecordedGame) -> list[tuple[str, str, Any]]:
    with game.app.session_factory() as session:
        return [
            (held.object_type.name, held.holder.name, held.attributes.get("game"))
            for held in objects.all_held(session)
        ]


def test_a_game_to_the_end_and_a_forfeit_by_mail_then_replayed(
    tmp_path: Path, imap_user: ImapAccount
) -> None:
    # The players' script: each reads the board and places in the leftmost
    # column with room, against a scratch bot fed directly.
    game = RecordedGame(recording_app(settings(tmp_path / "scratch")))
    # The Rest Phase: intents on the list (#battle-commencement).
    assert game.post(day(1, 9), ALICE, "I want to play Knucklebones against Bob.") == "processed"
    assert game.post(day(1, 10), BOB, "I challenge Alice to Knucklebones.") == "processed"
    # Nothing may be placed before the game starts.
    assert game.post(day(1, 11), ALICE, "I place my die in column 1.") == "processed"
    # The Battle Phase at 00:00: the game starts and its first mover is notified.
    ended = play_to_the_end(game, 1, day(2, 8))
    first = state_from_json(state(game)).game(1)
    assert first.outcome is not None and first.outcome.winner is not None

    # A second game: its first mover lets 24 hours pass.
    after = ended + timedelta(minutes=5)
    assert game.post(after, ALICE, "I want to play Knucklebones against Bob.") == "processed"
    assert game.post(after + timedelta(minutes=5), BOB, "I want to play Knucklebones.") == (
        "processed"
    )
    next_midnight = datetime.combine(after.date() + timedelta(days=1), datetime.min.time(), UTC)
    later = next_midnight + timedelta(hours=25)
    advance_to(game.app, later)
    second = state_from_json(state(game)).game(2)
    assert second.outcome is not None and second.outcome.forfeited is not None
    assert second.turns == 0

    # The same posts reach a second bot over real IMAP (Dovecot), with the
    # list's arrival times; its rulings, boards, games and prizes are the
    # scratch bot's, and they are the golden ones.
    append_to_mailbox(imap_user, game.archive)
    live = RecordedGame(recording_app(settings(tmp_path / "live")))
    polled = ImapPoller(imap_settings(imap_user), live.app.session_factory).poll_once()
    assert polled.stored == len(game.archive)
    process_queue(live.app.session_factory, live.app.services)
    advance_to(live.app, later)
    assert state(live) == state(game)
    assert prizes(live) == prizes(game)
    live_rulings = rulings(live.app)
    assert live_rulings == rulings(game.app)
    check_golden(
        GOLDEN / "rulings.txt",
        "".join(
            f"{action} | {ruling} | {reason}\n" for action, ruling, reason, _, _ in live_rulings
        ),
    )
    boards = mailed(live, ("ruling", "knucklebones-battle", "knucklebones-forfeit"))
    assert boards == mailed(game, ("ruling", "knucklebones-battle", "knucklebones-forfeit"))
    check_golden(GOLDEN / "boards.txt", "\n=====\n".join(b for b in boards if "Knucklebones" in b))
    assert sorted(prizes(live)) == sorted(
        (kind, str(player_id(live, str(winner))), number)
        for number, winner in ((1, first.outcome.winner), (2, second.outcome.winner))
        for kind in ("Handy Pack", "Chip")
    )

    # The archive alone, replayed, gives the same games and prizes.
    fresh = game.replay_into(settings(tmp_path / "replay"), later + timedelta(minutes=1))
    replayed = RecordedGame(fresh)
    assert state(replayed) == state(live)
    assert prizes(replayed) == prizes(live)
    assert rulings(fresh) == live_rulings
    fresh.dispose()
    # Every roll the bot printed is verifiable once its nweek's seed is revealed
    # (nweek 1 ends on the 11th).
    advance_to(game.app, day(11, 1))
    report = verify_archive(bot_mails(game, tmp_path / "audit.mbox"))
    assert report.ok, report.lines
    # Each game's 1d2 and first 1d6, and a 1d6 after each placement but the last.
    assert (report.checked, report.unrevealed) == (2 + 2 + first.turns - 1, 0), report.summary


def bot_mails(game: RecordedGame, path: Path) -> Path:
    """An mbox of every mail the bot sent, as the list would archive it."""
    box = mailbox.mbox(str(path), create=True)
    with game.app.session_factory() as session:
        for row in session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)):
            box.add(mailbox.mboxMessage(row.raw))
    box.flush()
    box.close()
    return path
