"""The knobs that differ between rule sets of Political Go.

B Nomic's rule 1639 (seed 004) plays on 9x9 with columns A-I; A Nomic's rules
365-377 (seed 002) play on 19x19 with columns a-s.  Board size, lettering and
the rule numbers quoted in rulings are data here, never constants in the code,
so a second rule set is a second ``GoParameters`` value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.go.points import (
    Point,
    check_size,
    column_labels,
    format_point,
    parse_point,
    point_names,
    points_by_name,
)


@dataclass(frozen=True)
class GoParameters:
    """Board size, column lettering and the rule citations for rulings.

    Raises ``ValueError`` for an unsupported board size.
    """

    size: int = 9
    lowercase_columns: bool = False
    rule_board: str = "1639 A"
    rule_alliances: str = "1639 B"
    rule_moves: str = "1639 C"
    rule_capture: str = "1639 D"
    rule_display: str = "1639 H"
    rule_ko: str = "1639 E"
    rule_ending: str = "1639 F"
    rule_scoring: str = "1639 G"

    def __post_init__(self) -> None:
        check_size(self.size)

    @property
    def point_count(self) -> int:
        """Number of points on the board."""
        return self.size * self.size

    @property
    def column_labels(self) -> str:
        """Column letters as displayed, left to right."""
        return column_labels(self.size, lowercase=self.lowercase_columns)

    def parse_point(self, text: str) -> Point:
        """``parse_point`` for this board, citing the board rule."""
        return parse_point(text, self.size, rule=self.rule_board, lowercase=self.lowercase_columns)

    def format_point(self, point: Point) -> str:
        """``format_point`` for this board and lettering."""
        return format_point(point, self.size, lowercase=self.lowercase_columns)

    @property
    def point_names(self) -> tuple[str, ...]:
        """``format_point`` of every point, indexed by point (``points.point_names``)."""
        return point_names(self.size, lowercase=self.lowercase_columns)

    @property
    def points_by_name(self) -> Mapping[str, Point]:
        """Each name ``format_point`` writes, to its point (``points.points_by_name``)."""
        return points_by_name(self.size, lowercase=self.lowercase_columns)


B_NOMIC = GoParameters()
