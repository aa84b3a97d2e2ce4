"""The composed post parser saved for the next process reads posts as a composed one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.parser import grammar, post
from bot.parser.areas import AREAS
from bot.parser.grammar import PostGrammar, build_post_grammar
from bot.parser.saved_grammar import PREFIX, SUFFIX, sources_digest, user_cache_folder
from bot.pipeline import PipelineSettings, PostContext
from bot.pipeline.parse import parse_actions
from bot.testing.case_table import in_table_order, load_cases, observed

CASES = load_cases(Path(__file__).with_name("cases.txt"))


def saved_files(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"{PREFIX}*{SUFFIX}"))


def not_composed(*_arguments: object) -> None:
    raise AssertionError("composed again instead of loaded")


def test_a_loaded_grammar_reads_the_case_table_as_the_composed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    composed = build_post_grammar(AREAS, saved_in=str(tmp_path))
    [saved] = saved_files(tmp_path)
    monkeypatch.setattr(grammar, "_compose", not_composed)
    loaded = build_post_grammar(AREAS, saved_in=str(tmp_path))
    assert saved_files(tmp_path) == [saved]
    assert loaded.parser is not composed.parser
    assert loaded.keywords == composed.keywords
    assert loaded.terminal_names == composed.terminal_names
    # Every case of the table, read by the loaded parser (rules 8 and 1896).
    monkeypatch.setattr(post, "post_grammar", lambda *_arguments: loaded)
    for case in CASES:
        assert observed(case.text, post.parse_post) == in_table_order(case.expected), case.line


def test_another_set_of_areas_is_saved_under_another_name(tmp_path: Path) -> None:
    everything = build_post_grammar(AREAS, saved_in=str(tmp_path))
    [first] = saved_files(tmp_path)
    go_only = tuple(area for area in AREAS if area.namespace == "go")
    fewer = build_post_grammar(go_only, saved_in=str(tmp_path))
    [saved] = saved_files(tmp_path)  # the other composition's file is gone
    assert saved != first
    assert fewer.terminal_names < everything.terminal_names  # not everything's parser
    assert reads_a_move(fewer)


def test_the_digest_tells_every_part_apart() -> None:
    assert sources_digest([b"ab", b"c"]) != sources_digest([b"a", b"bc"])
    assert sources_digest([b"grammar"]) == sources_digest([b"grammar"])


def test_a_file_cut_short_is_composed_and_written_again(tmp_path: Path) -> None:
    build_post_grammar(AREAS, saved_in=str(tmp_path))
    [saved] = saved_files(tmp_path)
    whole = saved.read_bytes()
    saved.write_bytes(whole[: len(whole) // 2])
    again = build_post_grammar(AREAS, saved_in=str(tmp_path))
    assert saved.read_bytes() != whole[: len(whole) // 2]
    assert reads_a_move(again)


def test_a_folder_that_cannot_be_written_costs_only_the_time(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    composed = build_post_grammar(AREAS, saved_in=str(blocker / "cache"))
    assert reads_a_move(composed)
    assert not list(tmp_path.glob(f"**/{PREFIX}*"))


def reads_a_move(composed: PostGrammar) -> bool:
    tree = composed.parser.parse("I place a stone at G3")
    return bool(tree.children)


def test_the_folder_is_the_users_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert user_cache_folder() == str(tmp_path / "xdg" / "nomicbot")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache_folder() == str(tmp_path / "home" / ".cache" / "nomicbot")


def test_the_parse_stage_asks_for_the_saved_grammar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that prepares posts itself (the daemon, a short replay) loads it too."""
    asked: list[tuple[object, ...]] = []
    composed = build_post_grammar(AREAS)

    def recorded(*arguments: object) -> PostGrammar:
        asked.append(arguments)
        return composed

    monkeypatch.setattr(post, "post_grammar", recorded)
    settings = PipelineSettings(
        bot_addresses=frozenset(), list_addresses=frozenset(), grammar_folder=str(tmp_path)
    )
    context = PostContext(raw=b"", settings=settings, visible_text="I place a stone at G3")
    parse_actions(context)
    assert asked == [(AREAS, str(tmp_path))]
    assert context.parsed is not None and [a.action for a in context.parsed.actions] == ["go.place"]


def test_two_checkouts_of_the_same_grammar_share_one_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What names the file is the grammar files' names and contents, not their folder."""
    here = sources_digest(grammar._composition_sources(AREAS))
    copy = tmp_path / "copy"
    shutil.copytree(grammar.GRAMMAR_DIRECTORY, copy)
    monkeypatch.setattr(grammar, "GRAMMAR_DIRECTORY", copy)
    assert sources_digest(grammar._composition_sources(AREAS)) == here
    (copy / "go.lark").write_text((copy / "go.lark").read_text() + "\n// changed\n")
    assert sources_digest(grammar._composition_sources(AREAS)) != here
