"""A small mail world on loopback for the forgery tests: DNS, Postfix, Mailman 3, Dovecot, bots.

Who lives here:

- ``lists.example.test``: GNU Mailman 3, set up by ``deploy/GUIDE.md``
  word for word, with two lists: ``nomic@`` munges From (the guide's
  optional step 5) and ``plain@`` does not.  Both ARC-seal what they
  distribute.
- ``bot.example.test``: two referees, ``referee-munged@`` reading the
  first list and ``referee-plain@`` the second, each the real daemon with
  its own database, reading its Dovecot mailbox by IMAP and mailing its
  rulings through Postfix to its list.
- the players' domains, each with a DKIM key and a DMARC policy published
  in the test DNS: ``a.example`` (Alice and Carol), ``b.example`` (Bob),
  ``evil.example`` (Mallory, the attacker, who runs eir own domain), and
  ``nodmarc.example`` (Dave: no DKIM, no DMARC).

Every address's mail lands in a Dovecot mailbox, so a test can read what
anyone received.  Postfix, the border MTA of all of them, follows the
guide's step 3 (it drops Authentication-Results arriving from outside).
"""

from __future__ import annotations

import os
import shutil
import smtplib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from imapclient import IMAPClient
from sqlalchemy import select

from bot.app import App, build_app
from bot.config import load_settings
from bot.daemon import SCHEDULER_LAG, Daemon
from bot.ingress.ingest import post_message_id
from bot.outbound.transports import MaildirTransport
from bot.runner import replay_archive
from bot.store.models import ActionRecord, Message, OutboxMessage, Player
from bot.testing.apps import TEST_SECRET
from bot.testing.dns import Zone, ZoneServer
from bot.testing.dovecot import DovecotServer
from bot.testing.mailman import MailmanServer, SiteNames, guide_steps, run_step
from bot.testing.postfix import PostfixServer
from bot.testing.signing import SigningKey, signing_key
from bot.testing.support import make_private_root, remove_tree, wait_until
from bot.trust.policy import LIST_ARCHIVE

LIST_DOMAIN = "lists.example.test"
MUNGED_LIST = f"nomic@{LIST_DOMAIN}"
PLAIN_LIST = f"plain@{LIST_DOMAIN}"
BOT_DOMAIN = "bot.example.test"
BOTS = {MUNGED_LIST: f"referee-munged@{BOT_DOMAIN}", PLAIN_LIST: f"referee-plain@{BOT_DOMAIN}"}
SELECTOR = "mail"
PASSWORD = "secret-of-the-test"

# name -> address; the registered players of both games.
PEOPLE = {
    "Alice": "alice@a.example",
    "Carol": "carol@a.example",
    "Bob": "bob@b.example",
    "Mallory": "mallory@evil.example",
    "Dave": "dave@nodmarc.example",
}
# Domains that sign their mail and publish a DMARC policy of reject.
SIGNING_DOMAINS = ("a.example", "b.example", "evil.example")


@dataclass
class Referee:
    """One bot: its list, its address, its daemon and its database."""

    list_address: str
    address: str
    app: App
    daemon: Daemon


@dataclass
class MailWorld:
    dns: ZoneServer
    dovecot: DovecotServer
    postfix: PostfixServer
    mailman: MailmanServer
    referees: dict[str, Referee]  # by list address
    keys: dict[str, SigningKey]  # by domain
    guide_output: list[str] = field(default_factory=list)

    # -- sending ----------------------------------------------------------------------

    def send(self, raw: bytes, mail_from: str, recipients: list[str]) -> None:
        """Hand ``raw`` to the border Postfix, as the sender's own server would."""
        data = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        with smtplib.SMTP(self.postfix.host, self.postfix.port, timeout=30) as smtp:
            smtp.sendmail(mail_from, recipients, data)

    def sign(self, raw: bytes, domain: str) -> bytes:
        """``raw`` DKIM-signed by ``domain``, as its provider would sign it."""
        return self.keys[domain].dkim_sign(raw)

    # -- reading ----------------------------------------------------------------------

    def judged(self, referee: Referee, message_id: str) -> list[Message]:
        """Every stored copy of the post ``message_id`` (judged, refused or waiting)."""
        with referee.app.session_factory() as session:
            rows = session.scalars(
                select(Message).where(Message.message_id.like(f"{message_id}%"))
            ).all()
            session.expunge_all()
        return [row for row in rows if post_message_id(row.message_id) == message_id]

    def wait_settled(self, referee: Referee, message_ids: list[str], timeout: float) -> bool:
        """Whether each post arrived and no copy of it is still queued, within ``timeout``."""

        def settled() -> bool:
            for message_id in message_ids:
                rows = self.judged(referee, message_id)
                if not rows or any(row.status == "queued" for row in rows):
                    return False
            return True

        return wait_until(settled, timeout, interval=0.25)

    def actors(self, referee: Referee, message_id: str) -> list[str]:
        """The players in whose names the post's actions were judged."""
        with referee.app.session_factory() as session:
            query = (
                select(Player.name)
                .join(ActionRecord, ActionRecord.player_id == Player.id)
                .join(Message, ActionRecord.message_pk == Message.id)
                .where(Message.message_id == message_id)
            )
            return list(session.scalars(query))

    def outbox(self, referee: Referee) -> list[OutboxMessage]:
        with referee.app.session_factory() as session:
            rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
            session.expunge_all()
            return list(rows)

    def mailbox(self, address: str) -> list[bytes]:
        """Everything ``address`` has received, oldest first."""
        with IMAPClient(
            self.dovecot.host, port=self.dovecot.port, use_uid=True, ssl=False
        ) as client:
            client.login(address, PASSWORD)
            client.select_folder("INBOX", readonly=True)
            uids = client.search(["ALL"])
            fetched = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
            return [fetched[uid][b"BODY[]"] for uid in sorted(fetched)]


def _zone(keys: dict[str, SigningKey]) -> Zone:
    zone = Zone()
    for key in keys.values():
        zone.add(key.record_name, key.record)
        zone.add(f"_dmarc.{key.domain}", "v=DMARC1; p=reject")
    return zone


def _transports(dovecot: DovecotServer) -> dict[str, str]:
    lmtp = f"lmtp:[{dovecot.host}]:{dovecot.lmtp_port}"
    domains = {address.rpartition("@")[2] for address in PEOPLE.values()}
    return {domain: lmtp for domain in (*sorted(domains), BOT_DOMAIN)}


def _site(mailman: MailmanServer, postfix: PostfixServer, bot_etc: Path, lst: str) -> SiteNames:
    return SiteNames(
        list_address=lst,
        bot_address=BOTS[lst],
        mailman_etc=mailman.etc,
        postfix_etc=postfix.config_directory,
        bot_etc=bot_etc,
        mailman_command=mailman.command(),
    )


def _follow_guide(
    world_root: Path, mailman: MailmanServer, postfix: PostfixServer, zone: Zone
) -> tuple[dict[str, Path], list[str]]:
    """Run deploy/GUIDE.md's steps for both lists; the bots' etc folders, and the output."""
    steps = guide_steps()
    etcs = {lst: world_root / f"etc-{lst.partition('@')[0]}" for lst in BOTS}
    for folder in etcs.values():
        folder.mkdir()
    first = _site(mailman, postfix, etcs[MUNGED_LIST], MUNGED_LIST)
    output: list[str] = []
    key_step, arc_step, header_step, create_step, munge_step, bot_step = steps
    for step in (key_step, arc_step, header_step):
        output.append(run_step(step, first))
    # The admin publishes the record step 1 printed, and gives the second bot the key file.
    for line in (etcs[MUNGED_LIST] / "list-keys.txt").read_text().splitlines():
        name, _, value = line.partition(" ")
        zone.add(name, value)
    shutil.copy(etcs[MUNGED_LIST] / "list-keys.txt", etcs[PLAIN_LIST] / "list-keys.txt")
    mailman.start()  # "Then restart Mailman"
    for lst in BOTS:
        names = _site(mailman, postfix, etcs[lst], lst)
        output.append(run_step(create_step, names))
        mailman.add_members(lst, list(PEOPLE.values()))
        if lst == MUNGED_LIST:
            output.append(run_step(munge_step, names))
        output.append(run_step(bot_step, names))
    return etcs, output


@dataclass(frozen=True)
class History:
    """A game older than its list: it began at ``epoch``, and its first posts were
    made elsewhere.  They are imported into the list's archive (as an archive
    of a list that moved keeps its old posts) and judged into the referee's
    database from there before the daemon starts."""

    epoch: datetime
    posts: tuple[bytes, ...]  # as the list archives them: its Received stamp and results on top


def _referee(
    lst: str,
    etc: Path,
    dovecot: DovecotServer,
    postfix: PostfixServer,
    keys: list[SigningKey],
    epoch: datetime | None = None,
) -> Referee:
    # The test world's DNS is for Mailman alone; the bot, in this process, reads the
    # members' keys from its key file, pinned beside the list's.
    with (etc / "list-keys.txt").open("a") as handle:
        handle.writelines(f"{key.record_name} {key.record}\n" for key in keys)
    config = etc / "nomicbot.toml"
    with config.open("a") as handle:  # the game's players, as its administrator lists them
        for name, address in PEOPLE.items():
            handle.write(f'\n[[players]]\nname = "{name}"\naddresses = ["{address}"]\n')
    midnight = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    epoch = epoch or midnight
    environ = {
        "NOMICBOT_BOT_DATA_DIR": str(etc / "var"),
        "NOMICBOT_BOT_MASTER_SECRET": TEST_SECRET,
        "NOMICBOT_SMTP_INGRESS_ENABLED": "false",
        "NOMICBOT_IMAP_HOST": dovecot.host,
        "NOMICBOT_IMAP_PORT": str(dovecot.port),
        "NOMICBOT_IMAP_USERNAME": BOTS[lst],
        "NOMICBOT_IMAP_PASSWORD": PASSWORD,
        "NOMICBOT_IMAP_IDLE_RENEW_SECONDS": "5",
        "NOMICBOT_OUTBOUND_SMTP_HOST": postfix.host,
        "NOMICBOT_OUTBOUND_SMTP_PORT": str(postfix.port),
        "NOMICBOT_NTIME_EPOCH": epoch.isoformat(),
    }
    app = build_app(load_settings(config, environ=environ))
    daemon = Daemon(app)
    return Referee(lst, BOTS[lst], app, daemon)


def _import_history(mailman: MailmanServer, referee: Referee, history: History) -> None:
    """Put the history into the list's archive, and judge it from there into the referee."""
    archive = mailman.archive_dir / referee.list_address
    existing = _nearest_existing(archive)
    owner = existing.stat()  # Mailman's own user must go on writing there
    for name in ("new", "cur", "tmp"):
        (archive / name).mkdir(parents=True, exist_ok=True)
    folder = archive / "new"
    for number, raw in enumerate(history.posts):
        (folder / f"{int(history.epoch.timestamp())}.history{number}.imported").write_bytes(raw)
    made = [folder for folder in (archive, *archive.parents) if existing in folder.parents]
    for path in (*made, *archive.rglob("*")):
        os.chown(path, owner.st_uid, owner.st_gid)
    settings = referee.app.settings
    judging = replace(settings, trust=replace(settings.trust, list_signature=LIST_ARCHIVE))
    app = build_app(judging)
    # What the bot answered then went to the old list: kept aside, not mailed again now.
    answered = MaildirTransport(settings.data_path / "history-outbox")
    replay_archive(app, folder.parent, answered, until=datetime.now(UTC) - SCHEDULER_LAG)


def _nearest_existing(path: Path) -> Path:
    while not path.exists():
        path = path.parent
    return path


@contextmanager
def mail_world(history: History | None = None) -> Iterator[MailWorld]:
    """Start the whole world (about 20 s) and stop it however the block ends.

    With ``history`` the munged list's game began at its epoch, and its
    posts are in the list's archive and judged before the referee starts.

    Raises ServerNotInstalledError / ServerStartError when a server is missing or fails.
    """
    keys = {domain: signing_key(domain, SELECTOR) for domain in SIGNING_DOMAINS}
    zone = _zone(keys)
    root = make_private_root("nomicbot-world-")
    with ExitStack() as stack:
        stack.callback(remove_tree, root)
        dns = stack.enter_context(ZoneServer(zone))
        dovecot = stack.enter_context(DovecotServer(lmtp=True))
        for address in [*PEOPLE.values(), *BOTS.values()]:
            dovecot.add_user(address, PASSWORD)
        mailman = MailmanServer(resolv_conf=dns.resolv_conf(root))
        stack.callback(mailman.stop)
        mailman.make_site()
        postfix = stack.enter_context(
            PostfixServer(
                myhostname=f"mx.{LIST_DOMAIN}",
                transports=_transports(dovecot),
                main_cf_extra=mailman.postfix_lines(),
            )
        )
        mailman.configure(postfix.port, postfix.postmap_command)
        etcs, output = _follow_guide(root, mailman, postfix, zone)
        epoch = history.epoch if history is not None else None
        referees = {
            lst: _referee(lst, etcs[lst], dovecot, postfix, list(keys.values()), epoch)
            for lst in BOTS
        }
        if history is not None:
            _import_history(mailman, referees[MUNGED_LIST], history)
        for referee in referees.values():
            referee.daemon.start()
            stack.callback(referee.daemon.shutdown)
        world = MailWorld(dns, dovecot, postfix, mailman, referees, keys, output)
        yield world
