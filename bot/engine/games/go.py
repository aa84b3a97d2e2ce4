"""Political Go (rule 1639 of seed 004): the engine's shell around ``bot.games.go``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from bot.engine import ledger
from bot.engine.clock import GameClock
from bot.engine.forfeits import Forfeited
from bot.engine.not_yet import refusal_reason
from bot.engine.players import all_players, find_player_by_name
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.games import go
from bot.games.errors import ActionError, IllegalActionError
from bot.games.lost_souls import lost_soul_label
from bot.parser import ParsedAction
from bot.store.models import GameRecord, GoPosition

if TYPE_CHECKING:
    from bot.engine.services import Services

GAME_NAME = "go"
BOARD_TITLE = "Political Go (rule 1639 H)"
UNKNOWN_UNDER_1639 = (
    "this game is played under B Nomic's rule 1639, whose Moves are placing a Stone, "
    "forming or breaking an Alliance, and passing; it has no Stones to buy, give, sell "
    "or withdraw offers of"
)
# Built once: a statement is immutable, and building it again for every
# post that loads the game cost as much as decoding the state.
GAME_RECORD_QUERY = select(GameRecord).where(GameRecord.name == GAME_NAME)
# Built once, as the game's record query: rule 1639 E asks it of every Move.
POSITIONS_QUERY = select(GoPosition.board, GoPosition.alliances, GoPosition.move_number).where(
    GoPosition.game == GAME_NAME, GoPosition.occupancy == bindparam("occupancy")
)


class GoAdapter:
    prefix = "go"
    private_actions: frozenset[str] = frozenset()

    def __init__(self, session: Session, size: int, clock: GameClock | None = None) -> None:
        self.session = session
        self.size = size
        # The board a new game gets: the size in force (a rule change, docs/archive.md);
        # a game in progress keeps its own, which ``size`` becomes once it is loaded.
        self.new_game_size = size
        self.clock = clock  # dates a refusal's "from the next Checking Period"
        self._record: GameRecord | None = None
        self._state: go.GoState | None = None
        self.changed = False

    @property
    def state(self) -> go.GoState:
        if self._state is None:
            self._record, self._state = load_game(self.session, self.size)
            self.size = self._state.parameters.size
        return self._state

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        assert turn.player is not None, "the engine only passes players' actions"
        # Rule 1639 B forms an alliance by two consents, so A Nomic's words
        # "offer" and "accept" are consents here, and "declare war" a break.
        moves: dict[str, Callable[[ParsedAction, go.MoveContext], go.MoveResult]] = {
            "go.place": self._place,
            "go.pass": self._pass,
            "go.ally": self._ally,
            "go.offer": self._ally,
            "go.accept": self._ally,
            "go.break_alliance": self._break,
            "go.war": self._break,
        }
        context = go.MoveContext(turn.player.name, turn.checking_period)
        try:
            move = moves.get(action.action)
            if move is None:
                raise IllegalActionError(UNKNOWN_UNDER_1639, rule="1639 C")
            before = self.state
            result = move(action, context)
        except ActionError as error:
            reason = refusal_reason(error, self.clock, turn.occurred_at)
            return rejected(action.action, action.args, action.text, turn, reason, error.rule)
        self._state, self.changed = result.state, True
        summary = "; ".join(describe_event(event, self.size) for event in result.events)
        return applied(
            action.action,
            action.args,
            action.text,
            turn,
            summary,
            rule="1639 C",
            effects=tuple(point_effects(result.events, before)),
        )

    def _place(self, action: ParsedAction, context: go.MoveContext) -> go.MoveResult:
        parameters = self.state.parameters
        point = parameters.parse_point(str(action.args["point"]))
        # Rule 1639 D: "the moving player may choose the order" of captures.
        named = action.args.get("capture_order", ())
        order = [parameters.parse_point(str(where)) for where in named]  # type: ignore[attr-defined]
        # Rule 1639 E: the ko check asks for earlier positions by occupancy.
        return go.place_stone(self.state, context, point, order, history=StoredHistory(self))

    def _pass(self, action: ParsedAction, context: go.MoveContext) -> go.MoveResult:
        return go.pass_move(self.state, context)

    def _ally(self, action: ParsedAction, context: go.MoveContext) -> go.MoveResult:
        ally = find_player_by_name(self.session, str(action.args["player"]))
        return go.consent_to_alliance(self.state, context, ally.name)

    def _break(self, action: ParsedAction, context: go.MoveContext) -> go.MoveResult:
        ally = find_player_by_name(self.session, str(action.args["player"]))
        return go.break_alliance(self.state, context, ally.name)

    def end_game(self, at: datetime) -> go.ScoreResult:
        """Rule 1639 G: score, credit the Nomic points, reset the board; saved.

        Only players receive Nomic points (rule 14): a forfeit removes the
        Lost Soul from the game, so a total of anyone else (a state kept from
        before forfeits did) is scored and credited to nobody, never a crash.
        """
        players = {player.name: player.id for player in all_players(self.session)}
        result = _only_players_paid(go.score_game(self.state), players)
        for player, points in result.nomic_points.items():
            ledger.record(
                self.session,
                players[player],
                "points",
                points,
                occurred_at=at,
                source="scheduler",
                rule="1639 G",
                note="Political Go: positive Go Points at the end of the game",
            )
        # The next game is played on the board size in force now (a rule change).
        self._state, self.changed = go.reset_game(self.state, self.new_game_size), True
        self.size = self.new_game_size
        self.save()
        return result

    @property
    def game_number(self) -> int | None:
        return None  # rule 1639 keeps one game going, reset in place (1639 G)

    def set_up(self, owner: str, points: Sequence[str]) -> list[str]:
        """Put ``owner``'s stones on ``points`` without a Move, and save."""
        parameters = self.state.parameters
        stones = {parameters.parse_point(point): owner for point in points}
        occupied = [parameters.format_point(point) for point in stones if self.state.board[point]]
        if occupied:
            raise ValueError(f"{', '.join(occupied)} already occupied")
        # ``with_stones`` sets the whole board: keep the stones already there.
        self._state, self.changed = go.with_stones(self.state, self.state.stones | stones), True
        self.save()
        return [parameters.format_point(point) for point in stones]

    def rename_player(self, old: str, new: str) -> None:
        """Rule 151 earlier in this post: the state loaded before it follows the name."""
        if self._state is not None:
            self._state = go.renamed(self._state, old, new)

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        """Rule 14: ``name`` forfeited; eir stones, Go Score, alliances and consents go.

        ``go.forfeited`` keeps eir record under a Lost Soul label; the stored
        ko positions' alliances follow it (rule 1639 E compares them), as
        they follow a rename.  Saved with the post.
        """
        code = self.state.player_codes.get(name)
        state, lost = go.forfeited(self.state, name)
        if code is None or state == self.state:
            return Forfeited()
        rename_in_positions(self.session, name, lost_soul_label(name, code))
        self._state, self.changed = state, True
        if not lost.changed:
            return Forfeited()
        effects = tuple(
            {
                "game": GAME_NAME,
                "point": go.format_point(point, self.size),
                "change": "removed (rule 14: its owner forfeited)",
                "owner": name,
            }
            for point in lost.stones
        )
        return Forfeited((describe_forfeiture(lost, self.size),), effects)

    def notes(self, visible_text: str) -> tuple[str, ...]:
        """Rule 1639 H: a board drawn in the post that disagrees with the result."""
        if not self.changed or self._state is None:
            return ()
        try:
            drawn = go.parse_board_diagram(visible_text)
        except ActionError:
            return ()
        state = self._state
        marks = {code: record.mark for code, record in enumerate(state.players, 1)}
        actual = {point: marks[code] for point, code in enumerate(state.board) if code}
        return board_disagreement(
            drawn.size == state.parameters.size,
            dict(drawn.marks),
            actual,
            lambda point: go.format_point(point, state.parameters.size),
            "1639 H",
        )

    def changed_boards(self) -> tuple[Board, ...]:
        if not self.changed:
            return ()
        return (Board(BOARD_TITLE, go.render_board(self.state, legend_names(self.state))),)

    def save(self) -> None:
        if not self.changed or self._state is None:
            return
        if self._record is None:
            self._record = GameRecord(name=GAME_NAME, state={}, version=0)
            self.session.add(self._record)
        # The ko history is appended to its own table, not rewritten with the
        # state: loaded states start with an empty history, so every position
        # in it now is new (rule 1639 E needs them all; issue 3 looks them up).
        self.session.add_all(position_rows(self._state))
        self._record.state = go.state_to_json(self._state, include_history=False)
        self._record.version += 1


def load_game(session: Session, size: int) -> tuple[GameRecord | None, go.GoState]:
    """The stored game, or a new one.

    Only the players in the game have a record and a mark: a player joins
    it by eir first Move or consent, or by being named in a consent (rule
    1639 H; Trust II: every registered player's mark ran out at 56).
    """
    record = session.scalar(GAME_RECORD_QUERY)
    if record is None:
        return record, go.new_game(go.GoParameters(size=size))
    return record, go.state_from_json(record.state)  # history: only what the JSON still holds


def _only_players_paid(result: go.ScoreResult, players: Iterable[str]) -> go.ScoreResult:
    """``result`` with no Nomic points for a total that is no player's (rule 14)."""
    current = set(players)
    totals = tuple(
        total if total.player in current else replace(total, nomic_points=0)
        for total in result.totals
    )
    return replace(result, totals=totals)


def legend_names(state: go.GoState) -> list[str]:
    """Rule 1639 H's legend: the players in the game, in the order they joined it.

    A forfeit's record (``go.is_retired``) is left out: it keeps its board
    code only for the ko history, and holds no stone, Go Score or Ally.
    """
    return [record.name for record in state.players if not go.is_retired(record)]


def rename_in_positions(session: Session, old: str, new: str) -> int:
    """Rule 1639 E compares alliances "in either state": earlier positions' follow the name.

    Only rule set B's rows (``game`` "go") hold alliances; A's hold none.
    Returns how many rows changed.
    """
    count = 0
    for row in session.scalars(select(GoPosition).where(GoPosition.game == GAME_NAME)):
        if any(old in pair for pair in row.alliances):
            # Sorted as ``bot.games.go.serialize`` writes them.
            renamed = (
                sorted(new if name == old else name for name in pair) for pair in row.alliances
            )
            row.alliances = sorted(renamed)
            count += 1
    return count


def describe_forfeiture(lost: go.Forfeiture, size: int) -> str:
    """What a forfeit took from rule set B's game, for the forfeit's ruling (rule 14)."""
    parts = []
    if lost.stones:
        points = ", ".join(go.format_point(point, size) for point in lost.stones)
        many = len(lost.stones) > 1
        parts.append(
            f"eir stone{'s' if many else ''} at {points} {'are' if many else 'is'} removed from "
            "the board (rule 1639 A: a Stone belongs to a player); not a capture, so no Go "
            "Points change hands (1639 D)"
        )
    if lost.score:
        parts.append(f"eir Go Score of {lost.score} is gone")
    if lost.allies:
        parts.append(f"eir alliance with {', '.join(lost.allies)} ends (1639 B)")
    if lost.consents:
        lapsed = ", ".join(f"{first} to {second}" for first, second in lost.consents)
        one = len(lost.consents) == 1
        parts.append(
            f"the pending consent{'' if one else 's'} {lapsed} laps{'es' if one else 'e'} (1639 C)"
        )
    return "Political Go: " + "; ".join(parts)


class StoredHistory:
    """The game's ko history (rule 1639 E): rows of ``go_position`` plus the
    positions this post has made and not yet saved."""

    def __init__(self, adapter: GoAdapter) -> None:
        self.session = adapter.session
        self.state = adapter.state

    def positions_with(self, occupancy: bytes) -> Iterable[go.PositionRecord]:
        yield from go.history_of(self.state).positions_with(occupancy)
        codes = {".": 0} | {record.mark: code for code, record in enumerate(self.state.players, 1)}
        rows = self.session.execute(POSITIONS_QUERY, {"occupancy": occupancy_key(occupancy)})
        for row in rows:
            alliances = frozenset(frozenset(pair) for pair in row.alliances)
            board = bytes(codes[mark] for mark in row.board)
            yield go.PositionRecord(board, alliances, row.move_number)


def position_rows(state: go.GoState) -> list[GoPosition]:
    rows = []
    for record in go.history_records(state):
        data = go.position_to_json(state, record)
        rows.append(
            GoPosition(
                game=GAME_NAME,
                move_number=data.get("move_number", state.move_number),
                occupancy=occupancy_key(record.board),
                board=data["board"],
                alliances=data["alliances"],
            )
        )
    return rows


def board_disagreement(
    same_size: bool,
    drawn: dict[int, str],
    actual: dict[int, str],
    name: Callable[[int], str],
    rule: str,
) -> tuple[str, ...]:
    """The note for a post whose own board differs from the board after it."""
    if same_size and drawn == actual:
        return ()
    if not same_size:
        detail = "it is not the size of the game's board"
    else:
        points = sorted(set(drawn) | set(actual))
        wrong = [
            f"{name(point)} shows {drawn.get(point, '.')}, is {actual.get(point, '.')}"
            for point in points
            if drawn.get(point) != actual.get(point)
        ]
        more = f" and {len(wrong) - 5} more" if len(wrong) > 5 else ""
        detail = "; ".join(wrong[:5]) + more
    return (
        "The board drawn in your post differs from the board after the moves it "
        f"describes ({detail}).  The moves described take precedence; the board after "
        f"this post is below (rule {rule}).",
    )


def describe_score(before: go.GoState, result: go.ScoreResult) -> str:
    """The report of a game ended by rule 1639 F and scored by 1639 G."""
    lines = [
        "The most recent Move was a Pass and no stone was placed for more than an nweek,",
        "so the game of Political Go has ended (rule 1639 F).  Scores (rule 1639 G):",
        "",
    ]
    for total in result.totals:
        lines.append(
            f"  {total.player}: Go Score {total.go_score} + territory {total.territory_points}"
            f" = {total.total}; Nomic points gained: {total.nomic_points}"
        )
    lines += ["", "The final board:", "", go.render_board(before, legend_names(before))]
    lines.append("The board, the alliances and every Go Score are now reset (rule 1639 G).")
    return "\n".join(lines)


def point_effects(events: Iterable[go.GoEvent], before: go.GoState) -> list[dict[str, Any]]:
    """Which points a Move changed, for ``nomicbot go history``."""
    size = before.parameters.size
    effects: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, go.StonePlaced):
            where = go.format_point(event.point, size)
            effects.append(
                {"game": GAME_NAME, "point": where, "change": "placed", "owner": event.player}
            )
        elif isinstance(event, go.DragonCaptured):
            capturers = [share.player for share in event.shares]
            effects.extend(
                {
                    "game": GAME_NAME,
                    "point": go.format_point(stone, size),
                    "change": "captured",
                    "owner": before.owner_at(stone),
                    "by": capturers,
                }
                for stone in sorted(event.stones)
            )
    return effects


def occupancy_key(board: bytes) -> str:
    """Which points hold a stone, as hex: the lookup key of a ko check."""
    bits = board.translate(_OCCUPANCY_DIGITS)  # b"0" for an empty point, b"1" for a stone
    return format(int(bits, 2), "x")


# Every board code to its occupancy digit: 0 (empty) to b"0", any owner to b"1".
_OCCUPANCY_DIGITS = b"0" + b"1" * 255


def describe_event(event: go.GoEvent, size: int) -> str:
    def point(value: int) -> str:
        return go.format_point(value, size)

    match event:
        case go.StonePlaced(player, where):
            return f"{player} placed a stone at {point(where)}"
        case go.DragonCaptured(stones, losses, shares):
            lost = ", ".join(f"{loss.player} loses {loss.stones}" for loss in losses)
            gained = ", ".join(f"{share.player} gains {share.points}" for share in shares)
            dragon = " ".join(point(stone) for stone in sorted(stones))
            return f"captured the Dragon at {dragon} (1639 D): Go Points: {gained}; {lost}"
        case go.AllianceConsented(player, ally):
            return (
                f"{player} consents to an alliance with {ally}; it forms when {ally} "
                "consents too (a first consent is not a Move)"
            )
        case go.AllianceFormed(player, ally):
            return f"{player} and {ally} are now allied"
        case go.AllianceBroken(player, ally):
            return f"{player} broke eir alliance with {ally}"
        case go.Passed(player):
            return f"{player} passed"
    raise AssertionError(f"unknown Go event {event!r}")


def go_view(session: Session, services: Services) -> tuple[str, dict[str, Any]]:
    """``nomicbot state go`` under rule set B: the board and everything the next ruling reads
    (``political_go.go_view`` shows either rule set).

    Item 13 of Trust II: besides the board, the JSON holds each player's
    record (rule 1639 C's one Move per Checking Period and its Ally bar read
    it), the pending consents (C), what rule 1639 F reads, and a digest of
    the ko history (E), so two games that would be judged differently never
    compare equal.  The text adds the pending consents when there are any.
    """
    _record, state = load_game(session, services.settings.go.board_size)
    size = state.parameters.size
    in_game = [state.record_of(name) for name in legend_names(state)]
    consents = sorted([list(pair) for pair in state.pending_consents])
    data = {
        "rules": "B",
        "size": size,
        "stones": {go.format_point(point, size): owner for point, owner in state.stones.items()},
        "alliances": sorted(sorted(pair) for pair in state.alliances),
        "pending_consents": consents,  # [consenter, other]: rule 1639 C's first consents
        "scores": {record.name: record.score for record in in_game},
        "marks": {record.name: record.mark for record in in_game},
        "players": [_record_data(record) for record in state.players],
        "moves": state.move_number,
        "last_mover": state.last_mover,
        "last_move_was_pass": state.last_move_was_pass,  # rule 1639 F
        "stones_quiet_since": state.stones_quiet_since,  # rule 1639 F, a Checking Period
        "ko_history": ko_history_summary(session, GAME_NAME),  # rule 1639 E
    }
    text = go.render_board(state, legend_names(state))
    if consents:
        listed = "; ".join(f"{first} to {second}" for first, second in consents)
        text += f"Pending consents to alliances (rule 1639 C): {listed}\n"
    return text, data


def _record_data(record: go.PlayerRecord) -> dict[str, Any]:
    return {
        "name": record.name,
        "mark": record.mark,
        "score": record.score,
        "last_move_number": record.last_move_number,
        "last_checking_period": record.last_checking_period,
        "lost_soul": go.is_retired(record),  # a forfeit's record (rule 14), kept for 1639 E
    }


def ko_history_summary(session: Session, game: str) -> dict[str, Any]:
    """How many earlier positions ``game`` keeps in ``go_position``, and a SHA-256 of them.

    The positions themselves can run to thousands; the digest changes with
    any of them, so equal views mean equal histories.
    """
    rows = session.execute(
        select(GoPosition.board, GoPosition.alliances, GoPosition.move_number).where(
            GoPosition.game == game
        )
    ).all()
    lines = sorted(
        json.dumps([row.board, row.alliances, row.move_number], ensure_ascii=False) for row in rows
    )
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    return {"positions": len(rows), "sha256": digest}
