"""The games the bot knows, found by their declarations, and those a deployment enables.

Like Mailman's ``find_components``, the registry imports every module of
the game packages (``GAME_PACKAGES``) and of ``[games] modules`` and keeps
each ``bot.engine.game.Game`` declared at module level; a new game is a
module there, and nothing here or elsewhere lists it.  ``[games] enabled``
picks the games of one nomic, in the order their adapters see a post.

This is the one module of the engine that imports the game modules: the
composition root (``bot.app``) and the console ask it for the games, and
hand them on inside ``Services``.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections import Counter
from collections.abc import Iterable, Iterator

from bot.config import ConfigError, Settings
from bot.engine.game import Game

GAME_PACKAGES = ("bot.engine.games", "bot.engine.governance")


def known_games(modules: Iterable[str] = ()) -> dict[str, Game]:
    """Every game declared in the game packages and in ``modules``, by name.

    Raises ConfigError when a module cannot be imported or two declarations
    share a name.
    """
    return dict(_known(tuple(modules)))


@functools.cache
def _known(modules: tuple[str, ...]) -> tuple[tuple[str, Game], ...]:
    found: dict[str, Game] = {}
    for name in (*_package_modules(GAME_PACKAGES), *modules):
        try:
            module = importlib.import_module(name)
        except ImportError as error:
            raise ConfigError(f"[games] modules: cannot import {name}: {error}") from None
        for value in vars(module).values():
            if not isinstance(value, Game):
                continue
            if found.setdefault(value.name, value) is not value:
                raise ConfigError(f"two games are declared with the name {value.name!r}")
    return tuple(found.items())


def _package_modules(packages: Iterable[str]) -> Iterator[str]:
    for package in packages:
        paths = importlib.import_module(package).__path__
        for info in sorted(pkgutil.iter_modules(paths), key=lambda info: info.name):
            yield f"{package}.{info.name}"


def default_games() -> tuple[Game, ...]:
    """The games a configuration that names none plays (``bot.config.DEFAULT_GAMES``)."""
    return enabled_games(Settings())


def enabled_games(settings: Settings) -> tuple[Game, ...]:
    """The games of ``[games] enabled``, in that order, checked against each other.

    Raises ConfigError for an unknown game, two games claiming one action
    prefix, view or console command, or a game section that cannot be read.
    """
    known = known_games(settings.games.modules)
    unknown = [name for name in settings.games.enabled if name not in known]
    if unknown:
        names = ", ".join(sorted(known))
        raise ConfigError(f"[games] enabled: no game called {', '.join(unknown)} (known: {names})")
    games = tuple(known[name] for name in dict.fromkeys(settings.games.enabled))
    _check_distinct(games)
    for game in games:
        if game.settings_type is not None:
            settings.section(game.name, game.settings_type)  # raises ConfigError now, not later
    return games


def _check_distinct(games: tuple[Game, ...]) -> None:
    claims = {
        "view": [view.name for game in games for view in game.views],
        "console command": [command for game in games for command in game.admin_commands],
        "grammar area": [area.namespace for game in games for area in game.areas],
    }
    for what, names in claims.items():
        doubled = sorted(name for name, count in Counter(names).items() if count > 1)
        if doubled:
            raise ConfigError(f"[games] enabled: two games declare the {what} {doubled[0]!r}")
