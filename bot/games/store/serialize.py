"""A ``StoreState`` as JSON-able data and back, exactly.

Moments are ``[ndays, second]`` (Clock time); a Target is ``[garden, key]``
(the Town Square's key null); the Inventory lists every type in full, so a
type an admin record added is kept too.  The engine stores it so a replay of
the archive rebuilds the same Store.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.economy import Moment
from bot.games.store.inventory import Article, StoreInventory, Use
from bot.games.store.state import Item, StoreState, Target

FORMAT = "store/1"


def state_to_json(state: StoreState) -> dict[str, Any]:
    """``state`` as a dictionary of JSON types (str, int, bool, None, list, dict)."""
    return {
        "format": FORMAT,
        "inventory": [_article_to_json(article) for article in state.inventory.articles],
        "items": [
            [i.number, i.kind, i.holder, [i.created.ndays, i.created.second]] for i in state.items
        ],
        "targets_nweek": state.targets_nweek,
        "targeted": [[target.garden, target.key] for target in state.targeted],
        "free_water_jets": list(state.free_water_jets),
    }


def state_from_json(data: Mapping[str, Any]) -> StoreState:
    """The state ``state_to_json`` described; ``ValueError`` if ``data`` is not in this format."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} state: {data.get('format')!r}")
    try:
        return StoreState(
            inventory=StoreInventory(tuple(_article_from_json(a) for a in data["inventory"])),
            items=tuple(
                Item(int(number), str(kind), str(holder), Moment(int(at[0]), int(at[1])))
                for number, kind, holder, at in data["items"]
            ),
            targets_nweek=int(data["targets_nweek"]),
            targeted=tuple(
                Target(bool(garden), None if key is None else str(key))
                for garden, key in data["targeted"]
            ),
            free_water_jets=tuple(str(player) for player in data["free_water_jets"]),
        )
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise ValueError(f"malformed {FORMAT} state: {error!r}") from error


def _article_to_json(article: Article) -> list[Any]:
    return [
        article.name,
        article.plural,
        article.rule,
        article.use.value,
        article.effects,
        article.price,
        article.fruit,
        article.free_to_new_players,
        article.on_inventory,
    ]


def _article_from_json(data: Any) -> Article:
    name, plural, rule, use, effects, price, fruit, free, listed = data
    return Article(
        str(name),
        str(plural),
        str(rule),
        Use(use),
        str(effects),
        None if price is None else int(price),
        bool(fruit),
        bool(free),
        bool(listed),
    )
