"""The site's pages as (file name, template, context, JSON document) — no writing here.

Every page is one flat file name, so each link is a plain relative name
and a static host needs no rewriting.  The JSON beside a page carries the
same public documents the page shows, under ``SCHEMA_VERSION``.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import quote

import bot.games.dice
from bot.games.field.svg import grid_svg
from bot.games.go.svg import board_svg, player_colour
from bot.site.documents import PublicAction, PublicMail, PublicRecord, PublicView, actions_by_player
from bot.site.go_history import GoMove, go_moves

# Raised when a published JSON document changes shape incompatibly (docs/site.md).
SCHEMA_VERSION = 1
LATEST_COUNT = 10


@dataclass(frozen=True)
class Page:
    """One page and its JSON.  What is written is a function of ``name``, ``title``,
    ``template``, ``context``, ``document`` and ``drawn_from`` alone (with the
    site's title, templates and navigation): an incremental build keeps a page
    whose inputs did not change (bot/site/incremental.py).
    """

    name: str  # "view-go", written as view-go.html and view-go.json
    title: str
    template: str
    context: dict[str, Any]
    document: Any
    # The costly part of the context (a board's SVG), made only when the page
    # is written, and what it is drawn from, which stands for it in the
    # comparison with the previous build.
    deferred: Callable[[], dict[str, Any]] | None = None
    drawn_from: Any = None

    def full_context(self) -> dict[str, Any]:
        return self.context if self.deferred is None else self.context | self.deferred()


def slug(text: str) -> str:
    """A file-name-safe form of a player's or view's name, distinct for distinct names.

    A name that is not already safe ("Bob the Voting Fish", "Ærin") keeps its
    safe letters and gains a short digest of itself, so two names never share
    a page.
    """
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")
    if safe == text:
        return safe
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return f"{safe}-{digest}" if safe else digest


def archive_link(pattern: str, message_id: str | None) -> str | None:
    """The list archive's address of the post ``message_id``, if the site knows the pattern."""
    if not pattern or not message_id:
        return None
    return pattern.replace("{message_id}", quote(message_id.strip().strip("<>"), safe="@"))


def all_pages(record: PublicRecord, archive_url: str) -> Iterator[Page]:
    moves = go_moves(record.actions)
    posters = posters_of(record.actions)
    yield front_page(record, posters)
    yield from view_pages(record, moves)
    yield from mail_pages(record.mails, archive_url, posters)
    yield from player_pages(record.actions, archive_url)
    if any(view.name == "go" for view in record.views):
        yield from go_move_pages(record, moves)
    if any(view.name == "dice" for view in record.views):
        yield dice_verify_page(record)


def posters_of(actions: tuple[PublicAction, ...]) -> dict[str, str]:
    """Who wrote each post ruled on publicly, by Message-ID: a ruling's subject is the post's."""
    return {action.post_message_id: action.player for action in actions if action.player}


def front_page(record: PublicRecord, posters: dict[str, str]) -> Page:
    clock = next((view for view in record.views if view.name == "clock"), None)
    deadlines = sorted(open_deadlines(view.data for view in record.views), key=lambda item: item[1])
    latest = list(reversed(record.mails[-LATEST_COUNT:]))
    context = {
        "clock": clock,
        "deadlines": deadlines,
        "latest": latest,
        "posters": posters,
        "views": record.views,
        "players": sorted(actions_by_player(record.actions)),
    }
    document = {
        "clock": None if clock is None else clock.data,
        "deadlines": [
            {"subject": subject, "deadline": deadline} for subject, deadline in deadlines
        ],
        "latest": [mail_document(mail) for mail in latest],
        "views": [view.name for view in record.views],
    }
    return Page("index", "The game now", "index.html.j2", context, document)


def open_deadlines(documents: Any) -> list[tuple[str, str]]:
    """(subject, deadline) of every open poll the views show (rule 15: CFIs, Ballot items...).

    A poll is any document with a subject, a deadline and ``closed`` false,
    whichever game's view shows it; each appears once, however many views
    show it.
    """
    found: set[tuple[str, str]] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if value.get("subject") and value.get("deadline") and value.get("closed") is False:
                found.add((str(value["subject"]), str(value["deadline"])))
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(list(documents))
    return sorted(found)


def view_pages(record: PublicRecord, moves: list[GoMove]) -> Iterator[Page]:
    for view in record.views:
        context: dict[str, Any] = {"view": view, "picture": None, "legend": []}
        if view.name == "go":
            context |= go_picture(view.data, moves[-1].placed if moves else None)
        elif view.name == "field" and view.data.get("board"):
            context["picture"] = grid_svg(str(view.data["board"]))
        title = view.name.capitalize()
        yield Page(f"view-{slug(view.name)}", title, "view.html.j2", context, view.data)


def go_picture(
    data: dict[str, Any], last_move: str | None, with_scores: bool = True
) -> dict[str, Any]:
    """The SVG board, its legend and its text alternative, from the ``go`` view's document.

    ``with_scores`` False leaves the players' scores out of the legend: a
    Move's page shows the board after that Move, and the scores now are not
    the scores then.
    """
    players = [player["name"] for player in data.get("players", [])]
    marks = {player["name"]: player["mark"] for player in data.get("players", [])}
    stones: dict[str, str] = dict(data.get("stones", {}))
    legend = [
        {
            "name": name,
            "mark": marks[name],
            "colour": player_colour(position),
            "points": sorted(point for point, owner in stones.items() if owner == name),
        }
        | ({"score": data.get("scores", {}).get(name, 0)} if with_scores else {})
        for position, name in enumerate(players)
    ]
    picture = board_svg(int(data["size"]), stones, players, marks, last_move)
    return {"picture": picture, "legend": legend, "last_move": last_move}


def fields_of(instance: Any) -> dict[str, Any]:
    """A dataclass's fields by name, as ``dataclasses.asdict`` gives them but without its
    deep copy, which was much of a long game's build: the documents are only serialised."""
    return {field.name: getattr(instance, field.name) for field in fields(instance)}


def mail_document(mail: PublicMail) -> dict[str, Any]:
    document = fields_of(mail)
    document["date"] = mail.date.isoformat()
    return document


def mail_pages(
    mails: tuple[PublicMail, ...], archive_url: str, posters: dict[str, str]
) -> Iterator[Page]:
    yield Page(
        "history",
        "Every ruling and report",
        "history.html.j2",
        {"mails": list(reversed(mails)), "posters": posters},
        [mail_document(mail) for mail in mails],
    )
    for mail in mails:
        context = {
            "mail": mail,
            "post_link": archive_link(archive_url, mail.post_message_id),
            "mail_link": archive_link(archive_url, mail.message_id),
        }
        yield Page(
            f"mail-{mail.number}", mail.subject, "mail.html.j2", context, mail_document(mail)
        )


def action_document(action: PublicAction) -> dict[str, Any]:
    document = fields_of(action)
    document["occurred_at"] = action.occurred_at.isoformat()
    return document


def player_pages(actions: tuple[PublicAction, ...], archive_url: str) -> Iterator[Page]:
    for player, theirs in sorted(actions_by_player(actions).items()):
        context = {
            "player": player,
            "actions": [
                (action, archive_link(archive_url, action.post_message_id)) for action in theirs
            ],
        }
        document = [action_document(action) for action in theirs]
        yield Page(
            f"player-{slug(player)}", f"{player}'s actions", "player.html.j2", context, document
        )


def go_move_pages(record: PublicRecord, moves: list[GoMove]) -> Iterator[Page]:
    data = next(view.data for view in record.views if view.name == "go")
    documents = [move_document(move) for move in moves]
    yield Page(
        "go-moves",
        "Political Go: the Moves",
        "go_moves.html.j2",
        {"moves": moves},
        documents,
    )
    # A Move's page is drawn from that Move, the board's size and the players
    # (their order gives the colours), and whether a later Move exists (its
    # Next link): not from the Moves after it, so it is written once, and
    # once more when the next Move comes (bot/site/incremental.py).
    players = [{"name": entry["name"], "mark": entry["mark"]} for entry in data.get("players", [])]
    board = {"size": data["size"], "players": players}
    for move, document in zip(moves, documents, strict=True):
        yield Page(
            f"go-move-{move.number}",
            f"Political Go after Move {move.number}",
            "go_move.html.j2",
            {"move": move, "has_next": move.number < len(moves)},
            document,
            deferred=functools.partial(_move_picture, board, move),
            drawn_from=board,
        )


def move_document(move: GoMove) -> dict[str, Any]:
    """``dataclasses.asdict(move)`` (``fields_of``), with a copy of the Move's board."""
    document = fields_of(move)
    document["stones"] = dict(move.stones)
    return document


def _move_picture(board: dict[str, Any], move: GoMove) -> dict[str, Any]:
    return go_picture(board | {"stones": move.stones}, move.placed, with_scores=False)


def dice_verify_page(record: PublicRecord) -> Page:
    dice = next(view for view in record.views if view.name == "dice")
    context = {"dice": dice, "method": bot.games.dice.__doc__ or ""}
    return Page("dice-verify", "How to verify the dice", "dice_verify.html.j2", context, dice.data)


def page_for_view(view: PublicView) -> str:
    return f"view-{slug(view.name)}.html"
