"""The catch-all of unrefereed subgames leaves an enabled game's sentences to its grammar.

``Game.refereed_subgames`` names the subgames of ``bot.parser.unrefereed``
a game referees; while it is enabled the pipeline hands them to the parser,
which reads their sentences with the game's areas instead of answering "not
refereed by the bot".  The game here is a throwaway declared in this module
(its grammar is ``refereed_game/bouts.lark`` beside it) that takes seed
001's Knucklebones intents, enabled by configuration only.
"""

from __future__ import annotations

from pathlib import Path

from lark import Token

from bot.app import build_services
from bot.config import DEFAULT_GAMES, GamesSettings
from bot.engine.game import Game
from bot.parser import parse_post
from bot.parser.area import ActionReading, Area
from bot.parser.areas import AREAS
from bot.parser.areas.common import CommonTransformer
from bot.parser.unrefereed import read_unrefereed
from bot.pipeline.context import PipelineSettings, PostContext
from bot.pipeline.parse import parse_actions
from bot.testing.apps import game_settings

INTENT = "I want to play Knucklebones against Bob."


class BoutsTransformer(CommonTransformer):
    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def challenge(self, children: list[Token]) -> ActionReading:
        return ActionReading("bouts.challenge", {"opponent": str(children[-1])})


BOUTS_AREA = Area(
    namespace="bouts",
    transformer=BoutsTransformer,
    triggers=(r"want\s+to\s+play",),
    directory=Path(__file__).parent / "refereed_game",
)

BOUTS = Game(
    name="bouts",
    title="Bouts (a game for the parser's test)",
    areas=(BOUTS_AREA,),
    refereed_subgames=("knucklebones",),
)


def _parsed(settings: PipelineSettings, text: str) -> list[tuple[str, dict[str, object]]]:
    context = PostContext(raw=b"", settings=settings, visible_text=text)
    parse_actions(context)
    assert context.parsed is not None
    assert context.parsed.not_understood == ()
    return [(action.action, dict(action.args)) for action in context.parsed.actions]


def test_an_enabled_game_reads_the_sentences_of_its_subgame(tmp_path: Path) -> None:
    games = GamesSettings(enabled=(*DEFAULT_GAMES, "bouts"), modules=(__name__,))
    services = build_services(game_settings(tmp_path, games=games))
    assert services.pipeline_settings.refereed_subgames == frozenset({"knucklebones"})
    assert _parsed(services.pipeline_settings, INTENT) == [("bouts.challenge", {"opponent": "Bob"})]


def test_a_disabled_game_leaves_its_subgame_to_the_catch_all(tmp_path: Path) -> None:
    services = build_services(game_settings(tmp_path))
    assert services.pipeline_settings.refereed_subgames == frozenset()
    assert _parsed(services.pipeline_settings, INTENT) == [
        (
            "unrefereed.knucklebones",
            {"subgame": "Knucklebones", "rule": "Knucklebones", "seed": "001"},
        )
    ]


def test_the_area_alone_does_not_take_the_subgame_over() -> None:
    # An area read without its game's claim leaves the catch-all first.
    found = parse_post(INTENT, areas=(*AREAS, BOUTS_AREA))
    assert [action.action for action in found.actions] == ["unrefereed.knucklebones"]


def test_the_other_subgames_stay_unrefereed() -> None:
    refereed = frozenset({"knucklebones"})
    assert read_unrefereed("I water my Garden", refereed) is not None
    assert read_unrefereed("I place my die in column 2", refereed) is None
    reading = read_unrefereed("I place my die in column 2")
    assert reading is not None and reading.action == "unrefereed.knucklebones"
