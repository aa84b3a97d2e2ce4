"""The roster (rules 14, 151, 205 and 212 of seed 004) and the holdings, declared as one game.

Gifts of currencies and objects between players (rule 13, grammar/give.lark,
``bot.engine.transfers``) are the holdings' too.

Joining, renaming, leave and forfeits by mail; the Twiddler's display of
every holder's balances, players' and entities', and the Basin's count
(rule 21 A.2); the Minister of the Roster's and
the Twiddler's digest sections (rule 625 D.5, D.6).  After each action the
roster tells the post's other adapters of a rename or a forfeit
(``roster.after_action``), so every enabled game hears of it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from bot.engine.game import Game, StateView
from bot.engine.games.base import GameAdapter
from bot.engine.games.roster import RosterAdapter, after_action
from bot.engine.governance.digest_sections import roster_sections, twiddler_sections
from bot.engine.holdings import (
    BASIN,
    basin_count_at,
    entity_table,
    ordered_balances,
    render_holdings,
)
from bot.engine.inventory import inventory_view
from bot.engine.ledger import holdings
from bot.engine.players import all_players, render_roster, roster
from bot.engine.services import Services
from bot.engine.transfers import TransfersAdapter
from bot.engine.views import View
from bot.parser.areas import give as give_area
from bot.parser.areas import roster as roster_area


def roster_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    # Rule 13's gifts move the balances and objects this game keeps and shows.
    return (RosterAdapter.from_services(session, services), TransfersAdapter(session, services))


def players_view(session: Session, services: Services, at: object = None) -> View:
    """The roster (rules 14, 151, 205): the same text the bot mails as a board."""
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


def holdings_view(session: Session, services: Services, at: datetime | None = None) -> View:
    """The Twiddler's display (rule 21 A.2): every holder's balances, "any game entity".

    Lost Souls hold nothing (rule 14), so only players are listed, then the
    entities that hold anything (the Store, rule 1911), then what the Basin
    created in the nweek of ``at`` (None: now) when it created any.  Four
    statements, however many players: the players, every player's sums at
    once, every entity's sums at once, and the Basin's indexed sum.
    """
    players = {player.name for player in all_players(session)}
    data: dict[str, Any] = {
        name: held for name, held in holdings(session).items() if name in players
    }
    table = [(name, ordered_balances(held)) for name, held in data.items()]
    entities = entity_table(session)
    data.update((entity, dict(held)) for entity, held in entities)
    basin = basin_count_at(session, services.clock, at or datetime.now(UTC))
    if basin.created:
        data[BASIN] = basin.to_json()
    return View(render_holdings(table, entities, basin), data)


ROSTER = Game(
    name="roster",
    title="The roster and holdings (rules 14, 21, 151, 205, 212)",
    adapters=roster_adapters,
    areas=(roster_area.AREA, give_area.AREA),
    settings_section="holdings",
    views=(
        StateView(
            "players", "the roster: players, Lost Souls, On Leave (rules 14, 205)", players_view
        ),
        StateView(
            "holdings", "every holder's balances, the Twiddler's display (rule 21)", holdings_view
        ),
        StateView(
            "inventory",
            "every holder's objects, hidden ones as their Backs (rules 13, 390)",
            lambda session, services, at: inventory_view(session, services),
        ),
    ),
    digest_sections=(roster_sections, twiddler_sections),
    private_actions=RosterAdapter.private_actions,
    # Rule 14: "any player may forfeit the game at any time (regardless of the
    # clock ...)"; rule 205: "Players may place emselves On Leave or Off Leave
    # while The Clock is Off".  A statement or a secret changes nothing in the
    # game, so it is answered at once too.
    while_clock_off=frozenset(
        {"roster.forfeit", "roster.leave", "roster.return", "roster.holdings", "roster.secret"}
    ),
    after_action=after_action,
    templates="roster",
)
