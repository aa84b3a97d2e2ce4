"""A list archive of the bot's mails for ``verify-dice`` tests of pure rules.

A pure rule's draws print ``draw-v1`` proof lines; ``bot.audit.verify_archive``
re-derives them from the nweek's seed once the archive holds the seed's
commitment (rule 9, published before the nweek) and its reveal (after).
"""

from __future__ import annotations

import mailbox
from email.message import EmailMessage
from pathlib import Path

from bot.games.dice import commitment, reveal


def bot_mail(kind: str, body: str, number: int) -> EmailMessage:
    """One mail of the bot's, as ``verify_archive`` reads it: its kind in a header."""
    mail = EmailMessage()
    mail["From"] = "nomicbot <bot@nomic.invalid>"
    mail["To"] = "nomic@nomic.invalid"
    mail["Subject"] = kind
    mail["Message-ID"] = f"<{kind}-{number}@nomic.invalid>"
    mail["X-Nomicbot-Kind"] = kind
    mail.set_content(body)
    return mail


def archive_of_draws(path: Path, seed: bytes, nweek: int, ruling: str) -> mailbox.mbox:
    """An mbox at ``path``: nweek's seed committed, a ruling carrying proof lines, the
    seed revealed.  Returned open, so a test can add a tampered ruling after."""
    box = mailbox.mbox(str(path))
    box.add(bot_mail("dice-commitment", f"Nweek: {nweek}\nCommitment: {commitment(seed)}\n", 1))
    box.add(bot_mail("ruling", ruling, 2))
    box.add(bot_mail("dice-reveal", f"Nweek: {nweek}\nSeed: {reveal(seed)}\n", 3))
    box.flush()
    return box
