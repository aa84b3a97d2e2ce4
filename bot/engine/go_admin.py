"""Administering Political Go: set-up stones, and the history of a point.

``setup_stones`` is the documented admin command for handicap stones (and
for any position the Go Consul must load): the stones go on the board
without a move, under either rule set.  It is logged in the action log as an
administrator's action (no post), so the history query shows it.

``point_history`` answers "which post placed, captured or changed the stone
on q16" from the ``effects`` the Go adapters record with every applied move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from bot.engine.games.go import GoAdapter
from bot.engine.games.go_anomic import AnomicGoAdapter
from bot.engine.players import find_player_by_name
from bot.store.models import ActionRecord, Message, Player

if TYPE_CHECKING:
    from bot.engine.services import Services


@dataclass(frozen=True)
class PointEvent:
    """One change to a point: when, by which post (or "admin"), what happened."""

    occurred_at: datetime
    message_id: str
    player: str
    text: str
    change: str
    owner: str
    by: tuple[str, ...]
    game_number: int | None


def setup_stones(
    session: Session, services: Services, owner: str, points: Sequence[str], at: datetime
) -> str:
    """Put ``owner``'s stones on ``points`` without a move; the summary logged.

    Raises ``ActionError`` for an unknown player or a point off the board, and
    ``ValueError`` for an occupied point.
    """
    player = find_player_by_name(session, owner)
    adapter = services.at(at).make_adapters(session)["go"]
    assert isinstance(adapter, GoAdapter | AnomicGoAdapter)
    names = adapter.set_up(player.name, points)
    game_number = adapter.game_number
    summary = f"set-up: {player.name}'s stones placed at {' '.join(names)} (not a move)"
    session.add(
        ActionRecord(
            message_pk=None,
            position=1,
            player_id=player.id,
            action="go.setup",
            args={"owner": player.name, "points": names},
            text=f"nomicbot go setup {player.name} {' '.join(names)}",
            ruling="applied",
            summary=summary,
            rule="365" if services.settings.go.rules == "A" else "1639 A",
            effects=[
                {
                    "game": "go",
                    "point": name,
                    "change": "set up",
                    "owner": player.name,
                    "game_number": game_number,
                }
                for name in names
            ],
            ntime=services.clock.reading(at).label,
            occurred_at=at,
        )
    )
    return summary


def point_history(session: Session, point: str) -> list[PointEvent]:
    """Every logged change to ``point`` ("q16", any case), oldest first."""
    wanted = point.strip().casefold()
    rows = session.execute(
        select(ActionRecord, Message.message_id, Player.name)
        .outerjoin(Message, ActionRecord.message_pk == Message.id)
        .outerjoin(Player, ActionRecord.player_id == Player.id)
        # A forfeit removes the Lost Soul's stones (rule 14): its ruling logs them too.
        .where(
            or_(ActionRecord.action.startswith("go."), ActionRecord.action == "roster.forfeit"),
            ActionRecord.ruling == "applied",
        )
        .order_by(ActionRecord.id)
    )
    events = []
    for record, message_id, player in rows:
        for effect in record.effects or ():
            if str(effect.get("point", "")).casefold() != wanted:
                continue
            events.append(
                PointEvent(
                    occurred_at=record.occurred_at,
                    message_id=message_id or "admin",
                    player=player or "",
                    text=record.text,
                    change=str(effect.get("change", "")),
                    owner=str(effect.get("owner") or ""),
                    by=tuple(effect.get("by", ())),
                    game_number=effect.get("game_number"),
                )
            )
    return events
