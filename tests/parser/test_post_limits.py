"""The referee's limits on one post, as the parser applies them (bot.parser.limits).

Rule 1896 (seed 004) sets no number to "n times"; the reading "Limits on one
post" in docs/readings.md takes at most 20 repeats of one action and 50
actions from one post, and reads a post only up to its 50th clause.
"""

from __future__ import annotations

import resource
from collections import Counter
from typing import Any

import pytest

from bot.parser import parse_post
from bot.parser import post as post_module
from bot.parser.limits import HUGE, MAX_ACTIONS, MAX_REPEATS, planned
from bot.parser.sentences import Sentence


def test_a_billion_repeats_are_read_as_one_number_without_building_anything() -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = parse_post("I roll 1d6 1000000000 times.")
    items = list(planned(result.actions))
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 20_000  # KiB
    assert [action.repeat for action in result.actions] == [10**9]
    assert len(items) == MAX_REPEATS + 1
    assert [bool(item.withheld) for item in items] == [False] * MAX_REPEATS + [True]
    assert "repeats 21 to 1,000,000,000" in items[-1].withheld
    assert "Limits on one post" in items[-1].withheld


def test_thousands_of_digits_are_a_huge_count_not_a_crash() -> None:
    # Python refuses to convert more than 4,300 digits: the parser used to
    # raise, and the post was shunted instead of answered.
    for text in (
        "I roll 1d6 " + "9" * 5000 + " times.",
        "I roll 1d6 x" + "9" * 5000 + ".",
        "I roll " + "9" * 5000 + "d6.",
    ):
        (action,) = parse_post(text).actions
        assert action.repeat == HUGE or action.args["count"] == HUGE
    (action,) = parse_post("I roll 1d6 " + "9" * 5000 + " times.").actions
    *_, withheld = planned([action])
    assert withheld.withheld.startswith("repeats 21 on,")


def test_the_actions_of_one_post_stop_at_fifty_repeats_counted() -> None:
    text = "I roll 1d6 20 times. I roll 2d6 20 times. I roll 3d6 20 times. I pass. I pass if I may."
    items = list(planned(parse_post(text).actions))
    taken = [item for item in items if not item.withheld]
    withheld = [item for item in items if item.withheld]
    assert len(taken) == MAX_ACTIONS
    assert [item.args.get("count") for item in taken[40:]] == [3] * 10
    assert [item.action for item in withheld] == ["dice.roll", "go.pass", "go.pass"]
    assert withheld[0].withheld.startswith("repeats 11 to 20, as one post takes at most 50")
    assert withheld[1].withheld.startswith("it comes after the first 50 actions")
    assert withheld[2].conditional  # a conditional action is withheld like any other
    # Each withheld item stands where its first untaken repeat would have.
    assert items.index(withheld[0]) == MAX_ACTIONS


def test_reading_stops_at_the_limit_and_says_where() -> None:
    text = "".join(f"I place a stone at G{n}.\n" for n in range(1, 10)) * 7  # 63 clauses
    whole = parse_post(text)
    limited = parse_post(text, limit=MAX_ACTIONS)
    assert len(whole.actions) + len(whole.not_understood) == 63 and whole.unread == ""
    assert len(limited.actions) + len(limited.not_understood) == MAX_ACTIONS
    assert limited.actions == whole.actions[: len(limited.actions)]
    assert limited.unread == "I place a stone at G6."  # the 51st clause
    assert limited.to_json()["unread"] == limited.unread


def test_a_hostile_megabyte_of_actions_is_read_only_to_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "I pass. " * 125_000  # a megabyte: about ten seconds to read whole
    read = Counter[int]()
    reading = post_module._sentence_results

    def counted(sentences: tuple[Sentence, ...], index: int, *rest: Any) -> list[Any]:
        read[index] += 1
        return reading(sentences, index, *rest)

    monkeypatch.setattr(post_module, "_sentence_results", counted)
    result = parse_post(text, limit=MAX_ACTIONS)
    assert len(result.actions) == MAX_ACTIONS and result.unread == "I pass."
    # The grammar read the 50 sentences taken and the one that stopped it, of 125,000.
    assert sorted(read) == list(range(MAX_ACTIONS + 1)) and set(read.values()) == {1}
