"""Intents and pairing (rule Knucklebones/Commencement, seed 001)."""

from __future__ import annotations

import pytest

from bot.games.errors import AmbiguousActionError, IllegalActionError
from bot.games.knucklebones import (
    RULE_COMMENCEMENT,
    Intent,
    IntentMode,
    Pairing,
    make_intent,
    pair_intents,
    unpaired,
)

EACH = IntentMode.EACH
ONE_OF = IntentMode.ONE_OF


def intents(*specs: tuple[str, tuple[str, ...], IntentMode]) -> list[Intent]:
    return [Intent(number, *spec) for number, spec in enumerate(specs, 1)]


def pairs(found: tuple[Pairing, ...]) -> list[tuple[str, str]]:
    return [(pairing.first, pairing.second) for pairing in found]


def test_two_players_naming_each_other_start_a_game() -> None:
    # "If in this way the intent of two players is stated to play a game of
    # Knucklebones against each other, for that two players a game starts"
    stated = intents(("Alice", ("Bob",), ONE_OF), ("Bob", ("Alice",), ONE_OF))
    assert pair_intents(stated) == (Pairing("Alice", "Bob", (1, 2)),)


def test_an_intent_answered_by_nobody_starts_nothing() -> None:
    stated = intents(("Alice", ("Bob",), ONE_OF), ("Bob", ("Carol",), ONE_OF))
    assert pair_intents(stated) == ()
    assert unpaired(stated, ()) == tuple(stated)


def test_naming_several_opponents_must_say_one_or_each() -> None:
    # "If naming multiple opponents, the statement must be specific wether they
    # wish to play one game [...] against one of the named opponents or
    # multiple games against any (sub-)set of the named opponents."
    with pytest.raises(AmbiguousActionError) as refusal:
        make_intent(1, "Alice", ("Bob", "Carol"), None)
    assert refusal.value.rule == RULE_COMMENCEMENT
    assert make_intent(1, "Alice", ("Bob",), None).mode is ONE_OF
    assert make_intent(1, "Alice", ("Bob", "Carol"), EACH).mode is EACH


def test_nobody_plays_against_emself() -> None:
    with pytest.raises(IllegalActionError, match="against emself"):
        make_intent(1, "Alice", ("Alice",), None)


def test_one_game_against_one_of_them_starts_one_game() -> None:
    stated = intents(
        ("Alice", ("Bob", "Carol"), ONE_OF),
        ("Bob", ("Alice",), ONE_OF),
        ("Carol", ("Alice",), ONE_OF),
    )
    # Reading: the earliest-stated answering intent (Bob's) gets the game.
    assert pairs(pair_intents(stated)) == [("Alice", "Bob")]


def test_a_game_against_each_starts_one_per_answering_opponent() -> None:
    # "(Which does not mean it is only possible for two players to start a game
    # of Knucklebones but for each possible pair of players.)"
    stated = intents(
        ("Alice", ("Bob", "Carol", "Dave"), EACH),
        ("Bob", ("Alice",), ONE_OF),
        ("Carol", ("Alice",), ONE_OF),
    )
    assert pairs(pair_intents(stated)) == [("Alice", "Bob"), ("Alice", "Carol")]


def test_an_intent_naming_nobody_plays_anyone_once() -> None:
    stated = intents(("Alice", (), ONE_OF), ("Bob", (), ONE_OF), ("Carol", (), ONE_OF))
    assert pairs(pair_intents(stated)) == [("Alice", "Bob")]
    assert [intent.player for intent in unpaired(stated, pair_intents(stated))] == ["Carol"]


def test_two_statements_each_are_two_games_between_the_same_pair() -> None:
    # "state their intention to join one or multiple games of Knucklebones"
    stated = intents(
        ("Alice", ("Bob",), ONE_OF),
        ("Alice", ("Bob",), ONE_OF),
        ("Bob", ("Alice",), ONE_OF),
        ("Bob", ("Alice",), ONE_OF),
    )
    assert pair_intents(stated) == (
        Pairing("Alice", "Bob", (1, 3)),
        Pairing("Alice", "Bob", (2, 4)),
    )


def test_a_game_against_each_offers_one_game_per_opponent() -> None:
    stated = intents(
        ("Alice", ("Bob", "Carol"), EACH),
        ("Bob", ("Alice",), ONE_OF),
        ("Bob", ("Alice",), ONE_OF),
    )
    assert pairs(pair_intents(stated)) == [("Alice", "Bob")]


def test_intents_describe_themselves() -> None:
    assert Intent(1, "Alice").describe() == "Alice: one game against anyone"
    assert Intent(2, "Alice", ("Bob",)).describe() == "Alice: one game against Bob"
    assert (
        Intent(3, "Alice", ("Bob", "Carol", "Dave"), EACH).describe()
        == "Alice: a game against each of Bob, Carol and Dave"
    )
    assert (
        Intent(4, "Alice", ("Bob", "Carol"), ONE_OF).describe()
        == "Alice: one game against one of Bob or Carol"
    )
