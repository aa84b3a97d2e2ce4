"""The interface every game adapter offers the engine.

An adapter is the thin, impure shell around a pure rules package: it loads
the game's state from the database once per post, turns parsed actions into
calls of the rules package, turns ``ActionError`` into rejected rulings, and
writes the state back in the post's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from bot.engine.rulings import Board, Ruling, Turn
from bot.parser import ParsedAction


class GameAdapter(Protocol):
    prefix: str  # the first part of the dotted action names it handles
    # The actions a player may send to the bot privately (a Concealable
    # vote, a request for a statement); every other action must be public.
    private_actions: frozenset[str]

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


@runtime_checkable
class TurnPerPostAdapter(Protocol):
    """An adapter that judges all of a post's actions for it together.

    Field Matches Turn the Field once per post: every invokable action in the
    post is a request of that one Turn (seed 003), so their prices and
    "once per Turn" limits are judged together.
    """

    def apply_all(self, actions: Sequence[tuple[ParsedAction, Turn]]) -> list[Ruling]:
        """One ruling per action, in the order given.  Never raises ActionError."""
        ...
