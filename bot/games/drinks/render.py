"""The Drinks as text: each player's BAC, what e holds, and what lasts on em.

One block per player with a Garden, in the order they came::

    Drinks, Potions and BAC at nweek 2, nday 4 (rules 1913, 1914, 1915)

    alice: BAC 3; holds Tomato Drink 9, Bloody Harry 12
      AvPower +2 until nweek 3, nday 1 (rule 1914 C.1: drank Bloody Harry 11)
    bob: Sober; holds nothing
"""

from __future__ import annotations

from bot.games.drinks.sobriety import is_blacked_out
from bot.games.drinks.state import DrinksState
from bot.games.economy import Effect, Moment, Operation, PlayerKey

_RULES_SHOWN = ("1913", "1914")  # the lasting effects of these rules are listed


def render_drinks(state: DrinksState, at: Moment) -> str:
    """The display at ``at``."""
    lines = [f"Drinks, Potions and BAC at {at.display()} (rules 1913, 1914, 1915)", ""]
    for player in state.players:
        lines.append(_player_line(state, player))
        lines.extend(_effect_line(effect) for effect in _effects_on(state, player, at))
    if not state.players:
        lines.append("(no players)")
    return "\n".join(lines) + "\n"


def _player_line(state: DrinksState, player: PlayerKey) -> str:
    bac = state.bac_of(player)
    sobriety = "Sober" if bac == 0 else f"BAC {bac}"
    if is_blacked_out(state, player):
        sobriety += " (Blacked Out)"
    held = ", ".join(item.label() for item in state.held_by(player)) or "nothing"
    return f"{player}: {sobriety}; holds {held}"


def _effects_on(state: DrinksState, player: PlayerKey, at: Moment) -> tuple[Effect, ...]:
    return tuple(
        effect
        for effect in state.garden.effects.items
        if effect.subject == player
        and effect.active_at(at)
        and effect.rule.split()[0] in _RULES_SHOWN
    )


def _effect_line(effect: Effect) -> str:
    if effect.operation is Operation.ADD:
        change = f"{effect.attribute} {effect.amount:+d}"
    else:
        change = effect.attribute
    until = "" if effect.ends is None else f" until {effect.ends.display()}"
    return f"  {change}{until} (rule {effect.rule}: {effect.cause})"
