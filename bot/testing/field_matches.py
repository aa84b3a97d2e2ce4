"""Field Matches played as posts, for engine and end-to-end tests (seeds 003, 000).

Rita is the Referee (``[field_matches] referee``); Alice, Bob and Carol
play.  ``FieldTable`` feeds posts one at a time to an app exactly as the
daemon does (store, then judge the queue, the scheduler running before each
post) and keeps them, so the same posts can be replayed from an mbox or
delivered over IMAP afterwards.

The scripts do not hard-code the course of a match: the Life script reads
the board the bot shows after each Evolve and picks the Tweaks with
``plan_tweaks``, which simulates the next Evolve with the rules' own
``evolve_grid``; the B-Chess script reads the Field and walks a Queen to the
enemy Kings with the pieces' own moves.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.app import App, build_app
from bot.config import FieldSettings, PlayerEntry, Settings
from bot.engine import holdings, ledger
from bot.engine.games.field import FieldGame, stored_turns
from bot.engine.players import find_player_by_name
from bot.engine.worker import process_queue
from bot.games import dice
from bot.games.field import FieldObject, FieldState, Square, bchess
from bot.games.field.bchess import reach_of
from bot.games.field.bchess.board import kings_of, occupants, placed_kings, times_captured
from bot.games.field.life import COLOURS, Colour, LifeGrid, evolve_grid
from bot.games.field.life.rules import advantage_of, grid_of, team_of
from bot.posts import compose_post, mbox_from_line
from bot.runner import advance_to, store_message
from bot.store.models import ActionRecord, GameRecord, Message
from bot.testing.apps import body_of, game_settings, write_mbox

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)  # nweek 1, nday 1 (zero-based nweek 0)
NWEEK = timedelta(days=10)  # rule 3 A: ten ndays
RITA = ("Rita", "rita@example.test")
ALICE = ("Alice", "alice@example.test")
BOB = ("Bob", "bob@example.test")
CAROL = ("Carol", "carol@example.test")
PLAYERS = (RITA, ALICE, BOB, CAROL)
REFEREE = RITA
SUBJECT = "[Nomic] Field Matches"
PLANNING_ROUNDS = 3  # rounds of improving each player's Tweak against the others'


def nweek_start(nweek: int) -> datetime:
    """The first instant of zero-based nweek ``nweek``."""
    return EPOCH + nweek * NWEEK


def field_app_settings(folder: Path, **sections: Any) -> Settings:
    """Settings with Rita as Referee and the four players configured."""
    players = tuple(PlayerEntry(name, (address,)) for name, address in PLAYERS)
    settings: dict[str, Any] = {
        "players": players,
        "field_matches": FieldSettings(referee=REFEREE[0], auto_evolve=True),
    }
    return game_settings(folder, **(settings | sections))


def field_app(folder: Path, **sections: Any) -> App:
    return build_app(field_app_settings(folder, **sections))


def write_field_config(folder: Path) -> Path:
    """A TOML file for ``field_app(folder)``'s settings, for the command line."""
    settings = field_app_settings(folder)
    players = "\n".join(
        f'[[players]]\nname = "{entry.name}"\naddresses = ["{entry.addresses[0]}"]\n'
        for entry in settings.players
    )
    bot = settings.bot
    config = folder / "nomicbot.toml"
    folder.mkdir(parents=True, exist_ok=True)
    config.write_text(
        f'[bot]\naddress = "{bot.address}"\nlist_address = "{bot.list_address}"\n'
        f'data_dir = "{folder}"\nmaster_secret = "{bot.master_secret}"\n'
        f'[smtp_ingress]\nenabled = false\n[ntime]\nepoch = "{settings.ntime.epoch}"\n'
        f'[field_matches]\nreferee = "{REFEREE[0]}"\n\n{players}'
    )
    return config


def field_rulings(app: App) -> list[tuple[str, str, str, str, str]]:
    """(Message-ID, quoted text, ruling, rule, summary or reason) of every field action."""
    with app.session_factory() as session:
        rows = session.execute(
            select(
                Message.message_id,
                ActionRecord.text,
                ActionRecord.ruling,
                ActionRecord.rule,
                ActionRecord.summary,
                ActionRecord.reason,
            )
            .join(Message, Message.id == ActionRecord.message_pk)
            .where(ActionRecord.action.like("field.%"))
            .order_by(ActionRecord.id)
        ).all()
    return [
        (mid, text, ruling, rule, summary or reason)
        for mid, text, ruling, rule, summary, reason in rows
    ]


@dataclass(frozen=True)
class FieldPost:
    author: tuple[str, str]
    at: datetime
    body: str
    message_id: str

    def raw(self) -> bytes:
        name, address = self.author
        return compose_post(name, address, SUBJECT, self.body, self.message_id, self.at)


@dataclass
class FieldTable:
    """Posts fed one by one to ``app``, judged as the daemon judges them, and kept."""

    app: App
    prefix: str = "field"
    posts: list[FieldPost] = field(default_factory=list)
    _numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def post(self, author: tuple[str, str], at: datetime, body: str) -> FieldPost:
        number = next(self._numbers)
        post = FieldPost(author, at, body, f"{self.prefix}-{number:03d}@example.test")
        store_message(self.app, post.raw(), "script", at)
        process_queue(self.app.session_factory, self.app.services)
        self.posts.append(post)
        return post

    def advance(self, until: datetime) -> None:
        """Let the scheduler run up to ``until`` (a scheduled Evolve, a seed's reveal)."""
        advance_to(self.app, until)

    def state(self) -> FieldState:
        with self.app.session_factory() as session:
            return FieldGame(session, self.app.services).state

    def turns(self) -> list[dict[str, Any]]:
        with self.app.session_factory() as session:
            return stored_turns(session, self.app.services)

    def nweek_of(self, at: datetime) -> int:
        return self.app.services.clock.reading(at).nweek

    def write_mbox(self, path: Path) -> Path:
        write_mbox(path, [(p.raw(), mbox_from_line(p.author[1], p.at)) for p in self.posts])
        return path


def field_snapshot(app: App) -> dict[str, Any]:
    """What must come out the same however the posts arrive: the stored Field (its
    state, every Turn record with its draws, the matches), the field rulings, and
    everyone's macks."""
    with app.session_factory() as session:
        row = session.scalar(select(GameRecord).where(GameRecord.name == "field"))
        players = {name: find_player_by_name(session, name).id for name, _ in PLAYERS}
        macks = {
            name: ledger.balance(session, pid, holdings.MACKS) for name, pid in players.items()
        }
    return {
        "field": None if row is None else row.state,
        "rulings": field_rulings(app),
        "macks": macks,
    }


# -- Life -------------------------------------------------------------------------


@dataclass(frozen=True)
class LifePosition:
    """What the players see after an Evolve: the Cells, the Advantage, the Teams."""

    grid: LifeGrid
    advantage: Colour | None
    teams: Mapping[str, Colour]

    @classmethod
    def of(cls, state: FieldState, players: Sequence[str]) -> LifePosition:
        teams = {name: team for name in players if (team := team_of(state, name)) is not None}
        return cls(grid_of(state), advantage_of(state), teams)


def plan_tweaks(position: LifePosition, target: Colour) -> dict[str, str]:
    """The Tweaks (player -> square) steering the next Evolve towards ``target`` alone.

    Players of ``target``'s team may toggle a null or ``target`` Cell, the
    others only clear a Cell of their own colour (seed 000, Tweak).  Each
    player's choice in turn is improved against the others' (a few rounds),
    simulating the Evolve with ``evolve_grid`` (the rules' step 1): a win
    (only ``target`` left) is best, then the fewest Cells of other colours,
    then the most of ``target``, then the fewest Tweaks.
    """
    options = {
        name: _tweak_options(position, team, target) for name, team in position.teams.items()
    }
    chosen: dict[str, int] = {}
    best = _score(position, chosen, target)
    for _ in range(PLANNING_ROUNDS):
        improved = False
        for name, squares in options.items():
            for square in squares:
                trial = {other: at for other, at in chosen.items() if other != name}
                if square is not None:
                    trial[name] = square
                score = _score(position, trial, target)
                if score < best:
                    best, chosen, improved = score, trial, True
        if not improved:
            break
    geometry = position.grid.geometry
    return {name: geometry.format_square(square) for name, square in chosen.items()}


def life_outlook(position: LifePosition, target: Colour, nweeks: int) -> int | None:
    """How many Evolves ``plan_tweaks`` needs to make ``target`` win (None: more than nweeks)."""
    current = position
    for evolves in range(1, nweeks + 1):
        after = evolve_grid(_tweaked(current, _squares_of(current, target)), current.advantage)
        if after.colours_present() == (target,):
            return evolves
        current = LifePosition(after, _rotated(current.advantage), current.teams)
    return None


def choose_target(position: LifePosition, nweeks: int) -> Colour:
    """The Team colour ``plan_tweaks`` brings to a win soonest (the first of COLOURS on ties)."""
    held = [colour for colour in COLOURS if colour in position.teams.values()]
    outlooks = [(life_outlook(position, colour, nweeks), colour) for colour in held]
    reachable = [(when, COLOURS.index(colour), colour) for when, colour in outlooks if when]
    if not reachable:
        raise AssertionError(f"no Team can win Life within {nweeks} nweeks from this position")
    return min(reachable)[2]


def _squares_of(position: LifePosition, target: Colour) -> dict[str, int]:
    geometry = position.grid.geometry
    return {
        name: geometry.parse_square(square)
        for name, square in plan_tweaks(position, target).items()
    }


def _rotated(advantage: Colour | None) -> Colour | None:
    # Evolve step 3: Red -> Green -> Blue -> Red.
    return None if advantage is None else COLOURS[(COLOURS.index(advantage) + 1) % len(COLOURS)]


def _tweak_options(position: LifePosition, team: Colour, target: Colour) -> list[int | None]:
    grid = position.grid
    squares = range(grid.geometry.square_count)
    if team is target:
        return [None, *(square for square in squares if grid.colour_at(square) in (None, team))]
    return [None, *(square for square in squares if grid.colour_at(square) is team)]


def _tweaked(position: LifePosition, tweaks: Mapping[str, int]) -> LifeGrid:
    grid = position.grid
    for name, square in tweaks.items():
        team = position.teams[name]
        grid = grid.with_colour(square, team if grid.colour_at(square) is None else None)
    return grid


def _score(
    position: LifePosition, tweaks: Mapping[str, int], target: Colour
) -> tuple[int, int, int, int]:
    # Two players tweaking one Cell would undo each other: never chosen.
    if len(set(tweaks.values())) < len(tweaks):
        return (2, 0, 0, 0)
    after = evolve_grid(_tweaked(position, tweaks), position.advantage)
    colours = after.colours()
    others = sum(1 for colour in colours.values() if colour is not target)
    mine = len(colours) - others
    won = others == 0 and mine > 0
    return (0 if won else 1, others, -mine, len(tweaks))


@dataclass(frozen=True)
class LifeScript:
    """How a scripted Life match went: its target colour and the nweek it was won."""

    target: Colour
    won_in_nweek: int  # zero-based Clock nweek whose scheduled Evolve ended the match
    team: tuple[str, ...]  # the players of the target colour's Team, in roster order


def play_life(table: FieldTable, first_nweek: int, nweeks: int = 8) -> LifeScript:
    """Rita selects and initializes Life and Evolves by post; then every nweek the
    bot Evolves on schedule and the players Tweak as ``plan_tweaks`` says, to a win.

    Raises ``AssertionError`` if no win comes within ``nweeks`` nweeks.
    """
    day = nweek_start(first_nweek)
    table.post(
        RITA,
        day + timedelta(hours=10),
        "I select Life as the Current Field Match.\nI initialize the field.",
    )
    table.post(RITA, day + timedelta(hours=11), "I evolve the field.")
    names = [name for name, _ in PLAYERS]
    target = choose_target(LifePosition.of(table.state(), names), nweeks)
    team: tuple[str, ...] = ()
    for nweek in range(first_nweek, first_nweek + nweeks):
        if nweek > first_nweek:
            table.advance(nweek_start(nweek) + timedelta(hours=1))  # the scheduled Evolve
        state = table.state()
        if state.match is None:
            return LifeScript(target, nweek, team)
        position = LifePosition.of(state, names)
        team = tuple(name for name in names if position.teams.get(name) is target)
        tweaks = plan_tweaks(position, target)
        for hour, (name, square) in enumerate(sorted(tweaks.items()), start=12):
            author = next(player for player in PLAYERS if player[0] == name)
            table.post(author, nweek_start(nweek) + timedelta(hours=hour), f"I tweak cell {square}")
    raise AssertionError(f"Life was not won within {nweeks} nweeks")


# -- B-Chess ----------------------------------------------------------------------

HUNTER = ALICE  # the player whose pieces go after the other Kings
REJOINERS = (BOB, CAROL)  # who try to buy a new King after losing one
POST_INTERVAL = timedelta(days=1)
OPENING_MACKS = {ALICE[0]: 100, BOB[0]: 1000}


def grant_macks(app: App, grants: Mapping[str, int] = OPENING_MACKS) -> None:
    """Credit macks as ``nomicbot ledger credit`` does (the seeds do not say how to earn them)."""
    with app.session_factory.begin() as session:
        for name, amount in grants.items():
            player = find_player_by_name(session, name)
            holdings.gain(
                session,
                player.id,
                holdings.MACKS,
                amount,
                at=EPOCH,
                rule="",
                note="an administrator's grant",
                source="admin",
            )


@dataclass(frozen=True)
class BChessScript:
    """How a scripted B-Chess match went."""

    winner: str
    captures: Mapping[str, int]  # each player's Kings captured, before the Checkmate
    rejoins_tried: Mapping[str, int]  # each rejoiner's captures at eir last Rejoin
    last_nweek: int


def hunter_move(state: FieldState, hunter: str) -> tuple[FieldObject, Square] | None:
    """The hunter's piece and the first square of its shortest way to an enemy King.

    Kings and Pawns stay out of the hunt (a Pawn's diagonal steps are captures
    only); the way is searched over the squares each piece could end on
    (``reach_of``, the rules' own reach) with every other piece where it stands.
    """
    standing = occupants(state)
    targets = {king.square for king in placed_kings(state) if king.owner != hunter}
    best: tuple[int, FieldObject, Square] | None = None
    for piece in state.objects:
        if (
            piece.owner != hunter
            or piece.square is None
            or piece.kind in (bchess.KING, bchess.PAWN)
        ):
            continue
        way = _shortest_way(state, piece, standing, targets)
        if way and (best is None or len(way) < best[0]):
            best = (len(way), piece, way[0])
    return None if best is None else (best[1], best[2])


def _shortest_way(
    state: FieldState,
    piece: FieldObject,
    standing: Mapping[Square, FieldObject],
    targets: set[Square | None],
) -> list[Square]:
    others = {square: item for square, item in standing.items() if item is not piece}
    start = piece.square
    assert start is not None
    came_from: dict[Square, Square] = {start: start}
    frontier = [start]
    while frontier:
        following: list[Square] = []
        for square in frontier:
            for step in sorted(reach_of(state.current_match, piece.placed_at(square), others)):
                if step in came_from or (step in others and step not in targets):
                    continue
                came_from[step] = square
                if step in targets:
                    return _way_back(came_from, start, step)
                following.append(step)
        frontier = following
    return []


def _way_back(came_from: Mapping[Square, Square], start: Square, end: Square) -> list[Square]:
    way = [end]
    while came_from[way[-1]] != start:
        way.append(came_from[way[-1]])
    return way[::-1]


def play_bchess(table: FieldTable, first_nweek: int, posts: int = 60) -> BChessScript:
    """A B-Chess match by posts, one a day from ``first_nweek``, to Checkmate.

    Rita selects and initializes B-Chess; Alice buys three pieces in one post
    (0, 10 and 20 macks) and then walks her best piece to the nearest enemy
    King, post after post.  Bob and Carol try to Rejoin whenever they have lost
    a King (Bob pays 100, then 500, and cannot pay 1000; Carol has no macks).
    Alice's post after the last capture is the Turn in which Checkmate ends
    the match.  Needs ``grant_macks`` first.  Raises ``AssertionError`` if the
    match is not won within ``posts`` posts.
    """
    clock = iter(nweek_start(first_nweek) + POST_INTERVAL * (number + 1) for number in range(posts))
    table.post(
        RITA, next(clock), "I select B-Chess as the Current Field Match.\nI initialize the field."
    )
    table.post(HUNTER, next(clock), "I purchase a piece. I purchase a piece. I purchase a piece.")
    captures: dict[str, int] = {}
    tried: dict[str, int] = {}
    for at in clock:
        state = table.state()
        if state.match is None:
            ending = table.turns()[-1]["record"]["ending"]
            return BChessScript(ending["winners"][0], captures, tried, table.nweek_of(at))
        rejoiner = _next_rejoiner(state, tried)
        if rejoiner is not None:
            tried[rejoiner[0]] = times_captured(state, rejoiner[0])
            table.post(rejoiner, at, "I rejoin the field match.")
            continue
        table.post(HUNTER, at, _hunter_post(state))
        after = table.state()
        if after.match is not None:
            captures = {name: times_captured(after, name) for name, _ in PLAYERS}
    raise AssertionError(f"B-Chess was not won within {posts} posts")


def _next_rejoiner(state: FieldState, tried: Mapping[str, int]) -> tuple[str, str] | None:
    for player in REJOINERS:
        lost = times_captured(state, player[0])
        if not kings_of(state, player[0]) and lost > tried.get(player[0], 0):
            return player
    return None


def _hunter_post(state: FieldState) -> str:
    geometry = state.geometry
    if len(placed_kings(state)) == 1:
        # The last capture is a Checkmate at the next Turn of the Field (step 1).
        (king,) = placed_kings(state)
        assert king.square is not None
        column, row = geometry.column_of(king.square), geometry.row_of(king.square)
        step = geometry.square_at((column + 1) % geometry.columns, row)
        start, end = geometry.format_square(king.square), geometry.format_square(step)
        return f"I move my king at {start} to {end}."
    found = hunter_move(state, HUNTER[0])
    if found is None:
        # No piece can reach a King: buy one (the first Purchase of a Turn is free).
        return "I purchase a piece."
    piece, target = found
    assert piece.square is not None
    start, end = geometry.format_square(piece.square), geometry.format_square(target)
    return f"I move my {piece.kind.lower()} at {start} to {end}."


# -- reading what the bot mailed ------------------------------------------------------

VERIFY_DRAW = re.compile(
    r"\[verify: nweek=(?P<nweek>\d+) draw-v1 context=(?P<context>\S+) number=(?P<number>\d+) "
    r"(?:options=(?P<shuffled>[^\]]*?) order=(?P<order>[\d,]+)"
    r"|kind=choice (?:options=(?P<options>[^\]]*?)|count=(?P<count>\d+)) index=(?P<index>\d+)"
    r"|kind=randint bounds=(?P<low>\d+)\.\.(?P<high>\d+) value=(?P<value>\d+))\]"
)
SEED_LINE = re.compile(r"^Seed: *(?P<seed>[0-9a-f]{64}) *$", re.MULTILINE)
NWEEK_LINE = re.compile(r"^Nweek: *(?P<nweek>\d+) *$", re.MULTILINE)


@dataclass(frozen=True)
class DrawCheck:
    checked: int
    wrong: tuple[str, ...]
    unrevealed: int


def check_field_draws(mails: Sequence[EmailMessage]) -> DrawCheck:
    """Re-derive every ``draw-v1`` proof line (shuffle, choice, randint) in ``mails``.

    ``nomicbot verify-dice`` checks the shuffles in rulings; this also checks
    the choices and randints, and the scheduled reports.
    """
    seeds = _revealed_seeds(mails)
    checked, unrevealed, wrong = 0, 0, []
    for mail in mails:
        flat = " ".join(body_of(mail).split())
        for match in VERIFY_DRAW.finditer(flat):
            seed = seeds.get(int(match["nweek"]))
            if seed is None:
                unrevealed += 1
                continue
            checked += 1
            claimed = _claimed_draw(match)
            derived = dice.replay_draw(seed, match["context"], claimed)
            if derived.result != claimed.result:
                wrong.append(match.group(0))
    return DrawCheck(checked, tuple(wrong), unrevealed)


def _claimed_draw(match: re.Match[str]) -> dice.Draw:
    number = int(match["number"])
    if match["order"] is not None:
        options = tuple(match["shuffled"].split("|"))
        order = tuple(int(index) for index in match["order"].split(","))
        return dice.Draw(number, "", dice.DrawKind.SHUFFLE, options, None, order)
    if match["index"] is not None:
        options = (
            tuple(match["options"].split("|"))
            if match["options"] is not None
            else tuple(str(place) for place in range(int(match["count"])))
        )
        return dice.Draw(number, "", dice.DrawKind.CHOICE, options, None, (int(match["index"]),))
    bounds = (int(match["low"]), int(match["high"]))
    return dice.Draw(number, "", dice.DrawKind.RANDINT, (), bounds, (int(match["value"]),))


def _revealed_seeds(mails: Sequence[EmailMessage]) -> dict[int, bytes]:
    seeds: dict[int, bytes] = {}
    for mail in mails:
        if str(mail.get("X-Nomicbot-Kind", "")) != "dice-reveal":
            continue
        body = body_of(mail)
        nweek, seed = NWEEK_LINE.search(body), SEED_LINE.search(body)
        if nweek and seed:
            seeds[int(nweek["nweek"])] = dice.seed_from_hex(seed["seed"])
    return seeds
