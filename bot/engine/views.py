"""Read-only views of the game state for ``nomicbot state GAME``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine.services import Services
from bot.store.models import DiceSeed, Player


@dataclass(frozen=True)
class View:
    text: str
    data: Any


def game_view(session: Session, services: Services, game: str) -> View:
    """Raises KeyError for an unknown game name."""
    from bot.engine.games.go import go_view
    from bot.engine.governance.elections import elections_state, ministries_state

    views: dict[str, Callable[[Session, Services], View]] = {
        "go": lambda s, sv: View(*go_view(s, sv)),
        "players": _players_view,
        "dice": _dice_view,
        "holdings": _holdings_view,
        "ministries": lambda s, sv: View(*ministries_state(s, sv)),
        "elections": lambda s, sv: View(*elections_state(s, sv)),
    }
    return views[game](session, services)


def _players_view(session: Session, services: Services) -> View:
    players = session.scalars(select(Player).order_by(Player.id)).all()
    data: list[dict[str, Any]] = [
        {
            "name": p.name,
            "active": p.active,
            "origin": p.origin,
            "joined_at": p.joined_at.isoformat(),
            "addresses": sorted(a.address for a in p.addresses),
        }
        for p in players
    ]
    lines = [
        f"{p['name']}{'' if p['active'] else ' (Lost Soul)'}: {', '.join(p['addresses'])}"
        for p in data
    ]
    return View("\n".join(lines) or "no players yet", data)


def _dice_view(session: Session, services: Services) -> View:
    rows = session.scalars(select(DiceSeed).order_by(DiceSeed.nweek)).all()
    data = [
        {"nweek": row.nweek + 1, "commitment": row.commitment, "seed": row.revealed_seed}
        for row in rows
    ]
    lines = [
        f"nweek {item['nweek']}: commitment {item['commitment']}; "
        f"seed {item['seed'] or '(not revealed yet)'}"
        for item in data
    ]
    return View("\n".join(lines) or "no dice commitments yet", data)


def _holdings_view(session: Session, services: Services) -> View:
    from bot.engine.ledger import holdings

    data = holdings(session)
    lines = [
        f"{name}: " + ", ".join(f"{amount} {currency}" for currency, amount in sorted(held.items()))
        for name, held in data.items()
    ]
    return View("\n".join(lines) or "nobody holds anything yet", data)
