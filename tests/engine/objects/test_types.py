"""Object types as declared (``bot.games.objects``) and as lines of a statement."""

from __future__ import annotations

import pytest

from bot.engine.inventory import ObjectGroup
from bot.games.objects import PLAYER, ObjectType, entity_holder, player_holder

SECRET = ObjectType(
    "Type Secret", "Type Secrets", rule="T", hidden=True, public_attributes=("back", "size")
)
PLAIN = ObjectType("Type Plain", "Type Plains", rule="T")


def test_a_hidden_type_shows_only_its_public_attributes_unless_to_its_holder() -> None:
    attributes = {"back": "Blue", "face": "Ace of Secrets", "size": 2}
    assert SECRET.public_view(attributes) == {"back": "Blue", "size": 2}
    assert SECRET.public_identity(attributes) == "back Blue, size 2"
    assert SECRET.identity(attributes) == "back Blue, face Ace of Secrets, size 2"
    assert PLAIN.public_view(attributes) == attributes  # nothing hidden
    assert PLAIN.public_identity(attributes) == PLAIN.identity(attributes)
    assert PLAIN.identity({}) == ""


def test_holders_are_players_by_id_or_named_entities() -> None:
    assert player_holder(7).is_player and player_holder(7).name == "7"
    deck = entity_holder("deck", "the Deck")
    assert not deck.is_player
    assert PLAIN.can_hold(player_holder(1)) and not PLAIN.can_hold(deck)
    for kind, name in [(PLAYER, "Alice"), ("", "the Bank"), ("bank", "")]:
        with pytest.raises(ValueError, match="entity holder"):
            entity_holder(kind, name)


def test_a_group_of_objects_as_a_line() -> None:
    one = ObjectGroup("Chip", "Chips", "", "", (3,), 1)
    several = ObjectGroup("Chip", "Chips", "gold", "on the table", (3, 5), 2)
    backs = ObjectGroup("Card", "Cards", "Red Back", "", (), 3)
    assert [one.text(), several.text(), backs.text()] == [
        "Chip #3",
        "2 Chips: gold, on the table (#3, #5)",
        "3 Cards: Red Back",
    ]
