"""Reading a built site back: its files, the links of its pages, its JSON documents."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        for name, value in attributes:
            if name in ("href", "src") and value is not None:
                self.links.append(value)


def links_of(page: Path) -> list[str]:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.links


def local_links(page: Path) -> list[str]:
    """The links of ``page`` that point into the site (not to the list archive)."""
    return [link for link in links_of(page) if not urlsplit(link).scheme]


def broken_links(site: Path) -> list[tuple[str, str]]:
    """(page, link) for every link of every page that names no built file.

    A link within the page ("#stone-0", a board's stone) must name an id on it.
    """
    return [
        (page.name, link)
        for page in sorted(site.glob("*.html"))
        for link in local_links(page)
        if not _resolves(site, page, link)
    ]


def _resolves(site: Path, page: Path, link: str) -> bool:
    parts = urlsplit(link)
    if not parts.path:
        return f'id="{parts.fragment}"' in page.read_text(encoding="utf-8")
    return (site / parts.path).is_file()


def document(site: Path, name: str) -> Any:
    return json.loads((site / f"{name}.json").read_text(encoding="utf-8"))


def every_file_text(site: Path) -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(site.iterdir())}
