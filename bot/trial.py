"""``nomicbot try``: a game's configuration tried on a fast clock before it goes live.

A Game Master writes (or types) a sequence of posts, each with when it is
posted and by whom; every post is real mail, stored by the same ``ingest()``
the SMTP ingress uses and judged by the worker, and the scheduler runs
between posts as the daemon would, so the Checkpoints, the Ballot, dice
reveals, Bandwidth resets and digests of a whole nweek appear in seconds.

The trial never touches the live game: it uses the configuration's rules,
players and Clock, but its own throw-away database and data directory, a
new dice master secret (printing the live one's seeds would tell the GM
every future roll), its own signing key, no ingress, and no mail leaves:
every mail the bot would send is printed instead.

The script, one post per line::

    # A comment.
    nweek 1, nday 1, 09:00  Alice: I place a stone at E5.
    +2h  Bob: I roll 2d6.
    +1d  Carol <carol@example.org>: I request to become a player with the name Carol.
    +1h  Alice: I submit a proposal:
        __Cake__ {{ Everyone gets cake. }}
    nweek 2, nday 1

When comes first: "nweek N, nday D[, HH:MM]" as the Clock shows it (rule 3
A, one-based), an ISO 8601 instant, or "+N" minutes/hours/days ("+30m",
"+2h", "+1d") after the previous post; with no when, an hour after the
previous post (the first post: the Clock's epoch).  An indented line goes on
the previous post's body.  A line with a when and no post only moves the
clock (the events due meanwhile are run and their mails printed).  An author
the configuration lists posts from eir first address; anyone else from
"Name <address>", or from an address made up from the name.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default
from email.utils import parsedate_to_datetime
from pathlib import Path

from bot.app import App, build_app
from bot.config import (
    DatabaseSettings,
    ImapSettings,
    OutboundSettings,
    Settings,
    SmtpIngressSettings,
    TrustSettings,
)
from bot.demo import CollectingTransport, banner, printable
from bot.engine.worker import process_queue
from bot.games import ntime
from bot.posts import compose_post
from bot.runner import advance_to, deliver, store_message

DEFAULT_STEP = timedelta(hours=1)
UNITS = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1)}
ON_THE_CLOCK = re.compile(
    r"nweek\s+(?P<nweek>\d+)\s*,?\s*nday\s+(?P<nday>\d+)"
    r"(?:\s*,?\s*(?P<hour>\d{1,2}):(?P<minute>\d{2}))?",
    re.IGNORECASE,
)
RELATIVE = re.compile(r"\+(?P<amount>\d+(?:\.\d+)?)\s*(?P<unit>[mhd])\b", re.IGNORECASE)
ISO_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?")
# A ruling's numbered item ("  2. "I roll 2d6."") and what became of it (indented).
RULING_ITEM = re.compile(r"^(?:  \d+\. |     \S)")
AUTHOR = re.compile(r"(?P<name>[^:<>]+?)\s*(?:<(?P<address>[^<>\s]+@[^<>\s]+)>)?\s*:\s")


class ScriptError(ValueError):
    """A line of the script cannot be read; the message names the line."""


@dataclass(frozen=True)
class When:
    """When a line happens: exactly one of the three is set, or none (the default step)."""

    clock: tuple[int, int, int, int] | None = None  # one-based nweek, nday; hour, minute
    instant: datetime | None = None
    after: timedelta | None = None


@dataclass(frozen=True)
class ScriptLine:
    """One post (or, without an author, a move of the clock) of the script."""

    number: int  # the line of the script it starts on
    when: When
    author: str = ""
    address: str = ""
    body: str = ""


def parse_script(text: str) -> list[ScriptLine]:
    """The posts of ``text``; an indented line continues the previous post's body.

    Raises ScriptError naming the first line that cannot be read.
    """
    lines: list[ScriptLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw[:1].isspace() and lines and lines[-1].author:
            last = lines[-1]
            lines[-1] = replace(last, body=f"{last.body}\n{raw.strip()}")
            continue
        lines.append(parse_line(raw, number))
    return lines


def parse_line(text: str, number: int = 1) -> ScriptLine:
    """One line: an optional when, then "Author: body" (or nothing, to move the clock)."""
    when, rest = _when_of(text.strip())
    if not rest:
        if when == When():
            raise ScriptError(f"line {number}: nothing to do")
        return ScriptLine(number, when)
    author = AUTHOR.match(rest + " ")
    if author is None:
        raise ScriptError(
            f'line {number}: expected "Author: what e posts" after the time, not {rest!r}'
        )
    body = rest[author.end() :].strip()
    if not body:
        raise ScriptError(f"line {number}: {author['name']} posts nothing")
    return ScriptLine(number, when, author["name"].strip(), author["address"] or "", body)


def _when_of(text: str) -> tuple[When, str]:
    for pattern, make in (
        (ON_THE_CLOCK, _clock_when),
        (RELATIVE, _relative_when),
        (ISO_INSTANT, _instant_when),
    ):
        found = pattern.match(text)
        if found:
            return make(found), text[found.end() :].strip()
    return When(), text


def _clock_when(found: re.Match[str]) -> When:
    hour, minute = int(found["hour"] or 0), int(found["minute"] or 0)
    return When(clock=(int(found["nweek"]), int(found["nday"]), hour, minute))


def _relative_when(found: re.Match[str]) -> When:
    return When(after=UNITS[found["unit"].lower()] * float(found["amount"]))


def _instant_when(found: re.Match[str]) -> When:
    text = found.group().replace(" ", "T").replace("Z", "+00:00")
    instant = datetime.fromisoformat(text)
    return When(instant=instant if instant.tzinfo else instant.replace(tzinfo=UTC))


def trial_settings(settings: Settings, folder: Path) -> Settings:
    """``settings`` for a trial in ``folder``: the same game, nothing of the live one's."""
    bot = replace(
        settings.bot,
        data_dir=str(folder),
        master_secret="",  # a new secret: the live one's seeds stay secret
        dkim_key_file="",
    )
    return replace(
        settings,
        bot=bot,
        database=DatabaseSettings(url=""),
        smtp_ingress=SmtpIngressSettings(enabled=False),
        imap=ImapSettings(enabled=False),
        outbound=OutboundSettings(maildir=str(folder / "outbox")),
        # The trial's posts are made here, not carried by the list: List-Id suffices.
        trust=TrustSettings(list_signature="none"),
    )


@dataclass
class Trial:
    """A running trial: the app, where its clock stands, and who posts from where."""

    app: App
    echo: Callable[[str], None]
    brief: bool = False
    now: datetime | None = None
    posts: int = 0
    mails: int = 0

    def run(self, lines: Iterable[ScriptLine]) -> None:
        """Post each line in turn; raises ScriptError for a time before the last one."""
        for line in lines:
            self.take(line)

    def take(self, line: ScriptLine) -> None:
        at = self.instant_of(line)
        if self.now is not None and at < self.now:
            raise ScriptError(
                f"line {line.number}: {_utc(at)} is before the previous post ({_utc(self.now)})"
            )
        self.advance(at)
        if line.author:
            self.post(line, at)

    def instant_of(self, line: ScriptLine) -> datetime:
        when, clock = line.when, self.app.services.clock
        if when.instant is not None:
            return when.instant.astimezone(UTC)
        if when.clock is not None:
            return self._on_the_clock(line.number, *when.clock)
        start = self.now if self.now is not None else clock.epoch
        if when.after is not None:
            return start + when.after
        return start + DEFAULT_STEP if self.now is not None else start

    def _on_the_clock(self, number: int, nweek: int, nday: int, hour: int, minute: int) -> datetime:
        try:
            reading = ntime.ClockReading(nweek - 1, nday - 1)  # displayed one-based (rule 3 A)
        except ValueError:
            raise ScriptError(f"line {number}: there is no nweek {nweek}, nday {nday}") from None
        begun = ntime.nday_start(self.app.services.clock.config, reading)
        if begun is None:
            raise ScriptError(
                f"line {number}: the Clock never shows nweek {nweek}, nday {nday} "
                "(before the epoch, or the Clock is Off from before it)"
            )
        return begun + timedelta(hours=hour, minutes=minute)

    def advance(self, at: datetime) -> None:
        """Run the events due up to ``at`` and print the mails they sent."""
        advance_to(self.app, at)
        self.now = at
        self.show_mails("the bot sends")

    def post(self, line: ScriptLine, at: datetime) -> None:
        self.posts += 1
        address = self.address_of(line)
        raw = compose_post(
            line.author,
            address,
            "[try] " + line.body.splitlines()[0][:60],
            line.body,
            f"try-{self.posts}@{self.app.settings.bot_domain}",
            at,
            to=self.app.settings.bot.list_address,
        )
        list_id = self.app.settings.bot.list_id.strip()
        if list_id:
            raw = f"List-Id: <{list_id.strip('<>')}>\r\n".encode() + raw
        reading = self.app.services.clock.reading(at).label
        self.echo(banner(f"post {self.posts}: {line.author}, {reading} ({_utc(at)})"))
        self.echo(line.body)
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        self.show_mails("the bot answers")

    def address_of(self, line: ScriptLine) -> str:
        if line.address:
            return line.address
        for entry in self.app.settings.players:
            if entry.name.casefold() == line.author.casefold() and entry.addresses:
                return entry.addresses[0]
        local = re.sub(r"[^a-z0-9]+", ".", line.author.casefold()).strip(".") or "player"
        return f"{local}@players.invalid"

    def show_mails(self, heading: str) -> None:
        transport = CollectingTransport()
        deliver(self.app, transport)
        for raw in transport.take():
            self.mails += 1
            self.echo(_one_line(raw) if self.brief else banner(heading) + "\n" + printable(raw))

    def summary(self) -> str:
        reading = self.app.services.clock.reading(self.now).label if self.now else "not started"
        return (
            f"\n{self.posts} post(s) judged, {self.mails} mail(s) the bot would have sent; "
            f"the trial ends at {reading}."
        )


def end_of_nweek(app: App, at: datetime) -> datetime:
    """The first instant of the nweek after the one ``at`` is in: where a trial stops."""
    config = app.services.clock.config
    nweek = app.services.clock.reading(at).nweek
    begun = ntime.nday_start(config, ntime.ClockReading(nweek + 1, 0))
    return begun if begun is not None and begun > at else at


def run_trial(
    settings: Settings,
    lines: Iterable[ScriptLine],
    echo: Callable[[str], None],
    *,
    until: datetime | None = None,
    brief: bool = False,
    keep: Path | None = None,
) -> Trial:
    """Play ``lines`` on a fresh copy of the game, then run the clock on to ``until``.

    ``until`` defaults to the end of the nweek of the last line, so the
    nweek's reports are seen.  ``keep`` is a folder to leave the trial's
    database in (for ``nomicbot state``); by default it is deleted.
    """
    with _folder(keep) as folder:
        app = build_app(trial_settings(settings, folder))
        trial = Trial(app, echo, brief)
        try:
            trial.run(lines)
            last = trial.now or app.services.clock.epoch
            stop = until or end_of_nweek(app, last)
            if stop > last:
                trial.take(ScriptLine(0, When(instant=stop)))
            echo(trial.summary())
        finally:
            app.dispose()
        return trial


def typed_lines(source: Iterable[str]) -> Iterator[ScriptLine]:
    """Each typed line is a whole post (or a move of the clock); blank lines are skipped."""
    for number, text in enumerate(source, start=1):
        if text.strip() and not text.lstrip().startswith("#"):
            yield parse_line(text, number)


@contextmanager
def _folder(keep: Path | None) -> Iterator[Path]:
    """``keep``, created, or else a temporary folder deleted afterwards."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep
        return
    with tempfile.TemporaryDirectory(prefix="nomicbot-try-") as name:
        yield Path(name)


def _one_line(raw: bytes) -> str:
    """A mail in brief: its kind and subject; a ruling's items too, which are the point."""
    mail = message_from_bytes(raw, policy=default)
    kind = str(mail.get("X-Nomicbot-Kind", "mail"))
    date = parsedate_to_datetime(str(mail["Date"]))
    line = f"  -> {_utc(date)}  {kind:<16} {mail['Subject']}"
    if kind != "ruling":
        return line
    body = mail.get_body(preferencelist=("plain",))
    text = str(body.get_content()) if body is not None else ""
    return "\n".join([line, *(row for row in text.splitlines() if RULING_ITEM.match(row))])


def _utc(instant: datetime) -> str:
    return f"{instant.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


__all__ = [
    "ScriptError",
    "ScriptLine",
    "Trial",
    "parse_line",
    "parse_script",
    "run_trial",
    "trial_settings",
    "typed_lines",
]
