"""Buying from the Store (rule 1911), and the settings an admin record changes.

Rule 1911: "Any player may Buy an object from the Store as a Game Action.
To do this, e must select any type of object in the Inventory and give a
quantity of tildex equal to the price of said object to the Store.  The
Store then creates an instance of that object type and gives it to the
purchasing player."  So a purchase is one conversion (``convert``): nothing
destroyed, the instance created and given, the price paid from the buyer to
the Store, which holds tildex as any holder does (rule 21 A.2's Twiddler
shows them).  Buying several at once is that many purchases in one ruling.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.economy import Conversion, Happening, Moment, Payment, PlayerKey, convert
from bot.games.errors import IllegalActionError
from bot.games.garden import Fruit, GardenState
from bot.games.store.inventory import WATER_JET, Article
from bot.games.store.rules import RULE_ARENA, RULE_STORE, STORE_HOLDER
from bot.games.store.state import Outcome, StoreState, check_holder, created, labels

MAXIMUM_QUANTITY = 100  # a sanity bound on one post's purchase, not a rule


def price_for(store: StoreState, article: Article, player: PlayerKey, *, new_player: bool) -> int:
    """What ``player`` pays for one ``article``: a New Player's first Water Jet is free.

    Rule 1911: "Water Jet: 200~ or free to New Players"; rule 1912: "New
    Players are given a Water Jet automatically".  One Water Jet is free to a
    New Player, the one 1912 gives (``welcome``) or, if e has not had it, the
    first e buys (docs/readings.md).
    """
    free = article.free_to_new_players and new_player and player not in store.free_water_jets
    return 0 if free else article.listed_price


def buy(
    store: StoreState,
    gardens: GardenState,
    player: PlayerKey,
    kind: str,
    at: Moment,
    *,
    quantity: int = 1,
    new_player: bool = False,
) -> Outcome:
    """``player`` Buys ``quantity`` objects of type ``kind`` from the Store.

    ``new_player``: the engine's word that ``player`` is a New Player.  The
    engine's ledger makes the payments and refuses the purchase whole when
    the buyer cannot pay (rule 21: never below zero).  Raises
    ``IllegalActionError`` for a type not on the Inventory or a quantity
    below one.
    """
    check_holder(gardens, player)
    article = store.inventory.on_sale(kind)
    if not 1 <= quantity <= MAXIMUM_QUANTITY:
        raise IllegalActionError(
            f"one buys 1 to {MAXIMUM_QUANTITY} objects at once", rule=RULE_STORE
        )
    free = int(price_for(store, article, player, new_player=new_player) < article.listed_price)
    if free:
        store = replace(store, free_water_jets=(*store.free_water_jets, player))
    total = (quantity - free) * article.listed_price
    payments = _payments(player, total, article, quantity)
    conversion = Conversion(RULE_STORE, (), ((article.name, player),) * quantity, payments)
    first = gardens.next_number  # one series for the Gardens' objects and these
    if article.fruit:
        # A Thorn Seed, "defined by r1909": a Fruit, held in the Gardens.
        gardens = convert(
            gardens, conversion, (), lambda g, objects: _with_held_fruit(g, objects, at)
        )
        made = ", ".join(fruit.label() for fruit in gardens.fruits[-quantity:])
    else:
        store = convert(store, conversion, (), lambda s, objects: s.with_items(objects, at, first))
        gardens = replace(gardens, next_number=first + quantity)
        made = labels(store.items[-quantity:])
    text = f"{player} bought {_count(article, quantity)} from the Store for {total}~: {made}"
    if free:
        text += " (one Water Jet is free to a New Player)"
    return Outcome(store, gardens, (Happening(RULE_STORE, text),), payments)


def welcome(store: StoreState, gardens: GardenState, player: PlayerKey, at: Moment) -> Outcome:
    """Rule 1912: "New Players are given a Water Jet automatically", the one 1911 makes
    "free to New Players".  A player already given eir free Water Jet gets nothing more."""
    check_holder(gardens, player)
    if player in store.free_water_jets:
        return Outcome(store, gardens)
    store = replace(store, free_water_jets=(*store.free_water_jets, player))
    store, gardens, made = created(store, gardens, ((WATER_JET.name, player),), at)
    text = f"{player}, a New Player, is given a Water Jet: {made}"
    return Outcome(store, gardens, (Happening(RULE_ARENA, text),))


def _payments(
    player: PlayerKey, total: int, article: Article, quantity: int
) -> tuple[Payment, ...]:
    if not total:
        return ()
    reason = f"buying {_count(article, quantity)}"
    return (
        Payment(player, -total, "tildex", RULE_STORE, reason),
        Payment(STORE_HOLDER, total, "tildex", RULE_STORE, f"{player} {reason}"),
    )


def _with_held_fruit(
    gardens: GardenState, made: tuple[tuple[str, PlayerKey], ...], at: Moment
) -> GardenState:
    """New Fruit held by their buyers: bought, not picked, so rule 1902 B's five are no bar."""
    first = gardens.next_number
    fruits = tuple(
        Fruit(first + offset, kind, at, holder=holder) for offset, (kind, holder) in enumerate(made)
    )
    return replace(gardens, fruits=(*gardens.fruits, *fruits), next_number=first + len(made))


def _count(article: Article, quantity: int) -> str:
    return f"a {article.name}" if quantity == 1 else f"{quantity} {article.plural}"


# -- the settings an admin record changes (rule 1911's list and prices) -----------


def set_price(
    store: StoreState, kind: str, price: int | None, by: str
) -> tuple[StoreState, Happening]:
    """The Inventory's entry ``kind`` at ``price`` (None: unspecified, so 200~), recorded by
    ``by`` (an admin record or a rule change); raises ``IllegalActionError``."""
    try:
        inventory = store.inventory.with_price(kind, price)
    except ValueError as error:
        raise IllegalActionError(f"no price may be {price}~", rule=RULE_STORE) from error
    article = inventory.article(kind)
    text = f"the Store's price of a {article.name} is now {article.listed_price}~ ({by})"
    return replace(store, inventory=inventory), Happening(RULE_STORE, text)


def set_listed(store: StoreState, kind: str, listed: bool, by: str) -> tuple[StoreState, Happening]:
    """The type ``kind`` put on the Store's Inventory or taken off it, recorded by ``by``."""
    inventory = store.inventory.with_listed(kind, listed)
    article = inventory.article(kind)
    where = "on" if listed else "off"
    text = f"{article.plural} are now {where} the Store's Inventory ({by})"
    return replace(store, inventory=inventory), Happening(RULE_STORE, text)
