"""Read-only views of the game state for ``nomicbot state VIEW``.

Each enabled game declares its views (``bot.engine.game.StateView``); this
module finds one by name among the games the services carry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from bot.engine.game import Game, StateView
from bot.engine.services import Services


@dataclass(frozen=True)
class View:
    text: str
    data: Any


def views_of(games: Iterable[Game]) -> dict[str, StateView]:
    """Every state view of ``games`` by name, in the games' order."""
    return {view.name: view for game in games for view in game.views}


def game_view(session: Session, services: Services, game: str, at: datetime | None = None) -> View:
    """Raises KeyError for a view no enabled game declares.

    ``at`` is the instant of the views that depend on one (``digests``: what
    each Minister would receive then); None is the wall clock's now.  Every
    other view shows the stored state, whatever the time.
    """
    return views_of(services.games)[game].show(session, services, at)


def views_help(views: Mapping[str, StateView]) -> str:
    """One line per view, for ``--help`` and for an unknown view's error."""
    width = max((len(name) for name in views), default=0)
    return "\n".join(f"  {name:<{width}}  {view.description}" for name, view in views.items())
