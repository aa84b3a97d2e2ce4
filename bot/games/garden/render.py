"""Chauncey's display of the Gardens (rule 625 D.4, seed 004), as text.

Rule 625 D.4: the Minister of Forking Paths maintains "a Public Display of
all existing Gardens, Plants, and Fruit, including their attributes and
owners".  One block per Garden (the players' in the order they came, then
the Town Square), each Plant on a line with its Watering Cost (rule 1902 A)
and the Fruit on it; then the Fruit players hold.  Fixed-width, so it reads
the same in any mail client::

    Gardens, Plants and Fruit at nweek 2, nday 1 (rule 625 D.4)

    alice's Garden: Gardening Cost 11~, paid for watering 5~ this Checking Period
      Plant 1   Vine        5~  planted nweek 1, nday 1   Tomato 4
      Plant 2   Thorn Bush  6~  planted nweek 1, nday 2   Thorn Seed 5, Thorn Seed 6
"""

from __future__ import annotations

from bot.games.economy import Moment
from bot.games.garden.more_plants import pod_stage
from bot.games.garden.plants import SASQUASH_POD, Fruit, GardenKey, Plant
from bot.games.garden.state import GardenState
from bot.games.garden.texts import garden_name

_NUMBER_WIDTH = 9  # "Plant 123"
_KIND_WIDTH = 10  # "Thorn Bush"


def render_gardens(state: GardenState, at: Moment) -> str:
    """The display at ``at``: every Garden, its Plants and their Fruit, then Fruit held."""
    lines = [f"Gardens, Plants and Fruit at {at.display()} (rule 625 D.4)"]
    for garden in state.gardens():
        lines.append("")
        lines.append(_garden_heading(state, garden, at))
        plants = state.plants_in(garden)
        lines.extend(_plant_line(state, plant, at) for plant in plants)
        if not plants:
            lines.append("  (no Plants)")
    lines.append("")
    lines.append("Fruit held:")
    held = [_held_line(state, player) for player in state.players if state.fruit_held_by(player)]
    lines.extend(held or ["  (none)"])
    return "\n".join(lines) + "\n"


def _garden_heading(state: GardenState, garden: GardenKey, at: Moment) -> str:
    if garden is None:
        return "the Town Square: owned by nobody, no Gardening Cost (rule 1902 C)"
    cost = state.gardening_cost(garden)
    paid = state.paid_for(garden, at.checking_period.index)
    return (
        f"{garden_name(garden)}: Gardening Cost {cost}~, "
        f"paid for watering {paid}~ this Checking Period"
    )


def _plant_line(state: GardenState, plant: Plant, at: Moment) -> str:
    fruit = ", ".join(_fruit_text(fruit) for fruit in state.fruit_on(plant.number)) or "no Fruit"
    return (
        f"  {f'Plant {plant.number}':<{_NUMBER_WIDTH}} {plant.kind:<{_KIND_WIDTH}} "
        f"{plant.watering_cost}~  planted {plant.planted.display()}{_stage(plant, at)}   {fruit}"
    )


def _stage(plant: Plant, at: Moment) -> str:
    """ ", Young": a Sasquash Pod's stage is one of its attributes (rule 1918 C)."""
    if plant.kind != SASQUASH_POD.name:
        return ""
    return f", {pod_stage(plant, at).value}"


def _held_line(state: GardenState, player: str) -> str:
    fruit = ", ".join(_fruit_text(fruit) for fruit in state.fruit_held_by(player))
    return f"  {player}: {fruit}"


def _fruit_text(fruit: Fruit) -> str:
    return f"{fruit.label()} (since {fruit.created.display()})"
