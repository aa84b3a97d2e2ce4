"""Field Matches (seeds 003 and 000), declared as one game.

The Field's adapter and view (``bot.engine.games.field``), Life's Evolve
at each nweek's start (``bot.engine.field_schedule``), the Referee's digest
section (the Minister of Play, seed 003) with the posts refused as possibly
forged, a rename reaching the Field's state (rule 151), and the Referee's
console acts (select, Initialize, Evolve).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from bot.engine import timed
from bot.engine.admin_records import AdminRecord
from bot.engine.field_schedule import evolve_at_nweek_start
from bot.engine.game import AdminCommand, DigestSection, Game, Overdue, StateView, TimedEvent, rule
from bot.engine.games.base import GameAdapter
from bot.engine.games.field import (
    GAME_NAME,
    FieldAdapter,
    FieldGame,
    field_view,
    referee_select,
    referee_turn,
)
from bot.engine.games.field_console import field_console
from bot.engine.governance.digest_sections import LIFE, PLAY_MINISTRY, when
from bot.engine.governance.digests import previous_digest
from bot.engine.refusals import RefusedPost, refused_count, refused_posts
from bot.engine.renames import JsonState, rewrite_record
from bot.engine.services import Services
from bot.engine.views import View
from bot.games import field
from bot.games.field import actions_performed, objects_of_kind
from bot.games.field.life.rules import CELL, EVOLVE
from bot.parser.areas import field as field_area

REFUSED_SHOWN = 10  # refused posts a digest lists; `nomicbot refused` lists them all
REFUSED_WIDTH = 72  # where a refused post's line wraps, before the section's indent


def field_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (FieldAdapter(session, services),)


def show_field(session: Session, services: Services, at: datetime | None = None) -> View:
    return View(*field_view(session, services))


# -- the Referee's digest (seed 003: the Minister of Play) -------------------------------------


def referee_sections(
    session: Session, services: Services, at: datetime
) -> tuple[DigestSection, ...]:
    """Seed 003: "a Public Display of the Field, all Field Objects"; Life's Evolve (seed 000)."""
    text, _data = field_view(session, services)
    state = FieldGame(session, services).state
    overdue: tuple[Overdue, ...] = ()
    nweek = services.clock.reading(at).nweek
    life = state.match is not None and state.match.rules == LIFE
    # Field histories count nweeks one-based, as displayed.
    if (
        life
        and objects_of_kind(state, CELL)
        and not actions_performed(state, EVOLVE, nweek=nweek + 1)
    ):
        overdue = (
            Overdue(
                f"Life's Evolve has not been performed in nweek {nweek + 1}; "
                "no player may Tweak until it is",
                "Life, seed 000",
            ),
        )
    lines = tuple(text.rstrip("\n").splitlines())
    since = previous_digest(services, at)
    return (
        DigestSection(PLAY_MINISTRY, "The Field (seed 003)", lines, overdue),
        DigestSection(
            PLAY_MINISTRY,
            f"Refused posts since {when(services, since)} (docs/trust.md)",
            refused_lines(session, since, at),
        ),
    )


def refused_lines(session: Session, since: datetime, at: datetime) -> tuple[str, ...]:
    """The posts refused as possibly forged that were received in ``[since, at)``.

    They were never answered (their claimed sender may be the victim), so
    the digest is where a person hears of them; the newest come first.
    """
    count = refused_count(session, since, at)
    head = "Posts refused as possibly forged since the last digest:"
    if not count:
        return (f"{head} none.",)
    shown = refused_posts(session, since, REFUSED_SHOWN, at)
    lines = [f"{head} {count} (see `nomicbot refused`)"]
    for post in shown:
        lines.extend(_refused_line(post))
    if count > len(shown):
        lines.append(f"... and {count - len(shown)} earlier.")
    return tuple(lines)


def _refused_line(post: RefusedPost) -> list[str]:
    sender = post.claimed_sender or "(no From)"
    text = f"- {post.received_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC, from {sender}: {post.reason}"
    return textwrap.wrap(
        text, REFUSED_WIDTH, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )


# -- renames (rule 151) and the console -------------------------------------------------------


def rename_in_field(session: Session, services: Services, old: str, new: str) -> tuple[str, ...]:
    return (GAME_NAME,) if rewrite_record(session, GAME_NAME, renamed_field, old, new) else ()


def renamed_field(data: JsonState, old: str, new: str) -> JsonState | None:
    """The stored Field with ``old`` called ``new`` in its state (not in its published log)."""
    state = field.state_from_json(data["state"])
    changed = field.renamed(state, old, new)
    return None if changed == state else data | {"state": field.state_to_json(changed)}


def apply_select(session: Session, services: Services, record: AdminRecord) -> str:
    match = str(record.arguments["match"])
    report = referee_select(session, services.at(record.issued_at), match, record.issued_at)
    return f"{report.subject}\n\n{report.text}"


def apply_turn(session: Session, services: Services, record: AdminRecord) -> str:
    # The Turn's draws are taken in a context named by its number, so a
    # replay that applies the record at its place draws the same.
    report = referee_turn(session, services.at(record.issued_at), record.command, record.issued_at)
    return f"{report.subject}\n\n{report.text}"


def describe_select(arguments: Mapping[str, Any]) -> str:
    return f"the Referee selects {arguments['match']} (seed 003)"


FIELD = Game(
    name="field",
    title="Field Matches: Life and B-Chess (seeds 003, 000)",
    adapters=field_adapters,
    areas=(field_area.AREA,),
    settings_section="field_matches",
    views=(
        StateView("field", "the Current Field Match: board, Priority List, actions", show_field),
    ),
    # Seed 000's Life has no numbered rules: its Evolve comes after seed 004's events.
    timed_events=(
        TimedEvent(evolve_at_nweek_start, rule(0, seed="000"), next_due=timed.next_nweek_start),
    ),
    digest_sections=(referee_sections,),
    renames=(rename_in_field,),
    admin_commands={
        "field.select": AdminCommand(apply_select, describe_select),
        "field.initialize": AdminCommand(
            apply_turn, lambda arguments: "the Referee invokes Initialize (seed 003)"
        ),
        "field.evolve": AdminCommand(
            apply_turn, lambda arguments: "the Referee performs Evolve (seed 000)"
        ),
    },
    console=field_console,
    private_actions=FieldAdapter.private_actions,
    templates="field",
)
