"""``nomicbot field``: the Referee's console acts and the Turns of the Field (seeds 003, 000).

Selecting, Initialize and Evolve are recorded as signed records in the list
archive (``field.select``, ``field.initialize``, ``field.evolve``, applied
by the declaration's admin commands).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import click

from bot.app import build_app
from bot.engine.game import ConsoleTools
from bot.engine.games.field import describe_stored_turn, stored_turns


def field_console(tools: ConsoleTools) -> click.Group:
    """The ``field`` command group, with the command line's shared options and acts."""

    @click.group("field")
    def field_group() -> None:
        """Field Matches (seeds 003, 000): act as the Referee, list the Turns of the Field."""

    @field_group.command("select")
    @click.argument("match", type=click.Choice(["life", "b-chess"], case_sensitive=False))
    @click.option("--at", "at_text", metavar="INSTANT", help="When (ISO 8601 UTC); default now.")
    @tools.common_options
    @click.pass_context
    def field_select(context: click.Context, match: str, at_text: str | None) -> None:
        """Select MATCH as the Current Field Match, as the Referee (a signed record to the list)."""
        at = tools.instant(at_text) if at_text else datetime.now(UTC)
        tools.admin_act(context, "field.select", {"match": match.lower()}, at)

    @field_group.command("initialize")
    @click.option("--at", "at_text", metavar="INSTANT", help="When (ISO 8601 UTC); default now.")
    @tools.common_options
    @click.pass_context
    def field_initialize(context: click.Context, at_text: str | None) -> None:
        """Invoke the Current Field Match's Initialize as the Referee (one Turn of the Field)."""
        tools.admin_act(
            context,
            "field.initialize",
            {},
            tools.instant(at_text) if at_text else datetime.now(UTC),
        )

    @field_group.command("evolve")
    @click.option("--at", "at_text", metavar="INSTANT", help="When (ISO 8601 UTC); default now.")
    @tools.common_options
    @click.pass_context
    def field_evolve(context: click.Context, at_text: str | None) -> None:
        """Perform Life's Evolve as the Referee (one Turn of the Field)."""
        tools.admin_act(
            context, "field.evolve", {}, tools.instant(at_text) if at_text else datetime.now(UTC)
        )

    @field_group.command("turns")
    @click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
    @tools.common_options
    @click.pass_context
    def field_turns(context: click.Context, as_json: bool) -> None:
        """Every Turn of the Field: its Priority List order, what was carried out, refusals."""
        app = build_app(tools.settings_from(context))
        with app.session_factory() as session:
            turns = stored_turns(session, app.services)
        if as_json:
            click.echo(json.dumps(turns, indent=2, ensure_ascii=False))
            return
        for entry in turns:
            click.echo(describe_stored_turn(entry) + "\n")
        click.echo(f"{len(turns)} Turn(s) of the Field recorded", err=True)

    return field_group
