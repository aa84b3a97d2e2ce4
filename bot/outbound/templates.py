"""The Jinja environment for every mail the bot writes.

``StrictUndefined`` makes a missing value fail a test instead of mailing a
blank; templates only arrange text blocks the game renderers made.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from bot.resources import resource_directory

TEMPLATE_DIR = resource_directory("templates")


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
    return environment


def _indent_block(text: str, width: int = 4) -> str:
    pad = " " * width
    return "\n".join(pad + line if line else line for line in text.splitlines())
