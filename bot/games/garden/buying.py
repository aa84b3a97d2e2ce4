"""Buying a Thorn Seed from the Store (rule 1911), as the Gardens see it.

Rule 1911: "Any player may Buy an object from the Store as a Game Action.
To do this, e must select any type of object in the Inventory and give a
quantity of tildex equal to the price of said object to the Store.  The
Store then creates an instance of that object type and gives it to the
purchasing player."  Of the Store's Inventory only the Thorn Seeds ("These
are defined by r1909") are the Gardens' objects: a Fruit held by the buyer.
"""

from __future__ import annotations

from bot.games.economy import Happening, Moment, Payment, PlayerKey, restore_invariants
from bot.games.errors import IllegalActionError
from bot.games.garden.actions import Outcome
from bot.games.garden.invariants import INVARIANTS
from bot.games.garden.plants import THORN_SEED
from bot.games.garden.state import GardenState

RULE_STORE = "1911"
THORN_SEED_PRICE = 130  # 1911: "Thorn Seeds: 130~"


def buy(state: GardenState, player: PlayerKey, kind: str, price: int, at: Moment) -> Outcome:
    """``player`` buys one ``kind`` for ``price`` tildex; the engine's ledger makes the
    payment.  Raises ``IllegalActionError`` for a kind that is not the Store's Fruit."""
    state.check_player(player)
    if kind != THORN_SEED.name:
        raise IllegalActionError(f"the Store sells no {kind} among the Fruits", rule=RULE_STORE)
    state = state.with_held_fruit(kind, player, at)
    made = f"{kind} {state.next_number - 1}"
    text = f"{player} bought {made} from the Store for {price}~"
    payment = Payment(player, -price, "tildex", RULE_STORE, f"{made} from the Store")
    state, restored = restore_invariants(state, at, INVARIANTS)
    return Outcome(state, (Happening(RULE_STORE, text), *restored), (payment,))
