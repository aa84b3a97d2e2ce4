"""Field Matches refereed by mail (seeds 003 and 000): the engine's shell.

nomicbot is the Referee (the Minister of Play) of seed 003: it keeps the
public display of The Field, takes the Referee's selection of the Current
Field Match, and "Turns the Field whenever it receives an Invokable Action".
The state (``bot.games.field.FieldState``) lives in one ``game`` row named
"field", with every Turn's record and every match played.

Readings (the lead copies these to docs/readings.md):

* One post is one receipt of requests: every Invokable Action in a post is a
  request of ONE Turn of the Field (``TurnPerPostAdapter``), so B-Chess's
  "since the Field was last turned" prices and "one invokable action per
  Field Object per Turn" are judged across the whole post.  Selecting the
  Current Field Match is not an Invokable Action: it is judged where it
  stands, and the requests before and after it make separate Turns.
* A request the match cannot even form (no such square, no Cell there, a
  piece that is not yours) is refused without being a request of the Turn;
  a post with no request left causes no Turn.  A request the Turn refuses
  (its trigger is false) still caused the Turn, and the Turn is recorded.
* The Referee is the player named by ``[field_matches] referee`` as in force
  at the Turn's instant (a record may change it from an instant on,
  ``bot.engine.rule_changes``: every caller passes ``services.at(instant)``);
  nomicbot itself is the Referee for its console and its schedule (and is the only
  one when no player is named).  B-Chess Initialize's "Active Players" are
  the players not On Leave (rule 205), in roster order; Life's "each
  Player" (Teams, Tweak, the winners) is every player, On Leave or not:
  a Team is drawn for a player, which selects no player (rule 205).
* Draws come from the nweek's committed seed with the context
  ``Message-ID#position`` of the Turn's first request (``nweek-N-field-evolve``
  for the scheduled Evolve, ``console-turn-N`` for the console) and are
  published with ``[verify: ... draw-v1 ...]`` lines in the Turn's record.
* Macks are spent through the ledger (``holdings.spend``), one entry per
  paying request, naming the post and the rule; a refused request spends
  nothing.
* B-Chess's "I purchase a piece for N macks": the price is the rule's (ten
  times the player's earlier Purchases in the Turn), whatever N says; the
  ruling states what was paid.
* Checkmate is a Field action, judged in step 1 of a Turn: the capture of
  the last other King ends the match at the next Turn, i.e. the next post
  with a B-Chess request (the bot Turns the Field only on receiving one).
* When a match ends, "Win by Field Match" (seed 003) is reported with its
  trophy (a solid gold chalice engraved with the match's name) and the
  match's own Trophy; the Field is cleared and a new match may be selected.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import holdings, ledger
from bot.engine.clock import GameClock
from bot.engine.forfeits import Forfeited
from bot.engine.games.field_plays import MatchPlay, PlayedTurn, Spending, play_named, play_of
from bot.engine.players import active_players, all_players
from bot.engine.rulings import Board, PlayerRef, Ruling, Turn, applied, rejected
from bot.games import dice, ntime
from bot.games.errors import ActionError, IllegalActionError, utc_text
from bot.games.field import (
    RULE_FIELD_MATCHES,
    ActionRecord,
    FieldObject,
    FieldState,
    MatchEnding,
    PlayerId,
    Refusal,
    Request,
    TurnContext,
    TurnRecord,
    describe_turn,
    forfeited,
    renamed,
    state_from_json,
    state_to_json,
    turn_record_from_json,
    turn_record_to_json,
)
from bot.parser import ParsedAction
from bot.store.models import GameRecord

if TYPE_CHECKING:
    from bot.engine.services import Services

GAME_NAME = "field"
SELECT = "field.select"
RULE_WIN = "Win by Field Match (seed 003)"
CHALICE = "a solid gold chalice engraved with the name of the Field Match"
REPORT_KIND = "field-turn"
RULE_LENGTH = 50  # the width of action_log.rule


@dataclass(frozen=True)
class TurnOutcome:
    """A Turn the engine carried out: the match's result, its draws and its boards."""

    played: PlayedTurn
    context_id: str
    draws: tuple[dice.Draw, ...]
    boards: tuple[Board, ...]

    @property
    def record(self) -> TurnRecord:
        return self.played.result.record


class FieldGame:
    """The stored Field of one post (or one scheduled or console action).

    Loaded lazily from the ``game`` row; ``select`` and ``turn`` change it,
    ``save`` writes it back in the caller's transaction.
    """

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        self._row: GameRecord | None = None
        self._loaded = False
        self._state = FieldState()
        self.turns: list[dict[str, Any]] = []
        self.matches: list[dict[str, Any]] = []
        self.changed = False

    @property
    def state(self) -> FieldState:
        if not self._loaded:
            self._load()
        return self._state

    def _load(self) -> None:
        self._row = self.session.scalar(select(GameRecord).where(GameRecord.name == GAME_NAME))
        data = self._row.state if self._row is not None else {}
        if data:
            self._state = state_from_json(data["state"])
            self.turns = list(data["turns"])
            self.matches = list(data["matches"])
        self._loaded = True

    # -- who takes part ------------------------------------------------------

    @property
    def referee(self) -> PlayerId:
        """The Referee's name: the configured player's, else the bot's."""
        configured = " ".join(self.services.settings.field_matches.referee.split())
        if not configured:
            return self.services.settings.bot.name
        found = [p for p in all_players(self.session) if p.name.casefold() == configured.casefold()]
        return found[0].name if found else configured

    def is_referee(self, player: PlayerId) -> bool:
        return player.casefold() == self.referee.casefold()

    def context(self, nweek: int) -> TurnContext:
        """The Turn's context in zero-based Clock nweek ``nweek``, which it counts as displayed."""
        # Life's "each Player" is every player; B-Chess's "Active Player" one
        # Off Leave (rule 205): the one definition, ``players.active_players``.
        players = tuple(player.name for player in all_players(self.session))
        active = tuple(player.name for player in active_players(self.session))
        return TurnContext(nweek + 1, self.referee, players, active_players=active)

    # -- selecting the Current Field Match ----------------------------------

    def select(
        self, key: str, by: PlayerId, nweek: int, at: datetime, context_id: str
    ) -> tuple[str, tuple[dice.Draw, ...]]:
        """``by`` selects the match the parser calls ``key``; the summary and draws.

        Raises ``IllegalActionError`` (seed 003, "Field Matches") if ``by`` is
        not the Referee, the bot does not play that match, or one is current.
        """
        if not self.is_referee(by):
            raise IllegalActionError(
                f"only the Referee ({self.referee}) may choose the Current Field Match",
                rule=RULE_FIELD_MATCHES,
            )
        play = play_named(key)
        if play is None:
            raise IllegalActionError(
                f"nomicbot does not referee {key} yet", rule=RULE_FIELD_MATCHES
            )
        source = self.draw_source(nweek, at, context_id)
        result = play.start(self.state, self.context(nweek), source)
        self._state, self.changed = result.state, True
        self.matches.append(
            {
                "match": play.document.name,
                "selected_by": by,
                "selected_at": at.isoformat(),
                "first_turn": self._state.turn_number + 1,
                "ending": None,
            }
        )
        done = "; ".join(f"{record.action}: {record.summary}" for record in result.carried_out)
        summary = (
            f"{play.document.name} is now the Current Field Match "
            f"({self._state.geometry.describe()})" + (f"; {done}" if done else "")
        )
        return summary, source.draws

    # -- Turning the Field ---------------------------------------------------

    def turn(
        self,
        requests: Sequence[Request],
        nweek: int,
        at: datetime,
        context_id: str,
        source: Mapping[str, str],
    ) -> TurnOutcome:
        """Turn the Field once with ``requests``: record, pay, and build the boards.

        Raises ``IllegalActionError`` (seed 003) when there is no Current
        Field Match to turn.
        """
        play = play_of(self.state)
        if play is None:
            raise IllegalActionError(
                "there is no Current Field Match: the Referee selects one first",
                rule=RULE_FIELD_MATCHES,
            )
        context = self.context(nweek)
        random = self.draw_source(nweek, at, context_id)
        payers = {player.name: player.id for player in all_players(self.session)}
        macks = {
            name: ledger.balance(self.session, pid, holdings.MACKS) for name, pid in payers.items()
        }
        played = play.turn(self.state, context, requests, random, macks)
        self._state, self.changed = played.result.state, True
        self._pay(played, payers, at, source)
        self._remember(play, played, context_id, random.draws, at, source)
        boards = self._boards(play, played, context, random)
        return TurnOutcome(played, context_id, random.draws, boards)

    def draw_source(self, nweek: int, at: datetime, context_id: str) -> dice.DrawSource:
        # Rule 9: the nweek's seed is committed (published) before any draw from it.
        from bot.engine.scheduler import open_nweek

        open_nweek(self.session, self.services, nweek, at)
        return dice.DrawSource(dice.nweek_seed(self.services.master_secret, nweek), context_id)

    def _pay(
        self,
        played: PlayedTurn,
        payers: Mapping[PlayerId, int],
        at: datetime,
        source: Mapping[str, str],
    ) -> None:
        message_pk = holdings.message_pk_of(self.session, source.get("message_id", ""))
        number = played.result.record.number
        for spending in played.spendings:
            if spending.macks:
                holdings.spend(
                    self.session,
                    payers[spending.player],
                    holdings.MACKS,
                    spending.macks,
                    at=at,
                    rule=spending.rule,
                    note=f"{spending.note} (Turn {number} of the Field)",
                    source="post" if message_pk is not None else "scheduler",
                    message_pk=message_pk,
                )

    def _remember(
        self,
        play: MatchPlay,
        played: PlayedTurn,
        context_id: str,
        draws: Sequence[dice.Draw],
        at: datetime,
        source: Mapping[str, str],
    ) -> None:
        record = played.result.record
        self.turns.append(
            {
                "match": play.document.name,
                "at": at.isoformat(),
                "source": dict(source),
                "context": context_id,
                "record": turn_record_to_json(record),
                "draws": [draw.to_dict() for draw in draws],
                "spent": [
                    {"player": s.player, "macks": s.macks, "rule": s.rule, "note": s.note}
                    for s in played.spendings
                ],
            }
        )
        if record.ending is not None and self.matches:
            self.matches[-1]["ending"] = {
                "turn": record.number,
                "winners": list(record.ending.winners),
                "reason": record.ending.reason,
            }

    def _boards(
        self, play: MatchPlay, played: PlayedTurn, context: TurnContext, random: dice.DrawSource
    ) -> tuple[Board, ...]:
        record = played.result.record
        text = turn_text(record, played.spendings, random.context_id, random.draws)
        boards = [Board(f"Turn {record.number} of the Field", text)]
        final = played.result.final_position
        if record.ending is not None and final is not None:
            board = play.board(final, context.players)
            boards.append(Board(RULE_WIN, win_report(record.ending, play, board)))
        else:
            boards.append(Board(play.document.name, play.board(self.state, context.players)))
        return tuple(boards)

    def rename_player(self, old: str, new: str) -> None:
        """Rule 151 earlier in this post: the Field loaded before it follows the name."""
        if self._loaded:
            self._state = renamed(self._state, old, new)

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        """Rule 14 of seed 004: ``name`` forfeited; eir Field Objects and attributes go.

        ``bot.games.field.forfeited`` reads it; the Turns and matches already
        published keep eir name.  Saved with the post (or the caller).
        """
        state, lost = forfeited(self.state, name)
        if state == self._state:
            return Forfeited()
        self._state, self.changed = state, True
        if not lost.changed:
            return Forfeited()
        parts = []
        if lost.objects:
            pieces = ", ".join(_described_object(state, item) for item in lost.objects)
            parts.append(f"eir Field Objects leave the Field and its Priority List: {pieces}")
        if lost.attributes:
            parts.append(f"e loses eir player attributes {', '.join(lost.attributes)}")
        return Forfeited(("The Field (seed 003): " + "; ".join(parts),))

    # -- storage -------------------------------------------------------------

    def save(self) -> None:
        if not self.changed:
            return
        if self._row is None:
            self._row = GameRecord(name=GAME_NAME, state={}, version=0)
            self.session.add(self._row)
        self._row.state = {
            "state": state_to_json(self._state),
            "turns": list(self.turns),
            "matches": list(self.matches),
        }
        self._row.version += 1
        self.changed = False


class FieldAdapter:
    """The ``field.*`` actions of a post: the Referee's selection and one Turn of requests."""

    prefix = "field"
    # B-Chess and Life are played by "a public message to the forum".
    private_actions: frozenset[str] = frozenset()

    def __init__(self, session: Session, services: Services) -> None:
        self.game = FieldGame(session, services)
        self.boards: list[Board] = []

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        return self.apply_all([(action, turn)])[0]

    def apply_all(self, actions: Sequence[tuple[ParsedAction, Turn]]) -> list[Ruling]:
        """One ruling per action, in order; the requests between selections make one Turn."""
        rulings: list[Ruling] = []
        pending: list[tuple[ParsedAction, Turn]] = []
        for action, turn in actions:
            if action.action != SELECT:
                pending.append((action, turn))
                continue
            rulings.extend(self._requests(pending))
            pending = []
            rulings.append(self._select(action, turn))
        rulings.extend(self._requests(pending))
        return rulings

    def _select(self, action: ParsedAction, turn: Turn) -> Ruling:
        player = _player(turn)
        try:
            summary, draws = self.game.select(
                str(action.args["match"]),
                player.name,
                turn.nweek,
                turn.occurred_at,
                f"{turn.message_id}#{turn.position}",
            )
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )
        state = self.game.state
        play = play_of(state)
        assert play is not None
        context = self.game.context(turn.nweek)
        self.boards.append(Board(play.document.name, play.board(state, context.players)))
        proofs = [
            dice.draw_proof(turn.nweek, f"{turn.message_id}#{turn.position}", d) for d in draws
        ]
        return applied(
            action.action,
            action.args,
            action.text,
            turn,
            " ".join([summary, *proofs]),
            rule=RULE_FIELD_MATCHES,
            draws=_draw_data(turn.nweek, f"{turn.message_id}#{turn.position}", draws),
        )

    def _requests(self, pending: Sequence[tuple[ParsedAction, Turn]]) -> list[Ruling]:
        """Judge ``pending`` as the requests of one Turn of the Field."""
        if not pending:
            return []
        play = play_of(self.game.state)
        if play is None:
            return [_no_match(action, turn) for action, turn in pending]
        first = pending[0][1]
        context = self.game.context(first.nweek)
        rulings: dict[int, Ruling] = {}
        requests: list[tuple[int, Request]] = []
        for index, (action, turn) in enumerate(pending):
            try:
                request = play.request(
                    self.game.state, context, _player(turn).name, action.action, action.args
                )
            except ActionError as error:
                rulings[index] = rejected(
                    action.action, action.args, action.text, turn, error.message, error.rule
                )
                continue
            # The quote and its place make each request of the Turn distinct.
            quote = " ".join(action.text.split())
            requests.append((index, replace(request, text=f"action {turn.position}: {quote}")))
        if requests:
            rulings.update(self._turn(play, pending, requests, first))
        return [rulings[index] for index in range(len(pending))]

    def _turn(
        self,
        play: MatchPlay,
        pending: Sequence[tuple[ParsedAction, Turn]],
        requests: Sequence[tuple[int, Request]],
        first: Turn,
    ) -> dict[int, Ruling]:
        context_id = f"{first.message_id}#{first.position}"
        outcome = self.game.turn(
            [request for _, request in requests],
            first.nweek,
            first.occurred_at,
            context_id,
            {"kind": "post", "message_id": first.message_id},
        )
        self.boards.extend(outcome.boards)
        judged = judge_requests(outcome.record, [request for _, request in requests])
        spent = {spending.request: spending for spending in outcome.played.spendings}
        rulings: dict[int, Ruling] = {}
        for (index, request), result in zip(requests, judged, strict=True):
            action, turn = pending[index]
            if isinstance(result, Refusal):
                result = dated_refusal(result, self.game.services.clock)
            rulings[index] = _ruling(
                play, action, turn, request, result, spent.get(request), outcome
            )
        first_index = requests[0][0]
        rulings[first_index] = replace(
            rulings[first_index], draws=_draw_data(first.nweek, context_id, outcome.draws)
        )
        return rulings

    def changed_boards(self) -> tuple[Board, ...]:
        """The boards of the post; a board shown again later in the post shows only once."""
        last = {board.title: index for index, board in enumerate(self.boards)}
        return tuple(board for index, board in enumerate(self.boards) if last[board.title] == index)

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def rename_player(self, old: str, new: str) -> None:
        self.game.rename_player(old, new)

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        return self.game.forfeit_player(name, at)

    def save(self) -> None:
        self.game.save()


def judge_requests(record: TurnRecord, requests: Sequence[Request]) -> list[ActionRecord | Refusal]:
    """What became of each request of the Turn: its action carried out, or its refusal.

    Requests are distinct (their text names their place in the post); a
    request not refused was carried out, and the carried-out actions of
    equal invoker, action and object follow the requests' order.
    """
    refused = {refusal.request: refusal for refusal in record.refusals}
    remaining = [done for done in record.carried_out if done.invoker is not None]
    results: list[ActionRecord | Refusal] = []
    for request in requests:
        if request in refused:
            results.append(refused[request])
            continue
        done = next(
            item
            for item in remaining
            if (item.invoker, item.action, item.object_id)
            == (request.invoker, request.action, request.target)
        )
        remaining.remove(done)
        results.append(done)
    return results


def dated_refusal(refusal: Refusal, clock: GameClock) -> Refusal:
    """``refusal``, with the first nday and UTC date of the nweek it says to wait for.

    "... from nweek 4" becomes "... from nweek 4, nday 1 (2026-01-31 00:00 UTC)"
    (rule 3 A: an nweek begins at its first nday).
    """
    if refusal.from_nweek is None:
        return refusal
    begins = ntime.nday_start(clock.config, ntime.ClockReading(refusal.from_nweek - 1, 0))
    if begins is None:
        return refusal  # beyond a stop of the Clock not yet ended: no date to give
    return replace(refusal, message=f"{refusal.message}, nday 1 ({utc_text(begins)})")


def _ruling(
    play: MatchPlay,
    action: ParsedAction,
    turn: Turn,
    request: Request,
    result: ActionRecord | Refusal,
    spending: Spending | None,
    outcome: TurnOutcome,
) -> Ruling:
    number = outcome.record.number
    effects = (
        {
            "game": GAME_NAME,
            "match": play.document.name,
            "turn": number,
            "action": request.action,
            "object": request.target,
            "result": "refused" if isinstance(result, Refusal) else "carried out",
        },
    )
    if isinstance(result, Refusal):
        ruling = rejected(
            action.action,
            action.args,
            action.text,
            turn,
            f"{result.message} (Turn {number} of the Field)",
            result.rule[:RULE_LENGTH],
        )
        return replace(ruling, effects=effects)
    paid = f"; spent {spending.macks} macks" if spending is not None else ""
    summary = f"{result.action}: {result.summary}{paid} (Turn {number} of the Field)"
    rule = play.rule_of(request.action)[:RULE_LENGTH]
    return applied(
        action.action, action.args, action.text, turn, summary, rule=rule, effects=effects
    )


def _no_match(action: ParsedAction, turn: Turn) -> Ruling:
    return rejected(
        action.action,
        action.args,
        action.text,
        turn,
        "there is no Current Field Match: the Referee selects one first",
        RULE_FIELD_MATCHES,
    )


def _player(turn: Turn) -> PlayerRef:
    assert turn.player is not None, "the engine only passes players' actions"
    return turn.player


# -- texts -------------------------------------------------------------------


def describe_draw(draw: dice.Draw) -> str:
    """A draw in words; a choice among many options names its place instead of them all."""
    if draw.kind is not dice.DrawKind.CHOICE or len(draw.options) <= dice.proofs.LISTED_OPTIONS:
        return draw.describe()
    index = draw.result[0]
    return (
        f"{draw.purpose}: chose {draw.options[index]}, option {index + 1} of "
        f"{len(draw.options)} ({draw.options[0]} ... {draw.options[-1]}) (draw {draw.number})"
    )


def turn_text(
    record: TurnRecord, spendings: Iterable[Spending], context: str, draws: Sequence[dice.Draw]
) -> str:
    """A Turn as published: its record (seed 003's Priority List order), payments and draws."""
    lines = [describe_turn(record)]
    lines.extend(
        f"- {s.player} spent {s.macks} macks: {s.note} [{s.rule}]" for s in spendings if s.macks
    )
    if draws:
        # The record counts nweeks as displayed; the seed is the Clock's nweek - 1.
        lines.append("")
        lines.append(
            f'Recorded draws (context "{context}", from the committed seed of nweek '
            f"{record.nweek}):"
        )
        lines.extend(f"  {describe_draw(draw)}" for draw in draws)
        lines.extend(dice.draw_proof(record.nweek - 1, context, draw) for draw in draws)
    return "\n".join(lines)


def win_report(ending: MatchEnding, play: MatchPlay, final_board: str) -> str:
    """Seed 003's "Win by Field Match": the winners, the trophies, the last position."""
    winners = ", ".join(ending.winners) or "nobody"
    trophy = play.document.trophy or "none"
    return "\n".join(
        [
            f"{ending.match_name} has ended: {ending.reason}.",
            f"Winners (Win by Field Match, seed 003): {winners}.",
            f'Trophy: {CHALICE}, engraved "{ending.match_name}".',
            f"Trophy of {ending.match_name}: {trophy}",
            "All Field Objects are destroyed and the Priority List and The Field are cleared;"
            " the Referee may select a new Current Field Match.",
            "",
            "The last position:",
            final_board,
        ]
    )


def _draw_data(nweek: int, context: str, draws: Sequence[dice.Draw]) -> tuple[dict[str, Any], ...]:
    return tuple(
        {"kind": "draw", "nweek": nweek, "context": context} | draw.to_dict() for draw in draws
    )


# -- the console and the schedule act as Referee -------------------------------


@dataclass(frozen=True)
class RefereeReport:
    """What the bot did as Referee without a post, for the console and the list."""

    subject: str
    text: str
    turn: int | None


def referee_select(session: Session, services: Services, key: str, at: datetime) -> RefereeReport:
    """The bot, as Referee, selects the match ``key``; saved, and reported to the list.

    Raises ``IllegalActionError`` (seed 003) if a match is current or unknown.
    """
    game = FieldGame(session, services)
    nweek = services.clock.reading(at).nweek
    # A match is selected at most once per Turn number (ending one takes a Turn).
    context_id = f"console-select-{game.state.turn_number}"
    summary, draws = game.select(key, game.referee, nweek, at, context_id)
    game.save()
    play = play_of(game.state)
    assert play is not None
    board = play.board(game.state, game.context(nweek).players)
    proofs = [dice.draw_proof(nweek, context_id, draw) for draw in draws]
    text = "\n".join([summary, *proofs, "", board])
    report = RefereeReport(f"[field] {play.document.name} is the Current Field Match", text, None)
    _publish(session, services, f"select-{context_id}", report, at)
    return report


def referee_turn(
    session: Session,
    services: Services,
    action: str,
    at: datetime,
    context_id: str | None = None,
) -> RefereeReport:
    """The bot, as Referee, invokes ``action`` ("field.initialize", "field.evolve").

    The Turn is saved and reported to the list.  Raises ``ActionError`` when
    there is no Current Field Match or the match has no such action.
    """
    game = FieldGame(session, services)
    play = play_of(game.state)
    if play is None:
        raise IllegalActionError("there is no Current Field Match", rule=RULE_FIELD_MATCHES)
    nweek = services.clock.reading(at).nweek
    context = game.context(nweek)
    request = play.request(game.state, context, game.referee, action, {})
    number = game.state.turn_number + 1
    outcome = game.turn(
        [request], nweek, at, context_id or f"console-turn-{number}", {"kind": "referee"}
    )
    game.save()
    text = "\n\n".join(f"{board.title}:\n\n{board.text}" for board in outcome.boards)
    name = action.removeprefix("field.").capitalize()
    report = RefereeReport(
        f"[field] {play.document.name}: {name} by the Referee (Turn {number})", text, number
    )
    _publish(session, services, f"turn-{number}", report, at)
    return report


def _publish(
    session: Session, services: Services, key: str, report: RefereeReport, at: datetime
) -> None:
    from bot.outbound.compose import compose_report

    session.add(
        compose_report(
            services,
            REPORT_KIND,
            key,
            report.subject,
            "field/report.txt.j2",
            {"text": report.text},
            at,
        )
    )


# -- reading the stored Field ------------------------------------------------------


def stored_turns(session: Session, services: Services) -> list[dict[str, Any]]:
    """Every recorded Turn of the Field, oldest first, as stored."""
    game = FieldGame(session, services)
    _ = game.state
    return list(game.turns)


def describe_stored_turn(entry: Mapping[str, Any]) -> str:
    """One stored Turn as ``nomicbot field turns`` prints it."""
    record = turn_record_from_json(entry["record"])
    source = entry["source"]
    where = f"post <{source['message_id']}>" if "message_id" in source else "the Referee (nomicbot)"
    head = f"[{entry['match']}, {entry['at']}, by {where}]"
    return f"{head}\n{describe_turn(record)}"


def field_view(session: Session, services: Services) -> tuple[str, dict[str, Any]]:
    """``nomicbot state field``: the Current Field Match, its board and its Turns."""
    game = FieldGame(session, services)
    state = game.state
    play = play_of(state)
    players = game.context(0).players
    data: dict[str, Any] = {
        "match": None if state.match is None else state.match.name,
        "turn_count": state.turn_number,
        "turns_recorded": len(game.turns),
        "matches": game.matches,
        "priority_list": [],
        "objects": [],
        "player_attributes": {name: dict(found.items) for name, found in state.player_attributes},
        "field_attributes": dict(state.field_attributes.items),
        "next_object_id": state.next_object_id,
        # What the triggers ask about the past (Life's one Tweak an nweek,
        # B-Chess's "never invoked before"): the next Turn reads it.
        "history": [
            {
                "turn": record.turn,
                "nweek": record.nweek,
                "action": record.action,
                "invoker": record.invoker,
                "object": record.object_id,
            }
            for record in state.history
        ],
        "board": None,
    }
    if play is None or state.match is None:
        return f"No Current Field Match ({state.turn_number} Turns of the Field so far).", data
    geometry = state.geometry
    data["priority_list"] = list(state.priority_list)
    data["objects"] = [
        {
            "id": item.object_id,
            "kind": item.kind,
            "owner": item.owner,
            "square": None if item.square is None else geometry.format_square(item.square),
            "size": list(item.size),
            "attributes": dict(item.attributes.items),
        }
        for item in state.objects
    ]
    board = play.board(state, players)
    data["board"] = board
    text = f"{board}\nTurns of the Field so far: {state.turn_number}"
    return text, data


def _described_object(state: FieldState, item: FieldObject) -> str:
    """A Field Object as a forfeit's ruling names it: "King at D4", "Pawn (not placed)"."""
    if item.square is None or state.match is None:
        return f"{item.kind} (not placed)"
    return f"{item.kind} at {state.geometry.format_square(item.square)}"
