"""The roster by mail: joining, forfeiting, names, leave, statements and secrets.

Rules of seed 004: 14 (becoming a player, forfeiting), 151 (name changes),
205 (On Leave, Off Leave, and the implied Off Leave of any game action), 21
A.2 and 212 (what a new player receives), and a player's own statement of
eir holdings.  Every change to the roster mails a board of what changed:
the roster's counts and the line of each player the post changed.
A player's request for a secret for private mail (rule 1896, docs/trust.md)
is judged here too: the secret goes to eir registered addresses alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.config import HoldingsSettings
from bot.engine import holdings, inventory, objects
from bot.engine.forfeits import Forfeited, forfeit_in_adapters
from bot.engine.games.base import GameAdapter
from bot.engine.players import (
    acting_player,
    forfeit_player,
    register_player,
    registered_addresses,
    remembered_on_leave,
    rename_player,
    render_roster_changes,
    roster,
    roster_counts,
    set_on_leave,
    was_player_in_nweek,
)
from bot.engine.private_secrets import SECRET_ACTION, queue_secret_mail
from bot.engine.renames import rename_in_adapters, rename_in_games
from bot.engine.rulings import Board, Outcome, PlayerRef, Ruling, Turn, applied, rejected
from bot.games.errors import ActionError
from bot.parser import ParsedAction
from bot.store.models import Player

if TYPE_CHECKING:
    from bot.engine.services import Services

# Rule 205: "By taking any game action on a public forum, a player who is On
# Leave automatically, by implication, declares emself to be Off Leave."
# These are not such actions: asking for a statement or a secret changes
# nothing in the game, and the leave actions and forfeiting settle leave themselves.
NOT_IMPLYING_OFF_LEAVE = frozenset(
    {
        "roster.holdings",
        SECRET_ACTION,
        "roster.leave",
        "roster.return",
        "roster.forfeit",
        "roster.register",
    }
)
STATEMENT_ENTRIES = 10  # how many recent ledger entries a statement shows

Handler = Callable[[ParsedAction, Turn], Ruling]


class RosterAdapter:
    prefix = "roster"
    # A statement may be asked for privately; every roster change is public
    # (rules 14, 151 and 205 each say "by posting [...] on a public forum").
    # So is a request for a secret (rule 1896, docs/trust.md): only the list
    # vouches for who asked, so the engine refuses one sent privately.
    private_actions: frozenset[str] = frozenset({"roster.holdings"})

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        self.accept_registrations = services.settings.bot.accept_registrations
        self.settings: HoldingsSettings = services.settings.holdings
        # The players whose roster lines this post changed, in the order it changed them.
        self.changed_players: list[int] = []
        self.statements: list[int] = []  # the players whose statements this post asked for
        # Asked by private mail: the reply goes to the player alone, so it may
        # show eir hidden objects (a Card's face, rule 387 of seed 002).
        self.statement_is_private = False
        # Renames (old, new) the post's other adapters have not yet been told of.
        self.renames: list[tuple[str, str]] = []
        # Forfeits (names) the games and offices have not yet been told of (rule 14).
        self.forfeits: list[str] = []

    @property
    def roster_changed(self) -> bool:
        """Whether this post changed the roster (the engine then settles rule 205's stop)."""
        return bool(self.changed_players)

    def _changed(self, player: PlayerRef) -> None:
        if player.id not in self.changed_players:
            self.changed_players.append(player.id)

    @classmethod
    def from_services(cls, session: Session, services: Services) -> RosterAdapter:
        return cls(session, services)

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        handlers: dict[str, Handler] = {
            "roster.register": self._register,
            "roster.forfeit": self._forfeit,
            "roster.rename": self._rename,
            "roster.leave": self._leave,
            "roster.return": self._return,
            "roster.holdings": self._statement,
            SECRET_ACTION: self._secret,
        }
        try:
            return handlers[action.action](action, turn)
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
        player = register_player(
            self.session, name, turn.author, turn.occurred_at, self._refuse_name
        )
        # Rule 212: 4BW, "If the External Force was a Player previously during
        # the current nweek, [...] instead [...] 0".
        returning = was_player_in_nweek(self.session, player, turn.nweek)
        bandwidth = 0 if returning else self.settings.new_player_bandwidth
        created = holdings.enter_game(
            self.session,
            player.id,
            bandwidth,
            at=turn.occurred_at,
            message_pk=self._pk(turn),
            nweek=turn.nweek,
        )
        self._changed(player)
        why = " (e was a player earlier this nweek)" if returning else ""
        # Rule 21 A.2: the Basin's cap may cut the 500~; the ruling says by how much.
        cut = f": {created.shortfall()}" if created.withheld else ""
        summary = (
            f"{turn.author} is now a player, known as {player.name}, and receives "
            f"{holdings.WELCOME_POINTS} Welcome Point, "
            f"{holdings.format_amount(holdings.TILDEX, created.created)} (rule 21 A.2{cut}) "
            f"and {holdings.format_amount(holdings.BANDWIDTH, bandwidth)}{why} (rule 212)"
        )
        return self._applied(action, turn, summary, "14", player, bandwidth=bandwidth)

    def _forfeit(self, action: ParsedAction, turn: Turn) -> Ruling:
        player = self._player(turn, "14", "forfeit")
        # Rule 14: e "loses all game defined properties and attributes except
        # for eir Name, and becomes a Lost Soul".
        holdings.strip_holdings(
            self.session, player.id, at=turn.occurred_at, message_pk=self._pk(turn)
        )
        cause = holdings.Cause(
            turn.occurred_at, "14", "ceasing to be a player", "post", self._pk(turn)
        )
        # Eir objects go where each type says, or are destroyed (bot.engine.objects).
        taken = objects.forfeit_objects(self.session, player.id, cause)
        forfeit_player(self.session, player, turn.nweek)
        # Every game and office takes its part in ``after_action`` (bot.engine.forfeits).
        self.forfeits.append(player.name)
        self._changed(player)
        summary = "; ".join(
            (f"{player.name} forfeits, loses all e held and becomes a Lost Soul", *taken.notes)
        )
        ruling = self._applied(action, turn, summary, "14", player)
        return replace(ruling, effects=(*ruling.effects, *taken.effects))

    def _refuse_name(self, name: str) -> None:
        """Rule 151: the names the enabled games reserve (an entity a current proposal
        defines); raises IllegalActionError."""
        for game in self.services.games:
            for check in game.name_checks:
                check(self.session, name)

    def _rename(self, action: ParsedAction, turn: Turn) -> Ruling:
        player = self._player(turn, "151", "change eir name")
        new_name = str(action.args["name"])
        renamed = rename_player(self.session, player, new_name, turn.occurred_at, self._refuse_name)
        # Rule 151 renames the player, not eir stones, pieces, alliances or offices.
        rename_in_games(self.session, self.services, player.name, renamed.name)
        self.renames.append((player.name, renamed.name))
        self._changed(renamed)
        summary = f"{player.name} is now known as {renamed.name}"
        return self._applied(action, turn, summary, "151", renamed, former=player.name)

    def _leave(self, action: ParsedAction, turn: Turn) -> Ruling:
        player = self._player(turn, "205", "go On Leave")
        set_on_leave(self.session, player, True)
        self._changed(player)
        return self._applied(action, turn, f"{player.name} is now On Leave", "205", player)

    def _return(self, action: ParsedAction, turn: Turn) -> Ruling:
        player = self._player(turn, "205", "go Off Leave")
        set_on_leave(self.session, player, False)
        self._changed(player)
        return self._applied(action, turn, f"{player.name} is now Off Leave", "205", player)

    def _statement(self, action: ParsedAction, turn: Turn) -> Ruling:
        player = self._player(turn, "21 A.2", "hold anything")
        if player.id not in self.statements:
            self.statements.append(player.id)
        self.statement_is_private = turn.private
        summary = f"{player.name}'s statement of holdings is below"
        return applied(action.action, action.args, action.text, turn, summary, rule="21 A.2")

    def _secret(self, action: ParsedAction, turn: Turn) -> Ruling:
        """Rule 1896, docs/trust.md: a new secret for private mail, mailed to the player alone.

        The secret is derived from this post's Message-ID; the ruling, which
        the list sees, never holds it.
        """
        player = self._player(turn, "14", "request a secret for private mail")
        addresses = registered_addresses(self.session, player.id)
        queue_secret_mail(
            self.session, self.services, player, addresses, turn.message_id, turn.occurred_at
        )
        where = (
            "eir registered address"
            if len(addresses) == 1
            else f"each of eir {len(addresses)} registered addresses"
        )
        summary = (
            f"a new secret for private mail is mailed to {player.name} alone, at {where}; "
            "it replaces any secret e was sent before"
        )
        return self._applied(action, turn, summary, "1896", player)

    def implied_off_leave(self, action: ParsedAction, turn: Turn, ruling: Ruling) -> Ruling:
        """Rule 205: a game action taken by a player On Leave first takes em Off Leave.

        Only an action actually taken counts: a rejected or conditional one was
        not taken (rule 1896).  Returns ``ruling``, saying so when it happened.
        """
        if ruling.outcome is not Outcome.APPLIED or action.action in NOT_IMPLYING_OFF_LEAVE:
            return ruling
        if turn.private:
            return ruling  # only a game action "on a public forum" implies it
        if turn.player is None or remembered_on_leave(self.session, turn.player.id) is False:
            return ruling  # nobody, or Off Leave when the post's author was found
        row = self.session.get(Player, turn.player.id)
        if row is None or not row.active or not row.on_leave:
            return ruling
        player = PlayerRef(row.id, row.name)
        set_on_leave(self.session, player, False)
        self._changed(player)
        note = (
            f"{player.name} was On Leave and, by taking this game action, "
            "is now Off Leave (rule 205)"
        )
        effect = {"game": "roster", "player": player.name, "change": "off leave", "rule": "205"}
        return replace(
            ruling, summary=f"{ruling.summary}; {note}", effects=(*ruling.effects, effect)
        )

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def changed_boards(self) -> tuple[Board, ...]:
        # Drawn after every action of the post, so they show its end state.
        boards = [self._statement_board(player_id) for player_id in self.statements]
        if self.changed_players:
            changed = roster(self.session, self.changed_players)
            roster_board = render_roster_changes(roster_counts(self.session), changed)
            boards.append(Board("The roster", roster_board))
        return tuple(boards)

    def _statement_board(self, player_id: int) -> Board:
        row = self.session.get(Player, player_id)
        assert row is not None
        held = holdings.statement(self.session, player_id, row.name, STATEMENT_ENTRIES)
        held_objects = inventory.statement_objects(
            self.session, player_id, holder_sees=self.statement_is_private
        )
        return Board(f"{row.name}'s holdings", holdings.render_statement(held) + held_objects)

    def save(self) -> None:
        """Roster changes are written as they happen."""

    def _player(self, turn: Turn, rule: str, doing: str) -> PlayerRef:
        return acting_player(self.session, turn.player, turn.author, rule=rule, doing=doing)

    def _pk(self, turn: Turn) -> int | None:
        return holdings.message_pk_of(self.session, turn.message_id)

    def _applied(
        self,
        action: ParsedAction,
        turn: Turn,
        summary: str,
        rule: str,
        player: PlayerRef,
        **details: object,
    ) -> Ruling:
        change = action.action.removeprefix("roster.")
        effect = {"game": "roster", "player": player.name, "change": change, **details}
        return applied(
            action.action, action.args, action.text, turn, summary, rule, effects=(effect,)
        )


def after_action(
    adapters: Mapping[str, GameAdapter], action: ParsedAction, turn: Turn, ruling: Ruling
) -> Ruling:
    """The engine's hook after each action: rule 205's implied Off Leave (see
    ``RosterAdapter``), a rename (rule 151) told to the post's other adapters,
    and a forfeit (rule 14) told to every game and office.

    The stored states were rewritten by the rename itself; an adapter that
    loaded its state earlier in the post catches up here, before the post's
    next action, so that action and the adapter's save use the new name.  A
    forfeit goes through the adapters alone (``forfeit_in_adapters``), which
    save it with the post; what each took is added to the forfeit's ruling.
    """
    adapter = adapters.get(RosterAdapter.prefix)
    if not isinstance(adapter, RosterAdapter):
        return ruling
    while adapter.renames:
        old, new = adapter.renames.pop(0)
        rename_in_adapters(adapters.values(), old, new)
    while adapter.forfeits:
        name = adapter.forfeits.pop(0)
        taken = forfeit_in_adapters(adapters.values(), name, turn.occurred_at)
        ruling = _with_forfeiture(ruling, taken)
    return adapter.implied_off_leave(action, turn, ruling)


def _with_forfeiture(ruling: Ruling, taken: Forfeited) -> Ruling:
    """The forfeit's ruling, saying what each game and office took (rule 14)."""
    if not taken.notes and not taken.effects:
        return ruling
    summary = "; ".join((ruling.summary, *taken.notes))
    return replace(ruling, summary=summary, effects=(*ruling.effects, *taken.effects))
