"""The Clock's stops that last until a cause clears: rules 23 and 205 (seed 004).

* Rule 23: "At the end of each nweek, the Clock Stops until the GM
  recognizes, on a public forum, the rule changes brought about by that
  nweek's proposals.  The GM is responsible for restarting the Clock when e
  submits eir recognizer."  The GM is the Minister of the Rules (rule 625
  D.7; eir Deputies act for em, rule 1272), from the configuration's
  ``[[ministries]]`` and the elections.  When nobody holds that Ministry the
  bot, acting for it as rule 625 lets a software system do, recognises at
  once and the stop lasts no time; if the Ministry falls Open while the
  Clock waits, the stop ends at that instant.
* Rule 23 also stops the Clock "at the end of the second Checking Period of
  each nweek ... until the Chairman posts the nweek's ballot".  The bot posts
  the Ballot at that very instant (``bot.engine.governance.ballot``), so that
  stop lasts no time and is not recorded (docs/readings.md).
* Rule 205: "If more than 2/3 of all players are On Leave, The Clock shall
  become Off until such time as at least 1/3 of all players are Off Leave."
  Settled after every post that changed the roster.

Each stop and restart is a ``rule_change`` row ("ntime.stop.23",
"ntime.stop.205") written where the event or the post that causes it is
judged, so a replay of the list archive writes the same rows at the same
instants: the GM's recognizer and the leave declarations are posts, and the
nweek's end is an instant of the Clock.  ``bot.engine.rule_changes`` reads
them into the Clock, which is On only when no stop holds.

Rule 3 B, per action: while the Clock is Off, "actions taken by players
aren't implemented until the Clock is turned back on, except when the rules
specify otherwise".  Each game declares the actions the rules let through
(``Game.while_clock_off``); the engine judges those at once and holds the
rest of the post.

The GM's recognizer, which needs the Ministries, is the "clock" game's
(``bot.engine.governance.recognizer``); this module keeps what the engine
itself reads: the rows, rule 205's stop and the Chairman's display.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from bot.engine.rule_changes import STOP_PREFIX, release_held_posts
from bot.store.models import Player, RuleChange

if TYPE_CHECKING:
    from bot.engine.services import Services

RECOGNIZER = STOP_PREFIX + "23"
LEAVE = STOP_PREFIX + "205"

# -- the rows ------------------------------------------------------------------------------------


def latest(session: Session, setting: str) -> RuleChange | None:
    """The newest row of one stop's cause (indexed by setting and instant)."""
    return session.scalar(
        select(RuleChange)
        .where(RuleChange.setting == setting)
        .order_by(RuleChange.effective_at.desc(), RuleChange.id.desc())
        .limit(1)
    )


def is_stopped(row: RuleChange | None) -> bool:
    return row is not None and isinstance(row.value, dict) and bool(row.value.get("stopped"))


def write_stop(
    session: Session,
    services: Services,
    setting: str,
    value: dict[str, Any],
    at: datetime,
    source: str,
) -> None:
    session.add(
        RuleChange(
            setting=setting, value=value, effective_at=at, record_id=source[:32], recorded_at=at
        )
    )
    session.flush()
    services.rules.refresh(session)


# -- rule 205: more than two thirds On Leave -----------------------------------------------------


def settle_leave_stop(session: Session, services: Services, at: datetime, source: str) -> str:
    """Rule 205: turn the Clock Off or On as the share of players On Leave says.

    Returns a note for the post that caused a change ("" when none).
    """
    players, on_leave = session.execute(
        select(func.count(), func.coalesce(func.sum(case((Player.on_leave, 1), else_=0)), 0)).where(
            Player.active.is_(True)
        )
    ).one()
    should_stop = players > 0 and on_leave * 3 > players * 2
    if should_stop == is_stopped(latest(session, LEAVE)):
        return ""
    if should_stop:
        reason = (
            f"{on_leave} of the {players} players are On Leave, more than two thirds "
            "(rule 205): the Clock is Off until at least a third are Off Leave"
        )
        write_stop(session, services, LEAVE, {"stopped": True, "reason": reason}, at, source)
        return f'{reason}; a player may still say "I go Off Leave" while it is Off.'
    write_stop(session, services, LEAVE, {"stopped": False}, at, source)
    released = release_held_posts(session, services)
    note = f"{players - on_leave} of the {players} players are Off Leave, at least a third"
    still = services.clock.reading(at).stopped_for
    if still:
        return f"{note}: rule 205 no longer holds the Clock, but it stays Off: {'; '.join(still)}."
    held = f"; {released} post(s) held while it was Off now take effect" if released else ""
    return f"{note}: the Clock is On again (rule 205){held}."


# -- the Chairman's display of the Clock (rule 625 D.10) -------------------------------------------


def clock_view(session: Session, services: Services, at: datetime) -> tuple[str, dict[str, Any]]:
    """The Clock and the Watch at ``at``, why it is Off, and every recorded switch and stop."""
    services.rules.refresh(session)
    reading = services.clock.reading(at)
    history = [
        {
            "cause": f"rule {stop.cause}",
            "reason": stop.reason,
            "since": stop.since.isoformat(),
            "until": stop.until.isoformat() if stop.until else None,
        }
        for stop in services.clock.stops
    ]
    switches = [
        {"at": switch.at.isoformat(), "on": switch.on} for switch in services.clock.config.switches
    ]
    data = {
        "at": at.isoformat(),
        "reading": reading.label,
        "on": reading.is_on,
        "stopped_for": list(reading.stopped_for),
        "switches": switches,
        "stops": history,
    }
    lines = [
        f"{at:%Y-%m-%d %H:%M} UTC: {reading.label}; the Clock is {'On' if reading.is_on else 'Off'}"
    ]
    lines += [f"  Off: {why}" for why in reading.stopped_for]
    lines.append("Stops (rules 23, 205):" if history else "No stops recorded (rules 23, 205).")
    lines += [
        f"  {item['since']} to {item['until'] or '(not cleared)'}: {item['cause']}"
        + (f", {item['reason']}" if item["reason"] else "")
        for item in history
    ]
    return "\n".join(lines), data


__all__ = [
    "RECOGNIZER",
    "clock_view",
    "is_stopped",
    "latest",
    "settle_leave_stop",
    "write_stop",
]
