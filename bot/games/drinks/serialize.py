"""A ``DrinksState`` as JSON-able data and back, exactly.

The Gardens inside it are ``bot.games.garden``'s own format; moments are
``[ndays, second]`` as there.  The engine stores it so a replay of the
archive rebuilds the same Drinks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.drinks.items import Category, Item
from bot.games.drinks.state import DrinksState, RainbowWalk
from bot.games.economy import Moment
from bot.games.garden import state_from_json as garden_from_json
from bot.games.garden import state_to_json as garden_to_json

FORMAT = "drinks/1"


def state_to_json(state: DrinksState) -> dict[str, Any]:
    """``state`` as a dictionary of JSON types (str, int, bool, None, list, dict)."""
    return {
        "format": FORMAT,
        "garden": garden_to_json(state.garden),
        "items": [
            [i.number, i.kind, i.category.value, i.holder, _moment(i.created)] for i in state.items
        ],
        "bac": [[player, bac] for player, bac in state.bac],
        "rainbow_walks": [[w.player, w.potion, _moment(w.ends)] for w in state.rainbow_walks],
    }


def state_from_json(data: Mapping[str, Any]) -> DrinksState:
    """The state ``state_to_json`` described; raises ``ValueError`` if ``data`` is not in
    this format."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} state: {data.get('format')!r}")
    try:
        return DrinksState(
            garden=garden_from_json(data["garden"]),
            items=tuple(
                Item(int(n), str(kind), Category(category), str(holder), _from_moment(at))
                for n, kind, category, holder, at in data["items"]
            ),
            bac=tuple((str(player), int(bac)) for player, bac in data["bac"]),
            rainbow_walks=tuple(
                RainbowWalk(str(player), int(potion), _from_moment(ends))
                for player, potion, ends in data["rainbow_walks"]
            ),
        )
    except (KeyError, TypeError) as error:
        raise ValueError(f"malformed {FORMAT} state: {error!r}") from error


def _moment(at: Moment) -> list[int]:
    return [at.ndays, at.second]


def _from_moment(data: Any) -> Moment:
    ndays, second = data
    return Moment(int(ndays), int(second))
