"""Write the site to a new directory, then swap it in at once.

``DIR`` is a symbolic link to the newest complete build in ``DIR.builds/``;
a build is written beside it and the link replaced by ``os.replace``, which
is atomic, so a reader sees the old site or the new one, never half of one.
The previous build is kept for a reader still on it; older ones go.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from bot.app import App
from bot.resources import resource_directory
from bot.site.documents import MailParser, PublicRecord, public_record
from bot.site.feed import atom_feed
from bot.site.pages import SCHEMA_VERSION, Page, all_pages, page_for_view, slug

TEMPLATES = resource_directory("templates") / "site"
KEEP_BUILDS = 2
STATIC_FILES = ("site.css", "favicon.svg")


class SiteError(RuntimeError):
    """The target exists but is not a site this builder made (a plain directory or file)."""


def make_environment() -> Environment:
    environment = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        undefined=StrictUndefined,
        autoescape=select_autoescape(default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.globals["slug"] = slug
    environment.globals["page_for_view"] = page_for_view
    return environment


def read_record(
    app: App, at: datetime | None = None, parse_mail: MailParser | None = None
) -> PublicRecord:
    instant = at or datetime.now(UTC)
    with app.session_factory() as session:
        return public_record(session, app.services, instant, parse_mail)


def build_site(app: App, target: Path, at: datetime | None = None) -> Path:
    """Build the site from ``app``'s database and swap it in at ``target``; the build's folder.

    Raises SiteError when ``target`` exists and is not a link to a build.
    """
    check_target(target)
    record = read_record(app, at)
    folder = new_build_folder(target)
    with removed_unless_swapped_in(folder):
        write_site(
            record, folder, app.services.settings.site.title, app.services.settings.site.archive_url
        )
        swap_in(folder, target)
    remove_old_builds(folder.parent, keep=folder, previous=KEEP_BUILDS)
    return folder


@contextmanager
def removed_unless_swapped_in(folder: Path) -> Iterator[None]:
    """Remove ``folder`` if the block raises: a failed build's files are no build to keep
    (the cleaning after the next one keeps the newest two, and must not keep it)."""
    try:
        yield
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def check_target(target: Path) -> None:
    """Raises SiteError when ``target`` exists and is not a link to a build."""
    if target.exists() and not target.is_symlink():
        raise SiteError(f"{target} exists and is not a site built by nomicbot (a link to a build)")


def new_build_folder(target: Path) -> Path:
    """The name of a new build of ``target`` (not yet made), in ``target``'s builds folder."""
    builds = target.parent / f"{target.name}.builds"
    builds.mkdir(parents=True, exist_ok=True)
    return builds / f"build-{time.time_ns()}"


def rebuild(app: App) -> Path:
    """Rebuild the configured site (``[site] directory``) whole; the daemon keeps it with an
    ``IncrementalBuilder`` instead (bot/site/incremental.py).

    Raises SiteError when no directory is configured.
    """
    directory = app.services.settings.site.directory
    if not directory:
        raise SiteError("no [site] directory is configured")
    return build_site(app, Path(directory))


def write_site(record: PublicRecord, folder: Path, title: str, archive_url: str) -> None:
    folder.mkdir(parents=True)
    environment = make_environment()
    pages = list(all_pages(record, archive_url))
    for page in pages:
        write_page(environment, folder, page, title, record)
    for name in STATIC_FILES:
        shutil.copyfile(TEMPLATES / name, folder / name)
    write_feed(record, folder, title)


def write_feed(record: PublicRecord, folder: Path, title: str) -> None:
    write_new(folder / "feed.atom", atom_feed(record, title))


def navigation(record: PublicRecord) -> list[dict[str, str]]:
    """The views' links every page carries."""
    return [{"name": view.name, "href": page_for_view(view)} for view in record.views]


def write_page(
    environment: Environment, folder: Path, page: Page, title: str, record: PublicRecord
) -> None:
    html = environment.get_template(page.template).render(
        site_title=title,
        page=page,
        generated=record.at.isoformat(timespec="seconds"),
        views_nav=navigation(record),
        **page.full_context(),
    )
    write_new(folder / f"{page.name}.html", html)
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "page": page.name,
        "generated": record.at.isoformat(),
        "data": page.document,
    }
    write_new(
        folder / f"{page.name}.json",
        json.dumps(document, indent=1, ensure_ascii=False, default=str),
    )


def write_new(path: Path, text: str) -> None:
    """Write ``text`` to a file that must not exist yet.

    A build's files may be hard links to the previous build's (an incremental
    build, bot/site/incremental.py): writing into an existing name could change
    a page a reader is being served, so it is refused (FileExistsError).
    """
    with path.open("x", encoding="utf-8") as file:
        file.write(text)


def swap_in(folder: Path, target: Path) -> None:
    """Point ``target`` at ``folder`` in one rename."""
    link = target.parent / f".{target.name}.{folder.name}.link"
    os.symlink(os.path.relpath(folder, target.parent), link)
    os.replace(link, target)


def remove_old_builds(builds: Path, keep: Path, previous: int) -> None:
    """Remove all builds but ``keep`` and the ``previous - 1`` before it."""
    done = sorted(
        (path for path in builds.iterdir() if path.name.startswith("build-")), key=_build_order
    )
    for folder in done[: max(0, len(done) - previous)]:
        if folder != keep:
            shutil.rmtree(folder, ignore_errors=True)


def _build_order(path: Path) -> int:
    return int(path.name.removeprefix("build-"))
