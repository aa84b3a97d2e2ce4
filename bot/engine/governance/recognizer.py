"""Rule 23's stop at each nweek's end, until the GM's recognizer (seed 004), as a game.

"At the end of each nweek, the Clock Stops until the GM recognizes, on a
public forum, the rule changes brought about by that nweek's proposals."
The GM is the Minister of the Rules (rule 625 D.7), so this part of the
Clock's stops reads the Ministries; the rows and rule 205's stop are the
engine's own (``bot.engine.clock_stops``).  ``CLOCK`` declares the game:
the recognizer by mail, the stop at each nweek's end, and ``state clock``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from bot.engine.clock_stops import RECOGNIZER, clock_view, is_stopped, latest, write_stop
from bot.engine.game import Game, StateView, TimedEvent, rule
from bot.engine.games.base import GameAdapter
from bot.engine.governance.digests import wall_clock
from bot.engine.governance.ministries import Ministry, load_ministries
from bot.engine.rule_changes import STOP_PREFIX, release_held_posts
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.engine.services import Services
from bot.engine.timed import next_nweek_start
from bot.engine.views import View
from bot.outbound.compose import compose_report
from bot.parser import ParsedAction
from bot.parser.areas.clock import AREA as CLOCK_AREA
from bot.store.models import RuleChange

RECOGNIZER_CAUSE = RECOGNIZER.removeprefix(STOP_PREFIX)  # the Clock's stops name their rule
RULES_MINISTRY = "rules"  # rule 625 D.7: "The Minister of the Rules may be referred to as the GM"


def rules_ministry(session: Session, services: Services, nweek: int) -> Ministry | None:
    """The Ministry of the Rules (rule 625 D.7) if the nomic has one."""
    _record, ministries = load_ministries(session, services.settings.ministries, nweek)
    return next((item for item in ministries.items if item.key == RULES_MINISTRY), None)


def stop_for_recognizer(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """Rule 23: stop the Clock at each nweek's end in ``(after, until]`` until the GM's recognizer.

    Also ends a stop whose GM is gone: a Ministry of the Rules that fell
    Open while the Clock waited leaves nobody to recognise, so the bot
    does, at the instant it fell Open (rule 625: a software system acting
    for the Ministry).
    """
    pending = latest(session, RECOGNIZER)
    if is_stopped(pending):
        assert pending is not None
        _restart_if_nobody_is_gm(session, services, pending, until)
        return
    for change in services.clock.nweek_changes_between(after, until):
        ministry = rules_ministry(session, services, change.begun)
        if ministry is None or ministry.holder is None:
            continue  # nobody is GM: the bot recognises at once, and the stop lasts no time
        displayed = change.ended + 1
        reason = (
            f"waiting for the GM ({ministry.holder}) to recognise nweek {displayed}'s "
            "rule changes (rule 23)"
        )
        value = {"stopped": True, "nweek": change.ended, "reason": reason}
        write_stop(
            session, services, RECOGNIZER, value, change.instant, f"nweek-end-{change.ended}"
        )
        session.add(
            compose_report(
                services,
                "clock-stop",
                f"23-{change.ended}",
                f"[clock] The Clock stops until the GM recognises nweek {displayed}'s rule changes",
                "clock/stop.txt.j2",
                {"nweek": displayed, "gm": ministry.holder, "ministry": ministry.name},
                change.instant,
            )
        )
        return  # the stopped Clock ends no further nweek in this interval


def recognizer_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``stop_for_recognizer`` next has something to do (``bot.engine.timed``).

    While the Clock waits for a recognizer, at once: the GM's Ministry may
    fall Open at any instant.  Otherwise at the next nweek's end (rule 23).
    The Clock's stops are read from the rows at the start of each unit of
    work and again at each stop written (``write_stop``), so a stop of rule
    23 not cleared is the newest ``RECOGNIZER`` row saying "stopped", as
    ``latest`` would read it, without a query.
    """
    if any(stop.cause == RECOGNIZER_CAUSE and stop.until is None for stop in services.clock.stops):
        return after
    return next_nweek_start(session, services, after)


def _restart_if_nobody_is_gm(
    session: Session, services: Services, pending: RuleChange, until: datetime
) -> None:
    nweek = int(pending.value.get("nweek", 0))
    ministry = rules_ministry(session, services, nweek + 1)
    if ministry is not None and ministry.holder is not None:
        return
    opened = ministry.open_since if ministry is not None else None
    at = max(pending.effective_at, opened or until)
    if at > until:
        return
    value = {"stopped": False, "nweek": nweek, "by": "the bot (the Ministry of the Rules is Open)"}
    write_stop(session, services, RECOGNIZER, value, at, f"gm-open-{nweek}")
    release_held_posts(session, services)


class ClockAdapter:
    """The GM's recognizer (rule 23), judged while the Clock is Off."""

    prefix = "clock"
    private_actions: frozenset[str] = frozenset()  # "on a public forum"

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        assert turn.player is not None, "the engine only passes players' actions"
        pending = latest(self.session, RECOGNIZER)
        if not is_stopped(pending):
            return rejected(
                action.action,
                action.args,
                action.text,
                turn,
                "the Clock is not waiting for a recognizer: it stops for one at the end "
                "of each nweek",
                rule="23",
            )
        assert pending is not None
        waiting = int(pending.value.get("nweek", 0)) + 1
        named = action.args.get("nweek")
        if named is not None and named != waiting:
            return rejected(
                action.action,
                action.args,
                action.text,
                turn,
                f"the Clock waits for the recognizer of nweek {waiting}'s rule changes, "
                f"not nweek {named}'s",
                rule="23",
            )
        ministry = rules_ministry(self.session, self.services, waiting)
        player = turn.player.name
        if ministry is None or (player != ministry.holder and player not in ministry.deputies):
            gm = ministry.holder if ministry is not None and ministry.holder else "nobody"
            return rejected(
                action.action,
                action.args,
                action.text,
                turn,
                f"only the GM (the Minister of the Rules: {gm}) or eir Deputy recognises "
                "the rule changes and restarts the Clock",
                rule="23, 625 D.7",
            )
        value = {"stopped": False, "nweek": waiting - 1, "by": player}
        write_stop(
            self.session, self.services, RECOGNIZER, value, turn.occurred_at, turn.message_id
        )
        released = release_held_posts(self.session, self.services)
        summary = f"{player} recognises nweek {waiting}'s rule changes: the Clock restarts"
        still = self.services.clock.reading(turn.occurred_at).stopped_for
        if still:
            summary += f", but stays Off: {'; '.join(still)}"
        if released:
            summary += f"; {released} post(s) held while it was Off now take effect"
        return applied(action.action, action.args, action.text, turn, summary, rule="23")

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def save(self) -> None:
        """The restart is written in ``apply``; nothing else changes."""


def clock_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (ClockAdapter(session, services),)


def show_clock(session: Session, services: Services, at: datetime | None) -> View:
    return View(*clock_view(session, services, at or wall_clock()))


CLOCK = Game(
    name="clock",
    title="The Clock's stop until the GM's recognizer (rules 23, 625 D.7)",
    adapters=clock_adapters,
    areas=(CLOCK_AREA,),
    views=(
        StateView(
            "clock",
            "the Clock now, or --at, why it is Off, its stops (rules 3, 23, 205)",
            show_clock,
        ),
    ),
    # At each nweek's end.
    timed_events=(
        # From the Clock's stops alone, read again whenever a rule change is.
        TimedEvent(
            stop_for_recognizer, rule(23), next_due=recognizer_due, next_due_reads=frozenset()
        ),
    ),
    private_actions=ClockAdapter.private_actions,
    # Rule 23: the GM restarts the stopped Clock with eir recognizer.
    while_clock_off=frozenset({"clock.recognize"}),
    templates="clock",
)
