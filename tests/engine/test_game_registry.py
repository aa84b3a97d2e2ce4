"""A game is one declaration: a throwaway game added without touching a shared file.

The wind-up toy below is declared in this module alone (its grammar is
``toy_game/toy.lark`` beside it) and enabled by configuration only:
``[games] enabled`` names it, ``[games] modules`` says where its
declaration is, and ``[toy]`` is its own settings section.  Posts by mail
are parsed with its grammar and judged by its adapter, ``state toy`` shows
it, and its timed events run at the start of an nweek in the order of rule
3 C among the built-in games' events.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from lark import Token
from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.app import App, build_app
from bot.config import DEFAULT_GAMES, ConfigError, load_settings
from bot.engine import registry
from bot.engine.game import Game, StateView, TimedEvent, rule
from bot.engine.games.base import GameAdapter
from bot.engine.registry import default_games, enabled_games
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.engine.scheduler import all_handlers, handler_name, timed_events
from bot.engine.services import Services
from bot.engine.views import View, game_view
from bot.engine.worker import process_queue
from bot.parser import ParsedAction, parse_post
from bot.parser.area import ActionReading, Area
from bot.parser.areas import AREAS
from bot.parser.areas.common import CommonTransformer
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import ActionRecord, DiceSeed, GameRecord, OutboxMessage
from bot.testing import go_game
from bot.testing.apps import write_config

TOY = "toy"
NWEEK_2_START = go_game.EPOCH + timedelta(days=10)  # ten ndays of one day each (rule 3 A)

# -- the toy game, all of it ---------------------------------------------------------------


@dataclass(frozen=True)
class ToySettings:
    """The toy's own section, ``[toy]``."""

    most_turns: int = 5  # the most turns one winding may give
    unwinds_per_nweek: int = 1  # turns the spring loses at each nweek's start


class ToyTransformer(CommonTransformer):
    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def wind(self, children: list[Token]) -> ActionReading:
        return ActionReading("toy.wind", {"turns": int(str(children[-1]))})


TOY_AREA = Area(
    namespace=TOY,
    transformer=ToyTransformer,
    triggers=("wind",),
    terminals={"TURNS": "a number of turns such as 3"},
    directory=Path(__file__).parent / "toy_game",
)


def load_turns(session: Session) -> GameRecord:
    record = session.scalar(select(GameRecord).where(GameRecord.name == TOY))
    if record is None:
        record = GameRecord(name=TOY, state={"turns": 0, "history": []}, version=0)
        session.add(record)
    return record


def settings_of(services: Services) -> ToySettings:
    return services.settings.section(TOY, ToySettings)


class ToyAdapter:
    prefix = TOY
    private_actions: frozenset[str] = frozenset()

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.settings = settings_of(services)
        self.wound = 0

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        turns = int(str(action.args["turns"]))
        if turns > self.settings.most_turns:
            reason = f"the toy takes at most {self.settings.most_turns} turns at once"
            return rejected(action.action, action.args, action.text, turn, reason)
        self.wound += turns
        summary = f"the toy is wound by {turns} turns"
        return applied(action.action, action.args, action.text, turn, summary)

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def save(self) -> None:
        if self.wound:
            record = load_turns(self.session)
            record.state = record.state | {"turns": record.state["turns"] + self.wound}


def toy_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (ToyAdapter(session, services),)


def toy_view(session: Session, services: Services, at: datetime | None) -> View:
    state = dict(load_turns(session).state)
    return View(f"the toy has {state['turns']} turns", state)


# What the toy's timed events saw, in the order they ran: (event, whether
# rule 9 had committed to the new nweek's dice seed yet).
RAN: list[tuple[str, bool]] = []


def _note(session: Session, event: str, nweek: int) -> None:
    RAN.append((event, session.get(DiceSeed, nweek) is not None))
    record = load_turns(session)
    record.state = record.state | {"history": [*record.state["history"], event]}


def chime_at_chutzpah_10(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    for change in services.clock.nweek_changes_between(after, until):
        _note(session, "rule 10", change.begun)


def chime_at_chutzpah_3(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    for change in services.clock.nweek_changes_between(after, until):
        _note(session, "rule 1913", change.begun)


def unwind(session: Session, services: Services, after: datetime, until: datetime) -> None:
    for change in services.clock.nweek_changes_between(after, until):
        _note(session, "unwind", change.begun)
        record = load_turns(session)
        left = max(0, record.state["turns"] - settings_of(services).unwinds_per_nweek)
        record.state = record.state | {"turns": left}


WIND_UP_TOY = Game(
    name=TOY,
    title="A wind-up toy (a game for the registry's test)",
    adapters=toy_adapters,
    areas=(TOY_AREA,),
    settings_type=ToySettings,
    views=(StateView(TOY, "the toy's turns and what happened to it", toy_view),),
    # Declared out of order: the scheduler orders them (rule 3 C).
    timed_events=(
        TimedEvent(unwind, rule(1, seed="toy")),  # another seed's: after seed 004's
        TimedEvent(chime_at_chutzpah_3, rule(1913)),  # Chutzpah 3
        TimedEvent(chime_at_chutzpah_10, rule(10)),  # Chutzpah 10
    ),
)

# -- the tests -----------------------------------------------------------------------------


def toy_config(folder: Path, toy_section: str = "[toy]\nmost_turns = 4\n") -> Path:
    enabled = ", ".join(f'"{name}"' for name in (*DEFAULT_GAMES, TOY))
    games = f'[games]\nenabled = [{enabled}]\nmodules = ["{__name__}"]\n'
    return write_config(folder, games + toy_section)


@pytest.fixture
def toy_app(tmp_path: Path) -> Iterator[App]:
    RAN.clear()
    app = build_app(load_settings(toy_config(tmp_path / "bot")))
    yield app
    app.dispose()


def post(app: App, number: int, author: tuple[str, str], at: datetime, body: str) -> None:
    raw = compose_post(
        *author, "[Nomic] toy", body, f"toy-{number}@example.test", at, to=go_game.LIST_ADDRESS
    )
    store_message(app, raw, "replay", at)
    process_queue(app.session_factory, app.services)


def rulings(app: App) -> list[tuple[str, str, str]]:
    with app.session_factory() as session:
        rows = session.scalars(select(ActionRecord).order_by(ActionRecord.id))
        return [(row.action, row.ruling, row.summary or row.reason or "") for row in rows]


def test_a_game_declared_outside_the_bot_is_parsed_judged_shown_and_timed(toy_app: App) -> None:
    assert [game.name for game in toy_app.services.games] == [*DEFAULT_GAMES, TOY]
    at = go_game.EPOCH + timedelta(hours=2)
    post(toy_app, 1, go_game.ALICE, at, "I wind the toy 3 turns.\nI wind the toy by 9 turns.")
    # Its own grammar read both; its adapter judged both, with its own setting.
    assert rulings(toy_app) == [
        ("toy.wind", "applied", "the toy is wound by 3 turns"),
        ("toy.wind", "rejected", "the toy takes at most 4 turns at once"),
    ]
    with toy_app.session_factory() as session:
        replies = [row.raw.decode() for row in session.scalars(select(OutboxMessage))]
        assert any("the toy is wound by 3 turns" in reply for reply in replies)
        shown = game_view(session, toy_app.services, TOY)
    assert (shown.text, shown.data["history"]) == ("the toy has 3 turns", [])
    # A post after the nweek's end drives the scheduler over its start.
    post(toy_app, 2, go_game.BOB, NWEEK_2_START + timedelta(hours=1), "Hello.")
    with toy_app.session_factory() as session:
        shown = game_view(session, toy_app.services, TOY)
    assert shown.text == "the toy has 2 turns"  # one unwound ([toy] default)
    assert shown.data["history"] == ["rule 10", "rule 1913", "unwind"]


def test_rule_3_c_orders_the_events_of_one_instant_by_precedence(toy_app: App) -> None:
    """Rule 3 C: "When multiple rules specify that an event takes place at a certain time
    [...], those events occur in order of rule precedence, with higher precedence events
    happening before lower precedence events."

    Rule 33: "the rule with the highest Chutzpah takes precedence.  If two or more rules
    have equal Chutzpah, the rule with the lowest identification number takes
    precedence. [...] If the Chutzpah of a rule is not otherwise indicated, its
    Chutzpah is assumed to be 1."  Seed 004 gives rule 10 Chutzpah 10, rule 1913
    Chutzpah 3 and rule 625 Chutzpah 2; rules 9, 23, 125, 212 and 1639 have 1.
    """
    order = [
        (handler_name(event.handler).rsplit(".", 1)[-1], str(event.rule))
        for event in timed_events(toy_app.services)
    ]
    assert order == [
        ("chime_at_chutzpah_10", "rule 10"),  # Chutzpah 10
        ("chime_at_chutzpah_3", "rule 1913"),  # Chutzpah 3
        ("advance_elections", "rule 625"),  # Chutzpah 2
        ("reveal_ended_nweeks", "rule 9"),  # Chutzpah 1, by rule number from here
        ("open_begun_nweeks", "rule 9"),  # the same rule: as declared
        ("run_ballot", "rule 23"),
        ("stop_for_recognizer", "rule 23"),  # the same rule: in the games' order
        ("close_due_cfis", "rule 125"),
        ("reset_bandwidth", "rule 212"),
        ("end_finished_go_games", "rule 1639"),
        # Other seeds' rules, by their own numbers, after seed 004's.
        ("evolve_at_nweek_start", "seed 000 rule 0"),
        ("unwind", "seed toy rule 1"),
        ("end_quiet_go_games", "seed 002 rule 365"),
        # The Ministers' digests report what the others did: last.
        ("send_scheduled_digests", "rule 625"),
    ]
    # And so they ran at the start of nweek 2: the chimes before rule 9's
    # commitment to the new nweek's seed, the other seed's event after it.
    post(toy_app, 1, go_game.ALICE, go_game.EPOCH + timedelta(hours=1), "Hello.")
    post(toy_app, 2, go_game.BOB, NWEEK_2_START + timedelta(minutes=5), "Hello.")
    assert RAN == [("rule 10", False), ("rule 1913", False), ("unwind", True)]


def test_an_event_shunted_before_its_handler_moved_still_runs_again(toy_app: App) -> None:
    handlers = all_handlers(toy_app.services)
    moved = handlers["bot.engine.scheduler.end_finished_go_games"]
    assert moved is handlers["bot.engine.games.political_go.end_finished_go_games"]


def test_the_defaults_are_the_games_of_today(tmp_path: Path) -> None:
    games = default_games()
    assert [game.name for game in games] == list(DEFAULT_GAMES)
    settings = load_settings(write_config(tmp_path))
    assert enabled_games(settings) == games
    # The parser's default areas are theirs, in their order.
    assert tuple(area for game in games for area in game.areas) == AREAS
    # Each built-in game's templates folder and grammar files exist.
    root = Path(__file__).parents[2]
    for game in games:
        assert game.templates is None or (root / "templates" / game.templates).is_dir()
        for area in game.areas:
            assert (root / "grammar" / f"{area.namespace}.lark").is_file()


def test_each_declaration_says_what_its_adapters_take_privately(toy_app: App) -> None:
    """Rule 1896's private actions, as the engine reads them from each adapter."""
    with toy_app.session_factory() as session:
        for game in toy_app.services.games:
            adapters = game.adapters(session, toy_app.services)
            taken = frozenset().union(*(adapter.private_actions for adapter in adapters))
            assert taken == game.private_actions, game.name


def test_a_disabled_game_takes_no_part(tmp_path: Path) -> None:
    """Without "dice" in ``[games] enabled`` a roll is no action the bot reads or judges."""
    enabled = ", ".join(f'"{name}"' for name in DEFAULT_GAMES if name != "dice")
    settings = load_settings(write_config(tmp_path / "bot", f"[games]\nenabled = [{enabled}]\n"))
    app = build_app(settings)
    with app.session_factory() as session:
        assert "dice" not in app.services.make_adapters(session)
    areas = app.services.pipeline_settings.areas
    assert "dice" not in {area.namespace for area in areas}
    assert parse_post("I roll 3d6.", areas=areas).actions == ()
    with pytest.raises(KeyError), app.session_factory() as session:
        game_view(session, app.services, "dice")
    app.dispose()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('[games]\nenabled = ["roster", "chess"]\n', "no game called chess"),
        ("[toy]\nmost_turns = 4\n", "unknown configuration section(s): toy"),
        ('[games]\nmodules = ["no.such.module"]\n', "cannot import no.such.module"),
    ],
)
def test_the_configuration_names_only_games_that_exist(
    tmp_path: Path, extra: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        enabled_games(load_settings(write_config(tmp_path, extra)))


def test_a_game_section_is_read_with_its_own_types(tmp_path: Path) -> None:
    config = toy_config(tmp_path, '[toy]\nmost_turns = "many"\n')
    with pytest.raises(ConfigError, match=r"\[toy\] most_turns: expected int"):
        enabled_games(load_settings(config))
    settings = load_settings(toy_config(tmp_path), environ={"NOMICBOT_TOY_MOST_TURNS": "7"})
    assert settings.section(TOY, ToySettings) == ToySettings(most_turns=7)


def test_two_games_may_not_claim_one_view(tmp_path: Path) -> None:
    settings = load_settings(write_config(tmp_path))
    games = enabled_games(settings)
    doubled = replace(WIND_UP_TOY, name="toy2", views=(StateView("go", "", toy_view),))
    with pytest.raises(ConfigError, match="two games declare the view 'go'"):
        registry._check_distinct((*games, doubled))
