"""Issue 15: the static site, built from the scripted nweek's and Go game's databases."""

from __future__ import annotations

import json
import threading
import urllib.request
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from bot.app import App
from bot.cli import main
from bot.engine.views import game_view
from bot.site import SiteError, build_site, rebuild
from bot.site.pages import SCHEMA_VERSION
from bot.site.serve import make_server
from bot.testing import go_game
from bot.testing.governance_week import END
from bot.testing.site_files import broken_links, document, links_of

ARCHIVE_PREFIX = "https://lists.example.org/archives/"


@pytest.fixture(scope="module")
def week_site(week_app_played: App, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("week-site") / "site"
    build_site(week_app_played, target, at=END)
    return target


@pytest.fixture(scope="module")
def go_site(go_app_played: App, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("go-site") / "site"
    build_site(go_app_played, target, at=go_game.GAME_END)
    return target


def test_every_page_has_its_json_and_every_link_names_a_built_file(
    week_site: Path, go_site: Path
) -> None:
    for site in (week_site, go_site):
        pages = sorted(site.glob("*.html"))
        assert {"index.html", "history.html", "view-go.html", "view-ballot.html"} <= {
            page.name for page in pages
        }
        for page in pages:
            published = document(site, page.stem)
            assert published["schema_version"] == SCHEMA_VERSION
            assert published["page"] == page.stem
        assert broken_links(site) == []


def test_each_view_page_carries_the_document_of_state_json(
    week_app_played: App, week_site: Path
) -> None:
    with week_app_played.session_factory() as session:
        ballot = game_view(session, week_app_played.services, "ballot", END)
    expected = json.loads(json.dumps(ballot.data))
    assert document(week_site, "view-ballot")["data"] == expected
    assert ballot.text.splitlines()[0] in (week_site / "view-ballot.html").read_text()
    # The Ministers' digests are mail to them; the roster leaves out addresses.
    assert not (week_site / "view-digests.html").exists()
    assert all("addresses" not in player for player in document(week_site, "view-players")["data"])


def test_a_page_per_ruling_links_the_post_in_the_list_archive(week_site: Path) -> None:
    history = document(week_site, "history")["data"]
    rulings = [mail for mail in history if mail["kind"] == "ruling"]
    first = rulings[0]
    page = week_site / f"mail-{first['number']}.html"
    assert f"{ARCHIVE_PREFIX}{first['post_message_id']}" in links_of(page)
    assert first["post_message_id"] == "gov-001@example.test"
    assert "Dave" in page.read_text()


def test_the_go_moves_step_to_the_final_board(go_app_played: App, go_site: Path) -> None:
    with go_app_played.session_factory() as session:
        stones = game_view(session, go_app_played.services, "go").data["stones"]
    moves = document(go_site, "go-moves")["data"]
    assert len(moves) == 22  # 20 placements and 2 passes (bot/testing/go_game.py)
    assert moves[-1]["stones"] == stones
    # Move 5 is Alice's B1, which captured Bob's A1 (rule 1639 D).
    assert document(go_site, "go-move-4")["data"]["stones"]["A1"] == "Bob"
    assert "A1" not in document(go_site, "go-move-5")["data"]["stones"]
    page = (go_site / "go-move-5.html").read_text()
    assert 'href="go-move-4.html"' in page and 'href="go-move-6.html"' in page
    assert 'class="last-move" data-point="B1"' in page


def test_the_go_page_has_the_svg_the_legend_and_the_rules_text_board(go_site: Path) -> None:
    page = (go_site / "view-go.html").read_text()
    assert page.count("<use ") == len(go_game.FINAL_ALICE | go_game.FINAL_BOB)
    first_of_alice = '<use href="#stone-0" x="36" y="260" data-point="A2"/>'
    assert f'<g class="stones" data-owner="Alice">{first_of_alice}' in page
    assert "[a] Alice: 1 points; stones on A2, B1, C3" in page
    assert go_game.EXPECTED_BOARD.splitlines()[3] in page  # the ASCII board of rule 1639 H


def test_the_feed_lists_the_rulings_newest_first(week_site: Path) -> None:
    feed = ElementTree.parse(week_site / "feed.atom").getroot()
    atom = "{http://www.w3.org/2005/Atom}"
    entries = feed.findall(f"{atom}entry")
    history = document(week_site, "history")["data"]
    assert len(entries) == len(history)
    assert entries[0].findtext(f"{atom}title") == history[-1]["subject"]


def test_a_rebuild_is_swapped_in_whole_while_a_reader_polls(
    go_app_played: App, tmp_path: Path
) -> None:
    target = tmp_path / "site"
    build_site(go_app_played, target)
    seen: list[str] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            seen.append((target / "view-go.html").read_text())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for _ in range(3):
            build_site(go_app_played, target)
    finally:
        stop.set()
        reader.join()
    assert seen and all(text.rstrip().endswith("</html>") for text in seen)
    assert target.is_symlink()
    assert len(list((tmp_path / "site.builds").iterdir())) == 2  # the newest and the one before


def test_the_daemons_rebuild_writes_the_configured_directory(
    go_app_played: App, tmp_path: Path
) -> None:
    with pytest.raises(SiteError, match="no \\[site\\] directory"):
        rebuild(go_app_played)
    site = replace(go_app_played.settings.site, directory=str(tmp_path / "site"))
    settings = replace(go_app_played.settings, site=site)
    app = replace(
        go_app_played,
        settings=settings,
        services=replace(go_app_played.services, settings=settings),
    )
    folder = rebuild(app)
    assert (tmp_path / "site").resolve() == folder.resolve()
    assert (folder / "view-go.html").is_file()


def test_a_plain_directory_is_not_overwritten(go_app_played: App, tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    with pytest.raises(SiteError):
        build_site(go_app_played, tmp_path / "site")


def test_the_command_builds_and_the_embedded_server_serves(
    go_app_played: App, tmp_path: Path
) -> None:
    target = tmp_path / "site"
    result = CliRunner().invoke(
        main, ["--db", go_app_played.settings.database_url, "site", "build", str(target)]
    )
    assert result.exit_code == 0, result.output
    server = make_server(target, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/view-go.json"
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.headers["Content-Type"] == "application/json"
            assert json.loads(response.read())["data"]["moves"] == 22
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
