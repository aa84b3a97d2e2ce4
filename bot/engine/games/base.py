"""The interface every game adapter offers the engine.

An adapter is the thin, impure shell around a pure rules package: it loads
the game's state from the database once per post, turns parsed actions into
calls of the rules package, turns ``ActionError`` into rejected rulings, and
writes the state back in the post's transaction.
"""

from __future__ import annotations

from typing import Protocol

from bot.engine.rulings import Board, Ruling, Turn
from bot.parser import ParsedAction


class GameAdapter(Protocol):
    prefix: str  # the first part of the dotted action names it handles

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        """Judge and, when legal, apply one action.  Never raises ActionError."""
        ...

    def changed_boards(self) -> tuple[Board, ...]:
        """The boards this post changed, for the reply."""
        ...

    def notes(self, visible_text: str) -> tuple[str, ...]:
        """Remarks on the post as a whole for the reply (after every action)."""
        ...

    def save(self) -> None:
        """Write changed state to the session (the caller commits)."""
        ...
