"""The names of the entities a proposal defines, for rule 151 (seed 004).

Rule 151: "No player may change eir name to that of an entity defined in a
current proposal."  A proposal is prose, so "defined" is read as a fair
referee would read it: a name is defined where the text introduces it,

* by naming it: "called X", "named X", "known as X", "hereafter X";
* as a term: '"X" means', "X is defined as", "X shall mean", "X refers to";
* by saying what it is, at the start of a sentence: "A Zorg is a Game
  Object", "The Grand Vizier is an Office" (rules 5, 15 and 1823 define
  their own terms so).

where X is a quoted phrase or a run of capitalised words ("the Ministry of
Fun": "of" and "the" may join capitalised words).  A word the text merely
uses ("Everyone gets cake") defines nothing.  Names are compared ignoring
case, spacing and a leading article, as rule 2 compares players' names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_CAPITALISED = r"[A-Z][\w'-]*"
_JOINER = r"(?:of|the|and|de|von|van)"
# A run of capitalised words, possibly joined by "of" or "the" between them.
_TITLE = rf"{_CAPITALISED}(?:\s+(?:{_JOINER}\s+)*{_CAPITALISED})*"
_QUOTED = r"[\"“'‘](?P<quoted>[^\"”'’\n]{1,200})[\"”'’]"
_TERM = rf"(?:{_QUOTED}|(?P<title>{_TITLE}))"
_ARTICLE = r"(?i:(?:a|an|the)\s+)?"
# The verbs in any case; the name itself must be capitalised or quoted.
_NAMING = re.compile(
    rf"\b(?i:called|named|known\s+as|hereafter|henceforth|hereinafter)\s+{_ARTICLE}{_TERM}"
)
_TERM_DEFINED = re.compile(
    rf"{_TERM}\s+(?:means|is\s+defined\s+as|are\s+defined\s+as|shall\s+mean|refers\s+to)\b"
)
_SENTENCE_START = r"(?:^|(?<=[.!?:;])\s+|\n\s*)"
_WHAT_IT_IS = re.compile(
    rf"{_SENTENCE_START}(?:A|An|The)\s+(?P<title>{_TITLE})\s+(?:is|are)\s+(?:a|an)\b"
)
_LEADING_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)


def defined_names(text: str) -> frozenset[str]:
    """The names ``text`` defines, each as written (without a leading article)."""
    return frozenset(_found(text))


def name_key(name: str) -> str:
    """How names are compared: no case, single spaces, no leading article."""
    spaced = " ".join(name.split())
    return _LEADING_ARTICLE.sub("", spaced).casefold()


def defines_name(text: str, name: str) -> bool:
    """Whether ``text`` defines an entity called ``name``."""
    wanted = name_key(name)
    return bool(wanted) and any(name_key(found) == wanted for found in _found(text))


def _found(text: str) -> Iterator[str]:
    for pattern in (_NAMING, _TERM_DEFINED, _WHAT_IT_IS):
        for match in pattern.finditer(text):
            groups = match.groupdict()
            name = groups.get("quoted") or groups.get("title") or ""
            name = " ".join(name.split()).strip(" .,;:")
            if name:
                yield _LEADING_ARTICLE.sub("", name)
