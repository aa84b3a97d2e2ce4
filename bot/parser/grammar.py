"""Compose the area grammars into one LALR post grammar and its transformer.

``grammar/post.lark`` holds the shape of one action clause; the ``action``
rule that lists every area and the ``%import`` lines that pull the areas in
by namespace are generated here from ``bot.parser.areas.AREAS`` (after Lark's
``examples/composition``).  Imported rules and terminals are prefixed with
their namespace (``go__place``, ``dice__DICE``), and ``merge_transformers``
gives each area's transformer the same prefix.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.lexer import PatternRE, PatternStr, TerminalDef
from lark.visitors import merge_transformers

from bot.parser.area import ActionReading, Area
from bot.parser.areas import AREAS, COMMON
from bot.parser.areas.common import CommonTransformer
from bot.parser.saved_grammar import saved_parser, sources_digest
from bot.resources import resource_directory

GRAMMAR_DIRECTORY = resource_directory("grammar")
POST_GRAMMAR = GRAMMAR_DIRECTORY / "post.lark"
END = "$END"
# Keywords outrank the open-ended NAME_WORD pattern wherever both may appear,
# so "Bob twice" reads as a name and a repeat rather than a two-word name.
KEYWORD_PRIORITY = 2
GIFT = "give.object"  # grammar/give.lark's gift of an object, before its owner is known


@dataclass(frozen=True)
class ClauseReading:
    """One clause as the grammar read it: the action and how many times."""

    action: ActionReading
    repeat: int = 1


class PostTransformer(CommonTransformer):
    """The top of the tree: ``start: _lead action repeat?``.

    ``gift_owners`` are the areas that name the objects of their games
    (``Area.gifts``), as (pattern, namespace) in the areas' order.
    """

    def __init__(self, gift_owners: tuple[tuple[re.Pattern[str], str], ...] = ()) -> None:
        super().__init__()
        self.gift_owners = gift_owners

    def start(self, children: list[ActionReading | int]) -> ClauseReading:
        action = children[0]
        if not isinstance(action, ActionReading):  # the grammar puts the action first
            raise TypeError(f"expected an action, got {action!r}")
        repeat = children[1] if len(children) > 1 else 1
        return ClauseReading(
            action=self._owned_gift(action), repeat=repeat if isinstance(repeat, int) else 1
        )

    def _owned_gift(self, action: ActionReading) -> ActionReading:
        """Rule 13: a gift of an object a game keeps in its own state goes to that game."""
        if action.action != GIFT:
            return action
        kind = " ".join(str(action.args.get("kind", "")).split())
        for pattern, namespace in self.gift_owners:
            if kind and pattern.fullmatch(kind):
                spelt = " ".join(word.capitalize() for word in kind.split())
                return ActionReading(f"{namespace}.give", {**action.args, "kind": spelt})
        return action

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]


@dataclass(frozen=True)
class PostGrammar:
    """The composed LALR parser, its transformer, and names for its terminals."""

    parser: Lark
    transformer: Transformer[Token, object]
    keywords: Mapping[str, str] = field(hash=False)
    terminal_names: frozenset[str]
    descriptions: Mapping[str, str] = field(hash=False)
    problems: Mapping[str, str] = field(hash=False)

    def describe(self, terminal: str) -> str:
        """What a player would call ``terminal``: '"stone"', 'a point such as G3'."""
        if terminal == END:
            return "the end of the action"
        if terminal in self.keywords:
            return f'"{self.keywords[terminal]}"'
        base = terminal.rsplit("__", 1)[-1]
        return self.descriptions.get(base, base.lower().replace("_", " "))

    def is_keyword(self, terminal: str) -> bool:
        return terminal in self.keywords


def post_grammar_text(areas: Iterable[Area]) -> str:
    """post.lark followed by the generated ``action`` rule and area imports."""
    areas = tuple(areas)
    namespaces = [area.namespace for area in areas]
    lines = [POST_GRAMMAR.read_text(encoding="utf-8"), ""]
    lines.append("action: " + " | ".join(f"{name}__action" for name in namespaces))
    lines.extend(
        # A relative import reads grammar/; an area kept elsewhere is found
        # on the parser's import paths (``build_post_grammar``).
        f"%import {'.' if area.directory is None else ''}{area.namespace}.action"
        f" -> {area.namespace}__action"
        for area in areas
    )
    return "\n".join(lines) + "\n"


def build_post_grammar(areas: tuple[Area, ...] = AREAS, saved_in: str = "") -> PostGrammar:
    """Compose ``areas`` into one parser; raises lark's GrammarError on a bad grammar.

    With ``saved_in`` (a folder), the parser composed by an earlier process
    from the same grammar is loaded from there, or saved there once composed
    (``bot.parser.saved_grammar``).
    """
    if saved_in:
        digest = sources_digest(_composition_sources(areas))
        parser, keywords = saved_parser(Path(saved_in), digest, lambda: _compose(areas))
    else:
        parser, keywords = _compose(areas)
    transformers = {area.namespace: area.transformer() for area in (COMMON, *areas)}
    return PostGrammar(
        parser=parser,
        transformer=merge_transformers(  # type: ignore[no-untyped-call]  # lark is unannotated
            PostTransformer(_gift_owners(areas)), **transformers
        ),
        keywords=keywords,
        terminal_names=frozenset(t.name for t in parser.terminals) | {END},
        descriptions=_merged(area.terminals for area in (COMMON, *areas)),
        problems=_merged(area.problems for area in (COMMON, *areas)),
    )


def _compose(areas: tuple[Area, ...]) -> tuple[Lark, dict[str, str]]:
    keywords: dict[str, str] = {}
    parser = Lark(
        post_grammar_text(areas),
        parser="lalr",
        lexer="contextual",
        source_path=str(POST_GRAMMAR),
        import_paths=_import_paths(areas),
        edit_terminals=functools.partial(_whole_word_keyword, keywords=keywords),
    )
    return parser, keywords


def _import_paths(areas: tuple[Area, ...]) -> list[str]:
    return sorted({str(area.directory) for area in areas if area.directory})


def _composition_sources(areas: tuple[Area, ...]) -> Iterator[bytes]:
    """Everything ``_compose`` reads: the text, the grammar files, this module.

    Files by name and content, not by where they are: two checkouts of the
    same code (or an installed copy) share one saved grammar instead of
    each replacing the other's.
    """
    yield post_grammar_text(areas).encode()
    yield Path(__file__).read_bytes()  # the composition and the keyword edit
    folders = [GRAMMAR_DIRECTORY, *(Path(path) for path in _import_paths(areas))]
    for position, folder in enumerate(folders):
        for grammar_file in sorted(folder.glob("*.lark")):
            yield f"{position} {grammar_file.name}".encode()
            yield grammar_file.read_bytes()


# The grammar of each set of areas, composed once per process.
_COMPOSED: dict[tuple[Area, ...], PostGrammar] = {}


def post_grammar(areas: tuple[Area, ...] = AREAS, saved_in: str = "") -> PostGrammar:
    """The grammar composed of ``areas``, built once per process for each set of areas.

    ``saved_in`` is used by the process's first call for ``areas`` only
    (``build_post_grammar``); later calls get the same grammar without it.
    """
    grammar = _COMPOSED.get(areas)
    if grammar is None:
        grammar = _COMPOSED[areas] = build_post_grammar(areas, saved_in)
    return grammar


def _gift_owners(areas: tuple[Area, ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple(
        (re.compile(area.gifts, re.IGNORECASE), area.namespace) for area in areas if area.gifts
    )


def _whole_word_keyword(terminal: TerminalDef, keywords: dict[str, str]) -> TerminalDef:
    # Lark matches a string literal anywhere, so "in" would match the start of
    # "intentionally"; a word boundary makes every keyword a whole word.
    pattern = terminal.pattern
    if isinstance(pattern, PatternStr):
        keywords[terminal.name] = pattern.value
        if pattern.value[-1:].isalnum():
            terminal.pattern = PatternRE(re.escape(pattern.value) + r"\b", pattern.flags)
            terminal.priority = KEYWORD_PRIORITY
    return terminal


def _merged(mappings: Iterable[Mapping[str, str]]) -> dict[str, str]:
    merged: dict[str, str] = {}
    for mapping in mappings:
        merged.update(mapping)
    return merged
