"""The Store's price list (rule 1911) and the objects a player holds, as text.

Fixed-width, so it reads the same in any mail client::

    The Store's Inventory at nweek 2, nday 1 (rule 1911)

      Thorn Seed      130~
      Air Jet         200~  (no price given: rule 1911's 200~)
      Water Jet       200~  or free to New Players
"""

from __future__ import annotations

from bot.games.economy import Moment, PlayerKey
from bot.games.store.inventory import Article
from bot.games.store.state import StoreState

_NAME_WIDTH = 14  # "Flame Thrower", "Fluffy Bunny"


def render_price_list(store: StoreState, at: Moment) -> str:
    """Every type on the Store's Inventory, in its order, with its price."""
    lines = [f"The Store's Inventory at {at.display()} (rule 1911)", ""]
    lines.extend(_price_line(article) for article in store.inventory.listed())
    if not store.inventory.listed():
        lines.append("  (nothing)")
    return "\n".join(lines) + "\n"


def _price_line(article: Article) -> str:
    line = f"  {article.name:<{_NAME_WIDTH}} {article.listed_price:>4}~"
    if article.price is None:
        line += "  (no price given: rule 1911's 200~)"
    if article.free_to_new_players:
        line += "  or free to New Players"
    return line


def render_held(store: StoreState, player: PlayerKey) -> str:
    """ "alice holds: Fluffy Bunny 1, Water Jet 3" (the objects kept here; Fruit are the
    Gardens')."""
    held = ", ".join(item.label() for item in store.held_by(player)) or "nothing from the Store"
    return f"{player} holds: {held}"
