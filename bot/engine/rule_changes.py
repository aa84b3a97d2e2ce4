"""Settings that are part of the rules, changed from an instant on (docs/archive.md).

A passed proposal may change a number the rules fix (a board size, a
price, a Bandwidth amount, an election period), who the Field's Referee
is or whether the bot acts for a Minister (the automatic Evolve, the
Seal), and the rules that allow it may turn the Clock Off or On (rule 3 A).
Such a change must take effect at a point of the game and leave the past
as it was judged, live and in a replay of the list archive alike.  So it
is never an edit of the configuration file (which holds the starting
values): it is an admin record (``clock.switch``, ``setting.set``) that
names the instant it takes effect, applied at its place in the archive,
which writes one ``rule_change`` row.

``RuleBook`` is the engine's reading of those rows.  It is refreshed once
per unit of work (``refresh``: one indexed look at the newest row; the rows
themselves are read again only when one was added), hands the recorded
Clock switches to the ``GameClock``, and answers ``settings_at(instant)``:
the settings with every change in force at that instant.  The engine asks
it at the instant of each post (``Services.at``) and of each timed event.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bot.config import Settings
from bot.engine.clock import GameClock
from bot.games.ntime.stops import Stop
from bot.store.models import ClockMark, Message, RuleChange

if TYPE_CHECKING:
    from bot.engine.admin_records import AdminRecord
    from bot.engine.services import Services

CLOCK = "ntime.clock"  # rule 3 A: the value is True when the Clock is turned On
# Rules 23 and 205: "ntime.stop.RULE", the value {"stopped": bool, "reason": str}
# (bot.engine.clock_stops writes them; the Clock reads them with the switches).
STOP_PREFIX = "ntime.stop."
# The reason of a post held while the Clock was Off and queued again (rule 3 B).
RELEASED = "the Clock is On again"


class Kind(Enum):
    """What a changeable setting holds, as the console and the records write it."""

    WHOLE_NUMBER = "a whole number"
    YES_NO = "true or false"
    PLAYER = "a player's name (empty: nobody, the bot acts)"


YES = ("true", "yes", "on")
NO = ("false", "no", "off")
NAME_LENGTH = 100  # longer than any name a player may take (rule 151), shorter than a post


@dataclass(frozen=True)
class Changeable:
    """A setting a record may change: the rule that fixes it, what it holds, its bounds."""

    rule: str
    meaning: str
    minimum: int = 0  # the bounds of a whole number
    maximum: int | None = None
    kind: Kind = Kind.WHOLE_NUMBER

    def check(self, value: Any) -> Any:
        """``value`` as the setting must hold it.  Raises ValueError."""
        if self.kind is Kind.YES_NO:
            if not isinstance(value, bool):
                raise ValueError(f"true or false is needed, not {value!r}")
            return value
        if self.kind is Kind.PLAYER:
            return _player_name(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"a whole number is needed, not {value!r}")
        if value < self.minimum or (self.maximum is not None and value > self.maximum):
            top = f" to {self.maximum}" if self.maximum is not None else " or more"
            raise ValueError(f"{value} is out of bounds ({self.minimum}{top})")
        return value

    def parse(self, text: str) -> Any:
        """The console's VALUE as the setting holds it, checked.  Raises ValueError."""
        if self.kind is Kind.YES_NO:
            word = text.strip().casefold()
            if word not in YES + NO:
                raise ValueError(f"true or false is needed, not {text!r}")
            return word in YES
        if self.kind is Kind.PLAYER:
            return self.check(text)
        try:
            number = int(text)
        except ValueError:
            raise ValueError(f"a whole number is needed, not {text!r}") from None
        return self.check(number)


def _player_name(value: Any) -> str:
    """A name as a player is known by (runs of spaces as one), or "" for nobody."""
    if not isinstance(value, str):
        raise ValueError(f"a player's name is needed, not {value!r}")
    name = " ".join(value.split())
    if len(name) > NAME_LENGTH or not name.isprintable():
        raise ValueError(f"{value!r} is not a player's name")
    return name


# The settings of bot/config.py that are part of the rules, with their rule.
CHANGEABLE: Mapping[str, Changeable] = {
    "go.size": Changeable(
        "1639 A, 366", "the Go board's size, for each game begun after the change", 2, 26
    ),
    "go.purchase_base": Changeable("374", "the 5 of a Stone's purchase price (5^n)-1", 1),
    "go.sale_price": Changeable("377", "the points a sold Stone fetches", 0),
    "go.move_interval_hours": Changeable("368", "the hours of rule 368's limit on moves", 0),
    "holdings.bandwidth_per_nweek": Changeable("212", "the Bandwidth each nweek begins with", 0),
    "holdings.new_player_bandwidth": Changeable("212", "the Bandwidth of a new player", 0),
    "holdings.proposal_cost_bandwidth": Changeable("19", "the Bandwidth a proposal costs", 0),
    # Rule 1823 A: each period takes the length in force when it begins (docs/readings.md).
    "elections.nomination_ndays": Changeable(
        "625 B, 1823 A", "the ndays of nominations, for each Election called after", 1, 100
    ),
    "elections.voting_ndays": Changeable(
        "625 B, 1823 A", "the ndays of voting (the Duration), for each voting opened after", 1, 100
    ),
    "elections.moderator_wait_ndays": Changeable(
        "1823 C", "the ndays the Moderator has to pick on a tie (0: a draw at once)", 0, 100
    ),
    "elections.moderator": Changeable(
        "625 B, 1823 B",
        "the Moderator of a Rotation Election called when nobody is Kurt Godel; empty: none",
        kind=Kind.PLAYER,
    ),
    "field_matches.referee": Changeable(
        "003-2, 625", "the Referee (Minister of Play), a player; empty: the bot", kind=Kind.PLAYER
    ),
    "field_matches.auto_evolve": Changeable(
        "000-2, 25", "the bot performs Life's Evolve at each nweek start", kind=Kind.YES_NO
    ),
    "digests.seal": Changeable(
        "1906, 129", "the Seal announcement with each scheduled digest", kind=Kind.YES_NO
    ),
}


@dataclass(frozen=True)
class Timeline:
    """The recorded changes as read at one fingerprint (the newest row)."""

    fingerprint: tuple[int, str] | None = None
    switches: tuple[tuple[datetime, bool], ...] = ()
    stops: tuple[Stop, ...] = ()
    # setting -> (instants, values), both in the order they take effect
    changes: Mapping[str, tuple[tuple[datetime, ...], tuple[Any, ...]]] = field(
        default_factory=dict
    )


class RuleBook:
    """The settings in force at any instant: the starting values and the recorded changes."""

    def __init__(self, settings: Settings, clock: GameClock) -> None:
        self.settings = settings
        self.clock = clock
        self.timeline = Timeline()

    def refresh(self, session: Session) -> None:
        """Read the recorded changes again if a row was added (or rolled back) since.

        Raises ValueError when the configured Clock switches do not come before
        the recorded ones (the file was edited after them).
        """
        newest = session.execute(
            select(RuleChange.id, RuleChange.record_id).order_by(RuleChange.id.desc()).limit(1)
        ).first()
        fingerprint = (newest.id, newest.record_id) if newest is not None else None
        if fingerprint == self.timeline.fingerprint:
            return
        rows = session.scalars(select(RuleChange).order_by(RuleChange.effective_at, RuleChange.id))
        switches: list[tuple[datetime, bool]] = []
        stop_rows: list[RuleChange] = []
        changes: dict[str, tuple[list[datetime], list[Any]]] = {}
        for row in rows:
            if row.setting == CLOCK:
                switches.append((row.effective_at, bool(row.value)))
            elif row.setting.startswith(STOP_PREFIX):
                stop_rows.append(row)
            else:
                instants, values = changes.setdefault(row.setting, ([], []))
                instants.append(row.effective_at)
                values.append(row.value)
        stops = stops_from_rows(stop_rows)
        try:
            self.clock.use_recorded_switches(switches, stops)
        except ValueError as error:
            # Only a configuration edited after the records can do this: say so at once.
            raise ValueError(
                f"[ntime] switches and the recorded Clock switches do not make one history "
                f"({error}); the configuration holds only the switches before the first record"
            ) from None
        self.timeline = Timeline(
            fingerprint,
            tuple(switches),
            stops,
            {key: (tuple(when), tuple(what)) for key, (when, what) in changes.items()},
        )

    def value_at(self, setting: str, instant: datetime) -> Any:
        """The value of ``setting`` ("SECTION.KEY") in force at ``instant``."""
        recorded = self.timeline.changes.get(setting)
        if recorded is not None:
            index = bisect_right(recorded[0], instant)
            if index:
                return recorded[1][index - 1]
        section, _, key = setting.partition(".")
        return getattr(getattr(self.settings, section), key)

    def settings_at(self, instant: datetime) -> Settings:
        """The settings with every change in force at ``instant`` (the starting ones if none)."""
        in_force: dict[str, dict[str, Any]] = {}
        for setting, (instants, values) in self.timeline.changes.items():
            index = bisect_right(instants, instant)
            if index:
                section, _, key = setting.partition(".")
                in_force.setdefault(section, {})[key] = values[index - 1]
        if not in_force:
            return self.settings
        sections = {
            name: replace(getattr(self.settings, name), **values)
            for name, values in in_force.items()
        }
        return replace(self.settings, **sections)


def stops_from_rows(rows: list[RuleChange]) -> tuple[Stop, ...]:
    """The stops the rows record, each from its "stopped" row to the next row clearing it."""
    stops: list[Stop] = []
    open_stops: dict[str, Stop] = {}
    for row in rows:
        cause = row.setting.removeprefix(STOP_PREFIX)
        value = row.value if isinstance(row.value, dict) else {}
        began = open_stops.pop(cause, None)
        if began is not None:
            stops.append(Stop(cause, began.since, row.effective_at, began.reason))
        if value.get("stopped"):
            open_stops[cause] = Stop(cause, row.effective_at, None, str(value.get("reason", "")))
    stops.extend(open_stops.values())
    return tuple(sorted(stops, key=lambda stop: stop.since))


# -- the records ------------------------------------------------------------------------


def effective_instant(record: AdminRecord) -> datetime:
    """The instant a change record names; never before the record itself.

    Raises ValueError: a change that takes effect before it was made would
    rewrite what was judged before it (the past stays as it was judged).
    """
    try:
        instant = datetime.fromisoformat(str(record.arguments["effective_at"]))
    except (KeyError, ValueError):
        raise ValueError("the record names no instant to take effect") from None
    if instant.tzinfo is None:
        raise ValueError("the instant to take effect has no time zone")
    if instant < record.issued_at:
        raise ValueError(
            f"it would take effect at {instant.isoformat()}, before it was made "
            f"({record.issued_at.isoformat()}): a change may not rewrite the past"
        )
    return instant


def apply_clock_switch(session: Session, services: Services, record: AdminRecord) -> str:
    """Turn the Clock On or Off from the record's instant on (rule 3 A).  Raises ValueError."""
    on = record.arguments.get("on")
    if not isinstance(on, bool):
        raise ValueError("the record does not say On or Off")
    instant = effective_instant(record)
    rules = services.rules
    rules.refresh(session)
    # The whole history must still be one: after the epoch, in order, alternating.
    services.clock.with_switches(sorted((*rules.timeline.switches, (instant, on))))
    _add(session, record, CLOCK, on, instant)
    rules.refresh(session)
    released = release_held_posts(session, services)
    state = "On" if on else "Off"
    held = f"; {released} post(s) held while it was Off now take effect" if released else ""
    return f"the Clock is turned {state} at {instant.isoformat()} (rule 3 A){held}"


def apply_setting(session: Session, services: Services, record: AdminRecord) -> str:
    """Change a setting of ``CHANGEABLE`` from the record's instant on.  Raises ValueError."""
    setting = str(record.arguments.get("setting", ""))
    changeable = CHANGEABLE.get(setting)
    if changeable is None:
        raise ValueError(f"{setting!r} is not a setting a record may change")
    value = changeable.check(record.arguments.get("value"))
    if changeable.kind is Kind.PLAYER and value:
        value = _player_named(session, value)
    instant = effective_instant(record)
    _add(session, record, setting, value, instant)
    services.rules.refresh(session)
    return f"{setting} becomes {value} at {instant.isoformat()} (rule {changeable.rule})"


def _player_named(session: Session, name: str) -> str:
    """The player called ``name`` (any case) as the roster spells it; ValueError if none.

    Read where the record is applied, so a replay finds the same roster.
    """
    from bot.engine.players import all_players

    for player in all_players(session):
        if player.name.casefold() == name.casefold():
            return player.name
    raise ValueError(f"no player is named {name!r}")


def _add(session: Session, record: AdminRecord, setting: str, value: Any, at: datetime) -> None:
    session.add(
        RuleChange(
            setting=setting,
            value=value,
            effective_at=at,
            record_id=record.record_id,
            recorded_at=record.issued_at,
        )
    )
    session.flush()


def release_held_posts(session: Session, services: Services) -> int:
    """Queue again the posts held while the Clock was Off that it lets take effect (rule 3 B).

    Done where the switch is applied, so that a replay releases them at the
    same place among the posts as the live game did.
    """
    held = session.scalars(select(Message).where(Message.status == "held")).all()
    released = [m for m in held if services.clock.effective_time(m.received_at) is not None]
    for message in released:
        message.status, message.status_reason = "queued", RELEASED
    return len(released)


def latest_judged_instant(session: Session) -> datetime | None:
    """The latest instant the game was judged at: a post's, or the scheduler's.

    A change taking effect before it would rewrite what was judged.
    """
    mark = session.get(ClockMark, 1)
    post = session.scalar(
        select(func.max(Message.received_at)).where(Message.status.in_(("processed", "held")))
    )
    instants = [instant for instant in (post, mark.handled_until if mark else None) if instant]
    return max(instants) if instants else None


def recorded_changes(session: Session) -> list[dict[str, Any]]:
    """Every recorded change, in the order they take effect (for the console)."""
    rows = session.scalars(select(RuleChange).order_by(RuleChange.effective_at, RuleChange.id))
    return [
        {
            "setting": row.setting,
            "value": row.value,
            "effective_at": row.effective_at.isoformat(),
            "record": row.record_id,
            "recorded_at": row.recorded_at.isoformat(),
        }
        for row in rows
    ]
