"""Go moves of A Nomic's Political Go (rules 367-369, seed 002), pure.

Rule 368 lists five moves: place a stone, offer an alliance, declare war on
an ally, accept an alliance, withdraw an offer.  Each function here takes the
state and a ``MoveContext`` and returns a ``MoveResult`` or raises
``IllegalActionError`` naming the rule.  There is no pass: rule 368 has none,
so a player who does not want to move simply makes no move.

Readings of the rules, as a fair referee would take them (also in
``docs/readings.md``):

* Dragons (367) are maximal sets of stones on connected vertices whose owners
  are pairwise the same player or allies: the same definition as B Nomic's
  1639 D, so ``bot.games.go.dragons`` computes them; with non-transitive
  alliances one stone can lie in several Dragons.
* A Dragon is *friendly* to a player when all its stones are that player's
  or eir allies'; otherwise it is unfriendly ("enemy", 368 b).
* 368 b looks at the Dragons the placement forms: the friendly ones through
  the new stone, and the unfriendly ones next to it that lose their last
  Liberty.  A placement that leaves a friendly one without Liberties is legal
  only if it also leaves such an unfriendly one without Liberties.
* 368 c "never place two stones consecutively": the most recent stone placed
  on the board in this game must not be the mover's.
* The 19-hour limit counts every move except accepting and withdrawing; two
  limited moves less than ``move_interval`` apart, in either order, are
  refused (posts are judged in arrival order, which may differ from their
  dates).
* 368.2 "any other move": an offer is void once the offeree makes any move
  other than accepting that offer, withdrawing and accepting other offers
  included.  Offers are to a Go player who is not already an ally, and a
  player may not offer to emself.
* Capture (369) follows every move, and takes every Dragon without Liberties
  that is unfriendly to the mover, all at once.  A Dragon friendly to the
  mover and without Liberties (possible after a war, or under 368 b's
  exception) stays until another player moves.  Stones in two captured
  Dragons are divided with the first (lowest vertex) of them.
* Division (369): the owners of stones next to the Dragon, other than stones
  captured in the same move, rank by how many such stones they have; whole
  rounds give everyone one Stone each, and the last, partial round goes down
  the ranking, with a recorded random order (``Shuffler``) only for the
  players tied across its cut.  Captured Stones become the capturer's
  Captured Stones (rule 373) and count for eir Go score (370).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NamedTuple, NoReturn, Protocol, TypeVar

from bot.games.errors import IllegalActionError, NotYetError
from bot.games.go.anomic.events import (
    AllianceAccepted,
    AllianceOffered,
    AnomicEvent,
    DragonCaptured,
    OffersVoided,
    OfferWithdrawn,
    StonePlaced,
    StoneShare,
    WarDeclared,
)
from bot.games.go.anomic.state import (
    AnomicState,
    GoPlayer,
    add_players,
    with_player,
)
from bot.games.go.anomic.superko import MAXIMUM_POINTS, ZOBRIST, BoardHistory, Earlier
from bot.games.go.dragons import (
    Board,
    Dragon,
    all_dragons,
    dead_group_of,
    dragons_through,
    has_liberty,
)
from bot.games.go.points import NEIGHBOURS, Point, neighbour_table
from bot.games.go.state import PlayerId

Item = TypeVar("Item")


class Shuffler(Protocol):
    """A recorded random source (``bot.games.dice.DrawSource`` is one)."""

    def shuffle(self, items: Sequence[Item], purpose: str) -> list[Item]: ...


@dataclass(frozen=True)
class MoveContext:
    """Who moves, when (seconds since the epoch), and in which nweek."""

    player: PlayerId
    at: int
    nweek: int = 0


class MoveResult(NamedTuple):
    """The state after a move, and what the move did.

    A named tuple rather than a dataclass: every placement builds one, and a
    tuple is built (and read) faster than an instance with a ``__dict__``.
    """

    state: AnomicState
    events: tuple[AnomicEvent, ...]


def place_stone(
    state: AnomicState,
    context: MoveContext,
    point: Point,
    *,
    history: BoardHistory | None = None,
    draws: Shuffler | None = None,
) -> MoveResult:
    """Rule 368.1: place a stone on ``point``, then capture (369).

    ``history`` holds configurations not in ``state.positions`` (the
    engine's stored ones); ``draws`` breaks rule 369's ties and may be None
    only when no tie needs breaking (``ValueError`` otherwise).

    Every replay runs this once per stone, so the common case is written
    out here: the state unpacked in one step, the checks in one test, the
    successor built as a tuple (see ``_new_tuple``), and no call that a
    subscript can do.
    """
    (
        parameters,
        before,
        players,
        alliances,
        offers,
        last_placer,
        move_number,
        game_number,
        started_nweek,
        _last_placement_nweek,
        breathless,
        key,
        positions,
        codes,
    ) = state
    player = context.player
    code = codes.get(player, 0)
    record = players[code - 1] if code else None
    last = None if record is None else record.last_limited_move_at
    interval = parameters.move_interval
    from_reserve = parameters.placement_uses_reserve
    if (
        record is None
        or not 0 <= point < len(before)
        or before[point]
        or (last is not None and -interval < context.at - last < interval)
        or last_placer == player
        or (from_reserve and record.reserve < 1)
    ):
        # A new player, or a refusal: _with_placer checks in the rule's order.
        state = _with_placer(state, context, point)
        players, codes = state.players, state.player_codes
        code = codes[player]
        record = players[code - 1]
    board = before[:point] + _STONE_BYTES[code] + before[point + 1 :]  # 2x bytearray's speed
    # Without Alliances every Dragon is a plain group; with nothing left
    # breathless by earlier moves, only the groups next to the stone can die.
    plain = not alliances and not breathless
    neighbours = NEIGHBOURS[parameters.size]
    if plain:
        doomed = _doomed_groups(board, point, code, neighbours)
    else:
        doomed = _doomed_dragons(state, board, point, code, neighbours)
    if doomed is None:
        _refuse_breathless(state, player, point)
    key ^= ZOBRIST[code][point]
    if from_reserve:
        events: tuple[AnomicEvent, ...] = (StonePlaced(player, point, True),)
    else:
        events = _PLACED[player][point] or _placed(player, point)
    if doomed:
        captured_board = bytearray(board)
        players, captures, key = _captured(state, captured_board, doomed, key, draws)
        board = bytes(captured_board)
        events += captures
        record = players[code - 1]
    move_number += 1
    if history is not None:
        _check_superko(state, history, key, board, player, point)
    recorded = positions.with_unseen_board(board, key, move_number)
    if recorded is None:
        _refuse_repeat(state, positions.earlier(key, board), player, point)
    # With plain groups, 368 b let the stone's group stand only with a Liberty
    # (369 freed one if it captured) and no other group lost one: none is left
    # breathless.  With Dragons, look.
    if not plain:
        breathless = _breathless(board, breathless | {point}, state.friendship, neighbours)
    # The placer becomes a Go player (365), eir 19 hours start (368) and, when
    # placements use them, a Reserve Stone goes In Play (376): the record
    # rebuilt field by field, which costs a fraction of ``_replace``.
    (
        name,
        mark,
        _was_go_player,
        reserve,
        captured,
        game_captures,
        _last,
        purchase_nweek,
        purchases,
    ) = record
    moved = _new_tuple(
        GoPlayer,
        (
            name,
            mark,
            True,
            reserve - 1 if from_reserve else reserve,
            captured,
            game_captures,
            context.at,
            purchase_nweek,
            purchases,
        ),
    )
    nweek = context.nweek
    successor = _new_tuple(
        AnomicState,
        (
            parameters,
            board,
            players[: code - 1] + (moved,) + players[code:],
            alliances,
            offers,
            player,
            move_number,
            game_number,
            nweek if started_nweek is None else started_nweek,
            nweek,
            breathless,
            key,
            recorded,
            codes,
        ),
    )
    result = _new_tuple(MoveResult, (successor, events))
    if offers and any(offeree == player for _, offeree in offers):
        result = _voiding_offers(result, player)
    return result


# The successor state of ``place_stone`` is built with ``tuple.__new__``, not
# ``AnomicState(...)`` or ``_replace``, which cost several times as much: the
# predecessor's fields with a few changed.  ``AnomicState.__new__`` does not
# run, so the successor keeps the players (by name, in order) whose
# ``player_codes`` it copies.
_new_tuple = tuple.__new__
_STONE_BYTES = tuple(bytes((code,)) for code in range(256))


class _PlacementEvents(dict[PlayerId, list[tuple[AnomicEvent, ...] | None]]):
    """Player -> ``(StonePlaced(player, point),)`` by point, each built on first use.

    Events are frozen values, so every placement alike shares one tuple, and
    two subscripts cost less than calling a cache.  Emptied when it holds
    ``limit`` players, so a daemon running for years keeps it bounded.
    """

    limit = 1024

    def __missing__(self, player: PlayerId) -> list[tuple[AnomicEvent, ...] | None]:
        if len(self) >= self.limit:
            self.clear()
        row: list[tuple[AnomicEvent, ...] | None] = [None] * MAXIMUM_POINTS
        self[player] = row
        return row


def _placed(player: PlayerId, point: Point) -> tuple[AnomicEvent, ...]:
    """The events of a placement not from the Reserve, first time for ``player`` and ``point``."""
    events: tuple[AnomicEvent, ...] = (StonePlaced(player, point),)
    _PLACED[player][point] = events
    return events


_PLACED = _PlacementEvents()


def _voiding_offers(result: MoveResult, player: PlayerId) -> MoveResult:
    """Rule 368.2: a placement is "any other move", so offers to the placer are void."""
    voided: list[AnomicEvent] = []
    state = _void_offers_to(result.state, player, voided)
    placed, *captures = result.events
    return MoveResult(state, (placed, *voided, *captures))


def offer_alliance(
    state: AnomicState, context: MoveContext, offeree: PlayerId, *, draws: Shuffler | None = None
) -> MoveResult:
    """Rule 368.2: offer an alliance to an enemy, named."""
    player = context.player
    state = add_players(state, [player])
    if offeree == player:
        raise IllegalActionError(f"{player} cannot offer an alliance to emself", rule="368")
    if not (state.has_player(offeree) and state.record_of(offeree).is_go_player):
        raise IllegalActionError(
            f"{offeree} is not a Go player (players become Go players by making a Go move), "
            f"so {player} cannot offer em an alliance",
            rule="365",
        )
    if state.are_allies(player, offeree):
        raise IllegalActionError(
            f"{player} and {offeree} are already allies; alliances are offered to enemies",
            rule="368",
        )
    if (player, offeree) in state.offers:
        raise IllegalActionError(
            f"{player} has already offered an alliance to {offeree}, and the offer is open",
            rule="368",
        )
    _check_interval(state, state.record_of(player), context, f"offer an alliance to {offeree}")
    state = _mark_limited_move(state, player, context)
    events: list[AnomicEvent] = []
    state = _void_offers_to(state, player, events)
    state = state._replace(offers=state.offers | {(player, offeree)})
    events.append(AllianceOffered(player, offeree))
    return _after_move(state, context, events, draws, alliances_changed=False)


def accept_alliance(
    state: AnomicState, context: MoveContext, offerer: PlayerId, *, draws: Shuffler | None = None
) -> MoveResult:
    """Rule 368.4: accept an open offer; not limited by the 19 hours."""
    player = context.player
    state = add_players(state, [player])
    if (offerer, player) not in state.offers:
        raise IllegalActionError(
            f"{player} has no open alliance offer from {offerer} to accept (an offer is "
            "void once its offeree makes another move, or once it is withdrawn)",
            rule="368",
        )
    events: list[AnomicEvent] = []
    state = _void_offers_to(state, player, events, keep=offerer)
    offers = state.offers - {(offerer, player), (player, offerer)}
    state = state._replace(
        offers=offers, alliances=state.alliances | {frozenset((player, offerer))}
    )
    state = with_player(state, state.record_of(player)._replace(is_go_player=True))
    events.append(AllianceAccepted(player, offerer))
    return _after_move(state, context, events, draws, alliances_changed=True)


def withdraw_offer(
    state: AnomicState, context: MoveContext, offeree: PlayerId, *, draws: Shuffler | None = None
) -> MoveResult:
    """Rule 368.5: withdraw an open offer; not limited by the 19 hours."""
    player = context.player
    state = add_players(state, [player])
    if (player, offeree) not in state.offers:
        accepted = state.are_allies(player, offeree)
        reason = "it was accepted" if accepted else "there is none open"
        raise IllegalActionError(
            f"{player} cannot withdraw an alliance offer to {offeree}: {reason}", rule="368.5"
        )
    events: list[AnomicEvent] = []
    state = _void_offers_to(state, player, events)
    state = state._replace(offers=state.offers - {(player, offeree)})
    state = with_player(state, state.record_of(player)._replace(is_go_player=True))
    events.append(OfferWithdrawn(player, offeree))
    return _after_move(state, context, events, draws, alliances_changed=False)


def declare_war(
    state: AnomicState, context: MoveContext, ally: PlayerId, *, draws: Shuffler | None = None
) -> MoveResult:
    """Rule 368.3: declare war on an ally; eir Stones are no longer friendly."""
    player = context.player
    state = add_players(state, [player])
    if not state.are_allies(player, ally):
        raise IllegalActionError(
            f"{player} cannot declare war on {ally}: they are not allies", rule="368.3"
        )
    _check_interval(state, state.record_of(player), context, f"declare war on {ally}")
    state = _mark_limited_move(state, player, context)
    events: list[AnomicEvent] = []
    state = _void_offers_to(state, player, events)
    state = state._replace(alliances=state.alliances - {frozenset((player, ally))})
    events.append(WarDeclared(player, ally))
    return _after_move(state, context, events, draws, alliances_changed=True)


def divide_stones(
    count: int,
    adjacent: Sequence[tuple[PlayerId, int]],
    draws: Shuffler | None,
    purpose: str,
) -> tuple[tuple[StoneShare, ...], tuple[PlayerId, ...]]:
    """Rule 369's division of ``count`` stones; also the tie order drawn, if any.

    ``adjacent`` is (player, adjacent stones), in any order.
    """
    if not adjacent:
        return (), ()
    if len(adjacent) == 1:  # one neighbour takes them all: nothing to rank, no tie
        ((name, stones),) = adjacent
        return (StoneShare(name, stones, count),), ()
    ranked = sorted(adjacent, key=lambda entry: (-entry[1], entry[0]))
    rounds, remainder = divmod(count, len(ranked))
    tie_order: tuple[PlayerId, ...] = ()
    if remainder and ranked[remainder - 1][1] == ranked[remainder][1]:
        tied_count = ranked[remainder][1]
        tied = [name for name, stones in ranked if stones == tied_count]
        if draws is None:
            raise ValueError(f"{purpose}: a tie needs a random draw and none was given")
        tie_order = tuple(draws.shuffle(tied, purpose))
        first = next(index for index, entry in enumerate(ranked) if entry[1] == tied_count)
        counts = dict(ranked)
        ranked[first : first + len(tied)] = [(name, counts[name]) for name in tie_order]
    shares = tuple(
        StoneShare(name, stones, rounds + (1 if rank < remainder else 0))
        for rank, (name, stones) in enumerate(ranked)
    )
    return shares, tie_order


def next_move_time(record: GoPlayer, interval: int) -> int | None:
    """When ``record``'s player may next make a limited move (None: now)."""
    if record.last_limited_move_at is None:
        return None
    return record.last_limited_move_at + interval


def _with_placer(state: AnomicState, context: MoveContext, point: Point) -> AnomicState:
    """``state`` (with a record for the placer) if rule 368 allows the placement so far.

    Checks the vertex, the 19 hours, 368 c and (when placements use them)
    rule 376's Reserve; 368 a and b need the board after the placement.
    """
    if not 0 <= point < len(state.board):
        raise ValueError(f"point {point} is off the board")
    player = context.player
    if state.board[point]:
        raise IllegalActionError(
            f"{player} cannot place a stone at {state.parameters.format_point(point)}: a stone "
            f"of {state.owner_at(point)} is there (a vertex holds a single Stone, and stones go "
            "on unoccupied vertices)",
            rule="368",
        )
    if player not in state.player_codes:
        state = add_players(state, [player])
    record = state.players[state.player_codes[player] - 1]
    parameters = state.parameters
    last = record.last_limited_move_at  # _too_soon, inlined: every placement asks it
    if last is not None and abs(context.at - last) < parameters.move_interval:
        _check_interval(
            state, record, context, f"place a stone at {parameters.format_point(point)}"
        )
    if state.last_placer == player:
        raise IllegalActionError(
            f"{player} cannot place a stone at {parameters.format_point(point)}: the last "
            "stone placed was eirs, and a Go player may never place two stones consecutively",
            rule="368 c",
        )
    if parameters.placement_uses_reserve and record.reserve < 1:
        raise IllegalActionError(
            f"{player} has no Reserve Stone to place at {parameters.format_point(point)} "
            "(buy one first: rule 374)",
            rule="376",
        )
    return state


def _refuse_breathless(state: AnomicState, player: PlayerId, point: Point) -> NoReturn:
    raise IllegalActionError(
        f"{player} cannot place a stone at {state.parameters.format_point(point)}: it would form "
        "a friendly Dragon with no liberties without also forming an enemy Dragon with none",
        rule="368 b",
    )


def _doomed_groups(
    board: Board, point: Point, code: int, neighbours: Sequence[tuple[Point, ...]]
) -> list[Dragon] | None:
    """Rules 368 b and 369 when every Dragon is a plain group (no Alliances).

    The enemy groups next to the new stone on ``point`` left without
    Liberties (to capture), or None when 368 b refuses the placement: the
    stone's own group would have none and no enemy group dies.
    """
    doomed: list[Dragon] = []
    breathing = False
    for other in neighbours[point]:
        stone = board[other]
        if not stone:
            breathing = True
        elif stone != code and not (doomed and _within_any(other, doomed)):
            # _dead_group, inlined: most enemy stones show a Liberty next to them.
            for beside in neighbours[other]:
                if not board[beside]:
                    break
            else:
                group = dead_group_of(board, other, neighbours)
                if group is not None:
                    doomed.append(group)
    if doomed or breathing or _dead_group(board, point, neighbours) is None:
        return doomed
    return None


def _dead_group(
    board: Board, start: Point, neighbours: Sequence[tuple[Point, ...]]
) -> Dragon | None:
    """``dead_group_of``, after a cheap look for a Liberty next to ``start``.

    Three searches in four on the KGS sample find one there and skip the flood fill.
    """
    for other in neighbours[start]:
        if not board[other]:
            return None
    return dead_group_of(board, start, neighbours)


def _within_any(point: Point, dragons: list[Dragon]) -> bool:
    return any(point in dragon for dragon in dragons)


def _doomed_dragons(
    state: AnomicState,
    board: Board,
    point: Point,
    code: int,
    neighbours: Sequence[tuple[Point, ...]],
) -> list[Dragon] | None:
    """Rules 368 b and 369 in general: like ``_doomed_groups``, for any Dragons.

    Besides the unfriendly Dragons next to the stone, those left breathless
    by earlier moves die too (but do not count for 368 b's exception).
    """
    friendship = state.friendship
    own = dragons_through(board, point, friendship, neighbours)
    own_dead = [dragon for dragon in own if not has_liberty(board, dragon, neighbours)]
    enemy_dead = _dead_unfriendly(
        board, _stones_next_to(board, point, neighbours, code), code, friendship, neighbours
    )
    if own_dead and not enemy_dead:
        return None
    leftover = _dead_unfriendly(board, state.breathless, code, friendship, neighbours)
    return _unique(enemy_dead + leftover)


def _captured(
    state: AnomicState, board: bytearray, doomed: list[Dragon], key: int, draws: Shuffler | None
) -> tuple[tuple[GoPlayer, ...], tuple[AnomicEvent, ...], int]:
    """Rule 369 on ``board``: the players' records, the capture events, the new key."""
    players = list(state.players)
    events: list[AnomicEvent] = []
    key = _capture(board, doomed, players, key, draws, state, events)
    return tuple(players), tuple(events), key


def _check_superko(
    state: AnomicState,
    history: BoardHistory,
    key: int,
    board: bytes,
    player: PlayerId,
    point: Point,
) -> None:
    """Rule 368 a: the board after the placement must be in neither log."""
    repeated = state.positions.earlier(key, board) or history.earlier(key, board)
    if repeated is not None:
        _refuse_repeat(state, repeated, player, point)


def _refuse_repeat(
    state: AnomicState, repeated: Earlier | None, player: PlayerId, point: Point
) -> NoReturn:
    """Rule 368 a's refusal: the placement would repeat the board after ``repeated``."""
    if repeated is None:
        raise ValueError("a placement is refused as a repeat only when the board was seen")
    when = "the start of the game" if repeated.move_number == 0 else f"move {repeated.move_number}"
    raise IllegalActionError(
        f"{player} cannot place a stone at {state.parameters.format_point(point)}: the board "
        f"would repeat its configuration after {when}",
        rule="368 a",
    )


def _too_soon(record: GoPlayer, context: MoveContext, interval: int) -> bool:
    """Rule 368: another limited move less than ``interval`` from eir last, either way."""
    last = record.last_limited_move_at
    return last is not None and abs(context.at - last) < interval


def _check_interval(state: AnomicState, record: GoPlayer, context: MoveContext, doing: str) -> None:
    interval = state.parameters.move_interval
    last = record.last_limited_move_at
    if last is None or not _too_soon(record, context, interval):
        return
    hours = interval / 3600
    raise NotYetError(
        f"{record.name} cannot {doing}: eir last Go move was at {_utc(last)}, and a Go player "
        f"may make no more than one Go move within {hours:g} hours",
        rule="368",
        again=f"{record.name} may make a Go move again",
        from_instant=datetime.fromtimestamp(last + interval, UTC),
    )


def _utc(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _mark_limited_move(state: AnomicState, player: PlayerId, context: MoveContext) -> AnomicState:
    record = state.record_of(player)._replace(is_go_player=True, last_limited_move_at=context.at)
    return with_player(state, record)


def _void_offers_to(
    state: AnomicState, player: PlayerId, events: list[AnomicEvent], keep: PlayerId | None = None
) -> AnomicState:
    voided = sorted(
        offerer for offerer, offeree in state.offers if offeree == player and offerer != keep
    )
    if not voided:
        return state
    events.append(OffersVoided(player, tuple(voided)))
    return state._replace(
        offers=frozenset(
            offer for offer in state.offers if offer[0] not in voided or offer[1] != player
        ),
    )


def _after_move(
    state: AnomicState,
    context: MoveContext,
    events: list[AnomicEvent],
    draws: Shuffler | None,
    *,
    alliances_changed: bool,
) -> MoveResult:
    """Rule 369 after a move that places no stone, then record the position."""
    neighbours = neighbour_table(state.parameters.size)
    friendship = state.friendship
    board = bytearray(state.board)
    code = state.player_codes[context.player]
    if alliances_changed:
        dead = [
            dragon
            for dragon in all_dragons(board, friendship, neighbours)
            if not has_liberty(board, dragon, neighbours)
        ]
    else:
        dead = _dead_dragons(board, state.breathless, friendship, neighbours)
    unfriendly = [dragon for dragon in dead if _is_unfriendly(board, dragon, code, friendship)]
    players = list(state.players)
    key = _capture(board, unfriendly, players, state.key, draws, state, events)
    remaining = frozenset(min(dragon) for dragon in dead if dragon not in unfriendly)
    breathless = _breathless(board, remaining, friendship, neighbours)
    moved = state._replace(board=bytes(board), players=tuple(players), breathless=breathless)
    return _finish(moved, context, key, events)


def _finish(
    state: AnomicState, context: MoveContext, key: int, events: list[AnomicEvent]
) -> MoveResult:
    move_number = state.move_number + 1
    started = state.started_nweek if state.started_nweek is not None else context.nweek
    positions = state.positions.with_board(state.board, key, move_number)
    return MoveResult(
        state._replace(
            key=key, move_number=move_number, started_nweek=started, positions=positions
        ),
        tuple(events),
    )


def _capture(
    board: bytearray,
    dragons: Sequence[Dragon],
    players: list[GoPlayer],
    key: int,
    draws: Shuffler | None,
    state: AnomicState,
    events: list[AnomicEvent],
) -> int:
    """Remove ``dragons`` from ``board`` (369), update ``players``; the new key."""
    if not dragons:
        return key
    neighbours = NEIGHBOURS[state.parameters.size]
    doomed = dragons[0] if len(dragons) == 1 else frozenset().union(*dragons)
    taken: set[Point] = set()
    for dragon in sorted(dragons, key=min):
        stones = dragon - taken
        if not stones:
            continue
        taken |= stones
        adjacent = _adjacent_owners(board, dragon, doomed, players, neighbours)
        # Only two owners or more can tie; the purpose names the draw's record.
        purpose = _tie_purpose(state, dragon) if len(adjacent) > 1 else "rule 369"
        shares, tie_order = divide_stones(len(stones), adjacent, draws, purpose)
        for share in shares:
            index = state.player_codes[share.player] - 1
            record = players[index]
            players[index] = record._replace(
                captured=record.captured + share.stones, captures=record.captures + share.stones
            )
        losses = _count_owners(board, stones, players)
        events.append(DragonCaptured(stones, losses, shares, tie_order))
    for point in taken:
        key ^= ZOBRIST[board[point]][point]
        board[point] = 0
    return key


def _tie_purpose(state: AnomicState, dragon: Dragon) -> str:
    return f"rule 369 tie for the Dragon at {state.parameters.format_point(min(dragon))}"


def _adjacent_owners(
    board: Board,
    dragon: Dragon,
    doomed: frozenset[Point],
    players: Sequence[GoPlayer],
    neighbours: Sequence[tuple[Point, ...]],
) -> list[tuple[PlayerId, int]]:
    """Rule 369: whose stones are next to ``dragon``, not counting those captured with it."""
    around = {other for point in dragon for other in neighbours[point] if board[other]}
    around -= doomed
    return list(_count_owners(board, around, players))


def _count_owners(
    board: Board, points: Iterable[Point], players: Sequence[GoPlayer]
) -> tuple[tuple[PlayerId, int], ...]:
    """(owner, stones) of the stones on ``points``, by name."""
    counts: dict[int, int] = {}
    for point in points:
        code = board[point]
        if code:
            counts[code] = counts.get(code, 0) + 1
    return tuple(sorted((players[code - 1].name, count) for code, count in counts.items()))


def _stones_next_to(
    board: Board, point: Point, neighbours: Sequence[tuple[Point, ...]], code: int
) -> list[Point]:
    return [other for other in neighbours[point] if board[other] and board[other] != code]


def _dead_dragons(
    board: Board,
    points: Iterable[Point],
    friendship: Sequence[frozenset[int]],
    neighbours: Sequence[tuple[Point, ...]],
) -> list[Dragon]:
    """Dragons without Liberties through any stone on ``points``."""
    found: list[Dragon] = []
    for point in points:
        if not board[point]:
            continue
        for dragon in dragons_through(board, point, friendship, neighbours):
            if dragon not in found and not has_liberty(board, dragon, neighbours):
                found.append(dragon)
    return found


def _dead_unfriendly(
    board: Board,
    points: Iterable[Point],
    code: int,
    friendship: Sequence[frozenset[int]],
    neighbours: Sequence[tuple[Point, ...]],
) -> list[Dragon]:
    return [
        dragon
        for dragon in _dead_dragons(board, points, friendship, neighbours)
        if _is_unfriendly(board, dragon, code, friendship)
    ]


def _is_unfriendly(
    board: bytearray | bytes, dragon: Dragon, code: int, friendship: Sequence[frozenset[int]]
) -> bool:
    friends = friendship[code]
    return any(board[point] not in friends for point in dragon)


def _breathless(
    board: Board,
    points: Iterable[Point],
    friendship: Sequence[frozenset[int]],
    neighbours: Sequence[tuple[Point, ...]],
) -> frozenset[Point]:
    return frozenset(min(dragon) for dragon in _dead_dragons(board, points, friendship, neighbours))


def _unique(dragons: list[Dragon]) -> list[Dragon]:
    seen: list[Dragon] = []
    for dragon in dragons:
        if dragon not in seen:
            seen.append(dragon)
    return seen
