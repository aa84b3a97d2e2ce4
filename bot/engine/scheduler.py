"""Time-driven events: what happens at nweek boundaries (rule 3 of seed 004).

The scheduler is driven by the instants of the posts themselves (and by the
wall clock in the daemon), so a replayed archive sees every event at the
same point between the same two posts as the live game did.

At the start of each nweek the bot publishes a SHA-256 commitment to that
nweek's dice seed; when the nweek ends it reveals the seed (rule 9), so
anyone can re-derive every roll from the archive.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from sqlalchemy.orm import Session

from bot.engine import timed
from bot.engine.services import Services
from bot.games import dice, go
from bot.outbound.compose import compose_report
from bot.store.models import ClockMark, DiceSeed

CLOCK_MARK_ID = 1


def advance_clock(session: Session, services: Services, until: datetime) -> None:
    """Handle every event due after the last handled instant, up to ``until``."""
    mark = session.get(ClockMark, CLOCK_MARK_ID)
    if mark is None:
        session.add(ClockMark(id=CLOCK_MARK_ID, handled_until=until))
        open_nweek(session, services, services.clock.reading(until).nweek, until)
        return
    if until <= mark.handled_until:
        return
    # The interval is cut at every 00:00 UTC and handled piece by piece, so
    # what happens at a midnight (ntime events, rule 3 A; digests) sees the
    # game as it stood then, not as later pieces of a long gap leave it.
    after = mark.handled_until
    for piece_end in (*_midnights_between(after, until), until):
        if piece_end <= after:
            continue
        if _midnight_between(after, piece_end):
            _ntime_events(session, services, after, piece_end)
        for handler in timed.handlers():
            handler(session, services, after, piece_end)
        after = piece_end
    mark.handled_until = until


def _ntime_events(session: Session, services: Services, after: datetime, until: datetime) -> None:
    for checkpoint in services.clock.checkpoints_between(after, until):
        end_finished_go_game(session, services, checkpoint.ending.index, checkpoint.instant)
    for change in services.clock.nweek_changes_between(after, until):
        reveal_nweek(session, services, change.ended, change.instant)
        open_nweek(session, services, change.begun, change.instant)
        end_quiet_go_game(session, services, change.begun, change.instant)


def end_finished_go_game(session: Session, services: Services, period: int, at: datetime) -> None:
    """B Nomic rule 1639 F and G: end, score and reset the game at a Checkpoint."""
    if services.settings.go.rules != "B":
        return
    from bot.engine.games.go import GoAdapter, describe_score

    adapter = GoAdapter(session, services.settings.go.board_size)
    before = adapter.state
    if not go.game_should_end(before, period):
        return
    result = adapter.end_game(at)
    session.add(
        compose_report(
            services,
            "go-end",
            f"period-{period}",
            "[go] The game of Political Go ended (rule 1639 F)",
            "go/end.txt.j2",
            {"report": describe_score(before, result), "draws": [], "context": "", "nweek": 0},
            at,
        )
    )


def end_quiet_go_game(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """A Nomic rule 365: a game ends when a whole nweek passed with no stone placed."""
    if services.settings.go.rules != "A":
        return
    from bot.engine.games.go_anomic import AnomicGoAdapter, describe_end

    adapter = AnomicGoAdapter(session, services)
    before = adapter.state
    seed = dice.nweek_seed(services.master_secret, nweek)
    result = adapter.at_nweek_start(nweek, at, seed)
    if result is None:
        return
    adapter.save()
    draws = [draw.describe() for draw in adapter.last_draws]
    session.add(
        compose_report(
            services,
            "go-end",
            f"{nweek}-{before.game_number}",
            f"[go] Game {before.game_number} of Political Go ended",
            "go/end.txt.j2",
            {
                "report": describe_end(result, before),
                "draws": draws,
                "context": f"nweek-{nweek}-go-end",
                "nweek": nweek + 1,
            },
            at,
        )
    )


def open_nweek(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """Publish the commitment to ``nweek``'s dice seed (once)."""
    if session.get(DiceSeed, nweek) is not None:
        return
    seed = dice.nweek_seed(services.master_secret, nweek)
    commitment = dice.commitment(seed)
    session.add(DiceSeed(nweek=nweek, commitment=commitment))
    session.add(
        compose_report(
            services,
            "dice-commitment",
            f"{nweek}",
            f"[dice] Commitment for nweek {nweek + 1}",
            "dice/commitment.txt.j2",
            {"nweek": nweek + 1, "commitment": commitment},
            at,
        )
    )


def reveal_nweek(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """Reveal the seed of an nweek that has ended (once)."""
    row = session.get(DiceSeed, nweek)
    if row is None or row.revealed_seed is not None:
        return
    seed = dice.nweek_seed(services.master_secret, nweek)
    row.revealed_seed = seed.hex()
    session.add(
        compose_report(
            services,
            "dice-reveal",
            f"{nweek}",
            f"[dice] Seed revealed for nweek {nweek + 1}",
            "dice/reveal.txt.j2",
            {"nweek": nweek + 1, "seed": seed.hex(), "commitment": row.commitment},
            at,
        )
    )


def _midnights_between(after: datetime, until: datetime) -> list[datetime]:
    """Every 00:00 UTC in (after, until], in order."""
    first = datetime.combine(after.astimezone(UTC).date(), time(), UTC) + timedelta(days=1)
    days = (until.astimezone(UTC) - first).days
    return [first + timedelta(days=day) for day in range(days + 1)] if first <= until else []


def _midnight_between(after: datetime, until: datetime) -> bool:
    """Whether a 00:00 UTC falls in (after, until]."""
    return after.astimezone(UTC).date() != until.astimezone(UTC).date()
