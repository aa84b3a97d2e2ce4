"""Objects and transfers, ``bot.engine.objects`` (rules 13, 1902 A of seed 004; 384 of 002).

Test-only object types stand in for a game's: a Token anyone may hand on
(rule 13's default), a Plot that may never be given away (as rule 1902 A's
Gardens), a Marker only to another player, and a Face card that is hidden
and may be held by the Deck.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import event, func, select

from bot.engine import objects
from bot.engine.holdings import Cause
from bot.games.errors import IllegalActionError
from bot.games.objects import PLAYER, Holder, ObjectType, entity_holder, player_holder
from bot.store.models import GameObject, Message, ObjectEvent
from bot.testing.go_game import ALICE, EPOCH

if TYPE_CHECKING:
    from conftest import Bot
    from sqlalchemy.orm import Session

DECK = entity_holder("deck", "the Deck")
TOKEN = objects.declare(ObjectType("Objects Token", "Objects Tokens", rule="13"))
PLOT = objects.declare(
    ObjectType(
        "Objects Plot",
        "Objects Plots",
        rule="1902 A",
        transferable=False,
        refusal="Objects Plots may not be given away",
    )
)
MARKER = objects.declare(
    ObjectType(
        "Objects Marker",
        "Objects Markers",
        rule="T 2",
        transferable=lambda attributes, source, destination: destination.kind == PLAYER,
        holder_kinds=frozenset({PLAYER, "deck"}),
    )
)
FACE = objects.declare(
    ObjectType(
        "Objects Face",
        "Objects Faces",
        rule="384",
        transferable=False,
        holder_kinds=frozenset({PLAYER, "deck"}),
        hidden=True,
        public_attributes=("back",),
        forfeit_to=DECK,
    )
)


def cause(session: Session, rule: str, note: str, hours: float = 1) -> Cause:
    """A cause naming the first stored post (Alice's), as a ruling's would."""
    message_pk = session.scalar(select(Message.id).order_by(Message.id).limit(1))
    assert message_pk is not None
    return Cause(EPOCH + timedelta(hours=hours), rule, note, "post", message_pk)


@pytest.fixture
def stored_post(bot: Bot) -> str:
    """A real post in the database, for the log entries to name; its Message-ID."""
    bot.post(ALICE, "My holdings please.", bot.at(1))
    return "objects-001@example.test"


def test_create_transfer_destroy_each_log_their_post_and_rule(bot: Bot, stored_post: str) -> None:
    alice, bob = player_holder(bot.player_id("Alice")), player_holder(bot.player_id("Bob"))
    with bot.app.session_factory.begin() as session:
        token = objects.create(
            session, TOKEN, alice, cause(session, "T 1", "a prize"), attributes={"colour": "red"}
        )
        moved = objects.transfer(
            session, token.id, bob, cause(session, "13", "given", 2), mover=alice
        )
        assert (moved.holder, moved.attributes) == (bob, {"colour": "red"})
        gone = objects.destroy(session, token.id, cause(session, "T 3", "burnt", 3))
        assert gone.destroyed and gone.holder == objects.DESTROYED
        found = objects.find(session, token.id)
        assert found is not None and found.destroyed
        changes = objects.history(session, token.id)
    assert [
        (c.change, c.source, c.destination, c.rule, c.note, c.cause, c.message_id) for c in changes
    ] == [
        ("created", None, alice, "T 1", "a prize", "post", stored_post),
        ("transferred", alice, bob, "13", "given", "post", stored_post),
        ("destroyed", bob, None, "T 3", "burnt", "post", stored_post),
    ]
    assert changes[0].attributes == {"colour": "red"}
    assert [c.at.hour for c in changes] == [1, 2, 3]


def test_the_log_is_appended_to_and_the_object_row_updated(bot: Bot, stored_post: str) -> None:
    alice, bob = player_holder(bot.player_id("Alice")), player_holder(bot.player_id("Bob"))
    with bot.app.session_factory.begin() as session:
        token = objects.create(session, TOKEN, alice, cause(session, "T 1", "made"))
        for hours in range(2, 6):
            holder = bob if hours % 2 == 0 else alice
            objects.transfer(session, token.id, holder, cause(session, "13", "passed", hours))
        rows = session.scalars(select(GameObject)).all()
        events = session.scalar(select(func.count()).select_from(ObjectEvent))
    assert [(row.holder_kind, row.holder) for row in rows] == [(alice.kind, alice.name)]
    assert events == 5


def test_a_plot_may_never_be_given_away_and_the_refusal_cites_its_rule(
    bot: Bot, stored_post: str
) -> None:
    alice, bob = player_holder(bot.player_id("Alice")), player_holder(bot.player_id("Bob"))
    with bot.app.session_factory.begin() as session:
        plot = objects.create(session, PLOT, alice, cause(session, "1902 A", "each player's"))
        with pytest.raises(IllegalActionError, match="may not be given away") as refused:
            objects.transfer(session, plot.id, bob, cause(session, "13", "given"), mover=alice)
        assert refused.value.rule == "1902 A"
        held = objects.find(session, plot.id)
        assert held is not None and held.holder == alice  # nothing moved
        assert [c.change for c in objects.history(session, plot.id)] == ["created"]


def test_a_hidden_card_moves_only_by_the_rules_own_actions(bot: Bot, stored_post: str) -> None:
    alice, bob = player_holder(bot.player_id("Alice")), player_holder(bot.player_id("Bob"))
    with bot.app.session_factory.begin() as session:
        face = objects.create(
            session, FACE, DECK, cause(session, "389", "the Deck"), attributes={"back": "Red"}
        )
        dealt = objects.transfer(session, face.id, alice, cause(session, "387", "dealt"))
        assert dealt.holder == alice  # the Dealer's deal: the rules' own action
        with pytest.raises(IllegalActionError, match="move only as the rules allow") as refused:
            objects.transfer(session, face.id, bob, cause(session, "13", "given"), mover=alice)
        assert refused.value.rule == "384"


def test_a_player_transfers_only_what_e_holds_to_one_who_can_hold_it(
    bot: Bot, stored_post: str
) -> None:
    alice, bob = player_holder(bot.player_id("Alice")), player_holder(bot.player_id("Bob"))
    with bot.app.session_factory.begin() as session:
        token = objects.create(session, TOKEN, alice, cause(session, "T 1", "made"))
        marker = objects.create(session, MARKER, alice, cause(session, "T 2", "made"))
        with pytest.raises(IllegalActionError, match="only a Objects Token you hold") as other:
            objects.transfer(session, token.id, alice, cause(session, "13", "taken"), mover=bob)
        with pytest.raises(IllegalActionError, match="already hold") as same:
            objects.transfer(session, token.id, alice, cause(session, "13", "kept"), mover=alice)
        with pytest.raises(IllegalActionError, match="the Deck cannot hold") as nobody:
            objects.transfer(session, token.id, DECK, cause(session, "13", "binned"), mover=alice)
        assert (other.value.rule, same.value.rule, nobody.value.rule) == ("13", "13", "13")
        # The Marker's own check: to a player yes, to the Deck (which can hold one) no.
        with pytest.raises(IllegalActionError, match="Markers move only as") as check:
            objects.transfer(session, marker.id, DECK, cause(session, "T 2", "x"), mover=alice)
        assert check.value.rule == "T 2"
        objects.transfer(session, marker.id, bob, cause(session, "13", "given"), mover=alice)
        assert [item.id for item in objects.held_by(session, bob)] == [marker.id]


def test_nothing_moves_a_destroyed_or_unknown_object(bot: Bot, stored_post: str) -> None:
    alice = player_holder(bot.player_id("Alice"))
    with bot.app.session_factory.begin() as session:
        token = objects.create(session, TOKEN, alice, cause(session, "T 1", "made"))
        objects.destroy(session, token.id, cause(session, "T 3", "burnt"))
        with pytest.raises(IllegalActionError, match=f"object {token.id} was destroyed"):
            objects.transfer(session, token.id, alice, cause(session, "13", "x"))
        with pytest.raises(IllegalActionError, match="there is no object 999"):
            objects.destroy(session, 999, cause(session, "13", "x"))
        assert objects.find(session, 999) is None
        assert objects.held_by(session, alice) == ()


def test_listing_by_holder_and_type(bot: Bot, stored_post: str) -> None:
    alice, bob = player_holder(bot.player_id("Alice")), player_holder(bot.player_id("Bob"))
    with bot.app.session_factory.begin() as session:
        made = [
            objects.create(session, kind, holder, cause(session, "T", "made"))
            for kind, holder in [(TOKEN, alice), (PLOT, alice), (TOKEN, bob), (TOKEN, alice)]
        ]
        objects.move(session, made[0].id, "on the table", cause(session, "T", "shown"))
        objects.change_attributes(session, made[0].id, {"worn": True}, cause(session, "T", "used"))
        assert [item.id for item in objects.held_by(session, alice)] == [
            made[0].id,
            made[1].id,
            made[3].id,
        ]
        assert [item.id for item in objects.held_by(session, alice, TOKEN)] == [
            made[0].id,
            made[3].id,
        ]
        first = objects.held_by(session, alice, TOKEN)[0]
        assert (first.location, first.attributes) == ("on the table", {"worn": True})
        assert [c.change for c in objects.history(session, made[0].id)] == [
            "created",
            "moved",
            "changed",
        ]


def test_listing_by_holder_is_an_index_search(bot: Bot, stored_post: str) -> None:
    # The cost of a statement must not grow with the game's age (issue 14):
    # SQLite's plan for the very query ``held_by`` sends searches the holder
    # index, never the whole table.
    alice = player_holder(bot.player_id("Alice"))
    sent: list[tuple[str, Any]] = []

    def keep(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_rest: Any) -> None:
        if "FROM game_object" in statement:
            sent.append((statement, parameters))

    engine = bot.app.engine
    event.listen(engine, "before_cursor_execute", keep)
    try:
        with bot.app.session_factory() as session:
            objects.held_by(session, alice, TOKEN)
            objects.held_by(session, alice)
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    assert len(sent) == 2
    with engine.connect() as connection:
        for statement, parameters in sent:
            plan = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
            details = " ".join(str(row[-1]) for row in plan)
            assert "SEARCH game_object USING INDEX ix_game_object_holder_type" in details, details


def test_a_type_must_be_declared_once_under_its_name(bot: Bot, stored_post: str) -> None:
    assert objects.declare(TOKEN) is TOKEN  # the same declaration again is harmless
    with pytest.raises(ValueError, match="already declared"):
        objects.declare(ObjectType("Objects Token", "Objects Tokens", rule="99"))
    undeclared = ObjectType("Objects Ghost", "Objects Ghosts", rule="0")
    with (
        bot.app.session_factory.begin() as session,
        pytest.raises(ValueError, match="not declared"),
    ):
        objects.create(session, undeclared, Holder(PLAYER, "1"), cause(session, "0", "x"))
    with pytest.raises(KeyError, match="not declared"):
        objects.type_named("Objects Ghost")
