"""Political Go, either rule set, declared as one game.

Rule set B is B Nomic's rule 1639 (seed 004, ``bot.engine.games.go``), rule
set A is A Nomic's rules 365-377 (seed 002, ``bot.engine.games.go_anomic``);
``[go] rules`` picks one, and everything here follows it: the adapter, the
view, the timed endings (rule 1639 F and G at a Checkpoint; A Nomic rule
365 after a quiet nweek), the GameKeeper's digest section (rule 625 D.12),
a rename reaching the stored game and its ko history (rules 151, 1639 E),
and the console's set-up stones.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from bot.engine import timed
from bot.engine.admin_records import AdminRecord
from bot.engine.game import AdminCommand, DigestSection, Game, StateView, TimedEvent, rule
from bot.engine.games import go_anomic
from bot.engine.games.base import GameAdapter
from bot.engine.games.go import (
    GAME_NAME,
    GoAdapter,
    describe_score,
    load_game,
    rename_in_positions,
)
from bot.engine.games.go import go_view as rule_set_b_view
from bot.engine.games.go_anomic import AnomicGoAdapter, describe_end
from bot.engine.games.go_console import go_console
from bot.engine.go_admin import setup_stones
from bot.engine.governance.digest_sections import BOARD_MINISTRY, when
from bot.engine.renames import POSITIONS, JsonState, rewrite_record
from bot.engine.services import Services
from bot.engine.views import View
from bot.games import dice, go, ntime
from bot.games.go import anomic
from bot.games.go.anomic.serialize import FORMAT as ANOMIC_FORMAT
from bot.outbound.compose import compose_report
from bot.parser.areas import go as go_area


def go_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    if services.settings.go.rules == "A":
        return (AnomicGoAdapter(session, services),)
    return (GoAdapter(session, services.settings.go.board_size, services.clock),)


def go_view(session: Session, services: Services) -> tuple[str, dict[str, Any]]:
    """``nomicbot state go``: the board and everything the next ruling reads, either rule set."""
    if services.settings.go.rules == "A":
        return go_anomic.view(session, services)
    return rule_set_b_view(session, services)


def show_go(session: Session, services: Services, at: datetime | None = None) -> View:
    return View(*go_view(session, services))


# -- timed events ------------------------------------------------------------------------


def end_finished_go_games(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """Rule 1639 F and G at each Checkpoint in ``(after, until]``."""
    for checkpoint in services.clock.checkpoints_between(after, until):
        end_finished_go_game(session, services, checkpoint.ending.index, checkpoint.instant)


def end_quiet_go_games(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """A Nomic rule 365 at each nweek that began in ``(after, until]``."""
    for change in services.clock.nweek_changes_between(after, until):
        end_quiet_go_game(session, services, change.begun, change.instant)


def end_finished_go_game(session: Session, services: Services, period: int, at: datetime) -> None:
    """B Nomic rule 1639 F and G: end, score and reset the game at a Checkpoint."""
    if services.settings.go.rules != "B":
        return
    adapter = GoAdapter(session, services.at(at).settings.go.board_size)
    before = adapter.state
    if not go.game_should_end(before, period):
        return
    result = adapter.end_game(at)
    session.add(
        compose_report(
            services,
            "go-end",
            f"period-{period}",
            "[go] The game of Political Go ended (rule 1639 F)",
            "go/end.txt.j2",
            {"report": describe_score(before, result), "draws": [], "context": "", "nweek": 0},
            at,
        )
    )


def end_quiet_go_game(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """A Nomic rule 365: a game ends when a whole nweek passed with no stone placed."""
    if services.settings.go.rules != "A":
        return
    adapter = AnomicGoAdapter(session, services.at(at))  # the numbers in force then
    before = adapter.state
    seed = dice.nweek_seed(services.master_secret, nweek)
    result = adapter.at_nweek_start(nweek, at, seed)
    if result is None:
        return
    adapter.save()
    draws = [draw.describe() for draw in adapter.last_draws]
    session.add(
        compose_report(
            services,
            "go-end",
            f"{nweek}-{before.game_number}",
            f"[go] Game {before.game_number} of Political Go ended",
            "go/end.txt.j2",
            {
                "report": describe_end(result, before),
                "draws": draws,
                "context": f"nweek-{nweek}-go-end",
                "nweek": nweek + 1,
            },
            at,
        )
    )


# -- the GameKeeper (rule 625 D.12) ----------------------------------------------------------


def gamekeeper_sections(
    session: Session, services: Services, at: datetime
) -> tuple[DigestSection, ...]:
    """Rule 625 D.12: "Maintaining a Public Display of the Board for Political Go"."""
    text, _data = go_view(session, services)
    rules = services.settings.go.rules
    title = "Political Go (rule 1639 H)" if rules == "B" else "Political Go (A Nomic rules 336-399)"
    board = DigestSection(BOARD_MINISTRY, title, tuple(text.rstrip("\n").splitlines()))
    if rules != "B":
        return (board,)
    return (
        board,
        DigestSection(BOARD_MINISTRY, "Political Go: pending", go_pending(session, services, at)),
    )


def go_pending(session: Session, services: Services, at: datetime) -> tuple[str, ...]:
    """Whether the game ends at the next Checkpoint (rule 1639 F), which the bot then does."""
    _record, state = load_game(session, services.settings.go.board_size)
    checkpoint = ntime.next_checkpoint(services.clock.config, at)
    if checkpoint is None:
        return ("The Clock is Off: no Checkpoint is due.",)
    try:
        ending = go.game_should_end(state, checkpoint.ending.index)
    except ValueError:
        ending = False  # the store is already past ``at`` (a long advance)
    if ending:
        return (
            "The game ends and is scored at the Checkpoint of "
            f"{when(services, checkpoint.instant)} unless a Stone is placed first (rule 1639 F).",
        )
    return (
        f"Moves so far: {state.move_number}; the game does not end at the next Checkpoint, "
        f"{when(services, checkpoint.instant)} (rule 1639 F).",
    )


# -- renames (rule 151) and the console -------------------------------------------------------


def rename_in_go(session: Session, services: Services, old: str, new: str) -> tuple[str, ...]:
    """The stored game of either rule set, and rule set B's earlier positions (rule 1639 E
    compares alliances "in either state": earlier positions' follow the name)."""
    changed = [GAME_NAME] if rewrite_record(session, GAME_NAME, renamed_go, old, new) else []
    if rename_in_positions(session, old, new):
        changed.append(POSITIONS)
    return tuple(changed)


def renamed_go(data: JsonState, old: str, new: str) -> JsonState | None:
    """A stored Political Go state of either rule set, with ``old`` called ``new``."""
    if data.get("format") == ANOMIC_FORMAT:
        state = anomic.state_from_json(data)
        changed = anomic.renamed(state, old, new)
        return None if changed == state else anomic.state_to_json(changed)
    loaded = go.state_from_json(data)
    renamed = go.renamed(loaded, old, new)
    if renamed == loaded:
        return None
    # The engine keeps rule set B's ko history in ``go_position``, not here.
    return go.state_to_json(renamed, include_history="history" in data)


def apply_setup(session: Session, services: Services, record: AdminRecord) -> str:
    points = [str(point) for point in record.arguments["points"]]
    return setup_stones(
        session, services, str(record.arguments["player"]), points, record.issued_at
    )


def describe_setup(arguments: Mapping[str, Any]) -> str:
    return f"Go set-up stones for {arguments['player']} at {' '.join(arguments['points'])}"


GO = Game(
    name="go",
    title="Political Go (B Nomic rule 1639, or A Nomic rules 365-377)",
    adapters=go_adapters,
    areas=(go_area.AREA,),
    settings_section="go",
    views=(
        StateView("go", "the Political Go board and, with --json, all a ruling reads", show_go),
    ),
    timed_events=(
        TimedEvent(  # at a Checkpoint
            end_finished_go_games,
            rule(1639),
            at_midnight=True,
            recorded_as=("bot.engine.scheduler.end_finished_go_games",),
            next_due=timed.next_checkpoint,
        ),
        TimedEvent(  # at an nweek's start
            end_quiet_go_games,
            rule(365, seed="002"),
            at_midnight=True,
            recorded_as=("bot.engine.scheduler.end_quiet_go_games",),
            next_due=timed.next_nweek_start,
        ),
    ),
    digest_sections=(gamekeeper_sections,),
    renames=(rename_in_go,),
    admin_commands={"go.setup": AdminCommand(apply_setup, describe_setup)},
    console=go_console,
    private_actions=GoAdapter.private_actions | AnomicGoAdapter.private_actions,
    templates="go",
)
