"""Political Go under A Nomic's rules 365-377 (seed 002): the engine's shell.

Loads the game from the ``game`` table, judges each Go action with
``bot.games.go.anomic``, looks earlier configurations up in ``go_position``
(rule 368 a), breaks rule 369's ties with a recorded draw from the nweek's
committed seed (rule 9's dice seed, revealed when the nweek ends), and keeps
the points of Stone purchases and sales (rules 374, 377) in the ledger.

A game ends (rule 365) when a placement leaves no legal placement, or at the
start of an nweek after a whole nweek without a placement (``at_nweek_start``,
called by the scheduler); it is then scored (370) and cleared (371) and the
result is mailed to the list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from bot.config import GoSettings
from bot.engine import ledger
from bot.engine.forfeits import Forfeited
from bot.engine.games.go import board_disagreement
from bot.engine.not_yet import refusal_reason
from bot.engine.players import find_player_by_name
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.games import dice
from bot.games.errors import ActionError, IllegalActionError
from bot.games.go import anomic
from bot.games.lost_souls import is_lost_soul_label
from bot.parser import ParsedAction
from bot.store.models import GameRecord, GoPosition, Message

if TYPE_CHECKING:
    from bot.engine.services import Services

GAME_NAME = "go"
BOARD_TITLE = "Political Go (A Nomic rules 365-377)"
# Rules 374, 375, 377: buying, giving and selling Stones are not Go moves.
STONE_RULES = {"go.purchase": "374", "go.transfer": "375", "go.sell": "377"}
Handler = Callable[[ParsedAction, Turn], tuple[anomic.AnomicState, str]]


def parameters_from(
    settings: GoSettings, stored_size: int | None = None
) -> anomic.AnomicParameters:
    """The configured numbers; a game in progress keeps its board size."""
    return anomic.AnomicParameters(
        size=stored_size or settings.board_size,
        move_interval=settings.move_interval_hours * 3600,
        purchase_base=settings.purchase_base,
        sale_price=settings.sale_price,
        placement_uses_reserve=settings.placement_uses_reserve,
    )


def position_tag(game_number: int) -> str:
    """The ``go_position.game`` of one game: rule 368 a looks only within it."""
    return f"{GAME_NAME}-a#{game_number}"


# Built once: every placement runs both, and building the statement and its
# cache key anew cost more than running it (about 170 us against 110).
GAME_RECORD_QUERY = select(GameRecord).where(GameRecord.name == GAME_NAME)
EARLIER_BOARDS_QUERY = select(GoPosition.board, GoPosition.move_number).where(
    GoPosition.game == bindparam("game"), GoPosition.occupancy == bindparam("occupancy")
)


def load_state(
    session: Session, settings: GoSettings
) -> tuple[GameRecord | None, anomic.AnomicState]:
    record = session.scalar(GAME_RECORD_QUERY)
    if record is None or not record.state:
        return record, anomic.new_game(parameters_from(settings))
    stored_size = int(record.state["parameters"]["size"])
    state = anomic.state_from_json(record.state, parameters_from(settings, stored_size))
    if stored_size != settings.board_size and not _begun(state):
        # A board size changed by a rule change (docs/archive.md) applies to
        # each game begun after it; one with no move and no stone is not begun.
        state = _on_new_board(state, parameters_from(settings))
    return record, state


def _begun(state: anomic.AnomicState) -> bool:
    return state.move_number > 0 or any(state.board)


def _on_new_board(
    state: anomic.AnomicState, parameters: anomic.AnomicParameters
) -> anomic.AnomicState:
    """``state`` (a game not begun) on an empty board of ``parameters``' size."""
    empty = anomic.new_game(parameters)
    return state._replace(
        parameters=parameters, board=empty.board, key=empty.key, positions=empty.positions
    )


class StoredBoards:
    """Rule 368 a's history: this game's rows of ``go_position``."""

    def __init__(self, session: Session, state: anomic.AnomicState) -> None:
        self.session = session
        self.state = state

    def earlier(self, key: int, board: bytes) -> anomic.Earlier | None:
        rows = self.session.execute(
            EARLIER_BOARDS_QUERY,
            {"game": position_tag(self.state.game_number), "occupancy": f"{key:016x}"},
        )
        for row in rows:
            if anomic.marks_to_board(self.state, row.board) == board:
                return anomic.Earlier(row.move_number)
        return None


class AnomicGoAdapter:
    prefix = "go"
    private_actions: frozenset[str] = frozenset()

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        self.settings = services.settings.go
        self._record: GameRecord | None = None
        self._state: anomic.AnomicState | None = None
        self._saved_positions = 0
        self._saved_game = 0
        self.changed = False
        self.reports: list[str] = []
        self._proofs: list[str] = []
        self.last_draws: tuple[dice.Draw, ...] = ()
        self._draws: list[dict[str, Any]] = []

    @property
    def state(self) -> anomic.AnomicState:
        if self._state is None:
            self._record, self._state = load_state(self.session, self.settings)
            self._saved_game = self._state.game_number
            self._saved_positions = len(self._state.positions) if self._record else 0
        return self._state

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        assert turn.player is not None, "the engine only passes players' actions"
        handlers: dict[str, Handler] = {
            "go.place": self._place,
            "go.offer": self._offer,
            "go.accept": self._accept,
            "go.ally": self._ally,
            "go.withdraw": self._withdraw,
            "go.war": self._war,
            "go.break_alliance": self._war,
            "go.purchase": self._purchase,
            "go.transfer": self._transfer,
            "go.sell": self._sell,
        }
        handler = handlers.get(action.action)
        draws: list[dict[str, Any]] = []
        self._draws = draws
        self._effects: list[dict[str, Any]] = []
        try:
            if handler is None:
                raise IllegalActionError(
                    "A Nomic's Political Go has no pass: rule 368 lists the moves, and a "
                    "player who does not want to move simply makes none",
                    rule="368",
                )
            self._proofs = []
            state, summary = handler(action, turn)
            summary = " ".join([summary, *self._proofs])
        except ActionError as error:
            reason = refusal_reason(error, self.services.clock, turn.occurred_at)
            return rejected(action.action, action.args, action.text, turn, reason, error.rule)
        self._state, self.changed = state, True
        rule = STONE_RULES.get(action.action, "368")
        return applied(
            action.action,
            action.args,
            action.text,
            turn,
            summary,
            rule=rule,
            draws=tuple(draws),
            effects=tuple(self._effects),
        )

    # -- moves (rule 368) ------------------------------------------------

    def _context(self, turn: Turn) -> anomic.MoveContext:
        assert turn.player is not None
        return anomic.MoveContext(turn.player.name, int(turn.occurred_at.timestamp()), turn.nweek)

    def _draw_source(self, turn: Turn) -> dice.DrawSource:
        from bot.engine.scheduler import open_nweek

        open_nweek(self.session, self.services, turn.nweek, turn.occurred_at)
        seed = dice.nweek_seed(self.services.master_secret, turn.nweek)
        return dice.DrawSource(seed, f"{turn.message_id}#{turn.position}")

    def _place(self, action: ParsedAction, turn: Turn) -> tuple[anomic.AnomicState, str]:
        point = self.state.parameters.parse_point(str(action.args["point"]))
        source = self._draw_source(turn)
        history = StoredBoards(self.session, self.state)
        result = anomic.place_stone(
            self.state, self._context(turn), point, history=history, draws=source
        )
        self._record_draws(turn, source)
        self._effects.extend(point_effects(result.events, self.state))
        summary = self._describe(result.events)
        if action.args.get("capture_order"):
            summary += " (rule 369 captures every such Dragon at once, so no order is needed)"
        state = result.state
        if not anomic.placement_possible(state, StoredBoards(self.session, state)):
            state, ending = self._end(state, turn, "no legal placement is left (rule 365)")
            summary += f"; {ending}"
        return state, summary

    def _offer(self, action: ParsedAction, turn: Turn) -> tuple[anomic.AnomicState, str]:
        other = self._player(action)
        return self._move(anomic.offer_alliance, turn, other)

    def _accept(self, action: ParsedAction, turn: Turn) -> tuple[anomic.AnomicState, str]:
        return self._move(anomic.accept_alliance, turn, self._player(action))

    def _ally(self, action: ParsedAction, turn: Turn) -> tuple[anomic.AnomicState, str]:
        # "I form an alliance with Bob": accept Bob's open offer, else offer one.
        assert turn.player is not None
        other = self._player(action)
        if (other, turn.player.name) in self.state.offers:
            return self._move(anomic.accept_alliance, turn, other)
        return self._move(anomic.offer_alliance, turn, other)

    def _withdraw(self, action: ParsedAction, turn: Turn) -> tuple[anomic.AnomicState, str]:
        return self._move(anomic.withdraw_offer, turn, self._player(action))

    def _war(self, action: ParsedAction, turn: Turn) -> tuple[anomic.AnomicState, str]:
        return self._move(anomic.declare_war, turn, self._player(action))

    def _move(
        self,
        move: Callable[..., anomic.MoveResult],
        turn: Turn,
        other: str,
    ) -> tuple[anomic.AnomicState, str]:
        source = self._draw_source(turn)
        result = move(self.state, self._context(turn), other, draws=source)
        self._record_draws(turn, source)
        self._effects.extend(point_effects(result.events, self.state))
        return result.state, self._describe(result.events)

    # -- Stones as objects (rules 373-377) ---------------------------------

    def _purchase(self, action: ParsedAction, turn: Turn) -> tuple[anomic.AnomicState, str]:
        assert turn.player is not None
        count = int(str(action.args["count"]))
        held = ledger.balance(self.session, turn.player.id, "points")
        state, event = anomic.purchase_stones(self.state, turn.player.name, turn.nweek, count, held)
        if event.cost:
            self._ledger(turn, -event.cost, "374", f"bought {count} Go Stone(s)")
        return state, self._describe((event,)) + f" ({held - event.cost} points left)"

    def _transfer(self, action: ParsedAction, turn: Turn) -> tuple[anomic.AnomicState, str]:
        assert turn.player is not None
        recipient = self._player(action)
        count = int(str(action.args["count"]))
        state, event = anomic.transfer_reserve(self.state, turn.player.name, recipient, count)
        return state, self._describe((event,))

    def _sell(self, action: ParsedAction, turn: Turn) -> tuple[anomic.AnomicState, str]:
        assert turn.player is not None
        count = int(str(action.args["count"]))
        state, event = anomic.sell_captured(self.state, turn.player.name, count)
        if event.points:
            self._ledger(turn, event.points, "377", f"sold {count} Captured Stone(s)")
        return state, self._describe((event,))

    # -- the end (rules 365, 370, 371) ------------------------------------

    def _end(
        self, state: anomic.AnomicState, turn: Turn, reason: str
    ) -> tuple[anomic.AnomicState, str]:
        source = self._draw_source(turn)
        result = anomic.end_game(state, reason, source)
        self._record_draws(turn, source)
        self._effects.extend(point_effects(result.dead_captures, state, "captured at the end"))
        scored = state._replace(board=result.scored_board)
        self._effects.extend(
            {
                "game": GAME_NAME,
                "point": state.parameters.format_point(point),
                "change": "cleared (rule 371)",
                "owner": owner,
                "game_number": state.game_number,
            }
            for point, owner in sorted(scored.stones.items())
        )
        self.reports.append(describe_end(result, state))
        return result.state, f"the game ends: {reason}; " + short_result(result)

    def at_nweek_start(self, nweek: int, at: datetime, seed: bytes) -> anomic.EndResult | None:
        """Rule 365's second ending, checked as nweek ``nweek`` begins."""
        state = self.state
        if not anomic.quiet_nweek_passed(state, nweek):
            return None
        source = dice.DrawSource(seed, f"nweek-{nweek}-go-end")
        result = anomic.end_game(
            state, f"nweek {nweek} passed with no stone placed (rule 365)", source
        )
        self._state, self.changed = result.state, True
        self.last_draws = source.draws
        return result

    # -- administration ------------------------------------------------------

    @property
    def game_number(self) -> int | None:
        return self.state.game_number

    def set_up(self, owner: str, points: Sequence[str]) -> list[str]:
        """Put ``owner``'s stones on ``points`` without a move, and save."""
        parameters = self.state.parameters
        stones = {parameters.parse_point(point): owner for point in points}
        self._state, self.changed = anomic.with_stones(self.state, stones), True
        self.save()
        return [parameters.format_point(point) for point in stones]

    def rename_player(self, old: str, new: str) -> None:
        """Rule 151 earlier in this post: the state loaded before it follows the name."""
        if self._state is not None:
            self._state = anomic.renamed(self._state, old, new)

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        """Rule 14 of seed 004: ``name`` forfeited; eir Stones, alliances and offers go.

        ``anomic.forfeited`` keeps eir record under a Lost Soul label; the
        Board left is saved with the post as a configuration (rule 368 a).
        """
        state, lost = anomic.forfeited(self.state, name)
        if state == self.state:
            return Forfeited()
        self._state, self.changed = state, True
        if not lost.changed:
            return Forfeited()
        point = state.parameters.format_point
        effects = tuple(
            {
                "game": GAME_NAME,
                "point": point(where),
                "change": "removed (rule 14: its owner forfeited)",
                "owner": name,
                "game_number": state.game_number,
            }
            for where in lost.stones
        )
        return Forfeited((describe_forfeiture(lost, state.parameters),), effects)

    # -- plumbing ------------------------------------------------------------

    def _player(self, action: ParsedAction) -> str:
        return find_player_by_name(self.session, str(action.args["player"])).name

    def _record_draws(self, turn: Turn, source: dice.DrawSource) -> None:
        self._proofs = [
            dice.draw_proof(turn.nweek, source.context_id, draw) for draw in source.draws
        ]
        for draw in source.draws:
            self._draws.append(
                {"kind": "draw", "nweek": turn.nweek, "context": source.context_id} | draw.to_dict()
            )

    def _ledger(self, turn: Turn, amount: int, rule: str, note: str) -> None:
        assert turn.player is not None
        message_pk = self.session.scalar(
            select(Message.id).where(Message.message_id == turn.message_id)
        )
        ledger.record(
            self.session,
            turn.player.id,
            "points",
            amount,
            occurred_at=turn.occurred_at,
            message_pk=message_pk,
            source="post",
            rule=rule,
            note=note,
        )

    def _describe(self, events: Any) -> str:
        return "; ".join(describe_event(event, self.state.parameters) for event in events)

    def notes(self, visible_text: str) -> tuple[str, ...]:
        """A board drawn in the post that disagrees with the board after it."""
        if not self.changed or self._state is None:
            return ()
        state = self._state
        try:
            drawn = anomic.parse_diagram(visible_text, state.parameters)
        except ValueError:
            return ()
        if not drawn:
            return ()
        actual = {
            point: state.players[code - 1].mark for point, code in enumerate(state.board) if code
        }
        return board_disagreement(True, drawn, actual, state.parameters.format_point, "366")

    def changed_boards(self) -> tuple[Board, ...]:
        if not self.changed:
            return ()
        boards = [Board("Political Go: the game ended", report) for report in self.reports]
        boards.append(Board(BOARD_TITLE, render(self.state, self.settings)))
        return tuple(boards)

    def save(self) -> None:
        if not self.changed or self._state is None:
            return
        if self._record is None:
            self._record = GameRecord(name=GAME_NAME, state={}, version=0)
            self.session.add(self._record)
        state = self._state
        start = self._saved_positions if state.game_number == self._saved_game else 0
        for index, (key, board, move_number) in enumerate(state.positions):
            if index >= start:
                self.session.add(
                    GoPosition(
                        game=position_tag(state.game_number),
                        move_number=move_number,
                        occupancy=f"{key:016x}",
                        board=anomic.board_to_marks(state, board),
                        alliances=[],
                    )
                )
        self._record.state = anomic.state_to_json(state)
        self._record.version += 1
        self._saved_positions, self._saved_game = len(state.positions), state.game_number


def point_effects(
    events: Any, before: anomic.AnomicState, capture: str = "captured"
) -> list[dict[str, Any]]:
    """Which points a move changed, for ``nomicbot go history``."""
    point = before.parameters.format_point
    effects: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, anomic.StonePlaced):
            effects.append(
                {
                    "game": GAME_NAME,
                    "point": point(event.point),
                    "change": "placed",
                    "owner": event.player,
                    "game_number": before.game_number,
                }
            )
        elif isinstance(event, anomic.DragonCaptured):
            capturers = [share.player for share in event.shares if share.stones]
            effects.extend(
                {
                    "game": GAME_NAME,
                    "point": point(stone),
                    "change": capture,
                    "owner": before.owner_at(stone),
                    "by": capturers,
                    "game_number": before.game_number,
                }
                for stone in sorted(event.stones)
            )
    return effects


def render(state: anomic.AnomicState, settings: GoSettings) -> str:
    text = anomic.render_board(state, BOARD_TITLE)
    consul = settings.consul or "none named"
    return text + f"Go Consul: {consul}\n"


def describe_event(event: anomic.AnomicEvent, parameters: anomic.AnomicParameters) -> str:
    point = parameters.format_point
    match event:
        case anomic.StonePlaced(player, where, from_reserve):
            return f"{player} placed a stone at {point(where)}" + (
                " (a Reserve Stone, now In Play)" if from_reserve else ""
            )
        case anomic.DragonCaptured(stones, losses, shares, tie_order):
            dragon = " ".join(point(stone) for stone in sorted(stones))
            lost = ", ".join(f"{name} loses {count}" for name, count in losses)
            gained = (
                ", ".join(
                    f"{share.player} captures {share.stones} ({share.adjacent_stones} adjacent)"
                    for share in shares
                )
                or "nobody captures them"
            )
            tie = f"; tie broken by a recorded draw: {', '.join(tie_order)}" if tie_order else ""
            return f"the Dragon at {dragon} is captured (rule 369): {gained}; {lost}{tie}"
        case anomic.AllianceOffered(player, offeree):
            return f"{player} offers an alliance to {offeree}"
        case anomic.AllianceAccepted(player, offerer):
            return f"{player} accepts {offerer}'s offer: they are now allies"
        case anomic.OfferWithdrawn(player, offeree):
            return f"{player} withdraws eir alliance offer to {offeree}"
        case anomic.OffersVoided(player, offerers):
            return f"alliance offers to {player} from {', '.join(offerers)} are void (rule 368.2)"
        case anomic.WarDeclared(player, former):
            return f"{player} declares war on {former}: they are no longer allies"
        case anomic.StonesPurchased(player, count, cost, prices):
            each = " + ".join(map(str, prices))
            return f"{player} bought {count} Reserve Stone(s) for {cost} points ({each})"
        case anomic.StonesTransferred(player, recipient, count):
            return f"{player} gave {count} Reserve Stone(s) to {recipient} (rule 375)"
        case anomic.StonesSold(player, count, points):
            return f"{player} sold {count} Captured Stone(s) to the Bank for {points} points"
    raise AssertionError(f"unknown Go event {event!r}")


def describe_forfeiture(lost: anomic.Forfeiture, parameters: anomic.AnomicParameters) -> str:
    """What a forfeit took from rule set A's game, for the forfeit's ruling (rule 14)."""
    parts = []
    if lost.stones:
        points = ", ".join(parameters.format_point(point) for point in lost.stones)
        parts.append(
            f"eir Stones In Play at {points} leave the Board (rule 376; not a capture, "
            "rule 369 divides nothing)"
        )
    held = [
        f"{count} {kind}{'' if count == 1 else 's'}{after}"
        for count, kind, after in (
            (lost.reserve, "Reserve Stone", ""),
            (lost.captured, "Captured Stone", ""),
            (lost.captures, "Stone", " captured this game"),
        )
        if count
    ]
    if held:
        parts.append(f"e loses eir {', '.join(held)} (rules 373, 370)")
    if lost.allies:
        parts.append(f"eir alliance with {', '.join(lost.allies)} ends")
    if lost.offers:
        void = ", ".join(f"{first} to {second}" for first, second in lost.offers)
        one = len(lost.offers) == 1
        parts.append(
            f"the alliance offer{'' if one else 's'} {void} {'is' if one else 'are'} void (368.2)"
        )
    return "Political Go: " + "; ".join(parts)


def short_result(result: anomic.EndResult) -> str:
    scores = (
        ", ".join(f"{score.player} {score.total}" for score in result.scores) or "no Go players"
    )
    winners = " and ".join(result.winners) or "nobody"
    return f"Go scores {scores}; the winner: {winners} (rules 370, 365)"


def describe_end(result: anomic.EndResult, before: anomic.AnomicState) -> str:
    """The report of a finished game: scores, winners, and the board as scored."""
    scored = before._replace(board=result.scored_board)
    lines = [f"The game of Political Go ended: {result.reason}.", ""]
    for event in result.dead_captures:
        lines.append("Dead Dragon (rule 370): " + describe_event(event, before.parameters))
    lines.append("")
    lines.append("Go scores (rule 370: territory + captured Stones):")
    for score in result.scores:
        lines.append(
            f"  {score.player}: {score.territory} territory + {score.captures} captured"
            f" = {score.total}"
        )
    lines.append(f"Winner (rule 365): {' and '.join(result.winners) or 'nobody'}")
    lines.append("")
    lines.append("The board as scored:")
    lines.append(anomic.render_board(scored, BOARD_TITLE))
    lines.append(
        "Rule 371: each Go player received Captured Stones for eir territory and eir Stones "
        "In Play; the Board is cleared for the next game."
    )
    return "\n".join(lines)


def view(session: Session, services: Services) -> tuple[str, dict[str, Any]]:
    """``nomicbot state go``: the board and the data of the game.

    Item 13 of Trust II: the JSON holds all the next ruling reads: each
    record (the 19-hour limit, rule 374's purchases, being a Go player),
    offers, the last placer (368 c), what rule 365's ending reads, the
    Dragons left without Liberties (369), and a digest of the game's
    configurations (368 a).
    """
    from bot.engine.games.go import ko_history_summary

    _record, state = load_state(session, services.settings.go)
    parameters = state.parameters
    land = anomic.territories(state)
    in_game = [record for record in state.players if not is_lost_soul_label(record.name)]
    data = {
        "rules": "A",
        "size": parameters.size,
        "stones": {parameters.format_point(point): owner for point, owner in state.stones.items()},
        "alliances": sorted(sorted(pair) for pair in state.alliances),
        "offers": sorted([list(offer) for offer in state.offers]),
        # Rule 370's Go score if the game were scored now (dead Dragons aside).
        "scores": {
            record.name: record.captures + land.get(record.name, 0)
            for record in in_game
            if record.is_go_player
        },
        "stones_held": {
            record.name: {
                "reserve": record.reserve,
                "in_play": state.in_play(record.name),
                "captured": record.captured,
            }
            for record in in_game
        },
        "marks": {record.name: record.mark for record in in_game},
        # Every record as stored, a forfeit's (rule 14) included: its board code
        # keeps the superko log readable.
        "players": [
            record._asdict() | {"lost_soul": is_lost_soul_label(record.name)}
            for record in state.players
        ],
        "moves": state.move_number,
        "game": state.game_number,
        "last_placer": state.last_placer,
        "started_nweek": state.started_nweek,  # rule 365's ending
        "last_placement_nweek": state.last_placement_nweek,
        "breathless": sorted(parameters.format_point(point) for point in state.breathless),
        "superko_history": ko_history_summary(session, position_tag(state.game_number)),
        "consul": services.settings.go.consul,
    }
    return render(state, services.settings.go), data
