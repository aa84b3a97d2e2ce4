"""The roster: registration and forfeiture (rule 14 of seed 004)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from bot.engine.players import forfeit_player, register_player
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.games.errors import ActionError
from bot.parser import ParsedAction


class RosterAdapter:
    prefix = "roster"
    private_actions: frozenset[str] = frozenset()

    def __init__(self, session: Session, accept_registrations: bool) -> None:
        self.session = session
        self.accept_registrations = accept_registrations

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        handler = {"roster.register": self._register, "roster.forfeit": self._forfeit}
        try:
            return handler[action.action](action, turn)
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )

    def _register(self, action: ParsedAction, turn: Turn) -> Ruling:
        if not self.accept_registrations:
            raise ActionError(
                "this game takes new players through its Minister of the Roster, "
                "not by post to the bot",
                rule="14",
            )
        name = str(action.args.get("name", ""))
        player = register_player(self.session, name, turn.author, turn.occurred_at)
        return applied(
            action.action,
            action.args,
            action.text,
            turn,
            f"{turn.author} is now a player, known as {player.name}",
            rule="14",
        )

    def _forfeit(self, action: ParsedAction, turn: Turn) -> Ruling:
        if turn.player is None:
            raise ActionError("only a player can forfeit, and this address is not one's", rule="14")
        forfeit_player(self.session, turn.player)
        return applied(
            action.action,
            action.args,
            action.text,
            turn,
            f"{turn.player.name} forfeits and becomes a Lost Soul",
            rule="14",
        )

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def save(self) -> None:
        """Roster changes are written as they happen."""
