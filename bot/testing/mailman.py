"""A private GNU Mailman 3 on loopback, set up by running ``deploy/GUIDE.md`` word for word.

Mailman 3.3 comes from PyPI into a virtualenv of its own
(``scripts/install-test-servers.sh``; it pins its own SQLAlchemy and
alembic, so it stays out of the bot's environment) and runs as Debian's
``list`` account, in a temporary directory, with its LMTP runner on a free
loopback port and its outgoing mail handed to a private Postfix.

What a site has before it follows the guide (Mailman delivering through
Postfix as Mailman's own documentation says) is written here, in
``base_config``; everything the guide asks for is done by running the
guide's own ``sh step`` blocks (``guide_steps``) with the site's names set
in the environment, so the guide and the test cannot drift apart.

Mailman checks arriving posts' DKIM signatures and DMARC policies with the
system resolver.  The test world's records are served by
``bot.testing.dns.ZoneServer``, and Mailman's runners see it as their only
name server through a mount namespace of their own
(``bot.testing.dns.in_private_resolver``); the rest of the machine is not
touched.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from bot.testing.dns import in_private_resolver
from bot.testing.support import (
    INSTALL_HINT,
    LOOPBACK,
    LoopbackServer,
    ServerError,
    ServerNotInstalledError,
    ServerStartError,
    free_loopback_port,
    make_private_root,
    read_text,
    remove_tree,
    running_as_root,
    system_user,
    tail,
    wait_until,
)

DEFAULT_VENV = Path("/opt/nomicbot-test/mailman-venv")
GUIDE = Path(__file__).resolve().parents[2] / "deploy" / "GUIDE.md"
MAILMAN_USER = "list"  # Debian's mailing-list account (base-passwd)
_STEP = re.compile(r"^```sh step(?P<tags>[^\n]*)\n(?P<script>.*?)^```$", re.MULTILINE | re.DOTALL)


def mailman_venv() -> Path:
    """The virtualenv holding GNU Mailman 3 ($NOMICBOT_MAILMAN_VENV or the installer's).

    Raises ServerNotInstalledError when it is missing.
    """
    venv = Path(os.environ.get("NOMICBOT_MAILMAN_VENV", DEFAULT_VENV))
    if not (venv / "bin" / "mailman").exists() or not (venv / "bin" / "master").exists():
        raise ServerNotInstalledError(f"GNU Mailman 3 is not installed in {venv}: {INSTALL_HINT}")
    return venv


@dataclass(frozen=True)
class GuideStep:
    tags: frozenset[str]  # "munge" for the optional From-munging step
    script: str


def guide_steps(text: str | None = None) -> list[GuideStep]:
    """The guide's ``sh step`` blocks, in order."""
    text = GUIDE.read_text(encoding="utf-8") if text is None else text
    return [
        GuideStep(frozenset(match.group("tags").split()), match.group("script"))
        for match in _STEP.finditer(text)
    ]


@dataclass(frozen=True)
class SiteNames:
    """The names the guide's first block asks a site to set."""

    list_address: str
    bot_address: str
    mailman_etc: Path
    postfix_etc: Path
    bot_etc: Path
    mailman_command: str

    @property
    def list_domain(self) -> str:
        return self.list_address.rpartition("@")[2]

    def environment(self) -> dict[str, str]:
        return {
            "LIST": self.list_address,
            "LIST_DOMAIN": self.list_domain,
            "BOT": self.bot_address,
            "MAILMAN_ETC": str(self.mailman_etc),
            "POSTFIX_ETC": str(self.postfix_etc),
            "BOT_ETC": str(self.bot_etc),
            "MAILMAN": self.mailman_command,
        }


def run_step(step: GuideStep, names: SiteNames) -> str:
    """Run one guide step with bash, as root, with the site's names; return its output.

    Raises ServerError with the output when the step fails.
    """
    environment = {**os.environ, **names.environment()}
    environment["PATH"] = f"{environment.get('PATH', '')}:/usr/sbin:/sbin"
    command = ["bash", "-euo", "pipefail", "-c", step.script]
    return run_checked(command, f"deploy/GUIDE.md step\n{step.script}", environment=environment)


def run_checked(
    command: list[str], what: str, *, environment: dict[str, str] | None = None, stdin: str = ""
) -> str:
    """Run ``command``; its output.  Raises ServerError, naming ``what``, when it fails."""
    result = subprocess.run(
        command,
        env=environment,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if result.returncode != 0:
        raise ServerError(
            f"{what} failed (exit {result.returncode}):\n{result.stdout}{result.stderr}"
        )
    return result.stdout


def base_config(
    var_dir: Path,
    lmtp_port: int,
    smtp_port: int,
    postfix_cfg: Path,
    rest_port: int,
    suffix_list: Path,
) -> str:
    """mailman.cfg of a site that runs Mailman through Postfix, before the guide."""
    return f"""\
# Written by bot.testing.mailman: a Mailman 3 site delivering through Postfix.
[mailman]
layout: nomictest
site_owner: postmaster@{LOOPBACK}

[paths.nomictest]
var_dir: {var_dir}

[mta]
incoming: mailman.mta.postfix.LMTP
outgoing: mailman.mta.deliver.deliver
lmtp_host: {LOOPBACK}
lmtp_port: {lmtp_port}
smtp_host: {LOOPBACK}
smtp_port: {smtp_port}
configuration: {postfix_cfg}

[webservice]
hostname: {LOOPBACK}
port: {rest_port}

[dmarc]
# The public suffix list the package ships: this machine reaches no web site.
org_domain_data_url: file://{suffix_list}

[archiver.prototype]
enable: yes

"""


class MailmanServer(LoopbackServer):
    """GNU Mailman 3's runners, as ``list``, with DNS from ``resolv_conf``; a context manager.

    ``make_site`` makes its folders, ``configure`` writes what a site has
    before the guide (Mailman delivering through Postfix), and ``start``
    runs the master.  The caller runs the guide's steps in between, with
    ``SiteNames`` naming this site.
    """

    host = LOOPBACK

    def __init__(self, *, resolv_conf: Path, start_timeout: float = 60.0) -> None:
        self.resolv_conf = resolv_conf
        self.start_timeout = start_timeout
        self.venv = mailman_venv()
        self._process: subprocess.Popen[bytes] | None = None
        self._output: IO[bytes] | None = None

    # -- the site ---------------------------------------------------------------------

    def make_site(self) -> None:
        """Make the site's folders: ``etc`` (mailman.cfg), ``var`` (owned by ``list``).

        Its paths (``data_dir`` for Postfix's maps) are known from here on.
        Raises ServerNotInstalledError when not root (Mailman must run as ``list``).
        """
        if not running_as_root():
            raise ServerNotInstalledError("the Mailman fixture runs Mailman as 'list': run as root")
        account = system_user(MAILMAN_USER)
        self._root = make_private_root("nomicbot-mailman-")
        self._port = free_loopback_port()
        for name in ("etc", "var", "var/data"):
            (self.root / name).mkdir(mode=0o755)
        for name in ("var", "var/data"):
            os.chown(self.root / name, account.uid, account.gid)

    def configure(self, smtp_port: int, postmap_command: str) -> None:
        """Write mailman.cfg for a Postfix listening on ``smtp_port``, and its empty maps."""
        account = system_user(MAILMAN_USER)
        postfix_cfg = self.etc / "postfix.cfg"
        postfix_cfg.write_text(
            f"[postfix]\npostmap_command: {postmap_command}\ntransport_file_type: hash\n"
        )
        self.config.write_text(
            base_config(
                self.root / "var",
                self._port,
                smtp_port,
                postfix_cfg,
                free_loopback_port(),
                self._suffix_list(),
            )
        )
        self._write_empty_maps(postmap_command, account.uid, account.gid)

    def postfix_lines(self) -> str:
        """What main.cf gets so that Postfix hands the list's mail to Mailman (Mailman's docs)."""
        return (
            f"transport_maps = $nomicbot_transport_maps, hash:{self.data_dir}/postfix_lmtp\n"
            f"relay_domains = $nomicbot_relay_domains, hash:{self.data_dir}/postfix_domains\n"
        )

    def _suffix_list(self) -> Path:
        found = sorted(self.venv.glob("lib/python3*/site-packages/publicsuffix2/*.dat"))
        if not found:
            raise ServerNotInstalledError(f"publicsuffix2's list is missing in {self.venv}")
        return found[0]

    def _write_empty_maps(self, postmap_command: str, uid: int, gid: int) -> None:
        """Mailman's transport maps, empty until a list exists, so Postfix can open them."""
        for name in ("postfix_lmtp", "postfix_domains"):
            path = self.data_dir / name
            path.write_text("")
            subprocess.run([*shlex.split(postmap_command), f"hash:{path}"], check=True)
            for made in (path, path.with_name(f"{name}.db")):
                os.chown(made, uid, gid)

    @property
    def etc(self) -> Path:
        return self.root / "etc"

    @property
    def config(self) -> Path:
        return self.etc / "mailman.cfg"

    @property
    def data_dir(self) -> Path:
        """Where Mailman writes its Postfix maps (``postfix_lmtp``, ``postfix_domains``)."""
        return self.root / "var" / "data"

    @property
    def archive_dir(self) -> Path:
        """The prototype archiver's Maildirs, one per list."""
        return self.root / "var" / "archives" / "prototype"

    def command(self) -> str:
        """The ``$MAILMAN`` of the guide: the ``mailman`` command, as ``list``."""
        return f"runuser -u {MAILMAN_USER} -- {self.venv / 'bin' / 'mailman'} -C {self.config}"

    def mailman(self, *arguments: str, stdin: str = "") -> str:
        """Run a ``mailman`` sub-command as ``list``; its output.  Raises ServerError."""
        command = [*shlex.split(self.command()), *arguments]
        return run_checked(command, f"mailman {' '.join(arguments)}", stdin=stdin)

    def add_members(self, list_address: str, addresses: list[str]) -> None:
        self.mailman(
            "addmembers", "--no-welcome-msg", "-", list_address, stdin="\n".join(addresses) + "\n"
        )

    # -- the runners ------------------------------------------------------------------

    def start(self) -> None:
        """Start the master (in the foreground, as our child) and wait for the LMTP greeting.

        Raises ServerStartError with the log tail when it does not greet in time.
        """
        if self._root is None:
            raise ServerError("MailmanServer.make_site() must run before start()")
        command = [
            "runuser",
            "-u",
            MAILMAN_USER,
            "--",
            str(self.venv / "bin" / "master"),
            "-C",
            str(self.config),
            "--force",
        ]
        self._output = (self.root / "master.out").open("wb")
        self._process = subprocess.Popen(
            in_private_resolver(self.resolv_conf, command),
            stdin=subprocess.DEVNULL,
            stdout=self._output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if not wait_until(self._greets, self.start_timeout, interval=0.2):
            raise ServerStartError(
                f"Mailman's LMTP runner did not greet on {LOOPBACK}:{self._port} within "
                f"{self.start_timeout} s. Log tail:\n{tail(self.log_text())}"
            )

    def _greets(self) -> bool:
        if self._process is not None and self._process.poll() is not None:
            return True  # reported by the caller's check below
        try:
            with socket.create_connection((LOOPBACK, self._port), timeout=0.5) as connection:
                return connection.recv(100).startswith(b"220")
        except OSError:
            return False

    def stop(self) -> None:
        """Stop the master and its runners, then remove the site."""
        if self._process is not None and self._process.poll() is None:
            try:
                os.killpg(self._process.pid, 15)
                self._process.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self._process.pid, 9)
                self._process.wait()
        self._process = None
        if self._output is not None:
            self._output.close()
            self._output = None
        if self._root is not None and not os.environ.get("NOMICBOT_KEEP_SERVERS"):
            remove_tree(self._root)
        self._root = None

    def log_text(self) -> str:
        if self._root is None:
            return ""
        logs = self.root / "var" / "logs"
        parts = [read_text(self.root / "master.out")]
        parts += [read_text(logs / name) for name in ("mailman.log", "smtp.log", "error.log")]
        return "".join(parts)

    def wait_for_archive(self, list_address: str, count: int, timeout: float) -> bool:
        """Whether the list's archive holds ``count`` posts within ``timeout`` seconds."""
        folder = self.archive_dir / list_address / "new"

        def archived() -> bool:
            return folder.is_dir() and len(list(folder.iterdir())) >= count

        return wait_until(archived, timeout, interval=0.2)
