"""Stones as objects: rules 373-377 of A Nomic (seed 002), pure.

Rule 373: Stones are Reserve, In Play or Captured, and new Stones are
Reserve.  A player's Reserve and Captured Stones are counts in eir
``GoPlayer`` record; In Play Stones are the board.  Points are not kept
here: ``purchase_stones`` says what the purchase costs and the caller debits
it from the points ledger (and refuses it when the points are not there);
``sell_captured`` says what the Bank pays.

Readings:

* Rule 374's n counts the Stones this player bought earlier in the same
  nweek, so buying k at once costs the sum of (5^n)-1 for the next k values
  of n (the first Stone of each nweek is free).
* Purchases, transfers and sales are not Go moves (rule 368 lists moves), so
  the 19-hour limit and offer voiding do not apply to them, and they do not
  make anyone a Go player.
"""

from __future__ import annotations

from bot.games.errors import IllegalActionError
from bot.games.go.anomic.events import StonesPurchased, StonesSold, StonesTransferred
from bot.games.go.anomic.state import AnomicState, add_players, with_player
from bot.games.go.state import PlayerId


def purchase_prices(
    state: AnomicState, player: PlayerId, nweek: int, count: int
) -> tuple[int, ...]:
    """Rule 374: the price of each of the next ``count`` Stones ``player`` buys."""
    bought = state.record_of(player).purchases_in(nweek) if state.has_player(player) else 0
    base = state.parameters.purchase_base
    return tuple(base ** (bought + index) - 1 for index in range(count))


def purchase_stones(
    state: AnomicState, player: PlayerId, nweek: int, count: int, points_available: int
) -> tuple[AnomicState, StonesPurchased]:
    """Rule 374: ``count`` new Reserve Stones, refused if the points fall short."""
    _check_count(count, "buy")
    state = add_players(state, [player])
    prices = purchase_prices(state, player, nweek, count)
    cost = sum(prices)
    if cost > points_available:
        raise IllegalActionError(
            f"{player} cannot buy {_stones(count)}: the price is {cost} points "
            f"({' + '.join(map(str, prices))}, (5^n)-1 for the n-th Stone bought this nweek) "
            f"and e has {points_available}",
            rule="374",
        )
    record = state.record_of(player)
    bought = record.purchases_in(nweek)
    state = with_player(
        state,
        record._replace(
            reserve=record.reserve + count, purchase_nweek=nweek, purchases=bought + count
        ),
    )
    return state, StonesPurchased(player, count, cost, prices)


def transfer_reserve(
    state: AnomicState, player: PlayerId, recipient: PlayerId, count: int
) -> tuple[AnomicState, StonesTransferred]:
    """Rule 375: Reserve Stones change owner at the owner's will."""
    _check_count(count, "give")
    if recipient == player:
        raise IllegalActionError(f"{player} cannot give Stones to emself", rule="375")
    state = add_players(state, [player, recipient])
    giver = state.record_of(player)
    if giver.reserve < count:
        raise IllegalActionError(
            f"{player} cannot give {_stones(count)} to {recipient}: e has "
            f"{giver.reserve} Reserve Stone{'s' if giver.reserve != 1 else ''}",
            rule="375",
        )
    state = with_player(state, giver._replace(reserve=giver.reserve - count))
    receiver = state.record_of(recipient)
    state = with_player(state, receiver._replace(reserve=receiver.reserve + count))
    return state, StonesTransferred(player, recipient, count)


def sell_captured(
    state: AnomicState, player: PlayerId, count: int
) -> tuple[AnomicState, StonesSold]:
    """Rule 377: sell Captured Stones to the Bank, which destroys them."""
    _check_count(count, "sell")
    held = state.record_of(player).captured if state.has_player(player) else 0
    if held < count:
        raise IllegalActionError(
            f"{player} cannot sell {count} Captured Stone{'s' if count != 1 else ''}: e has {held}",
            rule="377",
        )
    record = state.record_of(player)
    state = with_player(state, record._replace(captured=record.captured - count))
    return state, StonesSold(player, count, count * state.parameters.sale_price)


def _check_count(count: int, verb: str) -> None:
    if count < 1:
        raise IllegalActionError(
            f"cannot {verb} {count} Stones: the number must be positive", rule="373"
        )


def _stones(count: int) -> str:
    return f"{count} Stone{'s' if count != 1 else ''}"
