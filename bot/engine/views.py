"""Read-only views of the game state for ``nomicbot state GAME``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine.services import Services
from bot.engine.view_names import VIEWS
from bot.store.models import DiceSeed


@dataclass(frozen=True)
class View:
    text: str
    data: Any


def game_view(session: Session, services: Services, game: str, at: datetime | None = None) -> View:
    """Raises KeyError for an unknown view name (``view_names.VIEWS`` lists them).

    ``at`` is the instant of the views that depend on one (``digests``: what
    each Minister would receive then); None is the wall clock's now.  Every
    other view shows the stored state, whatever the time.
    """
    from bot.engine.clock_stops import clock_view
    from bot.engine.games.go import go_view
    from bot.engine.governance.cfis import cfis_view
    from bot.engine.governance.digests import digests_view, wall_clock
    from bot.engine.governance.elections import elections_state, ministries_state
    from bot.engine.governance.views import governance_views
    from bot.engine.inventory import inventory_view

    views: dict[str, Callable[[Session, Services], View]] = {
        "go": lambda s, sv: View(*go_view(s, sv)),
        "field": lambda s, sv: View(*_field_view(s, sv)),
        "players": _players_view,
        "dice": _dice_view,
        "holdings": _holdings_view,
        "ministries": lambda s, sv: View(*ministries_state(s, sv)),
        "elections": lambda s, sv: View(*elections_state(s, sv)),
        "digests": lambda s, sv: View(*digests_view(s, sv, at)),  # what each Minister gets
        **governance_views(),  # proposals, ballot, polls
        "cfis": cfis_view,  # the Attorney Generalist's display (rule 125)
        "inventory": inventory_view,  # every holder's objects, public only (rules 13, 390)
        "clock": lambda s, sv: View(*clock_view(s, sv, at or wall_clock())),  # 625 D.10
    }
    assert views.keys() == VIEWS.keys(), "bot/engine/view_names.py lists every view"
    return views[game](session, services)


def _players_view(session: Session, services: Services) -> View:
    # The roster (rules 14, 151, 205): the same text the bot mails as a board.
    from bot.engine.players import render_roster, roster

    entries = roster(session)
    data: list[dict[str, Any]] = [
        {
            "name": entry.name,
            "active": entry.active,
            "status": "player" if entry.active else "Lost Soul",
            "on_leave": entry.on_leave,
            "origin": entry.origin,
            "joined_at": entry.joined_at.isoformat(),
            "addresses": list(entry.addresses),
            "address_count": len(entry.addresses),
            "former_names": list(entry.former_names),
            # Rule 212: one who re-enters in the nweek e left gets 0BW (one-based here).
            "left_nweek": None if entry.left_nweek is None else entry.left_nweek + 1,
        }
        for entry in entries
    ]
    return View(render_roster(entries) if entries else "no players yet", data)


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
    # The Twiddler's display (rule 21 A.2): every player's balances.  Lost
    # Souls hold nothing (rule 14), so only players are listed.
    from bot.engine.holdings import balances, render_holdings
    from bot.engine.ledger import holdings
    from bot.engine.players import all_players

    players = {player.name: player for player in all_players(session)}
    data = {name: held for name, held in holdings(session).items() if name in players}
    table = [(name, balances(session, players[name].id)) for name in data]
    return View(render_holdings(table), data)


def _field_view(session: Session, services: Services) -> tuple[str, Any]:
    from bot.engine.games.field import field_view

    return field_view(session, services)
