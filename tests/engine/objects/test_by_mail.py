"""Objects by mail: statements (public and private), the inventory view, forfeits, renames.

A hidden object's identity (its face, here "of Testing") reaches its holder
alone, by private mail; every public reply and view shows its Back only
(rules 387 and 390 of seed 002).  A forfeit (rule 14) sends each object
where its type says.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from bot.engine import objects
from bot.engine.holdings import Cause
from bot.engine.views import game_view
from bot.games.objects import PLAYER, ObjectType, entity_holder, player_holder
from bot.testing.go_game import ALICE, BOB, EPOCH

if TYPE_CHECKING:
    from conftest import Bot

HIDDEN_WORD = "of Testing"  # in every hidden face, and nowhere public
DECK = entity_holder("deck", "the Deck")
BADGE = objects.declare(ObjectType("Mail Badge", "Mail Badges", rule="T 1"))
FACE = objects.declare(
    ObjectType(
        "Mail Face",
        "Mail Faces",
        rule="384",
        transferable=False,
        holder_kinds=frozenset({PLAYER, "deck"}),
        hidden=True,
        public_attributes=("back",),
        forfeit_to=DECK,
        describe=lambda attributes: f"{attributes['face']}, {attributes['back']} Back",
        describe_public=lambda attributes: f"{attributes['back']} Back",
    )
)


def give(bot: Bot, name: str | None, object_type: ObjectType, **attributes: Any) -> int:
    """A new object for player ``name`` (None: the Deck), as a rule's own action would make it."""
    holder = DECK if name is None else player_holder(bot.player_id(name))
    with bot.app.session_factory.begin() as session:
        made = objects.create(
            session,
            object_type,
            holder,
            Cause(EPOCH, "T", "given for the test", "admin", None),
            attributes=attributes,
        )
    return made.id


@pytest.fixture
def dealt(bot: Bot) -> dict[str, int]:
    """Alice: a Badge and two hidden Faces; the Deck: one Face; Bob: a Badge."""
    return {
        "badge": give(bot, "Alice", BADGE, colour="gold"),
        "queen": give(bot, "Alice", FACE, face="Queen of Testing", back="Red"),
        "king": give(bot, "Alice", FACE, face="King of Testing", back="Red"),
        "jack": give(bot, None, FACE, face="Jack of Testing", back="Blue"),
        "bob": give(bot, "Bob", BADGE, colour="silver"),
    }


def test_a_public_statement_shows_hidden_objects_by_their_backs(
    bot: Bot, dealt: dict[str, int]
) -> None:
    rulings, reply = bot.post(ALICE, "My holdings please.", bot.at(1))
    assert rulings == [
        ("roster.holdings", "applied", "21 A.2", "Alice's statement of holdings is below")
    ]
    assert "Alice holds: 0 points, 0~, 10BW" in reply
    assert "Objects held:\n" in reply
    assert f"  Mail Badge: colour gold #{dealt['badge']}\n" in reply
    assert "  2 Mail Faces: Red Back\n" in reply
    assert "ask by private mail to see them" in reply
    assert HIDDEN_WORD not in reply
    assert f"#{dealt['queen']}" not in reply and f"#{dealt['king']}" not in reply


def test_a_private_statement_shows_the_holder_eir_hidden_objects(
    bot: Bot, dealt: dict[str, int]
) -> None:
    rulings, reply = bot.post(ALICE, "My holdings please.", bot.at(1), private=True)
    assert [ruling[1] for ruling in rulings] == ["applied"]
    assert f"  Mail Face: King of Testing, Red Back #{dealt['king']}\n" in reply
    assert f"  Mail Face: Queen of Testing, Red Back #{dealt['queen']}\n" in reply
    assert f"  Mail Badge: colour gold #{dealt['badge']}\n" in reply
    assert "Jack of Testing" not in reply  # the Deck's, not eirs


def test_a_statement_without_objects_is_as_before(bot: Bot) -> None:
    _rulings, reply = bot.post(ALICE, "My holdings please.", bot.at(1))
    assert "Alice holds: 0 points, 0~, 10BW" in reply
    assert "Objects held" not in reply


def test_the_inventory_view_shows_public_information_only(bot: Bot, dealt: dict[str, int]) -> None:
    with bot.app.session_factory() as session:
        view = game_view(session, bot.app.services, "inventory")
    assert view.text == (
        "Alice:\n"
        "  Mail Badge: colour gold #1\n"
        "  2 Mail Faces: Red Back\n"
        "Bob:\n"
        "  Mail Badge: colour silver #5\n"
        "the Deck:\n"
        "  Mail Face: Blue Back\n"
    )
    as_json = json.dumps(view.data)
    assert HIDDEN_WORD not in view.text and HIDDEN_WORD not in as_json
    assert view.data[0] == {
        "holder": "Alice",
        "kind": "player",
        "objects": [
            {"type": "Mail Badge", "attributes": {"colour": "gold"}, "location": "", "id": 1},
            {"type": "Mail Face", "attributes": {"back": "Red"}, "location": ""},
            {"type": "Mail Face", "attributes": {"back": "Red"}, "location": ""},
        ],
    }


def test_a_forfeit_sends_each_object_where_its_type_says(bot: Bot, dealt: dict[str, int]) -> None:
    rulings, reply = bot.post(ALICE, "I forfeit the game.", bot.at(2))
    [(action, outcome, rule, summary)] = rulings
    assert (action, outcome, rule) == ("roster.forfeit", "applied", "14")
    assert "1 Mail Badge is destroyed (rule 14)" in summary
    assert "2 Mail Faces go to the Deck (rule 14)" in summary
    assert HIDDEN_WORD not in reply
    with bot.app.session_factory() as session:
        assert objects.held_by(session, player_holder(bot.player_id("Alice"))) == ()
        deck = objects.held_by(session, DECK, FACE)
        badge = objects.find(session, dealt["badge"])
        last = objects.history(session, dealt["queen"])[-1]
    assert sorted(item.id for item in deck) == sorted(
        [dealt["queen"], dealt["king"], dealt["jack"]]
    )
    assert badge is not None and badge.destroyed
    assert (last.change, last.rule, last.destination) == ("transferred", "14", DECK)
    assert last.message_id == "objects-001@example.test"  # the forfeit post


def test_a_rename_keeps_eir_objects(bot: Bot, dealt: dict[str, int]) -> None:
    bot.post(BOB, "I change my name to Robert.", bot.at(1))
    _rulings, reply = bot.post(BOB, "My holdings please.", bot.at(2))
    assert "Robert holds:" in reply
    assert f"  Mail Badge: colour silver #{dealt['bob']}\n" in reply
