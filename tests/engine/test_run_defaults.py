"""`nomicbot run` with no configuration file: SQLite, SMTP ingress, Maildir outbox."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

from bot.testing.apps import maildir_mails
from bot.testing.support import free_loopback_port, wait_until


def test_run_on_embedded_defaults_answers_a_post(tmp_path: Path) -> None:
    port = free_loopback_port()
    # Only the port is moved (by environment variable, as any setting can be),
    # so that the test does not collide with a bot running on 8025.
    environment = {**os.environ, "NOMICBOT_SMTP_INGRESS_PORT": str(port)}
    log = tmp_path / "run.log"
    with open(log, "wb") as output:
        daemon = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "run"],
            cwd=tmp_path,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        assert wait_until(lambda: b"SMTP ingress on" in log.read_bytes(), timeout=30)
        mail = EmailMessage()
        mail["From"], mail["To"] = "Alice <alice@example.org>", "nomic@nomic.invalid"
        mail["Subject"], mail["Message-ID"] = "Hello", "<defaults-1@example.org>"
        mail.set_content("I request to become a player with the name Alice.\n\nI roll 3d6.")
        assert wait_until(lambda: _send(port, mail), timeout=30)
        outbox = tmp_path / "var" / "outbox"
        assert wait_until(lambda: len(_rulings(outbox)) == 1, timeout=30), log.read_text()
    finally:
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(30) == 0, log.read_text()
    ruling = _rulings(outbox)[0]
    body = ruling.get_body(preferencelist=("plain",))
    assert body is not None
    text = body.get_content()
    assert "alice@example.org is now a player, known as Alice, and receives" in text
    assert "rolled 3d6:" in text
    assert (tmp_path / "var" / "nomicbot.sqlite3").exists()
    assert (tmp_path / "var" / "master-secret").stat().st_mode & 0o077 == 0


def _send(port: int, mail: EmailMessage) -> bool:
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            client.send_message(mail)
    except OSError:
        return False
    return True


def _rulings(outbox: Path) -> list[EmailMessage]:
    if not (outbox / "new").exists():
        return []
    return [m for m in maildir_mails(outbox) if m["X-Nomicbot-Kind"] == "ruling"]
