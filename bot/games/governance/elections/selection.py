"""How a method's choice was Selected, and the Moderator's part in ties (rule 1823 C).

Approval Voting (C.2): "in the event of a tie, the Moderator picks one of the
tied choices"; IRV (C.3): "Otherwise, the Moderator selects one of the
winning choices".  The bot is not the Moderator (rule 625 B makes the caller
of a Ministerial Election its Moderator), so a tally stops at
``PENDING_MODERATOR`` with the tied choices and the engine asks the
Moderator by mail; ``pick_by_moderator`` applies the answer.  Where the game
has configured it (e.g. the Moderator has delegated eir pick to the bot),
``pick_by_draw`` stands in for the Moderator with a recorded random draw
among the tied choices, each equally likely (rule 9).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bot.games.errors import IllegalActionError
from bot.games.governance.elections.draws import ChoiceSource, TieDraw, draw_from
from bot.games.governance.elections.methods import Choice


class SelectedBy(Enum):
    """Why the selected choice won."""

    SOLE_LEADER = "it alone led"
    PLACE_TIE_BREAK = "the Borda tie-break by places"
    RANDOM_DRAW = "a random draw"
    PENDING_MODERATOR = "awaiting the Moderator's pick"
    MODERATOR = "the Moderator's pick"
    DEFAULT_DRAW = "a random draw standing in for the Moderator's pick"


class ModeratorDefault(Enum):
    """What the bot does with a tie that rule 1823 leaves to the Moderator."""

    ASK_MODERATOR = "ask the Moderator by mail"
    RECORDED_DRAW = "draw at random, recorded, on the Moderator's behalf"


@dataclass(frozen=True)
class Selection:
    """The outcome of a Selection Method.

    ``winner_set`` is every choice still tied where rule 1823 starts breaking
    ties (for a unique winner, that choice alone); ``selected`` is ``None``
    only while the Moderator's pick is awaited.  ``rule`` is the method's section.
    """

    rule: str
    winner_set: tuple[Choice, ...]
    selected: Choice | None
    selected_by: SelectedBy
    draw: TieDraw | None = None

    @property
    def needs_moderator(self) -> bool:
        return self.selected_by is SelectedBy.PENDING_MODERATOR

    def describe(self) -> str:
        if self.selected is None:
            tied = ", ".join(self.winner_set)
            return f"rule {self.rule}: tied between {tied}; the Moderator picks one of them"
        return f"rule {self.rule}: {self.selected} is selected ({self.selected_by.value})"


def leader_selection(rule: str, leaders: tuple[Choice, ...]) -> Selection:
    """A unique leader is selected; tied leaders await the Moderator."""
    if len(leaders) == 1:
        return Selection(rule, leaders, leaders[0], SelectedBy.SOLE_LEADER)
    return Selection(rule, leaders, None, SelectedBy.PENDING_MODERATOR)


def pick_by_moderator(selection: Selection, pick: Choice) -> Selection:
    """``selection`` settled by the Moderator's ``pick``.

    Raises ``IllegalActionError`` (the method's rule) when no pick is awaited
    or ``pick`` is not one of the tied choices.
    """
    check_awaiting(selection)
    if pick not in selection.winner_set:
        tied = ", ".join(selection.winner_set)
        raise IllegalActionError(
            f"the Moderator must pick one of the tied choices ({tied}), not {pick}",
            rule=selection.rule,
        )
    return replace(selection, selected=pick, selected_by=SelectedBy.MODERATOR)


def pick_by_draw(selection: Selection, source: ChoiceSource) -> Selection:
    """``selection`` settled by a recorded draw among the tied choices, for the Moderator.

    Raises ``IllegalActionError`` when no pick is awaited.
    """
    check_awaiting(selection)
    purpose = f"rule {selection.rule} tie, drawn for the Moderator"
    draw = draw_from(selection.winner_set, purpose, source)
    return replace(selection, selected=draw.chosen, selected_by=SelectedBy.DEFAULT_DRAW, draw=draw)


def check_awaiting(selection: Selection) -> None:
    if not selection.needs_moderator:
        raise IllegalActionError(
            f"the election is already decided: {selection.describe()}", rule=selection.rule
        )
