"""Players: resolving addresses and names to players (rules 2 and 14)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bot.config import PlayerEntry
from bot.engine.rulings import PlayerRef
from bot.games.errors import AmbiguousActionError, IllegalActionError
from bot.store.models import Player, PlayerAddress


def player_for_address(session: Session, address: str | None) -> PlayerRef | None:
    if not address:
        return None
    row = session.execute(
        select(Player.id, Player.name)
        .join(PlayerAddress, PlayerAddress.player_id == Player.id)
        .where(PlayerAddress.address == address.lower(), Player.active.is_(True))
    ).first()
    return PlayerRef(row.id, row.name) if row else None


def active_players(session: Session) -> list[PlayerRef]:
    rows = session.execute(
        select(Player.id, Player.name).where(Player.active.is_(True)).order_by(Player.id)
    )
    return [PlayerRef(row.id, row.name) for row in rows]


def find_player_by_name(session: Session, name: str) -> PlayerRef:
    """Resolve a name or an unambiguous abbreviation of one (rule 2).

    Raises IllegalActionError when nobody matches and AmbiguousActionError
    when several players do.
    """
    players = active_players(session)
    wanted = " ".join(name.split()).casefold()
    exact = [p for p in players if p.name.casefold() == wanted]
    if exact:
        return exact[0]
    partial = [p for p in players if p.name.casefold().startswith(wanted)]
    if len(partial) == 1:
        return partial[0]
    if not partial:
        raise IllegalActionError(f'there is no player called "{name}"', rule="2")
    names = ", ".join(p.name for p in partial)
    raise AmbiguousActionError(f'"{name}" could mean any of: {names}', rule="2")


def sync_configured_players(
    session: Session, entries: Sequence[PlayerEntry], now: datetime
) -> None:
    """Make sure every player named in the configuration exists with eir addresses."""
    for entry in entries:
        player = session.scalar(select(Player).where(Player.name == entry.name))
        if player is None:
            player = Player(name=entry.name, active=True, origin="config", joined_at=now)
            session.add(player)
            session.flush()
        for address in entry.addresses:
            if session.scalar(select(PlayerAddress).where(PlayerAddress.address == address)):
                continue
            session.add(PlayerAddress(player_id=player.id, address=address))


def register_player(session: Session, name: str, address: str, now: datetime) -> PlayerRef:
    """Rule 14: an External Force becomes a Player by posting a request and a name.

    A Lost Soul (a former player, known by eir address) may rejoin; e takes
    the requested name when it is free.  Raises IllegalActionError when the
    name belongs to someone else or the address already belongs to a player.
    """
    clean = " ".join(name.split())
    if not clean:
        raise IllegalActionError("a registration needs a name to be known by", rule="14")
    if player_for_address(session, address) is not None:
        raise IllegalActionError(f"{address} is already a player's address", rule="14")
    lost_soul = _lost_soul_at(session, address)
    holder = session.scalar(select(Player).where(func.lower(Player.name) == clean.lower()))
    if holder is not None and holder is not lost_soul:
        raise IllegalActionError(f'the name "{clean}" is already taken', rule="14")
    player = lost_soul or Player(name=clean, origin="registration", joined_at=now)
    player.name = clean
    player.active = True
    session.add(player)
    session.flush()
    if lost_soul is None:
        session.add(PlayerAddress(player_id=player.id, address=address))
    return PlayerRef(player.id, player.name)


def _lost_soul_at(session: Session, address: str) -> Player | None:
    return session.scalar(
        select(Player)
        .join(PlayerAddress, PlayerAddress.player_id == Player.id)
        .where(PlayerAddress.address == address.lower(), Player.active.is_(False))
    )


def forfeit_player(session: Session, player: PlayerRef) -> None:
    """Rule 14: a forfeiting player becomes a Lost Soul, keeping only eir name."""
    row = session.get(Player, player.id)
    if row is not None:
        row.active = False
