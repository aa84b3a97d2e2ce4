"""``nomicbot go``: Political Go's console commands (set-up stones, a point's history).

The set-up is an administrator's act, recorded as a signed record in the
list archive (``go.setup``, applied by the declaration's admin command).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import UTC, datetime

import click

from bot.app import build_app
from bot.engine.game import ConsoleTools
from bot.engine.go_admin import point_history


def go_console(tools: ConsoleTools) -> click.Group:
    """The ``go`` command group, with the command line's shared options and acts."""

    @click.group("go")
    def go_group() -> None:
        """Political Go administration: set-up stones, a point's history."""

    @go_group.command("setup")
    @click.argument("player")
    @click.argument("points", nargs=-1, required=True)
    @click.option("--at", "at_text", metavar="INSTANT", help="When (ISO 8601 UTC); default now.")
    @tools.common_options
    @click.pass_context
    def go_setup(
        context: click.Context, player: str, points: tuple[str, ...], at_text: str | None
    ) -> None:
        """Put PLAYER's stones on POINTS without a move (handicap stones, say).

        Example: nomicbot go setup Black d4 q16 q4
        """
        at = tools.instant(at_text) if at_text else datetime.now(UTC)
        tools.admin_act(context, "go.setup", {"player": player, "points": list(points)}, at)

    @go_group.command("history")
    @click.argument("point")
    @click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
    @tools.common_options
    @click.pass_context
    def go_history(context: click.Context, point: str, as_json: bool) -> None:
        """Which posts placed, captured or changed the stone on POINT (e.g. q16)."""
        app = build_app(tools.settings_from(context))
        with app.session_factory() as session:
            events = point_history(session, point)
        if as_json:
            rows = [
                asdict(event) | {"occurred_at": event.occurred_at.isoformat()} for event in events
            ]
            click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
            return
        for event in events:
            by = f" by {', '.join(event.by)}" if event.by else ""
            game = f"game {event.game_number}, " if event.game_number else ""
            when = f"{event.occurred_at:%Y-%m-%d %H:%M} UTC"
            click.echo(
                f"{when}  {game}{event.change}: {event.owner}'s stone"
                f"{by}  <{event.message_id}>  {event.player}: {event.text}"
            )
        click.echo(f"{len(events)} change(s) to {point}", err=True)

    return go_group
