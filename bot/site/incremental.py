"""Rebuild the site writing only the pages that changed since the previous build.

The daemon rebuilds the site after every committed post and timed event,
and a year of play is thousands of pages, most of them history that never
changes once written: a ruling's page (``mail-N``), the board after a Move
(``go-move-N``), the page of a player who has not acted since.  So a build
here is a new folder, as a whole build is (bot/site/build.py), swapped in
with the same one ``rename(2)``; but a page whose inputs are those of the
previous build's page of that name is a hard link (``os.link``) to that
page's files instead of a new rendering.  The previous build is never
written into, so a reader on it keeps reading the same bytes.

A page's inputs are summed up in its key: a SHA-256 of ``repr`` of
everything the page is made from (``Page``: its name, title, template,
context, document and what its deferred part is drawn from), after the
site's own inputs (the templates' text, the schema version, the site's
title, its archive link pattern and the views' navigation).  Every value
in them is a dataclass or a plain Python value, whose ``repr`` shows all of
it; a value whose ``repr`` were not the same in two builds (an object shown
by its address) would only make its page be written again.  Only the
``generated`` instant is left out of the key: a page kept from an earlier
build says when it was written, in its footer and in its JSON.

The keys of the previous build are kept in memory by the builder: the first
build after a start, or after anything else swapped in another build, is a
whole one.
Reading the public record parses each of the bot's mails to the list,
which was most of a long game's rebuild: the builder remembers each mail
it parsed, by its outbox row, and parses again only a row whose bytes, or
whose place among the public mails, changed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from jinja2 import Environment

from bot.app import App
from bot.site.build import (
    KEEP_BUILDS,
    STATIC_FILES,
    TEMPLATES,
    check_target,
    make_environment,
    navigation,
    new_build_folder,
    read_record,
    remove_old_builds,
    removed_unless_swapped_in,
    swap_in,
    write_feed,
    write_page,
)
from bot.site.documents import PublicMail, PublicRecord, public_mail
from bot.site.pages import SCHEMA_VERSION, Page, all_pages
from bot.store.models import Message, OutboxMessage

PAGE_SUFFIXES = (".html", ".json")


@dataclass(frozen=True)
class Build:
    """A build this builder swapped in: its folder and each page's key, by page name."""

    folder: Path
    keys: dict[str, str]


@dataclass(frozen=True)
class BuildReport:
    folder: Path
    written: int  # pages rendered and written
    linked: int  # pages kept from the previous build


def templates_digest() -> str:
    """A digest of every template and static file: a new version rewrites every page."""
    digest = hashlib.sha256()
    for path in sorted(TEMPLATES.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(TEMPLATES).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class RememberedMails:
    """``public_mail``, remembering each mail made, for the next build to reuse.

    A mail is made from its number, its outbox row (the bytes, Message-ID,
    kind and time) and the post it answers: it is reused only while all of
    these are the same.
    """

    def __init__(self) -> None:
        self.mails: dict[int, tuple[tuple[object, ...], PublicMail]] = {}

    def __call__(self, number: int, outbox: OutboxMessage, post: Message | None) -> PublicMail:
        made_from = (
            number,
            hashlib.sha256(outbox.raw).digest(),
            outbox.message_id,
            outbox.kind,
            outbox.created_at,
            None if post is None else post.message_id,
        )
        remembered = self.mails.get(outbox.id)
        if remembered is not None and remembered[0] == made_from:
            return remembered[1]
        mail = public_mail(number, outbox, post)
        self.mails[outbox.id] = (made_from, mail)
        return mail


class IncrementalBuilder:
    """Rebuilds the site at ``target`` again and again, each time writing what changed."""

    def __init__(self, app: App, target: Path) -> None:
        self.app = app
        self.target = target
        self.environment: Environment = make_environment()
        self.templates = templates_digest()
        self.previous: Build | None = None
        self.mails = RememberedMails()

    def rebuild(self, at: datetime | None = None) -> BuildReport:
        """Build the site as of ``at`` (default: now) and swap it in.

        Raises SiteError when ``target`` exists and is not a link to a build.
        """
        check_target(self.target)
        record = read_record(self.app, at, self.mails)
        previous = self.reusable_build()
        folder = new_build_folder(self.target)
        with removed_unless_swapped_in(folder):
            folder.mkdir()
            keys, written = self.write_pages(record, folder, previous)
            self.place_static_files(folder, previous)
            write_feed(record, folder, self.app.services.settings.site.title)
            swap_in(folder, self.target)
        self.previous = Build(folder, keys)
        remove_old_builds(folder.parent, keep=folder, previous=KEEP_BUILDS)
        return BuildReport(folder, written, len(keys) - written)

    def reusable_build(self) -> Build | None:
        """The previous build, if the site still shows it (nothing else swapped one in)."""
        previous = self.previous
        if previous is None or not self.target.is_symlink():
            return None
        if self.target.resolve() != previous.folder.resolve() or not previous.folder.is_dir():
            return None
        return previous

    def write_pages(
        self, record: PublicRecord, folder: Path, previous: Build | None
    ) -> tuple[dict[str, str], int]:
        """Write or link every page into ``folder``; each page's key, and how many were written."""
        settings = self.app.services.settings.site
        site_key = self.site_key(record)
        keys: dict[str, str] = {}
        written = 0
        for page in all_pages(record, settings.archive_url):
            key = page_key(site_key, page)
            keys[page.name] = key
            if previous is not None and kept(previous, folder, page.name, key):
                continue
            write_page(self.environment, folder, page, settings.title, record)
            written += 1
        return keys, written

    def site_key(self, record: PublicRecord) -> bytes:
        """What every page is made from besides itself."""
        settings = self.app.services.settings.site
        inputs = (SCHEMA_VERSION, self.templates, settings.title, settings.archive_url)
        return hashlib.sha256(repr((inputs, navigation(record))).encode()).digest()

    def place_static_files(self, folder: Path, previous: Build | None) -> None:
        for name in STATIC_FILES:
            if previous is None or not link_file(previous.folder / name, folder / name):
                shutil.copyfile(TEMPLATES / name, folder / name)


def page_key(site_key: bytes, page: Page) -> str:
    """The digest of everything ``page`` is made from but the build's instant."""
    inputs = (page.name, page.title, page.template, page.context, page.document, page.drawn_from)
    return hashlib.sha256(site_key + repr(inputs).encode()).hexdigest()


def kept(previous: Build, folder: Path, name: str, key: str) -> bool:
    """Whether page ``name`` is unchanged since ``previous`` and now linked into ``folder``."""
    return previous.keys.get(name) == key and link_page(previous.folder, folder, name)


def link_page(previous: Path, folder: Path, name: str) -> bool:
    """Hard-link page ``name``'s files from the previous build; False (nothing left) if one
    is missing there, for the page to be written anew."""
    linked: list[Path] = []
    for suffix in PAGE_SUFFIXES:
        if not link_file(previous / f"{name}{suffix}", folder / f"{name}{suffix}"):
            for path in linked:
                path.unlink()
            return False
        linked.append(folder / f"{name}{suffix}")
    return True


def link_file(source: Path, destination: Path) -> bool:
    """Hard-link ``source`` as ``destination``; False when it cannot (gone, or a file
    system without hard links), for the caller to write the file instead."""
    try:
        os.link(source, destination)
    except OSError:
        return False
    return True
