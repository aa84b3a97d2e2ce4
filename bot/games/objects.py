"""Objects that are not currencies: their types, holders and who may move them.

Rule 13 (seed 004): "Unless otherwise stated, Players are capable of
possessing any Object and of transferring any Object they possess to any
entity that can possess that Object."  A game says otherwise for its own
objects: A Nomic's Cards "are only transferrable under conditions stated by
the rules" (rule 384, seed 002), and a Garden "may not be given away"
(rule 1902 A, seed 004).  So each game declares an ``ObjectType`` in its own
module: who can hold one, whether a player may hand one on, whether its
identity is private to its holder, and where it goes when its holder
forfeits (rule 14).  The engine (``bot.engine.objects``) keeps the objects
themselves and calls ``check_transfer`` before a player's transfer.

A *holder* is a player (by id, so a rename under rule 151 changes nothing)
or a named entity that is not a player: the Deck (rule 389), the Bank, a
Contestmaster's pot.  Pure: standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.errors import IllegalActionError

PLAYER = "player"  # the kind of holder a player is; every other kind is an entity
ObjectAttributes = Mapping[str, Any]
RULE_OBJECTS = "13"  # seed 004: possessing and transferring Objects


@dataclass(frozen=True, order=True)
class Holder:
    """Who holds an object: ``kind`` "player" with the player's id as ``name``, or an entity.

    An entity's ``name`` is how the rules write it ("the Deck", "the Bank").
    """

    kind: str
    name: str

    @property
    def is_player(self) -> bool:
        return self.kind == PLAYER


def player_holder(player_id: int) -> Holder:
    """The holder that is the player with id ``player_id``."""
    return Holder(PLAYER, str(player_id))


def entity_holder(kind: str, name: str) -> Holder:
    """A holder that is not a player, e.g. ``entity_holder("deck", "the Deck")``."""
    if kind == PLAYER or not kind or not name:
        raise ValueError(f"an entity holder needs a kind other than {PLAYER!r} and a name")
    return Holder(kind, name)


# Whether a player may hand an object of a type on: (its attributes, from, to) -> allowed.
TransferCheck = Callable[[ObjectAttributes, Holder, Holder], bool]
Describe = Callable[[ObjectAttributes], str]


@dataclass(frozen=True)
class ObjectType:
    """A kind of object a game declares (a Card, a Chip, a Garden).

    ``rule`` is the rule that defines it and is cited when a transfer is
    refused.  ``transferable`` says whether a player may transfer one e holds
    by eir own action (True: rule 13's default; False: never; or a check of
    the object and the two holders); the rules' own actions (dealing, a
    Trade, a prize) move objects whatever it says.  ``holder_kinds`` are the
    kinds of holder that can possess one (rule 13: "any entity that can
    possess that Object").  ``hidden``: its identity is known to its holder
    alone, and everyone else sees only ``public_attributes`` (a Card's Back,
    rule 390).  ``forfeit_to``: where eir objects of this type go when a
    player forfeits (rule 14: e "loses all game defined properties"); None
    destroys them.  ``refusal`` says why a player may not transfer one, in
    the rule's words ("Gardens may not be given away").  ``describe`` writes
    an object's full identity and ``describe_public`` what everyone may see
    of a hidden one.  ``nouns`` are regular expressions for the other words
    players name one by ("QH" for a Card, "Vine" for a Plant), besides its
    name and plural, so that a gift "I give my X to Bob" finds its type.
    """

    name: str
    plural: str
    rule: str
    transferable: bool | TransferCheck = True
    holder_kinds: frozenset[str] = frozenset({PLAYER})
    hidden: bool = False
    public_attributes: tuple[str, ...] = ()
    forfeit_to: Holder | None = None
    describe: Describe | None = None
    describe_public: Describe | None = None
    refusal: str = ""  # why a player may not transfer one, in the rule's words
    nouns: tuple[str, ...] = ()

    def identity(self, attributes: ObjectAttributes) -> str:
        """The object as its holder knows it, without the type's name ("Queen of Hearts")."""
        if self.describe is not None:
            return self.describe(attributes)
        return _attribute_text(attributes)

    def public_identity(self, attributes: ObjectAttributes) -> str:
        """What anyone may know of the object: all of it, or of a hidden one its Back."""
        if not self.hidden:
            return self.identity(attributes)
        if self.describe_public is not None:
            return self.describe_public(attributes)
        return _attribute_text(self.public_view(attributes))

    def public_view(self, attributes: ObjectAttributes) -> dict[str, Any]:
        """The attributes everyone may see: all, or a hidden object's public ones only."""
        shown = attributes.keys() if not self.hidden else self.public_attributes
        return {key: attributes[key] for key in shown if key in attributes}

    def can_hold(self, holder: Holder) -> bool:
        return holder.kind in self.holder_kinds


def type_named_by(noun: str, types: Iterable[ObjectType]) -> ObjectType | None:
    """The type ``noun`` names ("Handy Pack", "handy packs", a Card's "QH"), or None.

    A type's name or plural, ignoring case and spacing, first; then its ``nouns``.
    """
    wanted = " ".join(noun.split()).casefold()
    candidates = tuple(types)
    for object_type in candidates:
        if wanted in (object_type.name.casefold(), object_type.plural.casefold()):
            return object_type
    for object_type in candidates:
        if any(re.fullmatch(pattern, wanted, re.IGNORECASE) for pattern in object_type.nouns):
            return object_type
    return None


def never_transferable(object_type: ObjectType) -> bool:
    """Whether the type's rule forbids every transfer a player makes (1902 A, 1917 A, 384)."""
    return object_type.transferable is False


def check_holder(object_type: ObjectType, holder: Holder, holder_text: str) -> None:
    """Rule 13: only "an entity that can possess that Object"; ``IllegalActionError`` else."""
    if not object_type.can_hold(holder):
        raise IllegalActionError(
            f"{holder_text} cannot hold a {object_type.name}", rule=object_type.rule
        )


def check_transfer(
    object_type: ObjectType,
    attributes: ObjectAttributes,
    source: Holder,
    destination: Holder,
    *,
    mover: Holder,
    destination_text: str,
) -> None:
    """A player's own transfer of an object from ``source`` to ``destination``.

    Raises ``IllegalActionError``: citing rule 13 when ``mover`` does not
    hold it ("any Object they possess") or it would go nowhere; citing the
    type's rule when the type forbids it or ``destination`` cannot hold one.
    """
    if source != mover:
        raise IllegalActionError(
            f"you can transfer only a {object_type.name} you hold, and you do not hold this one",
            rule=RULE_OBJECTS,
        )
    if destination == source:
        raise IllegalActionError(f"you already hold this {object_type.name}", rule=RULE_OBJECTS)
    if not _allowed(object_type, attributes, source, destination):
        why = object_type.refusal or (
            f"{object_type.plural} move only as the rules allow, not by a player's own transfer"
        )
        raise IllegalActionError(why, rule=object_type.rule)
    check_holder(object_type, destination, destination_text)


def _allowed(
    object_type: ObjectType, attributes: ObjectAttributes, source: Holder, destination: Holder
) -> bool:
    if isinstance(object_type.transferable, bool):
        return object_type.transferable
    return object_type.transferable(attributes, source, destination)


def _attribute_text(attributes: ObjectAttributes) -> str:
    # Without a describe of its own, a type shows its attributes as they are stored.
    return ", ".join(f"{key} {value}" for key, value in sorted(attributes.items()))


# -- currencies (rule 13 over the ledger's balances) ------------------------------------

RULE_RENOWN = "1899"
RENOWN_REFUSAL = "Renown may not be given away, it must be earned"


def check_currency_gift(currency: str) -> None:
    """Whether a player may give an amount of ``currency`` (a ledger name) to another.

    Rule 13 lets a player transfer "any Object they possess": tildex (21 A.2,
    "the amount of Tildex any game entity possesses"), points (21 A.1, "the
    number of points in the posession of a player") and Bandwidth Chits (212,
    "Game Objects") all are; Renown is not (1899: "Renown may not be given
    away, it must be earned").  Raises ``IllegalActionError`` citing 1899.
    """
    if currency == "renown" or currency.startswith("renown:"):
        raise IllegalActionError(RENOWN_REFUSAL, rule=RULE_RENOWN)
