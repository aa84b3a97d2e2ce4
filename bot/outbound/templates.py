"""The Jinja environment for every mail the bot writes.

``StrictUndefined`` makes a missing value fail a test instead of mailing a
blank; templates only arrange text blocks the game renderers made.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from jinja2.filters import do_wordwrap

from bot.resources import resource_directory

TEMPLATE_DIR = resource_directory("templates")
# Distinct wrapped texts an environment remembers (the trust warning, the
# authentication lines and notes that recur).
REMEMBERED_WRAPS = 256


def make_environment(directory: Path = TEMPLATE_DIR) -> Environment:
    environment = Environment(
        loader=FileSystemLoader(str(directory)),
        undefined=StrictUndefined,
        autoescape=False,  # plain-text mail, never HTML
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["indent_block"] = _indent_block
    environment.filters["wordwrap"] = _remembering_wordwrap(environment)
    return environment


def _remembering_wordwrap(environment: Environment) -> Callable[..., str]:
    """Jinja's ``wordwrap`` filter, remembering what it wrapped: every ruling wraps
    the same trust warning, and textwrap is slow (a fifth of rendering a ruling).
    The result is ``do_wordwrap``'s, which depends on its arguments only."""

    @lru_cache(maxsize=REMEMBERED_WRAPS)
    def wrapped(text: str, *arguments: object, **options: object) -> str:
        return do_wordwrap(environment, text, *arguments, **options)  # type: ignore[arg-type]

    def wordwrap(text: str, *arguments: object, **options: object) -> str:
        if type(text) is not str:  # an Undefined or Markup: Jinja's own handling
            return do_wordwrap(environment, text, *arguments, **options)  # type: ignore[arg-type]
        return wrapped(text, *arguments, **options)

    return wordwrap


def _indent_block(text: str, width: int = 4) -> str:
    pad = " " * width
    return "\n".join(pad + line if line else line for line in text.splitlines())
