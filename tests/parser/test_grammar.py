"""The composed LALR grammar: conflict-free, namespaced, one file per area."""

from __future__ import annotations

import logging

import pytest
from lark import logger as lark_logger

from bot.parser.areas import AREAS
from bot.parser.grammar import GRAMMAR_DIRECTORY, build_post_grammar, post_grammar_text
from bot.parser.reading import read_clause


def test_every_area_has_its_own_grammar_file_and_triggers() -> None:
    assert {area.namespace for area in AREAS} >= {"go", "dice", "roster"}
    for area in AREAS:
        assert (GRAMMAR_DIRECTORY / f"{area.namespace}.lark").is_file()
        assert area.triggers
    assert (GRAMMAR_DIRECTORY / "common.lark").is_file()


def test_the_post_grammar_imports_each_area_under_its_namespace() -> None:
    text = post_grammar_text(AREAS)
    for area in AREAS:
        assert f"%import .{area.namespace}.action -> {area.namespace}__action" in text


def test_the_composed_grammar_has_no_lalr_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    # Lark resolves shift/reduce conflicts silently (as shifts) and only logs
    # them at debug level; a conflict means some sentence is misread.
    previous_level = lark_logger.level
    lark_logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            build_post_grammar()
    finally:
        lark_logger.setLevel(previous_level)
    assert not [record for record in caplog.records if "conflict" in record.getMessage()]


def test_rules_arrive_namespaced_and_keywords_are_whole_words() -> None:
    grammar = build_post_grammar()
    tree = grammar.parser.parse("I place a stone at G3")
    assert "go__place" in {subtree.data for subtree in tree.iter_subtrees()}
    # "in" must not match the start of "intentionally".
    outcome = read_clause("I pass intentionally", grammar)
    assert outcome.failure is not None
    assert outcome.failure.position == len("I pass ")
    assert outcome.reading is not None and outcome.reading.action.action == "go.pass"


def test_a_partial_reading_keeps_the_action_read_before_the_failure() -> None:
    grammar = build_post_grammar()
    outcome = read_clause("I roll 2d6 for the Arena", grammar)
    assert outcome.reading is not None
    assert outcome.end == len("I roll 2d6")
    assert outcome.reading.action.args == {"count": 2, "sides": 6}
