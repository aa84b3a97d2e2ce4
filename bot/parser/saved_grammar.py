"""The composed post parser kept in a file, so that a new process loads it instead.

Composing the post grammar (Lark's LALR tables and its contextual lexer)
takes about half a second in every new process.  ``nomicbot replay`` starts
a preparing process while it stores the archive, and the first posts wait
for it to be ready (``bot.engine.prepare``); loading the parser composed
before takes a fifth of that.

The file is named by a digest of everything the composition reads: the
generated grammar text, every grammar file it may import, the module that
composes it and edits its keywords, and the versions of Lark and Python.
Any change to one of them names another file, so a file is never read for a
grammar it was not made from.  A file that cannot be read (missing, cut
short, from another version) is composed afresh and written again; a folder
that cannot be written only costs the time saved.

The folder is the user's cache folder (``$XDG_CACHE_HOME/nomicbot``, else
``~/.cache/nomicbot``), made readable by its owner only: the file is a
pickle, trusted as much as the user's own Python packages.  A derived file,
like Python's bytecode, it stays out of the bot's data folder, which is the
game's record; it serves every data folder, so a replay into a new database
loads it too.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import lark
from lark import Lark

log = logging.getLogger(__name__)

# Raised to name new files when what is written in them changes.
FORMAT = 1
PREFIX = "post-grammar-"
SUFFIX = ".pickle"

Composed = tuple[Lark, dict[str, str]]  # the parser and its keywords (terminal -> word)


def user_cache_folder() -> str:
    """``$XDG_CACHE_HOME/nomicbot``, else ``~/.cache/nomicbot``; empty if there is no home."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:  # no HOME, no password entry: nothing is kept
            return ""
    return str(Path(base) / "nomicbot")


def sources_digest(texts: Iterable[bytes]) -> str:
    """The digest naming the file of a composition that read ``texts``, with the versions."""
    digest = hashlib.sha256()
    for text in (
        f"{FORMAT} {lark.__version__} {sys.version}".encode(),
        *texts,
    ):
        # Each part's length first: no two lists of parts hash alike.
        digest.update(len(text).to_bytes(8, "big"))
        digest.update(text)
    return digest.hexdigest()[:32]


def saved_parser(folder: Path, digest: str, compose: Callable[[], Composed]) -> Composed:
    """The parser saved in ``folder`` under ``digest``; else ``compose()``, then saved."""
    path = folder / f"{PREFIX}{digest}{SUFFIX}"
    loaded = _load(path)
    if loaded is not None:
        return loaded
    composed = compose()
    _save(path, composed)
    return composed


def _load(path: Path) -> Composed | None:
    try:
        with path.open("rb") as file:
            saved: dict[str, Any] = pickle.load(file)
        if saved.get("format") != FORMAT:
            return None
        parser = Lark.load(io.BytesIO(saved["parser"]))
        keywords = saved["keywords"]
        if not isinstance(parser, Lark) or not isinstance(keywords, dict):
            return None
        return parser, keywords
    except FileNotFoundError:
        return None
    except Exception as error:  # cut short, another Lark's...: composed afresh
        log.info("the saved post grammar %s is not used (%s); it is composed again", path, error)
        return None


def _save(path: Path, composed: Composed) -> None:
    parser, keywords = composed
    buffer = io.BytesIO()
    # The keyword edit has been applied to the saved terminals already; the
    # function that made it (with its dict) is not saved with them.
    parser.save(buffer, exclude_options=("edit_terminals",))
    saved = {"format": FORMAT, "keywords": dict(keywords), "parser": buffer.getvalue()}
    partial: str | None = None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # Written whole under another name, then renamed: a process reading
        # the file meanwhile finds it complete or not at all.
        with tempfile.NamedTemporaryFile(
            dir=path.parent, prefix=PREFIX, suffix=".partial", delete=False
        ) as file:
            partial = file.name
            pickle.dump(saved, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, path)
    except OSError as error:
        log.info("the post grammar could not be saved in %s (%s)", path.parent, error)
        if partial is not None:
            Path(partial).unlink(missing_ok=True)
        return
    _remove_others(path)


def _remove_others(kept: Path) -> None:
    """Remove the files of earlier compositions (a grammar changed, a game enabled)."""
    for other in kept.parent.glob(f"{PREFIX}*{SUFFIX}"):
        if other != kept:
            other.unlink(missing_ok=True)
