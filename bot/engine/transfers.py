"""Gifts by mail (rule 13): one "I give / transfer X to Y" for currencies and objects.

Rule 13 (seed 004): "Unless otherwise stated, Players are capable of
possessing any Object and of transferring any Object they possess to any
entity that can possess that Object."

* ``give.currency``: an amount of one ledger currency moves from the giver to
  the recipient as one pair of ledger entries with one cause (the post and
  rule 13): ``holdings.spend`` then ``holdings.gain``.  Tildex (21 A.2), points
  (21 A.1) and Bandwidth (212) may be given; Renown may not (1899).  Nothing
  moves when the giver holds less (rule 21: no balance goes below zero).
* ``give.object``: an object of a type a game declared (``bot.engine.objects``:
  Cards, Handy Packs, Chips, ...) named by its noun or its number; the type's
  rule decides (``check_transfer``), and a type its rule never lets a player
  give (a Garden, 1902 A; a Pot of Gold, 1917 A; a Card, 384 of seed 002) is
  refused whether or not the giver holds one.  A gift of an object a game keeps
  in its own state (the Gardens' Fruit, Drinks and Store objects) is read as
  that game's action by the parser (``Area.gifts``) and never reaches here.

The recipient is a player other than the giver; an entity (the Store, the
Basin) or an unknown name is refused, naming where the players are listed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine import holdings, objects
from bot.engine.holdings import Cause
from bot.engine.players import acting_player, find_player_by_name
from bot.engine.rulings import Board, PlayerRef, Ruling, Turn, applied, rejected
from bot.games.errors import ActionError, IllegalActionError
from bot.games.objects import (
    RULE_OBJECTS,
    ObjectType,
    check_currency_gift,
    never_transferable,
    player_holder,
    type_named_by,
)
from bot.parser import ParsedAction

if TYPE_CHECKING:
    from bot.engine.services import Services

PREFIX = "give"
# Rule 21 A.1: "it shall never become less than zero"; no gift is more than a balance.
RULE_NO_DEBT = "21"
# Rule 1917 A: no game keeps Pots of Gold yet (a Rainbow Potion's is a happening, 1914
# C.2), but their rule already answers a gift of one.
POT_OF_GOLD = objects.declare(
    ObjectType(
        "Pot of Gold",
        "Pots of Gold",
        rule="1917 A",
        transferable=False,
        refusal="A Player who owns a Pot of Gold may not give or sell it to anyone, ever",
    )
)
# Entities the rules name that hold tildex or objects but are no players: a gift to one is
# not rule 13's gift between players, and each has its own way in (buying, rule 1911).
ENTITIES = {
    "the store": "the Store buys nothing and takes tildex only as a price: "
    '"I buy a Thorn Seed" (rule 1911)',
    "store": "the Store buys nothing and takes tildex only as a price: "
    '"I buy a Thorn Seed" (rule 1911)',
    "the basin": "the Basin creates and destroys tildex only as the rules say (rule 21 A.2)",
    "the bank": "the Bank is no player",
}
PLAYER_LIST = (
    "the players are listed by the roster (`nomicbot state players`, and the Minister "
    "of the Roster's digest, rule 625 D.6)"
)

Handler = Callable[[ParsedAction, Turn], Ruling]


class TransfersAdapter:
    """The gifts of grammar/give.lark, judged over the ledger and the object store."""

    prefix = PREFIX
    private_actions: frozenset[str] = frozenset()  # a gift is a public act (rule 13 by mail)

    def __init__(self, session: Session, services: Services | None = None) -> None:
        self.session = session

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        handlers: dict[str, Handler] = {
            "give.currency": self._give_currency,
            "give.object": self._give_object,
        }
        try:
            return handlers[action.action](action, turn)
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def save(self) -> None:
        """Ledger entries and object moves are written as they happen."""

    # -- currencies ---------------------------------------------------------------------

    def _give_currency(self, action: ParsedAction, turn: Turn) -> Ruling:
        currency = str(action.args["currency"])
        amount = _whole(action.args["amount"])
        check_currency_gift(currency)  # Renown: rule 1899
        giver = self._giver(turn)
        recipient = self._recipient(action.args, giver)
        self._check_holds(giver, currency, amount)
        written = holdings.format_amount(currency, amount)
        cause = _ledger_cause(self._cause(turn, f"given by {giver.name} to {recipient.name}"))
        # One move, one cause: both entries name the post and rule 13.
        holdings.spend(self.session, giver.id, currency, amount, **cause)
        holdings.gain(self.session, recipient.id, currency, amount, **cause)
        summary = f"{giver.name} gave {written} to {recipient.name}; " + ", ".join(
            f"{player.name} now holds "
            + holdings.format_amount(currency, self._balance(player, currency))
            for player in (giver, recipient)
        )
        effect = {
            "game": "holdings",
            "change": "gift",
            "currency": currency,
            "amount": amount,
            "from": giver.name,
            "to": recipient.name,
        }
        return applied(
            action.action, action.args, action.text, turn, summary, RULE_OBJECTS, effects=(effect,)
        )

    def _check_holds(self, giver: PlayerRef, currency: str, amount: int) -> None:
        """Rule 21: nothing moves when the giver holds less than the gift."""
        held = self._balance(giver, currency)
        if held < amount:
            raise IllegalActionError(
                f"you hold {holdings.format_amount(currency, held)}, less than the "
                f"{holdings.format_amount(currency, amount)} you give, "
                "and no balance may go below zero",
                rule=RULE_NO_DEBT,
            )

    def _balance(self, player: PlayerRef, currency: str) -> int:
        return dict(holdings.balances(self.session, player.id)).get(currency, 0)

    # -- objects ------------------------------------------------------------------------

    def _give_object(self, action: ParsedAction, turn: Turn) -> Ruling:
        kind = " ".join(str(action.args.get("kind") or "").split())
        number = action.args.get("number")
        object_type = self._type_of(kind) if kind else None
        if object_type is not None and never_transferable(object_type):
            raise IllegalActionError(_refusal(object_type), rule=object_type.rule)
        giver = self._giver(turn)
        recipient = self._recipient(action.args, giver)
        held = self._held(giver, object_type, kind, None if number is None else _whole(number))
        cause = self._cause(turn, f"given by {giver.name} to {recipient.name}")
        moved = objects.transfer(
            self.session,
            held.id,
            player_holder(recipient.id),
            cause,
            mover=player_holder(giver.id),
        )
        label = f"{moved.object_type.name} {moved.id}"
        identity = moved.object_type.public_identity(moved.attributes)
        shown = f"{label} ({identity})" if identity else label
        summary = f"{giver.name} gave {shown} to {recipient.name}"
        effect = moved.effect("transferred", to=recipient.name, rule=RULE_OBJECTS)
        return applied(
            action.action, action.args, action.text, turn, summary, RULE_OBJECTS, effects=(effect,)
        )

    def _type_of(self, kind: str) -> ObjectType:
        found = type_named_by(kind, objects.declared_types())
        if found is None:
            raise IllegalActionError(
                f'no Object the game keeps is called "{kind}", so you hold none to give',
                rule=RULE_OBJECTS,
            )
        return found

    def _held(
        self, giver: PlayerRef, object_type: ObjectType | None, kind: str, number: int | None
    ) -> objects.HeldObject:
        """The object given: the one numbered ``number``, else eir oldest of the type."""
        mine = objects.held_by(self.session, player_holder(giver.id), object_type)
        for held in mine:
            if number is None or held.id == number:
                return held
        which = (kind or "object") + ("" if number is None else f" {number}")
        raise IllegalActionError(
            f"you can transfer only an Object you possess, and you hold no {which}",
            rule=RULE_OBJECTS,
        )

    # -- who gives, who receives --------------------------------------------------------

    def _giver(self, turn: Turn) -> PlayerRef:
        return acting_player(
            self.session, turn.player, turn.author, rule=RULE_OBJECTS, doing="give"
        )

    def _recipient(self, args: Any, giver: PlayerRef) -> PlayerRef:
        written = " ".join(str(args.get("recipient", "")).split())
        entity = ENTITIES.get(written.casefold())
        if entity is not None:
            raise IllegalActionError(
                f"{written} is not a player, and a gift goes to a player: {entity}",
                rule=RULE_OBJECTS,
            )
        try:
            recipient = find_player_by_name(self.session, written)
        except IllegalActionError as error:
            raise IllegalActionError(f"{error.message}; {PLAYER_LIST}", rule=error.rule) from None
        if recipient.id == giver.id:
            raise IllegalActionError(
                "a gift to oneself moves nothing: you already hold it", rule=RULE_OBJECTS
            )
        return recipient

    def _cause(self, turn: Turn, note: str) -> Cause:
        pk = holdings.message_pk_of(self.session, turn.message_id)
        return Cause(turn.occurred_at, RULE_OBJECTS, note, "post", pk)


def _ledger_cause(cause: Cause) -> dict[str, Any]:
    return {
        "at": cause.at,
        "rule": cause.rule,
        "note": cause.note,
        "source": cause.source,
        "message_pk": cause.message_pk,
    }


def _whole(value: object) -> int:
    # The grammar reads amounts and numbers as ints (bot.parser.areas.give).
    if not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {value!r}")
    return value


def _refusal(object_type: ObjectType) -> str:
    return object_type.refusal or (
        f"{object_type.plural} move only as the rules allow, not by a player's own gift"
    )


def transfers_adapters(session: Session, services: Services) -> tuple[TransfersAdapter, ...]:
    """The gifts' adapter, for the post (the roster's game declares it)."""
    return (TransfersAdapter(session, services),)
