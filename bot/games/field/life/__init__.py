"""Life, the coloured Conway's Life Field Match (seed 000), on the Field framework.

Document and code (``rules``)
    ``LIFE: FieldMatch`` (5 x 5 torus, eight-square adjacency, parameters
    ``"null chance" = (11, 16)`` and ``"advantage rotation" = ("Red",
    "Green", "Blue")``); ``LIFE_RULES: MatchRules`` (Initialize, Evolve,
    Cell's Tweak).  ``grid_of(state) -> LifeGrid``, ``team_of(state,
    player) -> Colour | None``, ``advantage_of(state) -> Colour | None``,
    ``colour_of(value) -> Colour | None``.

Playing (``play``); each raises ``IllegalActionError`` citing the rule
    ``start_life(state, context, random, match=LIFE) -> SelectionResult``
    ``initialize(state, context, random) -> TurnResult``
    ``evolve(state, context, random) -> TurnResult`` (``record.ending`` on a win)
    ``tweak(state, context, player, square_text) -> TurnResult``
    (also ``ActionSyntaxError`` for text that is no square)

The grid (``grid``)
    ``Colour`` (RED, GREEN, BLUE; None is null), ``COLOURS``;
    ``LifeGrid(geometry, planes)`` with ``empty(geometry)``,
    ``from_colours(geometry, colours)``, ``live``, ``population``,
    ``colour_at(square)``, ``with_colour(square, colour)``, ``colours()``,
    ``colours_present()``.
    ``evolve_grid(grid: LifeGrid, advantage: Colour | None) -> LifeGrid``
    (Evolve step 1; the function the game uses and the corpus test runs).
    ``render_grid(grid) -> str``; ``parse_grid(text, *, torus=True,
    adjacency=Adjacency.EIGHT) -> LifeGrid``.

The board mailed back (``render``)
    ``render_life_board(state, players) -> str``;
    ``parse_life_board(text, *, torus=True, adjacency=Adjacency.EIGHT) ->
    LifeBoard(grid, advantage, teams)``;
    ``position_from_board(text, match=LIFE) -> FieldState`` (a set-up).

Readings of ambiguous text are in ``rules`` (draw order, who may tweak,
Evolve before Initialize, the end of the match) and ``grid`` (ties).
"""

from bot.games.field.life.grid import (
    COLOURS,
    Colour,
    LifeGrid,
    evolve_grid,
    parse_grid,
    render_grid,
)
from bot.games.field.life.play import evolve, initialize, start_life, tweak
from bot.games.field.life.render import (
    LifeBoard,
    parse_life_board,
    position_from_board,
    render_life_board,
)
from bot.games.field.life.rules import (
    LIFE,
    LIFE_RULES,
    RULE_EVOLVE,
    RULE_INITIALIZE,
    RULE_TWEAK,
    advantage_of,
    colour_of,
    grid_of,
    team_of,
)

__all__ = [
    "COLOURS",
    "LIFE",
    "LIFE_RULES",
    "RULE_EVOLVE",
    "RULE_INITIALIZE",
    "RULE_TWEAK",
    "Colour",
    "LifeBoard",
    "LifeGrid",
    "advantage_of",
    "colour_of",
    "evolve",
    "evolve_grid",
    "grid_of",
    "initialize",
    "parse_grid",
    "parse_life_board",
    "position_from_board",
    "render_grid",
    "render_life_board",
    "start_life",
    "team_of",
    "tweak",
]
