"""Giving an object one holds to another player (rule 13), and the objects' types.

Rule 13: "Unless otherwise stated, Players are capable of possessing any
Object and of transferring any Object they possess to any entity that can
possess that Object."  No rule says otherwise of a Bunny, a Huge Seed or a
Sasquash, nor of an Arena Tool; "Arena weapons may not be exported from the
Arena game" (rule 1912) is read as keeping them out of other games' uses,
not out of players' hands (docs/readings.md).  ``ITEM_OBJECTS`` declares the
types for ``bot.games.objects``, as the Gardens declare theirs.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.economy import Happening, Moment, PlayerKey
from bot.games.errors import IllegalActionError
from bot.games.garden import GardenState
from bot.games.objects import ObjectType
from bot.games.store.inventory import NOT_SOLD, RULE_1911_LIST
from bot.games.store.rules import RULE_OBJECTS
from bot.games.store.state import Outcome, StoreState, check_holder

ITEM_OBJECTS = {
    article.name: ObjectType(name=article.name, plural=article.plural, rule=article.rule)
    for article in (*RULE_1911_LIST, *NOT_SOLD)
    if not article.fruit  # a Thorn Seed is the Gardens' Fruit
}


def give(
    store: StoreState,
    gardens: GardenState,
    player: PlayerKey,
    number: int,
    recipient: PlayerKey,
    at: Moment,
) -> Outcome:
    """``player`` gives the object ``number`` e holds to ``recipient``; raises
    ``IllegalActionError`` citing rule 13 for an object e does not hold or a gift to emself."""
    check_holder(gardens, player)
    check_holder(gardens, recipient)
    item = next((item for item in store.items if item.number == number), None)
    if item is None or item.holder != player:
        raise IllegalActionError(
            f"you can transfer only an object you hold, and you hold no object {number}",
            rule=RULE_OBJECTS,
        )
    if recipient == player:
        raise IllegalActionError(f"you already hold {item.label()}", rule=RULE_OBJECTS)
    given = replace(item, holder=recipient)
    items = tuple(given if old.number == number else old for old in store.items)
    text = f"{player} gave {item.label()} to {recipient}"
    return Outcome(replace(store, items=items), gardens, (Happening(RULE_OBJECTS, text),))
