"""The ``nomicbot`` command line (click).

Every command accepts ``--config FILE`` and ``--db URL``, before or after
the command name.
"""

from __future__ import annotations

import atexit
import functools
import gc
import json
import logging
import os
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from bot.config import ConfigError, Settings, load_settings

if TYPE_CHECKING:
    from bot.app import App

F = TypeVar("F", bound=Callable[..., Any])


def _remember(name: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    def callback(context: click.Context, _parameter: click.Parameter, value: Any) -> Any:
        if value is not None:
            context.ensure_object(dict)[name] = value
        return value

    return callback


def common_options(function: F) -> F:
    function = click.option(
        "--db",
        "db_url",
        metavar="URL",
        expose_value=False,
        callback=_remember("db"),
        is_eager=True,
        help="Database URL (overrides the configuration).",
    )(function)
    function = click.option(
        "--config",
        "config_path",
        metavar="FILE",
        expose_value=False,
        type=click.Path(exists=True, dir_okay=False),
        callback=_remember("config"),
        is_eager=True,
        help="TOML configuration file.",
    )(function)
    return function


def settings_from(context: click.Context) -> Settings:
    options = context.find_root().ensure_object(dict)
    try:
        return load_settings(options.get("config"), database_url=options.get("db"))
    except ConfigError as error:
        raise click.ClickException(f"configuration: {error}") from None


class GamesGroup(click.Group):
    """The commands below, and the console commands each game declares (``nomicbot go``).

    The games' declarations are imported only when a command is looked up
    or listed, not for every command.
    """

    def list_commands(self, context: click.Context) -> list[str]:
        return sorted({*super().list_commands(context), *game_commands()})

    def get_command(self, context: click.Context, name: str) -> click.Command | None:
        return super().get_command(context, name) or game_commands().get(name)


@functools.cache
def game_commands() -> dict[str, click.Command]:
    """Every known game's console commands, by name (docs/games.md)."""
    from bot.engine.game import ConsoleTools
    from bot.engine.registry import known_games

    tools = ConsoleTools(common_options, settings_from, _admin_act, _instant)
    commands = [game.console(tools) for game in known_games().values() if game.console]
    return {command.name: command for command in commands if command.name}


@click.group(cls=GamesGroup)
@click.option("-v", "--verbose", is_flag=True, help="Log progress to standard error.")
@common_options
@click.pass_context
def main(context: click.Context, verbose: bool) -> None:
    """nomicbot: an automated referee for nomics played by email."""
    context.ensure_object(dict)
    _collect_nothing_at_exit()
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


@functools.cache
def _collect_nothing_at_exit() -> None:
    """Spare the interpreter's exit a garbage collection of everything (about 0.2 s).

    At exit the interpreter collects every object still alive: the modules
    and whatever a command built (a replay's ORM objects), a fifth of a
    second spent freeing memory the process is about to give back.  Frozen
    (``gc.freeze``) at the last exit handler, they are left to the process's
    end; everything is still closed and flushed by the handlers and the
    module teardown, which do not depend on a collection.
    """
    atexit.register(gc.freeze)  # exit handlers run last-registered first: this one last


@main.command()
@common_options
@click.pass_context
def run(context: click.Context) -> None:
    """Run the daemon: ingress (SMTP and/or IMAP), worker, scheduler, sender."""
    from bot.app import build_app
    from bot.daemon import Daemon
    from bot.trust.policy import unauthenticated_warning

    logging.getLogger().setLevel(logging.INFO)
    # Their per-connection and per-migration chatter drowns the bot's own lines.
    for noisy in ("alembic", "mail.log"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    settings = settings_from(context)
    app = build_app(settings)
    where = (
        f"SMTP ingress on {settings.smtp_ingress.host}:{settings.smtp_ingress.port}"
        if settings.smtp_ingress.enabled
        else "no SMTP ingress"
    )
    imap = f"IMAP {settings.imap.host}:{settings.imap.port}" if settings.imap.enabled else "no IMAP"
    out = (
        f"SMTP relay {settings.outbound.smtp_host}"
        if settings.outbound.smtp_host
        else f"Maildir {settings.outbox_maildir}"
    )
    click.echo(
        f"nomicbot running: {where}; {imap}; database {app.engine.url!r}; "
        f"replies to {out}.  Ctrl-C stops.",
        err=True,
    )
    warning = unauthenticated_warning(app.services.pipeline_settings.trust)
    if warning:
        logging.getLogger("bot.trust").warning(warning)
        click.echo(f"WARNING: {warning}", err=True)
    status = Daemon(app).run_until_signalled()
    if status:
        # A thread could not go on (logged): end now, non-zero, for systemd to
        # restart us; a thread stuck in a call must not hold the exit back.
        logging.shutdown()
        os._exit(status)


@main.command()
@click.argument("archive", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--outbox",
    type=click.Path(file_okay=False, path_type=Path),
    help="Maildir receiving the replies (default: the configured transport).",
)
@click.option(
    "--until",
    metavar="INSTANT",
    help="Handle scheduled events up to this ISO 8601 instant (default: now).",
)
@click.option(
    "--list-archive",
    is_flag=True,
    help="ARCHIVE is the game list's own archive: its posts count as carried by the list "
    "(docs/archive.md), judged by the list's Authentication-Results in them.",
)
@common_options
@click.pass_context
def replay(
    context: click.Context,
    archive: Path,
    outbox: Path | None,
    until: str | None,
    list_archive: bool,
) -> None:
    """Replay an mbox file or Maildir folder, in archive order."""
    from bot.app import build_app, pipeline_settings
    from bot.outbound.transports import MaildirTransport
    from bot.runner import ArchiveAhead, replay_archive

    settings = settings_from(context)
    if list_archive:
        settings = _judging_a_list_archive(settings)
    # The archive's first posts are being prepared while the database is
    # opened and brought up to date.
    with ArchiveAhead(archive, pipeline_settings(settings)) as ahead:
        app = build_app(settings)
        transport = MaildirTransport(outbox) if outbox else app.transport()
        report = replay_archive(
            app,
            archive,
            transport,
            progress=sys.stderr.isatty(),
            until=_instant(until) if until else None,
            ahead=ahead,
        )
    click.echo(
        f"{report.posts} post(s) in the archive: {report.stored} stored, "
        f"{report.duplicates} already known; {report.queue.processed} judged, "
        f"{report.queue.shunted} shunted; {report.delivery.sent} mail(s) sent."
    )


def _judging_a_list_archive(settings: Settings) -> Settings:
    """``settings`` for a replay of the list's own archive (docs/archive.md)."""
    from dataclasses import replace

    from bot.trust.policy import LIST_ARCHIVE

    trust = settings.trust
    if not (trust.list_authserv_id or trust.list_signer):
        raise click.UsageError(
            "--list-archive reads the list's own Authentication-Results: set [trust] "
            "list_signer (or list_authserv_id) to the list's authserv-id"
        )
    return replace(settings, trust=replace(trust, list_signature=LIST_ARCHIVE))


@main.command()
@click.argument("source", default="-", type=click.File("rb"))
@click.option(
    "--text",
    "as_text",
    is_flag=True,
    help="Read SOURCE as plain text even if it looks like an email.",
)
@common_options
def parse(source: Any, as_text: bool) -> None:
    """Print one JSON object per action recognised in a post (a file, or - for stdin)."""
    from bot.mail.decode import decode_message
    from bot.mail.visible import visible_text
    from bot.parser import parse_post

    data: bytes = source.read()
    if not as_text and _looks_like_email(data):
        text = visible_text(decode_message(data).body_text)
    else:
        text = data.decode("utf-8", errors="replace")
    result = parse_post(text)
    for action in result.actions:
        click.echo(json.dumps(action.to_json(), ensure_ascii=False))
    for problem in result.not_understood:
        click.echo(json.dumps(problem.to_json(), ensure_ascii=False))


def _looks_like_email(data: bytes) -> bool:
    """Whether ``data`` starts with a header block, however long, then an empty line.

    A list's mail easily carries kilobytes of Received, DKIM and ARC headers
    before its body, so the whole block is read, not a first slice of it;
    an mbox "From " line before it is allowed.
    """
    head, separator, _ = data.replace(b"\r\n", b"\n").partition(b"\n\n")
    if not separator:
        return False
    lines = [line for line in head.split(b"\n") if line and line[:1] not in b" \t"]
    if lines and lines[0].startswith(b"From "):
        lines = lines[1:]
    return bool(lines) and all(b":" in line.split(b" ", 1)[0] for line in lines)


class StateCommand(click.Command):
    """``state``, whose help lists the views of the games enabled by default."""

    def format_epilog(self, context: click.Context, formatter: click.HelpFormatter) -> None:
        from bot.engine.registry import default_games
        from bot.engine.views import views_help, views_of

        # The games' declarations are imported only when the help is shown.
        self.epilog = f"\b\nVIEW is one of:\n{views_help(views_of(default_games()))}"
        super().format_epilog(context, formatter)


@main.command(cls=StateCommand)
@click.argument("game", metavar="VIEW")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option(
    "--at",
    "at_text",
    metavar="INSTANT",
    help="For digests and the clock: this instant (ISO 8601 UTC); default now.",
)
@common_options
@click.pass_context
def state(context: click.Context, game: str, as_json: bool, at_text: str | None) -> None:
    """Show a view of the game's state: a board, the roster, holdings, polls, ..."""
    from bot.app import build_app
    from bot.engine.views import game_view, views_help, views_of

    app = build_app(settings_from(context))
    views = views_of(app.services.games)
    if game not in views:
        app.dispose()
        raise click.ClickException(f"no view called {game!r}; the views are:\n{views_help(views)}")
    at = _instant(at_text) if at_text else None
    with app.session_factory() as session:
        view = game_view(session, app.services, game, at=at)
    click.echo(
        json.dumps(view.data, indent=2, ensure_ascii=False) if as_json else view.text.rstrip("\n")
    )


@main.command()
@common_options
@click.pass_context
def demo(context: click.Context) -> None:
    """Play a short scripted game through the real pipeline and print every mail."""
    from bot.demo import run_demo

    options = context.find_root().ensure_object(dict)
    run_demo(options.get("db"), click.echo)


@main.command("try")
@click.argument("script", required=False, type=click.File("r", encoding="utf-8"))
@click.option(
    "--until",
    metavar="INSTANT",
    help="Run the clock to this ISO 8601 instant after the last post "
    "(default: the end of the last post's nweek).",
)
@click.option("--brief", is_flag=True, help="One line per mail (and a ruling's items).")
@click.option(
    "--keep",
    type=click.Path(file_okay=False, path_type=Path),
    help="Keep the trial's database and data in this folder (for nomicbot state --db).",
)
@common_options
@click.pass_context
def try_(
    context: click.Context, script: Any, until: str | None, brief: bool, keep: Path | None
) -> None:
    """Try the configured game on a fast clock before it goes live (never the live game).

    SCRIPT holds one post per line, e.g. "nweek 1, nday 2, 09:00  Alice: I place
    a stone at E5." or "+2h  Bob: I roll 2d6."; an indented line goes on the
    post above.  Without SCRIPT, posts are read as they are typed, one per line.
    Every mail the bot would send is printed; nothing is sent, and the trial has
    its own database and dice secret.
    """
    from bot.trial import ScriptError, parse_script, run_trial, typed_lines

    settings = settings_from(context)
    if script is None and sys.stdin.isatty():
        click.echo("Type posts, one per line (Ctrl-D ends): e.g. Alice: I roll 2d6.", err=True)
    try:
        lines = typed_lines(sys.stdin) if script is None else parse_script(_read_script(script))
        run_trial(
            settings,
            lines,
            click.echo,
            until=_instant(until) if until else None,
            brief=brief,
            keep=keep,
        )
    except ScriptError as error:
        raise click.ClickException(f"script: {error}") from None


def _read_script(script: Any) -> str:
    try:
        return str(script.read())
    except UnicodeDecodeError as error:
        raise click.ClickException(f"script: not UTF-8 text ({error})") from None


@main.group()
def site() -> None:
    """The public web site (docs/site.md)."""


@site.command("build")
@click.argument("directory", required=False, type=click.Path(path_type=Path))
@click.option("--at", "at_text", metavar="INSTANT", help="Build as of this ISO 8601 instant.")
@common_options
@click.pass_context
def site_build(context: click.Context, directory: Path | None, at_text: str | None) -> None:
    """Build the site from the database into DIRECTORY (default: [site] directory).

    DIRECTORY becomes a link to the new build, replaced in one rename.
    """
    from bot.app import build_app
    from bot.site import SiteError, build_site

    app = build_app(settings_from(context))
    target = directory or _site_directory(app.settings)
    try:
        folder = build_site(app, target, _instant(at_text) if at_text else None)
    except SiteError as error:
        raise click.ClickException(str(error)) from None
    finally:
        app.dispose()
    click.echo(f"built {folder}; {target} now shows it")


def _site_directory(settings: Settings) -> Path:
    if not settings.site.directory:
        raise click.ClickException("give a DIRECTORY, or set [site] directory in the configuration")
    return Path(settings.site.directory)


@main.command()
@click.option("--port", default=8000, show_default=True, help="The TCP port to listen on.")
@click.option("--bind", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--directory", type=click.Path(path_type=Path), help="Default: [site] directory.")
@common_options
@click.pass_context
def serve(context: click.Context, port: int, bind: str, directory: Path | None) -> None:
    """Serve the built site over HTTP (for a small game; see deploy/GUIDE.md for nginx)."""
    from bot.site.serve import serve_site

    target = directory or _site_directory(settings_from(context))
    click.echo(f"serving {target} on http://{bind}:{port}/")
    serve_site(target, bind, port)


@main.group()
def db() -> None:
    """Database schema commands."""


@db.command("upgrade")
@common_options
@click.pass_context
def db_upgrade(context: click.Context) -> None:
    """Bring the database schema up to the newest migration."""
    from bot.store.database import make_engine, upgrade_database

    settings = settings_from(context)
    engine = make_engine(settings.database_url)
    upgrade_database(engine)
    click.echo(f"database {engine.url!r} is at the newest schema")


@main.group(invoke_without_command=True)
@common_options
@click.pass_context
def shunted(context: click.Context) -> None:
    """List posts and timed events whose processing failed (see also: shunted requeue)."""
    if context.invoked_subcommand is None:
        context.invoke(shunted_list)


@shunted.command("list")
@click.option("--traceback", "tracebacks", is_flag=True, help="Print each full traceback.")
@common_options
@click.pass_context
def shunted_list(context: click.Context, tracebacks: bool) -> None:
    """List shunted messages, then shunted timed events, with the last line of their traceback.

    An event's line reads "event N", its handler, the interval it was run
    over, and whether it is shunted or queued to run again.
    """
    from sqlalchemy import select

    from bot.app import build_app
    from bot.engine.event_shunts import shunted_events
    from bot.store.models import Message, Shunt

    app = build_app(settings_from(context))
    with app.session_factory() as session:
        rows = session.scalars(
            select(Message).where(Message.status == "shunted").order_by(Message.id)
        ).all()
        for row in rows:
            click.echo(
                f"{row.id}\t<{row.message_id}>\t{row.received_at:%Y-%m-%d %H:%M}\t"
                f"{row.status_reason}"
            )
            if tracebacks:
                last = select(Shunt.traceback).where(Shunt.message_pk == row.id)
                click.echo(session.scalars(last.order_by(Shunt.id.desc())).first() or "")
        events = shunted_events(session)
        for event in events:
            click.echo(
                f"event {event.id}\t{event.handler}\t({event.due_after:%Y-%m-%d %H:%M}, "
                f"{event.due_until:%Y-%m-%d %H:%M}]\t{event.status}\t{event.error}"
            )
            if tracebacks:
                click.echo(event.traceback)
        click.echo(f"{len(rows)} shunted message(s), {len(events)} shunted event(s)", err=True)


@main.command("refused")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per refused post.")
@common_options
@click.pass_context
def refused(context: click.Context, as_json: bool) -> None:
    """List posts refused as possibly forged (never answered; see docs/trust.md)."""
    from bot.app import build_app
    from bot.engine.refusals import refused_posts

    app = build_app(settings_from(context))
    with app.session_factory() as session:
        posts = refused_posts(session)
    for post in posts:
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "number": post.number,
                        "message_id": post.message_id,
                        "received_at": post.received_at.isoformat(),
                        "claimed_sender": post.claimed_sender,
                        "subject": post.subject,
                        "reason": post.reason,
                    }
                )
            )
        else:
            click.echo(
                f"{post.number}\t{post.received_at:%Y-%m-%d %H:%M}\t<{post.message_id}>\t"
                f"from {post.claimed_sender or '(none)'}\t{post.reason}"
            )
    click.echo(f"{len(posts)} refused post(s)", err=True)


@shunted.command("requeue")
@click.argument("message", type=int, required=False)
@click.option("--event", type=int, metavar="N", help="Re-queue the shunted timed event N.")
@click.option("--all", "everything", is_flag=True, help="Re-queue every shunted message and event.")
@common_options
@click.pass_context
def shunted_requeue(
    context: click.Context, message: int | None, event: int | None, everything: bool
) -> None:
    """Put a shunted message (by number), a shunted event, or all of them back in the queue.

    The worker runs a re-queued event again at its place among the posts
    still waiting; posts judged since it failed are not judged again.
    """
    from bot.app import build_app
    from bot.engine.event_shunts import requeue_events
    from bot.engine.worker import requeue

    if message is None and event is None and not everything:
        raise click.UsageError("name a message number, --event N, or --all")
    app = build_app(settings_from(context))
    count = events = 0
    if everything or message is not None:
        count = requeue(app.session_factory, None if everything else message)
    if everything or event is not None:
        events = requeue_events(app.session_factory, None if everything else event)
    click.echo(
        f"{count} message(s) re-queued, {events} event(s) re-queued; "
        "`nomicbot run` or `replay` processes them"
    )


@main.group("ledger")
def ledger_group() -> None:
    """The ledger of holdings (points, ...): credit by an administrator."""


@ledger_group.command("credit")
@click.argument("player")
@click.argument("amount", type=int)
@click.option("--currency", default="points", show_default=True)
@click.option("--reason", required=True, help="Why, as it will stand in the ledger.")
@common_options
@click.pass_context
def ledger_credit(
    context: click.Context, player: str, amount: int, currency: str, reason: str
) -> None:
    """Add AMOUNT (negative: take) of a currency to PLAYER's holdings.

    A negative amount follows "--": nomicbot ledger credit --reason fine -- Bob -5
    """
    arguments = {"player": player, "amount": amount, "currency": currency, "reason": reason}
    _admin_act(context, "ledger.credit", arguments, datetime.now(UTC))


@main.command("verify-dice")
@click.argument("archive", type=click.Path(exists=True, path_type=Path))
@common_options
def verify_dice(archive: Path) -> None:
    """Re-derive every dice roll in an archive from the revealed seeds."""
    from bot.audit import verify_archive

    report = verify_archive(archive)
    for line in report.lines:
        click.echo(line)
    click.echo(report.summary)
    if not report.ok:
        sys.exit(1)


@main.command("verify-private")
@click.argument("archive", type=click.Path(exists=True, path_type=Path))
@common_options
@click.pass_context
def verify_private(context: click.Context, archive: Path) -> None:
    """Check every private vote's commitment in an archive against its reveal (rule 15 B).

    The records are checked with the bot's key: its own, [trust] key_file or DNS.
    """
    from bot.app import own_key_records, trust_policy
    from bot.private_audit import verify_private_votes

    settings = settings_from(context)
    lookup = trust_policy(settings.trust, own_key_records(settings)).lookup()
    audit = verify_private_votes(archive, settings.bot_domain, lookup)
    for line in audit.lines:
        click.echo(line)
    click.echo(audit.summary)
    if not audit.ok:
        sys.exit(1)


def _instant(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@main.group("player")
def player_group() -> None:
    """The roster, by an administrator: a player's addresses (rule 14)."""


@player_group.group("address")
def player_address_group() -> None:
    """Add or remove an address a player posts from."""


@player_address_group.command("add")
@click.argument("name")
@click.argument("address")
@common_options
@click.pass_context
def player_address_add(context: click.Context, name: str, address: str) -> None:
    """Let the player called NAME post from ADDRESS as well."""
    arguments = {"player": name, "address": address}
    _admin_act(context, "player.address.add", arguments, datetime.now(UTC))


@player_address_group.command("remove")
@click.argument("name")
@click.argument("address")
@common_options
@click.pass_context
def player_address_remove(context: click.Context, name: str, address: str) -> None:
    """Stop taking posts from ADDRESS as the player called NAME (never eir last one)."""
    arguments = {"player": name, "address": address}
    _admin_act(context, "player.address.remove", arguments, datetime.now(UTC))


def _admin_act(
    context: click.Context,
    command: str,
    arguments: dict[str, Any],
    at: datetime,
    check: Callable[[App], None] | None = None,
) -> None:
    """Carry out an administrator's act as a signed record mailed to the list (docs/archive.md).

    The record goes into the bot's own queue, so it takes effect now, in
    order with the posts, and to the list, so that the archive holds it.
    """
    from bot.app import build_app
    from bot.runner import submit_record
    from bot.trust.bot_key import load_bot_key

    settings = settings_from(context)
    # Made first, when the bot has none yet, so that the app knows its public half.
    key = load_bot_key(
        settings.bot.dkim_key_file,
        settings.bot.dkim_selector,
        settings.bot_domain,
        settings.data_path,
    )
    app = build_app(settings)
    if check is not None:
        check(app)  # may refuse, before anything is recorded
    status, reason = submit_record(app, key, command, arguments, at)
    if status not in {"processed", "queued"}:
        raise click.ClickException(reason)
    click.echo(reason.removeprefix("admin record applied: "))


@main.group("clock")
def clock_group() -> None:
    """The Clock (rule 3 A): turn it Off or On from an instant on, as a signed record."""


def _at_option(function: F) -> F:
    return click.option(
        "--at",
        "at_text",
        metavar="INSTANT",
        help="When it takes effect (ISO 8601 UTC, now or later); default now.",
    )(function)


@clock_group.command("off")
@_at_option
@common_options
@click.pass_context
def clock_off(context: click.Context, at_text: str | None) -> None:
    """Turn the Clock Off at INSTANT (rule 3 A): posts are held until it is On (3 B)."""
    _rule_change(context, "clock.switch", {"on": False}, at_text)


@clock_group.command("on")
@_at_option
@common_options
@click.pass_context
def clock_on(context: click.Context, at_text: str | None) -> None:
    """Turn the Clock On at INSTANT (rule 3 A): the posts held meanwhile take effect then."""
    _rule_change(context, "clock.switch", {"on": True}, at_text)


@main.group("setting")
def setting_group() -> None:
    """Settings that are part of the rules, changed from an instant on (docs/archive.md)."""


@setting_group.command("set")
@click.argument("setting", metavar="SECTION.KEY")
@click.argument("value")
@_at_option
@common_options
@click.pass_context
def setting_set(context: click.Context, setting: str, value: str, at_text: str | None) -> None:
    """Change SECTION.KEY to VALUE from INSTANT on, e.g. go.size 13 (see `setting list`).

    VALUE is a whole number, true or false, or a player's name ("" for none),
    as the setting holds.
    """
    from bot.engine.rule_changes import CHANGEABLE

    changeable = CHANGEABLE.get(setting)
    if changeable is None:
        raise click.UsageError(f"{setting} is not changeable; one of: {', '.join(CHANGEABLE)}")
    try:
        parsed = changeable.parse(value)
    except ValueError as error:
        raise click.UsageError(f"{setting}: {error}") from None
    _rule_change(context, "setting.set", {"setting": setting, "value": parsed}, at_text)


@setting_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@common_options
@click.pass_context
def setting_list(context: click.Context, as_json: bool) -> None:
    """The changeable settings with their rule, and every change recorded, in effect order."""
    from bot.app import build_app
    from bot.engine.rule_changes import CHANGEABLE, recorded_changes

    app = build_app(settings_from(context))
    with app.session_factory() as session:
        changes = recorded_changes(session)
    if as_json:
        click.echo(json.dumps(changes, indent=2))
        return
    for name, changeable in CHANGEABLE.items():
        click.echo(
            f"{name}\t(rule {changeable.rule})\t{changeable.meaning} ({changeable.kind.value})"
        )
    for change in changes:
        click.echo(f"{change['effective_at']}\t{change['setting']} = {change['value']}")


def _rule_change(
    context: click.Context, command: str, arguments: dict[str, Any], at_text: str | None
) -> None:
    """A change that takes effect at INSTANT, now or later, never before what was judged."""
    now = datetime.now(UTC)
    effective = _instant(at_text) if at_text else now
    if effective < now:
        raise click.ClickException(
            f"{effective.isoformat()} is in the past: a change takes effect now or later"
        )

    def check(app: App) -> None:
        from bot.engine.rule_changes import latest_judged_instant

        with app.session_factory() as session:
            judged = latest_judged_instant(session)
        if judged is not None and effective < judged:
            raise click.ClickException(
                f"the game was judged up to {judged.isoformat()}: a change taking effect at "
                f"{effective.isoformat()} would rewrite that past"
            )

    _admin_act(context, command, {**arguments, "effective_at": effective.isoformat()}, now, check)


if __name__ == "__main__":
    main()
