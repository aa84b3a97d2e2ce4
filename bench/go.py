"""Throughput of rule set A's ``place_stone`` against sgfmill's ``Board.play``.

    .venv/bin/python bench/go.py [--rounds 5] [--corpus DIR] [--whole-rounds] [--profile N]

Every 19x19 game of the KGS sample (``go/kgs_sample/*.sgf`` in the shared
corpora, read in place; ``$NOMICBOT_CORPORA`` or ``../shared/corpora``) is
parsed once, before any timing, into setup stones and placements:

* ours: ``bot.games.go.anomic`` (A Nomic rules 365-377, seed 002) with the
  players "Black" and "White"; setup stones (AB/AW) through ``with_stones``,
  then each move as ``place_stone(state, MoveContext(player, at), point)``,
  20 hours apart (rule 368's 19-hour limit), with positional superko (368 a)
  checked on every placement;
* sgfmill: ``boards.Board(19)``, ``apply_setup``, then ``Board.play`` per
  move, which captures but checks no ko at all.

Passes are skipped.  A game where skipping a pass makes one colour place twice
in a row is excluded (rule 368 c would refuse the second stone) and counted,
as are games of other sizes.  Each round times both engines over all moves,
game by game in turn: which engine goes first alternates from game to game,
so that the shared machine's bursts of load hit both (``--whole-rounds``
times all games by one engine, then by the other, as this bench first did);
only the move loops are timed, not the setup.  Prints moves/second for
the median round of each and the ratio ours/sgfmill (the goal is >= 1.0), and
fails loudly unless both engines end every game with the same stones.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sgfmill import boards, sgf  # type: ignore[import-untyped]
from timing import Timing

from bot.games.errors import IllegalActionError
from bot.games.go import anomic

SIZE = 19
PLAYERS = {"b": "Black", "w": "White"}
# Rule 368: one Go move per 19 hours; each player moves every other post.
SPACING_SECONDS = 20 * 3600
TARGET_RATIO = 1.0

Vertex = tuple[int, int]  # sgfmill's (row, column), row 0 at the bottom


@dataclass(frozen=True)
class Game:
    """One record, pre-extracted for both engines."""

    name: str
    black_setup: tuple[Vertex, ...]
    white_setup: tuple[Vertex, ...]
    moves: tuple[tuple[str, Vertex], ...]  # (colour, vertex), passes left out
    contexts: tuple[anomic.MoveContext, ...]  # ours, one per move
    points: tuple[int, ...]  # ours, one per move

    @property
    def setup_stones(self) -> dict[int, str]:
        black = {_point(vertex): "Black" for vertex in self.black_setup}
        return black | {_point(vertex): "White" for vertex in self.white_setup}


@dataclass(frozen=True)
class Corpus:
    games: tuple[Game, ...]
    other_sizes: tuple[str, ...]
    twice_in_a_row: tuple[str, ...]

    @property
    def moves(self) -> int:
        return sum(len(game.moves) for game in self.games)


# --- loading ---------------------------------------------------------------------


def _point(vertex: Vertex) -> int:
    """Our point number (``row * size + column``, row 0 at the bottom) for sgfmill's vertex."""
    row, column = vertex
    return row * SIZE + column


def load_game(path: Path) -> Game | None:
    """The game in ``path``, or None when it is not 19x19."""
    record = sgf.Sgf_game.from_bytes(path.read_bytes())
    if record.get_size() != SIZE:
        return None
    black, white, _empty = record.get_root().get_setup_stones()
    moves = []
    for node in record.get_main_sequence()[1:]:
        colour, vertex = node.get_move()
        if colour is not None and vertex is not None:
            moves.append((colour, vertex))
    contexts = tuple(
        anomic.MoveContext(PLAYERS[colour], number * SPACING_SECONDS)
        for number, (colour, _vertex) in enumerate(moves, start=1)
    )
    points = tuple(_point(vertex) for _colour, vertex in moves)
    return Game(
        path.name, tuple(sorted(black)), tuple(sorted(white)), tuple(moves), contexts, points
    )


def places_twice_in_a_row(game: Game) -> bool:
    """Rule 368 c: whether one colour would place two stones consecutively."""
    colours = [colour for colour, _vertex in game.moves]
    return any(first == second for first, second in zip(colours, colours[1:], strict=False))


def load_corpus(folder: Path) -> Corpus:
    games: list[Game] = []
    other_sizes: list[str] = []
    twice: list[str] = []
    for path in sorted(folder.glob("*.sgf")):
        game = load_game(path)
        if game is None:
            other_sizes.append(path.name)
        elif places_twice_in_a_row(game):
            twice.append(game.name)
        else:
            games.append(game)
    return Corpus(tuple(games), tuple(other_sizes), tuple(twice))


# --- the two engines -------------------------------------------------------------


def play_ours(game: Game) -> tuple[float, anomic.AnomicState]:
    """Seconds spent placing the moves of ``game``, and the final state."""
    state = anomic.new_game()
    if game.black_setup or game.white_setup:
        state = anomic.with_stones(state, game.setup_stones)
    else:  # both colours get their board codes in the same order either way
        state = anomic.add_players(state, ["Black", "White"])
    place_stone = anomic.place_stone
    started = time.perf_counter()
    for context, point in zip(game.contexts, game.points, strict=True):
        state = place_stone(state, context, point).state
    return time.perf_counter() - started, state


def play_sgfmill(game: Game) -> tuple[float, boards.Board]:
    board = boards.Board(SIZE)
    board.apply_setup(game.black_setup, game.white_setup, ())
    play = board.play
    started = time.perf_counter()
    for colour, (row, column) in game.moves:
        play(row, column, colour)
    return time.perf_counter() - started, board


def stones_of_ours(state: anomic.AnomicState) -> dict[Vertex, str]:
    return {divmod(point, SIZE): owner for point, owner in state.stones.items()}


def stones_of_sgfmill(board: boards.Board) -> dict[Vertex, str]:
    return {vertex: PLAYERS[colour] for colour, vertex in board.list_occupied_points()}


def check_same_stones(game: Game, ours: anomic.AnomicState, theirs: boards.Board) -> None:
    """Fail loudly unless both engines ended ``game`` with the same stones."""
    mine, other = stones_of_ours(ours), stones_of_sgfmill(theirs)
    if mine == other:
        return
    differences = sorted(
        (vertex, mine.get(vertex), other.get(vertex))
        for vertex in mine.keys() | other.keys()
        if mine.get(vertex) != other.get(vertex)
    )
    raise SystemExit(
        f"{game.name}: the final stones differ at {len(differences)} vertices "
        f"((row, column), ours, sgfmill): {differences[:10]}"
    )


def time_ours(games: Sequence[Game]) -> float:
    total = 0.0
    for game in games:
        seconds, _state = play_ours(game)
        total += seconds
    return total


def time_sgfmill(games: Sequence[Game]) -> float:
    total = 0.0
    for game in games:
        seconds, _board = play_sgfmill(game)
        total += seconds
    return total


# --- main ------------------------------------------------------------------------


def verify(games: Sequence[Game]) -> None:
    """Both engines, every game, same final stones; a refusal by ours fails too."""
    for game in games:
        try:
            _seconds, state = play_ours(game)
        except IllegalActionError as error:
            raise SystemExit(f"{game.name}: ours refused a move sgfmill played: {error}") from error
        _seconds, board = play_sgfmill(game)
        check_same_stones(game, state, board)


def time_round(games: Sequence[Game], number: int) -> tuple[float, float]:
    """Seconds of ours and of sgfmill in round ``number``, each game played by both in turn.

    Which engine goes first alternates from game to game (and between
    rounds), so that a burst of load on the shared machine, which lasts a
    fraction of a second, falls on both engines alike rather than on one
    engine's half of the round.
    """
    ours = theirs = 0.0
    for index, game in enumerate(games):
        if (index + number) % 2 == 0:
            ours += play_ours(game)[0]
            theirs += play_sgfmill(game)[0]
        else:
            theirs += play_sgfmill(game)[0]
            ours += play_ours(game)[0]
    return ours, theirs


def time_whole_round(games: Sequence[Game], number: int) -> tuple[float, float]:
    """The earlier way (``--whole-rounds``): every game by one engine, then by the other."""
    if number % 2 == 0:
        ours = time_ours(games)
        return ours, time_sgfmill(games)
    theirs = time_sgfmill(games)
    return time_ours(games), theirs


def time_rounds(
    games: Sequence[Game], rounds: int, whole_rounds: bool = False
) -> tuple[list[float], list[float]]:
    timer = time_whole_round if whole_rounds else time_round
    ours: list[float] = []
    theirs: list[float] = []
    for number in range(rounds):
        mine, other = timer(games, number)
        ours.append(mine)
        theirs.append(other)
        print(f"round {number + 1}: ours {mine:.3f} s, sgfmill {other:.3f} s", flush=True)
    return ours, theirs


def profile_ours(games: Sequence[Game], lines: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    time_ours(games)
    profiler.disable()
    print()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(lines)


def corpus_folder(given: Path | None) -> Path:
    if given is not None:
        return given
    root = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora"
    return Path(os.environ.get("NOMICBOT_CORPORA", root)) / "go" / "kgs_sample"


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--corpus", type=Path, help="folder of .sgf files (default: KGS sample)")
    parser.add_argument(
        "--whole-rounds",
        action="store_true",
        help="time every game by one engine, then by the other (noisier)",
    )
    parser.add_argument(
        "--profile", type=int, metavar="N", help="also profile ours once, top N functions"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    folder = corpus_folder(arguments.corpus)
    if not folder.is_dir():
        raise SystemExit(f"no corpus at {folder}: set NOMICBOT_CORPORA or pass --corpus")
    corpus = load_corpus(folder)
    print(
        f"{folder}: {len(corpus.games)} games, {corpus.moves} moves; excluded "
        f"{len(corpus.twice_in_a_row)} where skipping passes places twice in a row (368 c) "
        f"and {len(corpus.other_sizes)} not {SIZE}x{SIZE}"
    )
    verify(corpus.games)
    print("final stones identical in every game (ours with superko on, sgfmill)")
    ours, theirs = time_rounds(corpus.games, arguments.rounds, arguments.whole_rounds)
    mine = Timing("ours (place_stone)", corpus.moves, tuple(ours), "moves")
    other = Timing("sgfmill (Board.play)", corpus.moves, tuple(theirs), "moves")
    ratio = mine.rate / other.rate
    print(f"\n{mine.line()}\n{other.line()}")
    verdict = "meets" if ratio >= TARGET_RATIO else "misses"
    print(f"ratio ours/sgfmill: {ratio:.2f} ({verdict} the goal of {TARGET_RATIO:.1f})")
    if arguments.profile:
        profile_ours(corpus.games, arguments.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
