"""``apply(state, action) -> (state, events)``: the rules of Knucklebones (seed 001).

Each action either returns the new state and what happened, or raises an
``ActionError`` citing the rule that forbids it.  A value no rule allows (a
die showing 7, a missing turn-order draw) is a defect of the caller and
raises ``ValueError``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from bot.games.errors import AmbiguousActionError, IllegalActionError, NotYetError
from bot.games.knucklebones.actions import (
    BeginBattlePhase,
    BeginRestPhase,
    ExpireTurn,
    KnucklebonesAction,
    NotifyTurn,
    PlaceDie,
    StateIntent,
)
from bot.games.knucklebones.events import (
    DiceDestroyed,
    DiePlaced,
    GameEnded,
    GameStarted,
    IntentLapsed,
    IntentStated,
    KnucklebonesEvent,
    PhaseBegan,
    PrizeAwarded,
    TurnForfeited,
    TurnNotified,
)
from bot.games.knucklebones.intents import Pairing, make_intent, pair_intents, unpaired
from bot.games.knucklebones.matrix import check_die, is_full, with_die, without_value
from bot.games.knucklebones.rules import (
    PRIZE,
    RULE_COMMENCEMENT,
    RULE_TURN,
    RULE_WINNING,
)
from bot.games.knucklebones.state import (
    EndReason,
    Game,
    KnucklebonesState,
    LastTurn,
    Outcome,
    Phase,
    with_game,
)
from bot.games.knucklebones.timing import forfeit_deadline

Result = tuple[KnucklebonesState, tuple[KnucklebonesEvent, ...]]


def apply(state: KnucklebonesState, action: KnucklebonesAction) -> Result:
    """The state after ``action`` and the events it caused.

    Raises ``IllegalActionError``, ``AmbiguousActionError`` or
    ``NotYetError`` (each citing its rule) for an action the rules refuse,
    and ``ValueError`` for values no rule allows.
    """
    match action:
        case StateIntent():
            return state_intent(state, action)
        case BeginBattlePhase():
            return begin_battle_phase(state, action)
        case BeginRestPhase():
            return begin_rest_phase(state, action)
        case NotifyTurn():
            return notify_turn(state, action)
        case PlaceDie():
            return place_die(state, action)
        case ExpireTurn():
            return expire_turn(state, action)
        case _:
            assert_never(action)


def pending_pairings(state: KnucklebonesState) -> tuple[Pairing, ...]:
    """The games the intents would start now: one turn-order draw is needed for each."""
    return pair_intents(state.intents)


def state_intent(state: KnucklebonesState, action: StateIntent) -> Result:
    """Record an intent; refused outside a Rest Phase (rule Knucklebones/Commencement)."""
    if state.phase is not Phase.REST:
        raise IllegalActionError(
            "intentions to play Knucklebones are stated in a Rest Phase, and this is the "
            "Battle Phase; state it again when the next Rest Phase begins",
            rule=RULE_COMMENCEMENT,
        )
    intent = make_intent(state.next_intent_number, action.player, action.opponents, action.mode)
    changed = replace(state, intents=(*state.intents, intent), next_intent_number=intent.number + 1)
    return changed, (IntentStated(intent),)


def begin_battle_phase(state: KnucklebonesState, action: BeginBattlePhase) -> Result:
    """Start a game for every pairing, in order; unanswered intents lapse.

    Raises ``ValueError`` when not in a Rest Phase or when the draws are not
    one 1d2 per pairing.
    """
    if state.phase is not Phase.REST:
        raise ValueError("a Battle Phase begins only after a Rest Phase")
    pairings = pending_pairings(state)
    _check_draws(action.turn_order_draws, len(pairings))
    games = list(state.games)
    events: list[KnucklebonesEvent] = [PhaseBegan(Phase.BATTLE, action.at)]
    for pairing, draw in zip(pairings, action.turn_order_draws, strict=True):
        game = _started_game(len(games) + 1, pairing, draw, action)
        games.append(game)
        events.append(GameStarted(game.number, pairing, game.players, draw, action.at))
    # Reading: an intent is for the next Battle Phase only; unanswered, it lapses.
    events.extend(IntentLapsed(intent) for intent in unpaired(state.intents, pairings))
    changed = replace(state, phase=Phase.BATTLE, intents=(), games=tuple(games))
    return changed, tuple(events)


def begin_rest_phase(state: KnucklebonesState, action: BeginRestPhase) -> Result:
    """Open a Rest Phase for intents; raises ``ValueError`` if one is open already."""
    if state.phase is not Phase.BATTLE:
        raise ValueError("a Rest Phase begins only after a Battle Phase")
    return replace(state, phase=Phase.REST), (PhaseBegan(Phase.REST, action.at),)


def notify_turn(state: KnucklebonesState, action: NotifyTurn) -> Result:
    """Notify the participant to move and record eir 1d6.

    Raises ``IllegalActionError`` if the game is over or e was notified of
    this turn already.
    """
    game = _running_game(state, action.game)
    roll = check_die(action.roll)
    if game.roll is not None:
        raise IllegalActionError(
            f"{game.player_to_move} was already notified of this turn in game {game.number} "
            f"and rolled {game.roll}",
            rule=RULE_TURN,
        )
    notified = replace(game, roll=roll, notified_at=action.at)
    event = TurnNotified(game.number, game.player_to_move, roll, action.at)
    return with_game(state, notified), (event,)


def place_die(state: KnucklebonesState, action: PlaceDie) -> Result:
    """Insert the rolled die, destroy the opponent's matching dice, maybe end the game.

    Raises ``IllegalActionError`` (not eir turn, no such column, a full
    column, another value than rolled) or ``AmbiguousActionError`` (several
    games await em and the action does not say which).
    """
    game = _game_for_placement(state, action)
    assert game.roll is not None  # _game_for_placement checks it
    mover = game.to_move
    mine = with_die(game.matrices[mover], action.column, game.roll)
    theirs, destroyed = without_value(game.matrices[1 - mover], action.column, game.roll)
    player, opponent = game.players[mover], game.players[1 - mover]
    events: list[KnucklebonesEvent] = [DiePlaced(game.number, player, game.roll, action.column)]
    if destroyed:
        events.append(DiceDestroyed(game.number, opponent, game.roll, action.column, destroyed))
    matrices = (mine, theirs) if mover == 0 else (theirs, mine)
    played = replace(
        game,
        matrices=matrices,
        to_move=1 - mover,
        roll=None,
        notified_at=None,
        turns=game.turns + 1,
        last_turn=LastTurn(player, game.roll, action.column, destroyed),
    )
    if any(is_full(matrix) for matrix in matrices):
        played, ending = _ended(played, EndReason.FULL_MATRIX)
        events.extend(ending)
    return with_game(state, played), tuple(events)


def expire_turn(state: KnucklebonesState, action: ExpireTurn) -> Result:
    """The notified participant forfeits if 24 hours have passed (rule Knucklebones/Turn).

    Raises ``NotYetError`` (with the deadline) before then, and
    ``IllegalActionError`` if the game is over, nobody is notified, or the
    Clock is Off so that the hours are not running.
    """
    game = _running_game(state, action.game)
    if game.notified_at is None:
        raise IllegalActionError(
            f"nobody has been notified to take a turn in game {game.number} yet", rule=RULE_TURN
        )
    deadline = forfeit_deadline(game.notified_at, action.clock_stops)
    player = game.player_to_move
    if deadline is None:
        raise IllegalActionError(
            f"the Clock is Off, so {player}'s 24 hours in game {game.number} are not running",
            rule=RULE_TURN,
        )
    if action.at < deadline:
        raise NotYetError(
            f"{player}'s 24 hours to take eir turn in game {game.number} have not passed",
            rule=RULE_TURN,
            again=f"{player} forfeits game {game.number} if e has not taken it",
            from_instant=deadline,
        )
    forfeited = replace(game, roll=None)
    ended, ending = _ended(forfeited, EndReason.FORFEIT, forfeited_by=player)
    return with_game(state, ended), (TurnForfeited(game.number, player, action.at), *ending)


def _check_draws(draws: tuple[int, ...], pairings: int) -> None:
    if len(draws) != pairings:
        raise ValueError(f"{pairings} turn-order draws are needed, not {len(draws)}")
    if any(draw not in (1, 2) for draw in draws):
        raise ValueError(f"a turn-order draw is a 1d2, 1 or 2: {draws}")


def _started_game(number: int, pairing: Pairing, draw: int, action: BeginBattlePhase) -> Game:
    # Rule Knucklebones/Turn Order: "determined randomly", by the recorded 1d2.
    players = (pairing.first, pairing.second) if draw == 1 else (pairing.second, pairing.first)
    return Game(number=number, players=players, started_at=action.at)


def _running_game(state: KnucklebonesState, number: int) -> Game:
    game = state.game(number)
    if game.is_over:
        raise IllegalActionError(
            f"Knucklebones game {number} ({game.players[0]} v {game.players[1]}) is over",
            rule=RULE_WINNING,
        )
    return game


def _game_for_placement(state: KnucklebonesState, action: PlaceDie) -> Game:
    if action.game is not None:
        game = _running_game(state, action.game)
        game.index_of(action.player)
        _check_turn(game, action)
        return game
    waiting = state.awaiting(action.player)
    if action.value is not None and len(waiting) > 1:
        waiting = tuple(game for game in waiting if game.roll == action.value) or waiting
    if not waiting:
        raise _not_your_turn(state, action)
    if len(waiting) > 1:
        numbers = ", ".join(str(game.number) for game in waiting)
        raise AmbiguousActionError(
            f"it is {action.player}'s turn in games {numbers} of Knucklebones; say which game",
            rule=RULE_TURN,
        )
    _check_turn(waiting[0], action)
    return waiting[0]


def _check_turn(game: Game, action: PlaceDie) -> None:
    if game.player_to_move != action.player:
        raise IllegalActionError(
            f"it is not {action.player}'s turn in Knucklebones game {game.number}: "
            f"it is {game.player_to_move}'s",
            rule=RULE_TURN,
        )
    if game.roll is None:
        # The die is rolled with the notification, so there is nothing to place yet.
        raise IllegalActionError(
            f"{action.player} has not been notified of eir turn in Knucklebones game "
            f"{game.number} yet, and eir die is rolled with the notification",
            rule=RULE_TURN,
        )
    if action.value is not None and action.value != game.roll:
        raise IllegalActionError(
            f"{action.player}'s die in Knucklebones game {game.number} shows {game.roll}, "
            f"not {action.value}",
            rule=RULE_TURN,
        )


def _not_your_turn(state: KnucklebonesState, action: PlaceDie) -> IllegalActionError:
    games = state.games_of(action.player)
    if not games:
        reason = f"{action.player} is in no running game of Knucklebones"
    else:
        turns = ", ".join(f"game {game.number}: {game.player_to_move}'s turn" for game in games)
        reason = f"it is not {action.player}'s turn in any game of Knucklebones ({turns})"
    return IllegalActionError(reason, rule=RULE_TURN)


def _ended(
    game: Game, reason: EndReason, *, forfeited_by: str | None = None
) -> tuple[Game, tuple[KnucklebonesEvent, ...]]:
    scores = game.scores
    if forfeited_by is not None:
        # Rule Knucklebones/Turn: "the their opponent wins", whatever the scores.
        winner: str | None = game.opponent_of(forfeited_by)
    else:
        winner = _higher_scorer(game.players, scores)
    outcome = Outcome(reason, winner, scores, forfeited_by)
    events: list[KnucklebonesEvent] = [GameEnded(game.number, reason, winner, scores)]
    if winner is not None:
        events.append(PrizeAwarded(game.number, winner, PRIZE))
    return replace(game, outcome=outcome, notified_at=None), tuple(events)


def _higher_scorer(players: tuple[str, str], scores: tuple[int, int]) -> str | None:
    # Rule Knucklebones/Winning: "If the participants have the same score, the
    # game ends without a winner."
    if scores[0] == scores[1]:
        return None
    return players[0] if scores[0] > scores[1] else players[1]
