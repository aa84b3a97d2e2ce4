"""``nomicbot demo``: a short scripted game through the real pipeline.

Each post is real mail bytes, stored by the same ``ingest()`` the SMTP
ingress uses, judged by the worker, and the replies are delivered by the
sender; the demo prints every post and every mail the bot sends.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from bot.app import App, build_app
from bot.config import BotSettings, DatabaseSettings, PlayerEntry, Settings, SmtpIngressSettings
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import advance_to, deliver, store_message

DEMO_SECRET = "6e6f6d6963626f742064656d6f20736563726574206f6e6c7920666f72206465"
START = datetime(2026, 1, 3, 9, 0, tzinfo=UTC)  # nweek 1, nday 3


@dataclass(frozen=True)
class DemoPost:
    author: str
    address: str
    hours: float  # after START
    body: str


SCRIPT: tuple[DemoPost, ...] = (
    DemoPost(
        "Alice",
        "alice@example.test",
        0,
        "Good morning all.\n\nI place a stone at E5 and roll 2d6.\n\n-- \nAlice",
    ),
    DemoPost(
        "Bob",
        "bob@example.test",
        1,
        "> I place a stone at E5\n\nNice. I play D5. If Alice passes, I pass.",
    ),
    DemoPost("Carol", "carol@example.test", 2, "I request to become a player with the name Carol."),
    DemoPost("Alice", "alice@example.test", 30, "I place a stone at E5."),
    DemoPost("Alice", "alice@example.test", 31, "I place a stone at E4. I place a stone at J9."),
    DemoPost("Carol", "carol@example.test", 33, "I place a stone at G33 [[oops]]."),
    DemoPost("Bob", "bob@example.test", 100, "I place a stone at E6. I roll a d20 twice."),
)


def run_demo(database_url: str | None, echo: Callable[[str], None]) -> None:
    with tempfile.TemporaryDirectory(prefix="nomicbot-demo-") as folder:
        settings = _demo_settings(Path(folder), database_url)
        app = build_app(settings)
        transport = CollectingTransport()
        try:
            _play(app, SCRIPT, transport, echo)
        finally:
            app.dispose()


def _demo_settings(folder: Path, database_url: str | None) -> Settings:
    return Settings(
        bot=BotSettings(
            address="referee@nomic.test",
            list_address="nomic@nomic.test",
            data_dir=str(folder),
            master_secret=DEMO_SECRET,
        ),
        database=DatabaseSettings(url=database_url or ""),
        smtp_ingress=SmtpIngressSettings(enabled=False),
        players=(
            PlayerEntry("Alice", ("alice@example.test",)),
            PlayerEntry("Bob", ("bob@example.test",)),
        ),
    )


def _play(
    app: App,
    script: Sequence[DemoPost],
    transport: CollectingTransport,
    echo: Callable[[str], None],
) -> None:
    for number, post in enumerate(script, start=1):
        at = START + timedelta(hours=post.hours)
        raw = compose_post(
            post.author,
            post.address,
            "Political Go",
            post.body,
            f"demo-{number}@example.test",
            at,
            to="nomic@nomic.test",
        )
        echo(banner(f"post {number}: {post.author}, {at:%Y-%m-%d %H:%M} UTC"))
        echo(raw.decode("utf-8", errors="replace").replace("\r\n", "\n"))
        store_message(app, raw, "smtp", at)
        process_queue(app.session_factory, app.services)
        deliver(app, transport)
        for mail in transport.take():
            echo(banner("the bot sends"))
            echo(printable(mail))
    advance_to(app, START + timedelta(days=12))
    deliver(app, transport)
    for mail in transport.take():
        echo(banner("the bot sends (end of the nweek)"))
        echo(printable(mail))


def banner(text: str) -> str:
    return f"\n===== {text} " + "=" * max(0, 60 - len(text))


def printable(raw: bytes) -> str:
    mail = message_from_bytes(raw, policy=default)
    headers = "".join(f"{name}: {mail[name]}\n" for name in ("From", "To", "Subject"))
    body = mail.get_body(preferencelist=("plain",))
    return headers + "\n" + (body.get_content() if body is not None else "")


class CollectingTransport:
    """A transport that keeps mails in memory for the demo to print."""

    recognises_repeats = False

    def __init__(self) -> None:
        self.mails: list[bytes] = []

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
        self.mails.append(raw)

    def take(self) -> list[bytes]:
        taken, self.mails = self.mails, []
        return taken
