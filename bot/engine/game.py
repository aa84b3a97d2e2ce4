"""A game as one declaration: what the engine, parser, console and scheduler need of it.

Each game the bot referees (Political Go, Field Matches, the governance of
seed 004, ...) is one ``Game`` value, declared in its own engine module,
beside its adapter (python-chess keeps a variant in one class the same
way; Mailman finds its rules, chains and handlers by scanning their
packages).  ``bot.engine.registry`` finds the declarations and builds the
ones a deployment enables (``[games] enabled``); the rest of the engine
iterates them and never imports a game module itself:

* ``bot.engine.services`` makes each post's adapters from ``adapters``;
* the parser composes the post grammar from ``areas``, and leaves the
  ``refereed_subgames`` to it rather than to the catch-all of unrefereed
  subgames (``bot.parser.unrefereed``);
* ``bot.engine.scheduler`` runs ``timed_events`` in the order of rule 3 C;
* ``bot.engine.views`` shows ``views`` (``nomicbot state``);
* the Ministers' digests gather ``digest_sections``;
* a rename (rule 151) rewrites stored states through ``renames``; a
  forfeit (rule 14) reaches the adapters that offer ``forfeit_player``;
  ``name_checks`` refuse the names a game reserves (rule 151);
* the command line adds each game's ``console`` commands (``nomicbot go
  setup``), and ``bot.engine.admin_records`` applies its ``admin_commands``
  (the console's acts, recorded in the archive);
* ``while_clock_off`` take effect while the Clock is Off (rule 3 B);
* ``private_actions`` may be sent to the bot privately; ``after_private_post``
  runs after such a post is judged, ``after_action`` after every action.

A declaration holds functions, not state: the adapters are made fresh for
each post and load their state from the post's session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine.games.base import GameAdapter
from bot.engine.rulings import Ruling, Turn
from bot.engine.timed import NextDue, TimedHandler
from bot.games.precedence import SEED_004, RuleCitation, precedence_key
from bot.parser.area import Area

if TYPE_CHECKING:
    import click

    from bot.config import Settings
    from bot.engine.admin_records import AdminRecord
    from bot.engine.services import Services
    from bot.engine.views import View
    from bot.parser import ParsedAction
    from bot.store.models import Message

AdapterFactory = Callable[[Session, "Services"], tuple[GameAdapter, ...]]
# ``(session, services, at)``: ``at`` is the instant asked for, None for now.
ViewFunction = Callable[[Session, "Services", datetime | None], "View"]
DigestProvider = Callable[[Session, "Services", datetime], tuple["DigestSection", ...]]


# A Minister's digest (rule 625 D, ``bot.engine.governance.digests``) is made
# of the sections the enabled games provide; the types live here, with the
# declaration, so that the engine needs no game module to name them.
@dataclass(frozen=True)
class Overdue:
    """A duty not done in time, and the rule that sets the time."""

    what: str
    rule: str

    def describe(self) -> str:
        return f"{self.what} (rule {self.rule})"


@dataclass(frozen=True)
class DigestSection:
    """One duty's part of a digest.

    ``ministry`` names the Ministry it serves as ``Ministries.named`` reads
    it ("Ministry of the Board", "Meta-Ministry", "the Attorney
    Generalist"); a section naming no configured Ministry is mailed to
    nobody and shown by the view.
    """

    ministry: str
    title: str
    lines: tuple[str, ...]
    overdue: tuple[Overdue, ...] = ()


# ``(session, services, old, new)``: the names of the stored rows rewritten.
StateRename = Callable[[Session, "Services", str, str], tuple[str, ...]]
AdminHandler = Callable[[Session, "Services", "AdminRecord"], str]
# After each action of a post: the roster tells the other adapters of a
# rename or forfeit (rules 151, 14) and may amend the action's ruling.
ActionHook = Callable[[Mapping[str, GameAdapter], "ParsedAction", Turn, Ruling], Ruling]
# Rule 151: raises IllegalActionError for a name no player may take.
NameCheck = Callable[[Session, str], None]
PrivatePostHook = Callable[
    [Session, "Services", "Message", Sequence[tuple[Ruling, int | None]], datetime], None
]


@dataclass(frozen=True)
class TimedEvent:
    """An event the rules fix at an instant, and the rule that fixes it (rule 3 C).

    ``handler`` is run over each interval ``(after, until]`` the scheduler
    covers and acts on what fell due in it (``bot.engine.timed``).
    ``at_midnight``: run only over an interval that holds a 00:00 UTC (the
    ntime events, rule 3 A).  ``reports``: the event reports on the others
    (the Ministers' digests), so it runs after them all.  ``recorded_as``:
    the names the handler had before it moved to another module, so that an
    event shunted under such a name can still run again.  ``next_due``: when
    the handler next has something to do (``bot.engine.timed``), so that the
    scheduler can pass over the intervals before; without it the handler
    runs over every interval.  ``next_due_reads``: the tables whose rows
    ``next_due``'s answer is read from (besides the Clock and the settings),
    so that a replay judging many posts in one transaction keeps the answer
    until one of them is written; None when unknown: asked again before
    each post.
    """

    handler: TimedHandler
    rule: RuleCitation
    at_midnight: bool = False
    reports: bool = False
    recorded_as: tuple[str, ...] = ()
    next_due: NextDue | None = None
    next_due_reads: frozenset[str] | None = None

    def order(self) -> tuple[int, int, int, int]:
        """Rule 3 C: events of higher precedence first; reports after every event."""
        return (int(self.reports), *precedence_key(self.rule))


def rule(number: int, seed: str = SEED_004) -> RuleCitation:
    """The citation of rule ``number`` of ``seed`` (seed 004 unless said)."""
    return RuleCitation(seed, number)


@dataclass(frozen=True)
class StateView:
    """One view of ``nomicbot state VIEW``: its name, what it shows, and how.

    ``public`` False: the view shows what only some may know (a Minister's
    digest), so the web site leaves it out (docs/site.md, Nothing private).
    """

    name: str
    description: str
    show: ViewFunction
    public: bool = True


@dataclass(frozen=True)
class AdminCommand:
    """An administrator's act (``nomicbot go setup``), recorded and replayed from the archive."""

    apply: AdminHandler
    describe: Callable[[Mapping[str, Any]], str]


@dataclass(frozen=True)
class ConsoleTools:
    """What the command line lends a game's console commands (``bot.cli`` makes it).

    ``common_options`` adds ``--config`` and ``--db`` to a command;
    ``settings_from`` reads the configuration they name; ``admin_act``
    carries out an administrator's act as a signed record mailed to the list
    (``admin_act(context, command, arguments, at)``, docs/archive.md);
    ``instant`` reads an ISO 8601 instant given on the command line.
    """

    common_options: Callable[[Any], Any]
    settings_from: Callable[[click.Context], Settings]
    admin_act: Callable[[click.Context, str, dict[str, Any], datetime], None]
    instant: Callable[[str], datetime]


# A game's ``nomicbot GAME ...`` commands, made with the command line's tools.
ConsoleFactory = Callable[[ConsoleTools], "click.Command"]


def no_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    """The adapter factory of a game that takes no actions by mail."""
    return ()


@dataclass(frozen=True)
class Game:
    """Everything the bot needs to referee one game; see the module's docstring.

    ``name`` is how ``[games] enabled`` names it; ``settings_section`` the
    section of the configuration that holds its numbers; ``templates`` its
    folder under ``templates/``.
    """

    name: str
    title: str
    adapters: AdapterFactory = no_adapters
    areas: tuple[Area, ...] = ()
    # The keys of ``bot.parser.unrefereed.SUBGAMES`` this game referees: while
    # it is enabled, the catch-all leaves their sentences to ``areas``.
    refereed_subgames: tuple[str, ...] = ()
    settings_section: str | None = None
    settings_type: type | None = None  # a section not built into ``bot.config.Settings``
    views: tuple[StateView, ...] = ()
    timed_events: tuple[TimedEvent, ...] = ()
    digest_sections: tuple[DigestProvider, ...] = ()
    renames: tuple[StateRename, ...] = ()
    admin_commands: Mapping[str, AdminCommand] = field(default_factory=dict)
    console: ConsoleFactory | None = None
    private_actions: frozenset[str] = frozenset()
    # Rule 3 B: the actions the rules let take effect while the Clock is Off
    # ("except when the rules specify otherwise"); the others of a post wait.
    while_clock_off: frozenset[str] = frozenset()
    after_action: ActionHook | None = None
    name_checks: tuple[NameCheck, ...] = ()
    after_private_post: PrivatePostHook | None = None
    templates: str | None = None
