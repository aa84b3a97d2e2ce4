"""Issue 15, acceptance 1: the site in a real headless Chromium.

The sites of the governance nweek and of the Political Go game are served
by ``nomicbot serve``'s server and opened in Debian's Chromium through
ChromeDriver.  The DOM is checked: the Go board's SVG holds exactly the
stones of ``nomicbot state go --json``; every link of every opened page
loads; the console logs no error.  Screenshots, on a phone's width and a
desktop's, go to ``$NOMICBOT_SCREENSHOTS`` (default: the test's own folder).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from bot.app import App
from bot.engine.views import game_view
from bot.site import build_site
from bot.site.serve import make_server
from bot.testing import go_game
from bot.testing.browser import Browser, chromium_paths
from bot.testing.fixtures import failing_when_unavailable
from bot.testing.governance_week import END

SCREENSHOTS_VARIABLE = "NOMICBOT_SCREENSHOTS"
PHONE = (412, 915)
DESKTOP = (1024, 900)
STONES_SCRIPT = (
    "return Array.from(document.querySelectorAll('svg.go-board .stones use'))"
    ".map(stone => [stone.dataset.point, stone.parentNode.dataset.owner]);"
)
# Every link of the page that stays on the site, fetched by the page itself:
# the statuses the server answered.
LINKS_SCRIPT = """
const local = Array.from(document.querySelectorAll('a[href], link[href]'))
    .map(element => element.href).filter(href => href.startsWith(location.origin));
const statuses = [];
for (const href of local) {
    const request = new XMLHttpRequest();
    request.open('GET', href, false);
    request.send();
    statuses.push([href, request.status]);
}
return statuses;
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # The test command installs Chromium (scripts/install-test-servers.sh): its
    # absence is a failure that says so, as for every server the tests use.
    with failing_when_unavailable("Chromium"):
        chromium_paths()
    with Browser() as opened:
        yield opened


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get(SCREENSHOTS_VARIABLE) or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def served(site: Path) -> tuple[str, threading.Thread, ThreadingHTTPServer]:
    server = make_server(site, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return f"http://127.0.0.1:{server.server_address[1]}", thread, server


def check_page(browser: Browser, url: str) -> None:
    browser.open(url)
    statuses = browser.script(LINKS_SCRIPT)
    assert statuses, f"{url} has no link"
    assert [link for link, status in statuses if status != 200] == []
    assert browser.console_errors() == []


def test_the_go_site_in_chromium(
    browser: Browser, go_app_played: App, tmp_path: Path, screenshots: Path
) -> None:
    site = tmp_path / "site"
    build_site(go_app_played, site, at=go_game.GAME_END)
    with go_app_played.session_factory() as session:
        stones = game_view(session, go_app_played.services, "go").data["stones"]
    base, thread, server = served(site)
    try:
        browser.console_errors()  # what an earlier page logged is not this test's
        check_page(browser, f"{base}/view-go.html")
        assert dict(browser.script(STONES_SCRIPT)) == stones
        assert len(browser.script(STONES_SCRIPT)) == len(stones)
        last_move = "return document.querySelector('svg .last-move').dataset.point"
        assert browser.script(last_move) == "G3"
        browser.screenshot(screenshots / "go-board.png")
        check_page(browser, f"{base}/go-move-5.html")
        assert browser.script("return document.title").startswith("Political Go after Move 5")
        browser.screenshot(screenshots / "go-move-5.png")
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def test_the_governance_site_in_chromium(
    browser: Browser, week_app_played: App, tmp_path: Path, screenshots: Path
) -> None:
    site = tmp_path / "site"
    build_site(week_app_played, site, at=END)
    base, thread, server = served(site)
    try:
        browser.console_errors()
        for page in ("index.html", "view-ballot.html", "history.html", "dice-verify.html"):
            check_page(browser, f"{base}/{page}")
        browser.open(f"{base}/index.html")
        assert browser.script("return document.querySelector('h1').textContent") == "The game now"
        browser.screenshot(screenshots / "front-page.png")
        browser.resize(*PHONE)
        browser.open(f"{base}/view-ballot.html")
        browser.screenshot(screenshots / "ballot-on-a-phone.png")
        # Readable on a phone: nothing wider than the screen but the boards' own scrolling.
        width = browser.script("return document.documentElement.scrollWidth")
        viewport = browser.script("return window.innerWidth")
        assert viewport < 500 and width <= viewport
    finally:
        browser.resize(*DESKTOP)
        server.shutdown()
        thread.join()
        server.server_close()
