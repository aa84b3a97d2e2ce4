"""Searching a built site for private values, as a reader would read its files.

A value escaped for HTML, XML or JSON (an apostrophe as ``&#39;``, a line
break as ``\\n``) is found all the same, and a short one (a Card's ``QH``,
a Message-ID) only as a word of its own.  The private mails' distinctive
lines are those the list never carried (docs/site.md, Nothing private).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.app import App
from bot.store.models import OutboxMessage


@dataclass(frozen=True)
class BuiltFile:
    name: str
    text: str  # what a reader reads: entities decoded, JSON strings unescaped, spaces collapsed
    documents: tuple[Any, ...]  # a JSON file's document


@dataclass(frozen=True)
class BuiltSite:
    """A built site's files, and all their texts in one, so that a value found nowhere (the
    usual answer) costs one search rather than one per file."""

    files: tuple[BuiltFile, ...]
    whole: str

    def __iter__(self) -> Iterator[BuiltFile]:
        return iter(self.files)


def squeezed(text: str) -> str:
    return " ".join(text.split())


def json_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)
    elif value is not None:
        yield str(value)


def read_site(site: Path) -> BuiltSite:
    """Every built file, each as text a search can trust: a value escaped for HTML, XML or
    JSON (an apostrophe as ``&#39;``, a line break as ``\\n``) is found all the same."""
    built = []
    for path in sorted(site.iterdir()):
        raw = path.read_text(encoding="utf-8")
        documents: tuple[Any, ...] = ()
        forms = [raw, html.unescape(raw)]
        if path.suffix == ".json":
            documents = (json.loads(raw),)
            forms.append("\n".join(json_strings(documents[0])))
        built.append(BuiltFile(path.name, squeezed("\n".join(forms)), documents))
    assert {path.suffix for path in site.iterdir()} >= {".html", ".json", ".atom", ".css"}
    # A NUL between files: no value is found across two of them.
    return BuiltSite(tuple(built), "\n\0\n".join(each.text for each in built))


def files_holding(site: BuiltSite, value: str) -> list[str]:
    wanted = squeezed(value)
    if wanted not in site.whole:
        return []
    return [each.name for each in site if wanted in each.text]


def as_word(value: str) -> re.Pattern[str]:
    """``value`` not inside a longer token: ``QH`` not in a hash, ``post-1@`` not ``post-12@``."""
    return re.compile(rf"(?<![\w+/=-]){re.escape(value)}(?![\w+/=-])")


def files_naming(site: BuiltSite, value: str) -> list[str]:
    """The files holding ``value`` as a word of its own (the plain search first: it is fast)."""
    if value not in site.whole:
        return []
    pattern = as_word(value)
    return [each.name for each in site if value in each.text and pattern.search(each.text)]


def leaked(site: BuiltSite, values: Iterable[str]) -> dict[str, list[str]]:
    """Each of ``values`` found in some file, with the files."""
    found = {value: files_holding(site, value) for value in values}
    return {value: names for value, names in found.items() if names}


def unfound(site: BuiltSite, values: Iterable[str]) -> list[str]:
    return [value for value in values if not files_holding(site, value)]


def body_of(raw: bytes) -> str:
    mail = message_from_bytes(raw, policy=default)
    assert isinstance(mail, EmailMessage)
    part = mail.get_body(preferencelist=("plain",))
    return "" if part is None else str(part.get_content())


def public_text(app: App, public_posts: Iterable[bytes]) -> str:
    """Everything the list carried, squeezed: the players' posts and the bot's mails."""
    list_address = app.settings.bot.list_address
    with app.session_factory() as session:
        rows = session.scalars(select(OutboxMessage)).all()
        raws = [row.raw for row in rows if list(row.recipients) == [list_address]]
    return "\n".join(squeezed(body_of(raw)) for raw in [*raws, *public_posts])


def private_mail_lines(app: App, public: str) -> dict[str, list[str]]:
    """Each mail the bot sent off the list (by Message-ID), and its lines the list never had.

    A line the list carried too (a deal's commitment, which the Dealer's
    report publishes) is public; short lines ("Hello Bob,") say nothing of
    the game.  Every private mail keeps a line, so none goes unsearched.
    """
    list_address = app.settings.bot.list_address
    with app.session_factory() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
        private = [row for row in rows if list(row.recipients) != [list_address]]
        found = {
            row.message_id: [
                squeezed(line)
                for line in body_of(row.raw).splitlines()
                if len(line.strip()) >= 20 and squeezed(line) not in public
            ]
            for row in private
        }
    assert found and all(found.values()), [key for key, lines in found.items() if not lines]
    return found


def never_on_the_site(site: BuiltSite, mails: dict[str, list[str]]) -> dict[str, Any]:
    """The private mails found, by Message-ID or by a distinctive line."""
    leaks: dict[str, Any] = leaked(site, mails)
    for message_id, lines in mails.items():
        if found := leaked(site, lines):
            leaks[message_id] = found
    return leaks


def message_ids(raws: Iterable[bytes]) -> list[str]:
    return [str(message_from_bytes(raw, policy=default)["Message-ID"]).strip("<>") for raw in raws]


def view_pages_text(site: Path) -> str:
    """The text of every view page of ``site`` (``nomicbot state VIEW``), squeezed line by
    line: what a digest copies from the views (rule 625 D) is no more private than they are."""
    blocks = [
        html.unescape(block)
        for page in sorted(site.glob("view-*.html"))
        for block in re.findall(r'<pre class="text">(.*?)</pre>', page.read_text(), re.S)
    ]
    return "\n".join(squeezed(line) for block in blocks for line in block.splitlines())
