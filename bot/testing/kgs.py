"""KGS game records replayed as mail under A Nomic's Political Go (seed 002).

Each SGF of ``go/kgs_sample`` becomes a list-archive of posts by two unallied
players, Black and White, saying "I place a stone at q16" 20 hours apart
(rule 368 allows one move per 19 hours).  A pass in the record is a skipped
turn: the player posts nothing.  Rule 368 c forbids placing two stones
consecutively, so a record whose passes make one colour place twice in a row
cannot be played and is excluded (counted by the caller).  Handicap stones
(AB/AW) are loaded with ``nomicbot go setup`` before the replay.

Points are written in rule 366's notation: files "a" to "s" (with "i") and
ranks 1 to 19 from the bottom, which is sgfmill's (row, column) order.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import format_datetime
from functools import cache
from pathlib import Path
from tempfile import TemporaryDirectory

from sgfmill import boards, sgf  # type: ignore[import-untyped]

from bot.posts import compose_post, mbox_from_line

FILES = "abcdefghijklmnopqrs"
PLAYERS = {"b": ("Black", "black@kgs.invalid"), "w": ("White", "white@kgs.invalid")}
SPACING = timedelta(hours=20)
# A nomic that plays Political Go under A Nomic's rules and nothing else: the
# roster and the game, without B Nomic's Ballots, Elections and digests, whose
# daily events would otherwise run between posts 20 hours apart.
GO_ONLY = ("roster", "go")


@dataclass(frozen=True)
class KgsGame:
    path: Path
    size: int
    setup: tuple[tuple[str, str], ...]  # (colour, point)
    placements: tuple[tuple[str, str], ...]  # (colour, point), passes left out

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def is_handicap(self) -> bool:
        return bool(self.setup)

    @property
    def places_twice_in_a_row(self) -> bool:
        """Whether one colour would place two stones consecutively (368 c)."""
        colours = [colour for colour, _point in self.placements]
        return any(first == second for first, second in zip(colours, colours[1:], strict=False))


def point_name(row: int, column: int) -> str:
    return f"{FILES[column]}{row + 1}"


def load_game(path: Path) -> KgsGame:
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    black, white, _empty = game.get_root().get_setup_stones()
    setup = tuple(("b", point_name(*vertex)) for vertex in sorted(black)) + tuple(
        ("w", point_name(*vertex)) for vertex in sorted(white)
    )
    placements = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is not None and move is not None:
            placements.append((colour, point_name(*move)))
    return KgsGame(path, game.get_size(), setup, tuple(placements))


def load_games(folder: Path) -> list[KgsGame]:
    return [load_game(path) for path in sorted(folder.glob("*.sgf"))]


def final_stones(game: KgsGame) -> dict[str, str]:
    """sgfmill's board after the same setup and moves: point -> "Black"/"White"."""
    board = boards.Board(game.size)
    black = [_vertex(point) for colour, point in game.setup if colour == "b"]
    white = [_vertex(point) for colour, point in game.setup if colour == "w"]
    board.apply_setup(black, white, [])
    for colour, point in game.placements:
        board.play(*_vertex(point), colour)
    return {
        point_name(row, column): PLAYERS[colour][0]
        for colour, (row, column) in board.list_occupied_points()
    }


def posts(game: KgsGame, start: datetime) -> Iterator[tuple[bytes, str]]:
    """(raw mail, mbox From_ line) of every placement, ``SPACING`` apart.

    Each post is ``compose_post``'s bytes for it.  Composing every one with
    the email package cost 1.5 ms a post, about a tenth of replaying it, so
    each player's first post is composed with markers for the point and the
    number and the others are made from it; each player's first post and the
    game's last are checked against ``compose_post`` itself.
    """
    templates: dict[str, tuple[bytes, bytes]] = {}  # colour -> (composed, its date)
    last = len(game.placements)
    for number, (colour, point) in enumerate(game.placements, start=1):
        name, address = PLAYERS[colour]
        date = start + number * SPACING
        check = colour not in templates or number == last
        if colour not in templates:
            composed = _compose(game, name, address, _POINT_MARK, _NUMBER_MARK, date)
            templates[colour] = composed, format_datetime(date).encode()
        composed, template_date = templates[colour]
        raw = (
            composed.replace(template_date, format_datetime(date).encode(), 1)
            .replace(_NUMBER_MARK.encode(), str(number).encode(), 1)
            .replace(_POINT_MARK.encode(), point.encode(), 1)
        )
        if check and raw != _compose(game, name, address, point, str(number), date):
            raise RuntimeError(f"{game.name}: post {number} differs from compose_post's")
        yield raw, mbox_from_line(address, date)


_POINT_MARK = "POINTMARK"
_NUMBER_MARK = "NUMBERMARK"


def _compose(
    game: KgsGame, name: str, address: str, point: str, number: str, date: datetime
) -> bytes:
    return compose_post(
        name,
        address,
        f"[Nomic] Political Go: {game.name}",
        f"I place a stone at {point}\n\n-- \n{name}\n",
        f"{game.path.stem}.{number}@kgs.invalid",
        date,
    )


def config_text(enabled: tuple[str, ...] = ()) -> str:
    """TOML for rule set A with the two KGS players (after ``write_config``'s).

    ``enabled``: the games of ``[games] enabled``; the bot's default set if empty.
    """
    games = f"[games]\nenabled = {json.dumps(list(enabled))}\n" if enabled else ""
    return (
        games
        + '[go]\nrules = "A"\nconsul = "Black"\n'
        + "".join(
            f'[[players]]\nname = "{name}"\naddresses = ["{address}"]\n'
            for name, address in PLAYERS.values()
        )
    )


def _vertex(point: str) -> tuple[int, int]:
    return int(point[1:]) - 1, FILES.index(point[0])


@dataclass(frozen=True)
class ReplayOutcome:
    """What replaying one record as mail gave, against sgfmill's board."""

    name: str
    handicap: bool
    placements: int
    applied: int
    refusals: tuple[str, ...]
    same_stones: bool
    differences: tuple[str, ...]


START = datetime(2026, 1, 5)


MEMORY_DISK = Path("/dev/shm")


@contextmanager
def scratch_folder(fallback: Path) -> Iterator[Path]:
    """A folder for the games' files, in memory where the machine has a tmpfs at
    ``/dev/shm`` (removed afterwards), else ``fallback``.

    A replay makes many small writes and fsyncs (SQLite, the Maildir outbox):
    on a disk they cost a tenth of a second a game or so, some hundreds of
    games over.  ``replay_and_tidy`` keeps the folder small.
    """
    if MEMORY_DISK.is_dir() and os.access(MEMORY_DISK, os.W_OK | os.X_OK):
        with TemporaryDirectory(prefix="nomicbot-kgs-", dir=MEMORY_DISK) as folder:
            yield Path(folder)
    else:
        yield fallback


@cache
def _process_folder() -> Path:
    """A scratch folder for what every game of this process shares, removed at its exit."""
    import atexit
    from tempfile import mkdtemp

    folder = Path(mkdtemp(prefix="nomicbot-kgs-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@cache
def shared_key_file() -> str:
    """One signing key for every game this process replays (``[bot] dkim_key_file``).

    ``go setup`` signs its record with the bot's key, which a bot without one
    makes with openssl (a fifth of a second): once per process is enough.
    """
    from bot.trust.bot_key import GENERATED_KEY, load_bot_key

    folder = _process_folder() / "key"
    load_bot_key("", "nomicbot", "kgs.invalid", folder)
    return str(folder / GENERATED_KEY)


@cache
def migrated_database() -> Path:
    """An empty SQLite database with every migration run, made once per process.

    Each game starts from a copy of it: the schema is the same for all, and
    running the migrations on each of some hundreds of fresh databases took about
    two per cent of the replay's time.  The game's first command still runs
    ``upgrade_database`` on the copy (a no-op at the head) and registers the
    players; the migrations themselves are checked by ``alembic check`` and
    by the tests that build a bot from scratch.
    """
    from bot.store.database import make_engine, upgrade_database

    path = _process_folder() / "schema" / "nomicbot.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    upgrade_database(engine)
    with engine.connect() as connection:  # everything into the file itself, none left in -wal
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return path


def replay_as_mail(sgf_path: str, folder: str, enabled: tuple[str, ...] = ()) -> ReplayOutcome:
    """Set up, replay with ``nomicbot replay`` (in this process) and compare.

    A module-level function so a process pool can run games side by side.
    ``enabled`` as for ``config_text``.
    """
    from datetime import UTC

    from click.testing import CliRunner
    from sqlalchemy import create_engine, text

    from bot.cli import main
    from bot.testing.apps import write_config, write_mbox

    game = load_game(Path(sgf_path))
    root = Path(folder)
    start = START.replace(tzinfo=UTC)
    config = write_config(root / "bot", config_text(enabled))
    shutil.copyfile(migrated_database(), root / "bot" / "nomicbot.sqlite3")
    runner = CliRunner(env={"NOMICBOT_BOT_DKIM_KEY_FILE": shared_key_file()})
    for colour in "bw":
        points = [point for setup_colour, point in game.setup if setup_colour == colour]
        if points:
            at = start.isoformat()
            result = runner.invoke(
                main,
                ["go", "setup", "--config", str(config), PLAYERS[colour][0], *points, "--at", at],
            )
            if result.exit_code:
                raise RuntimeError(f"go setup failed: {result.output}")
    write_mbox(root / "game.mbox", list(posts(game, start)))
    until = (start + SPACING * (len(game.placements) + 1)).isoformat()
    arguments = ["replay", str(root / "game.mbox"), "--config", str(config), "--until", until]
    result = runner.invoke(main, [*arguments, "--outbox", str(root / "outbox")])
    if result.exit_code:
        raise RuntimeError(f"replay failed: {result.output}")
    state = runner.invoke(main, ["state", "go", "--json", "--config", str(config)])
    stones = json.loads(state.output)["stones"]
    engine = create_engine(f"sqlite:///{root / 'bot' / 'nomicbot.sqlite3'}")
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT ruling, text, reason FROM action_log WHERE action = 'go.place'")
        ).all()
    engine.dispose()
    expected = final_stones(game)
    differences = sorted(
        f"{point}: ours {stones.get(point)}, sgfmill {expected.get(point)}"
        for point in set(stones) | set(expected)
        if stones.get(point) != expected.get(point)
    )
    return ReplayOutcome(
        name=game.name,
        handicap=game.is_handicap,
        placements=len(game.placements),
        applied=sum(1 for row in rows if row.ruling == "applied"),
        refusals=tuple(f"{row.text}: {row.reason}" for row in rows if row.ruling != "applied"),
        same_stones=not differences,
        differences=tuple(differences[:5]),
    )


def replay_and_tidy(sgf_path: str, folder: str, enabled: tuple[str, ...] = ()) -> ReplayOutcome:
    """``replay_as_mail``, then the game's folder removed if the game went as expected.

    Some hundreds of databases and outboxes would fill a small scratch disk
    (a tmpfs, see ``scratch_folder``); a game that went wrong keeps its files.
    """
    outcome = replay_as_mail(sgf_path, folder, enabled)
    if outcome.same_stones and not outcome.refusals and outcome.applied == outcome.placements:
        shutil.rmtree(folder, ignore_errors=True)
    return outcome
