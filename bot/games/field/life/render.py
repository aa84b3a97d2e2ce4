"""The Life board as mailed back: the grid, the Advantage and the Teams, as text.

Seed 003 asks the Referee for "a Public Display of the Field, all Field
Objects, and their attributes"; for Life those are the Cells' colours, the
Field's Advantage and each player's Team.  For example::

    Life: 5 x 5 torus
       A B C D E
    5  . . . . .
    4  . . R . .
    3  . . R . .
    2  . . R . .
    1  . . . . .
    Advantage: Green
    Red team: alice, carol
    Green team: bob
    Blue team: none
    No team: dave

``parse_life_board`` reads that text back and ``position_from_board`` makes a
position of it, so tests are written as diagrams.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.field.life.grid import COLOURS, Colour, LifeGrid, parse_grid, render_grid
from bot.games.field.life.rules import (
    ADVANTAGE,
    CELL,
    COLOR,
    LIFE,
    TEAM,
    advantage_of,
    grid_of,
    team_of,
)
from bot.games.field.match import FieldMatch
from bot.games.field.objects import PlayerId
from bot.games.field.squares import Adjacency
from bot.games.field.state import (
    FieldState,
    create_object,
    with_field_attribute,
    with_player_attribute,
)

NO_TEAM = "No team"


@dataclass(frozen=True)
class LifeBoard:
    """A Life board read back from text."""

    grid: LifeGrid
    advantage: Colour | None
    teams: tuple[tuple[PlayerId, Colour | None], ...]


def render_life_board(state: FieldState, players: Sequence[PlayerId]) -> str:
    """The Current Field (Life) with the Advantage and the Teams of ``players``.

    Raises ``ValueError`` if there is no Current Field Match.
    """
    match = state.current_match
    lines = [f"{match.name}: {state.geometry.describe()}", render_grid(grid_of(state))]
    lines.append(f"Advantage: {_name(advantage_of(state))}")
    teams = {player: team_of(state, player) for player in players}
    for colour in (*COLOURS, None):
        members = [player for player, team in teams.items() if team is colour]
        label = NO_TEAM if colour is None else f"{colour.value} team"
        if colour is not None or members:
            lines.append(f"{label}: {', '.join(members) or 'none'}")
    return "\n".join(lines)


def parse_life_board(
    text: str, *, torus: bool = True, adjacency: Adjacency = Adjacency.EIGHT
) -> LifeBoard:
    """Read ``render_life_board``'s text back; ``ValueError`` if it is malformed."""
    grid = parse_grid(text, torus=torus, adjacency=adjacency)
    advantage: Colour | None = None
    teams: list[tuple[PlayerId, Colour | None]] = []
    for line in text.splitlines():
        label, colon, rest = line.partition(":")
        if not colon:
            continue
        if label.strip() == "Advantage":
            advantage = _colour(rest.strip())
        elif label.strip().endswith(" team") or label.strip() == NO_TEAM:
            teams.extend(_members(label.strip(), rest.strip()))
    return LifeBoard(grid, advantage, tuple(teams))


def position_from_board(text: str, match: FieldMatch = LIFE) -> FieldState:
    """A Life position drawn as ``render_life_board`` draws it, for diagrams and set-ups.

    One Cell per square, on the Priority List from A1 along each row; no
    history.  Raises ``ValueError`` if the grid is not the match's size.
    """
    board = parse_life_board(text, torus=match.torus, adjacency=match.adjacency)
    if board.grid.geometry != match.geometry:
        raise ValueError(
            f"the board is {board.grid.geometry.describe()}, "
            f"{match.name} is {match.geometry.describe()}"
        )
    state = FieldState(match=match)
    for square in range(match.geometry.square_count):
        colour = board.grid.colour_at(square)
        value = None if colour is None else colour.value
        state, _ = create_object(state, CELL, square=square, attributes=[(COLOR, value)])
    advantage = None if board.advantage is None else board.advantage.value
    state = with_field_attribute(state, ADVANTAGE, advantage)
    for player, team in board.teams:
        state = with_player_attribute(state, player, TEAM, None if team is None else team.value)
    return state


def _members(label: str, names: str) -> list[tuple[PlayerId, Colour | None]]:
    colour = None if label == NO_TEAM else Colour(label.removesuffix(" team"))
    if names == "none":
        return []
    return [(name.strip(), colour) for name in names.split(",")]


def _colour(text: str) -> Colour | None:
    return None if text == "null" else Colour(text)


def _name(colour: Colour | None) -> str:
    return "null" if colour is None else colour.value
