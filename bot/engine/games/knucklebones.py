"""Knucklebones (seed 001) by mail: the adapter, its timed events and its declaration.

The pure rules are ``bot.games.knucklebones``; this module maps them onto
list posts and real time (docs/readings.md, "Knucklebones"):

* ``#battle-commencement`` is the list: an intent is a list post.
* A Battle Phase begins at every 00:00 UTC (every ``battle_interval_days``
  days): the intents of the Rest Phase before it pair, their games start
  (rule Knucklebones/Turn Order: one 1d2 each), the first mover of each is
  notified with eir 1d6, and a Rest Phase begins at once; running games go
  on through it.
* The bot rolls the participant's 1d6 when it notifies em (rule
  Knucklebones/Turn: "roll 1d6 and choose a column"): e sees the roll before
  choosing.  The notification of the next participant is the board mailed
  with the ruling of the placement, so its instant is the post's.
* The 24 hours are real hours from the notification, less the time the
  Clock is Off (``bot.games.knucklebones.timing``: a placement posted then
  is held, rule 3 B); the forfeit is a timed event at that instant.

Every draw is rule 9's derivation from the nweek's committed seed, with a
proof line that ``nomicbot verify-dice`` checks once the seed is revealed.
Participants are stored by name, as the pure rules and their messages
name them; a rename (rule 151) rewrites the stored state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import objects
from bot.engine.forfeits import Forfeited
from bot.engine.game import Game, StateView, TimedEvent, rule
from bot.engine.games.base import GameAdapter
from bot.engine.holdings import Cause, message_pk_of
from bot.engine.players import find_player_by_name
from bot.engine.renames import JsonState, rename_in_json, rewrite_record
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.engine.scheduler import open_nweek
from bot.engine.views import View
from bot.games import dice
from bot.games.errors import ActionError, IllegalActionError
from bot.games.knucklebones.actions import (
    BeginBattlePhase,
    BeginRestPhase,
    ExpireTurn,
    NotifyTurn,
    PlaceDie,
    StateIntent,
)
from bot.games.knucklebones.events import GameStarted, KnucklebonesEvent
from bot.games.knucklebones.intents import Intent, IntentMode
from bot.games.knucklebones.play import apply, pending_pairings
from bot.games.knucklebones.render import render_game
from bot.games.knucklebones.rules import PRIZE, RULE_COMMENCEMENT, RULE_TURN, RULE_WINNING
from bot.games.knucklebones.serialize import state_from_json, state_to_json
from bot.games.knucklebones.state import Game as KnucklebonesGame
from bot.games.knucklebones.state import KnucklebonesState, LastTurn, new_state
from bot.games.knucklebones.timing import ClockStop, forfeit_deadline
from bot.games.objects import ObjectType, player_holder
from bot.outbound.compose import compose_report
from bot.parser import ParsedAction
from bot.parser.areas import knucklebones as knucklebones_area
from bot.store.models import DiceSeed, GameRecord

if TYPE_CHECKING:
    from bot.engine.services import Services

NAME = "knucklebones"
SEED = "001"
D2 = dice.DiceSpec(1, 2)
D6 = dice.DiceSpec(1, 6)

# Rule Knucklebones/Winning: "The winner of a game of Knucklebones gains one
# Handy Pack and one Chip."  Seed 001 defines neither, so rule 13's default
# holds: a player may give one away.
HANDY_PACK = objects.declare(ObjectType("Handy Pack", "Handy Packs", rule=RULE_WINNING))
CHIP = objects.declare(ObjectType("Chip", "Chips", rule=RULE_WINNING))
# In the order the pure rules name the prize (``rules.PRIZE``).
PRIZE_TYPES = tuple(
    object_type for name in PRIZE for object_type in (HANDY_PACK, CHIP) if object_type.name == name
)


@dataclass(frozen=True)
class KnucklebonesSettings:
    """The ``[knucklebones]`` section."""

    # A Battle Phase begins at 00:00 UTC of every this many days (counted
    # from 1970-01-01, so every deployment agrees on the days).
    battle_interval_days: int = 1


# -- the stored state ------------------------------------------------------------------------


def load_record(session: Session) -> GameRecord:
    record = session.scalar(select(GameRecord).where(GameRecord.name == NAME))
    if record is None:
        record = GameRecord(name=NAME, state=state_to_json(new_state()), version=0)
        session.add(record)
    return record


def load_state(session: Session) -> KnucklebonesState:
    return state_from_json(load_record(session).state)


def save_state(session: Session, state: KnucklebonesState) -> None:
    record = load_record(session)
    record.state = state_to_json(state)
    record.version += 1


# -- draws (rule 9's derivation) -------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """One roll the game made, with its proof line and its record for the archive."""

    roll: dice.Roll
    nweek: int

    @property
    def value(self) -> int:
        return self.roll.faces[0]

    @property
    def proof(self) -> str:
        return f"[verify: nweek={self.nweek + 1} {self.roll.proof}]"

    def record(self, purpose: str) -> dict[str, Any]:
        return {
            "kind": "dice",
            "purpose": purpose,
            "nweek": self.nweek,
            "message_id": self.roll.message_id,
            "action_index": self.roll.action_index,
            "spec": str(self.roll.spec),
            "faces": list(self.roll.faces),
        }


def draw(
    session: Session,
    services: Services,
    context: str,
    index: int,
    spec: dice.DiceSpec,
    at: datetime,
) -> Draw:
    """Roll ``spec`` as action ``index`` of ``context``, from the seed of the nweek of ``at``.

    ``context`` stands for the post the roll belongs to (the placement that
    notifies the next participant, or the Battle Phase), as a Ballot's
    rewards use ``ballot-N@domain``.
    """
    nweek = services.clock.reading(at).nweek
    if session.get(DiceSeed, nweek) is None:
        open_nweek(session, services, nweek, at)
    seed = dice.nweek_seed(services.master_secret, nweek)
    return Draw(dice.roll(seed, context, index, spec), nweek)


def turn_context(services: Services, game: int, turn: int) -> str:
    """The roll of turn ``turn`` (0 for the first) of game ``game``."""
    return f"knucklebones-{game}-{turn}@{services.settings.bot_domain}"


def notify(
    session: Session, services: Services, state: KnucklebonesState, number: int, at: datetime
) -> tuple[KnucklebonesState, Draw]:
    """Roll the 1d6 of the participant to move in game ``number`` and notify em at ``at``."""
    game = state.game(number)
    rolled = draw(session, services, turn_context(services, number, game.turns), 0, D6, at)
    state, _events = apply(state, NotifyTurn(number, at, rolled.value))
    return state, rolled


# -- renames (rule 151) and boards ---------------------------------------------------------


def rename_in_knucklebones(
    session: Session, services: Services, old: str, new: str
) -> tuple[str, ...]:
    """Rule 151: the participants, intents and results that name ``old`` name ``new``."""
    return (NAME,) if rewrite_record(session, NAME, renamed_state, old, new) else ()


def renamed_state(data: JsonState, old: str, new: str) -> JsonState | None:
    """The stored state with every name ``old`` written ``new`` (None when none is)."""
    return rename_in_json(data, old, new)


def clock_stops(services: Services) -> tuple[ClockStop, ...]:
    """The times the Clock is Off (switches and rule 23 and 205 stops), as the rules take them."""
    config = services.clock.config
    stops: list[ClockStop] = []
    off_since = None if config.on_at_epoch else config.epoch
    for switch in config.switches:
        if not switch.on and off_since is None:
            off_since = switch.at
        elif switch.on and off_since is not None:
            stops.append(ClockStop(off_since, switch.at))
            off_since = None
    if off_since is not None:
        stops.append(ClockStop(off_since))
    return tuple(stops)


def deadline_of(services: Services, game: KnucklebonesGame) -> datetime | None:
    """When the participant to move forfeits; None while unknown (the Clock is Off)."""
    if game.notified_at is None:
        return None
    return forfeit_deadline(game.notified_at, clock_stops(services))


def board_text(
    session: Session, services: Services, game: KnucklebonesGame, proof: str = ""
) -> str:
    """The board mailed after each turn (``templates/knucklebones/board.txt.j2``)."""
    return services.templates.get_template("knucklebones/board.txt.j2").render(
        {
            "board": render_game(game, deadline=deadline_of(services, game)).rstrip("\n"),
            "roll_proof": proof,
        }
    )


def award_prize(
    session: Session, game: KnucklebonesGame, at: datetime, message_pk: int | None, source: str
) -> None:
    """Rule Knucklebones/Winning: the winner gains one Handy Pack and one Chip."""
    if game.outcome is None or game.outcome.winner is None:
        return
    cause = Cause(at, RULE_WINNING, f"won Knucklebones game {game.number}", source, message_pk)
    try:
        winner = find_player_by_name(session, game.outcome.winner)
    except ActionError:
        return  # the winner has forfeited since (rule 14): a Lost Soul gains nothing
    holder = player_holder(winner.id)
    for object_type in PRIZE_TYPES:
        objects.create(session, object_type, holder, cause, attributes={"game": game.number})


# -- the adapter -----------------------------------------------------------------------------


class KnucklebonesAdapter:
    prefix = NAME
    private_actions: frozenset[str] = frozenset()

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        self.state: KnucklebonesState | None = None
        self.boards: dict[int, Board] = {}

    def _loaded(self) -> KnucklebonesState:
        if self.state is None:
            self.state = load_state(self.session)
        return self.state

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        try:
            if turn.player is None:
                raise IllegalActionError("only players play Knucklebones", rule=RULE_COMMENCEMENT)
            if action.action == "knucklebones.intend":
                return self._intend(action, turn, turn.player.name)
            if action.action == "knucklebones.place":
                return self._place(action, turn, turn.player.name)
            raise IllegalActionError(f"no Knucklebones action {action.action}")
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )

    def _intend(self, action: ParsedAction, turn: Turn, player: str) -> Ruling:
        written = [str(name) for name in _list(action.args.get("opponents"))]
        opponents = tuple(find_player_by_name(self.session, name).name for name in written)
        if player in opponents:
            raise IllegalActionError(
                "nobody plays Knucklebones against emself", rule=RULE_COMMENCEMENT
            )
        mode = _mode(action.args.get("mode"), len(opponents))
        self.state, _events = apply(self._loaded(), StateIntent(player, opponents, mode))
        against = _against(opponents, mode)
        summary = f"intent stated to play Knucklebones {against}at the next Battle Phase"
        return applied(
            action.action, action.args, action.text, turn, summary, rule=RULE_COMMENCEMENT
        )

    def _place(self, action: ParsedAction, turn: Turn, player: str) -> Ruling:
        args = action.args
        placing = PlaceDie(
            player,
            int(str(args["column"])),
            game=_optional_int(args.get("game")),
            value=_optional_int(args.get("value")),
        )
        state, events = apply(self._loaded(), placing)
        number = _placed_game(events)
        game = state.game(number)
        draws: tuple[Mapping[str, Any], ...] = ()
        proof = ""
        if game.is_over:
            award_prize(
                self.session,
                game,
                turn.occurred_at,
                message_pk_of(self.session, turn.message_id),
                "post",
            )
        else:  # rule Knucklebones/Turn: "they must notify their opponent"
            state, rolled = notify(self.session, self.services, state, number, turn.occurred_at)
            game = state.game(number)
            draws = (rolled.record("knucklebones turn"),)
            proof = rolled.proof
        self.state = state
        self.boards[number] = Board(
            f"Knucklebones game {number}", board_text(self.session, self.services, game, proof)
        )
        summary = _placement_summary(game)
        return applied(action.action, args, action.text, turn, summary, rule=RULE_TURN, draws=draws)

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        """Rule 14: a Lost Soul states no intent and is no opponent (eir intents lapse).

        Eir running games go on without em: e can take no turn, so the
        24 hours of rule Knucklebones/Turn end each with eir opponent's win.
        """
        state = self._loaded()
        kept: list[Intent] = []
        for intent in state.intents:
            if intent.player == name:
                continue
            others = tuple(other for other in intent.opponents if other != name)
            if intent.opponents and not others:
                continue  # e was the only opponent it named
            kept.append(replace(intent, opponents=others))
        if tuple(kept) == state.intents:
            return Forfeited()
        self.state = replace(state, intents=tuple(kept))
        return Forfeited(notes=(f"{name}'s intents to play Knucklebones lapse",))

    def changed_boards(self) -> tuple[Board, ...]:
        return tuple(self.boards.values())

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def save(self) -> None:
        if self.state is not None:
            save_state(self.session, self.state)


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def _optional_int(value: object) -> int | None:
    return None if value is None else int(str(value))


def _mode(written: object, opponents: int) -> IntentMode | None:
    """The intent's mode; two or more opponents need one (rule Knucklebones/Commencement)."""
    if opponents < 2:
        return None
    if written == "each":
        return IntentMode.EACH
    if written == "one_of":
        return IntentMode.ONE_OF
    raise IllegalActionError(
        "naming several opponents, say whether you want one game against one of them "
        '("against one of Bob, Carol") or a game against each ("a game against each of '
        'Bob and Carol")',
        rule=RULE_COMMENCEMENT,
    )


def _against(written: Sequence[str], mode: IntentMode | None) -> str:
    if not written:
        return "against anyone "
    listed = ", ".join(written)
    if mode is IntentMode.EACH:
        return f"in a game against each of {listed} "
    if mode is IntentMode.ONE_OF:
        return f"in one game against one of {listed} "
    return f"against {listed} "


def _placed_game(events: Sequence[KnucklebonesEvent]) -> int:
    for event in events:
        number = getattr(event, "game", None)
        if isinstance(number, int):
            return number
    raise ValueError("a placement names its game")  # place_die always reports DiePlaced


def _placement_summary(game: KnucklebonesGame) -> str:
    shown = game
    last: LastTurn | None = shown.last_turn
    placed = "" if last is None else f"placed a {last.value} in column {last.column}"
    if last is not None and last.destroyed:
        placed += f", destroying {last.destroyed}"
    if shown.outcome is not None:
        winner = shown.outcome.winner
        result = f"{winner} wins" if winner else "no winner"
        first, second = shown.outcome.scores
        return f"game {game.number}: {placed}; the game is over, {first} to {second}, {result}"
    return f"game {game.number}: {placed}; {shown.player_to_move} is notified"


def knucklebones_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (KnucklebonesAdapter(session, services),)


# -- timed events ----------------------------------------------------------------------------


def midnights(after: datetime, until: datetime, interval_days: int) -> Iterator[datetime]:
    """The instants 00:00 UTC in ``(after, until]`` whose day is a Battle Phase's."""
    day = after.astimezone(UTC).date() + timedelta(days=1)
    while (instant := datetime.combine(day, time(), tzinfo=UTC)) <= until:
        if (day - datetime(1970, 1, 1, tzinfo=UTC).date()).days % interval_days == 0:
            yield instant
        day += timedelta(days=1)


def begin_battle_phases(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """Rule Knucklebones/Commencement: at each Battle Phase the paired intents start games."""
    interval = services.settings.section(NAME, KnucklebonesSettings).battle_interval_days
    for instant in midnights(after, until, interval):
        battle_phase(session, services, instant)


def battle_phases_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``begin_battle_phases`` next has something to do: the next Battle Phase's midnight."""
    interval = services.settings.section(NAME, KnucklebonesSettings).battle_interval_days
    # A Battle Phase falls within every ``interval`` days after ``after``.
    horizon = after + timedelta(days=interval + 1)
    return next(midnights(after, horizon, interval), None)


def battle_phase(session: Session, services: Services, at: datetime) -> None:
    state = load_state(session)
    if not state.intents:
        return  # nothing pairs and nothing lapses: the phases change nothing worth a row
    pairings = pending_pairings(state)
    context = f"knucklebones-battle-{at:%Y%m%d}@{services.settings.bot_domain}"
    orders = [draw(session, services, context, index, D2, at) for index in range(len(pairings))]
    state, events = apply(state, BeginBattlePhase(at, tuple(order.value for order in orders)))
    started = [event.game for event in events if isinstance(event, GameStarted)]
    boards: list[str] = []
    proofs = [order.proof for order in orders]
    for number in started:
        state, rolled = notify(session, services, state, number, at)
        proofs.append(rolled.proof)
        # The proof lines are listed once, below the boards.
        boards.append(board_text(session, services, state.game(number)))
    state, _events = apply(state, BeginRestPhase(at))
    save_state(session, state)
    if not started:
        return  # the intents lapsed unanswered (their rulings said when they would pair)
    session.add(
        compose_report(
            services,
            "knucklebones-battle",
            f"{at:%Y%m%d}",
            "[knucklebones] A Battle Phase: games start",
            "knucklebones/battle.txt.j2",
            {"boards": boards, "draws": proofs},
            at,
        )
    )


def forfeit_overdue_turns(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """Rule Knucklebones/Turn: 24 hours after the notification the participant forfeits."""
    state = load_state(session)
    stops = clock_stops(services)
    for game in state.running_games:
        # Every running game past its deadline, not only those of this interval:
        # a Clock stop can move a deadline after the scheduler first saw it.
        deadline = deadline_of(services, game)
        if deadline is None or deadline > until:
            continue
        state, _events = apply(state, ExpireTurn(game.number, deadline, stops))
        ended = state.game(game.number)
        award_prize(session, ended, deadline, None, "scheduler")
        save_state(session, state)
        session.add(
            compose_report(
                services,
                "knucklebones-forfeit",
                f"{game.number}",
                f"[knucklebones] Game {game.number}: a turn not taken in 24 hours",
                "knucklebones/forfeit.txt.j2",
                {"board": board_text(session, services, ended)},
                deadline,
            )
        )


def forfeits_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``forfeit_overdue_turns`` next has something to do: the first turn's deadline."""
    deadlines = (deadline_of(services, game) for game in load_state(session).running_games)
    return min((deadline for deadline in deadlines if deadline is not None), default=None)


# -- the view --------------------------------------------------------------------------------


def knucklebones_view(session: Session, services: Services, at: datetime | None = None) -> View:
    """Every game of Knucklebones, its board, and the intents of the Rest Phase."""
    state = load_state(session)
    boards = [render_game(game, deadline=deadline_of(services, game)) for game in state.games]
    intents = [intent.describe() for intent in state.intents]
    text = "\n".join(boards) or "no game of Knucklebones yet\n"
    if intents:
        text += "Intents for the next Battle Phase:\n" + "".join(f"  {i}\n" for i in intents)
    return View(text, state_to_json(state))


KNUCKLEBONES = Game(
    name=NAME,
    title="Knucklebones (seed 001)",
    adapters=knucklebones_adapters,
    areas=(knucklebones_area.AREA,),
    refereed_subgames=("knucklebones",),
    settings_type=KnucklebonesSettings,
    renames=(rename_in_knucklebones,),
    views=(StateView(NAME, "the games of Knucklebones and their boards", knucklebones_view),),
    timed_events=(
        # Seed 001's rules are unnumbered: rule 0 of the seed, ordered by rule 3 C
        # after seed 004's; the forfeits of a midnight come before its Battle Phase.
        TimedEvent(forfeit_overdue_turns, rule(0, seed=SEED), next_due=forfeits_due),
        TimedEvent(begin_battle_phases, rule(1, seed=SEED), next_due=battle_phases_due),
    ),
    private_actions=KnucklebonesAdapter.private_actions,
    templates=NAME,
)
