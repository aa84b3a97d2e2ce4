"""A private Postfix MTA on loopback that routes each test domain to a transport.

The instance lives entirely in a temporary directory: its own ``main.cf`` and
``master.cf`` (``postfix -c DIR``), queue, data directory and log file.  It
listens only on 127.0.0.1, makes no DNS lookups, and delivers nothing beyond
what the test asks for: each domain of ``transports`` is a relay domain routed
by a hash transport map (e.g. ``"lmtp:[127.0.0.1]:2424"`` to a Dovecot started
with ``lmtp=True``), and every other domain goes to ``default_transport``,
``discard:`` unless told otherwise, so no mail ever leaves the machine.

Postfix's master must start as root (it binds, then hands its children to the
``postfix`` account; ``postdrop`` owns the submission directories).  As any
other user :class:`PostfixServer` raises ServerNotInstalledError.

Traps this module avoids (see also /work/shared/MAILSTACK.md):

- ``maillog_file`` needs a ``postlog`` service in master.cf, and its path must
  lie under ``maillog_file_prefixes`` (default ``/var, /dev/stdout``), or
  every Postfix command refuses to run; without a log file every error goes
  to a syslog that a test machine usually lacks, i.e. nowhere.
- Every Postfix command (postmap, postqueue, postfix) re-reads a main.cf
  modified within the last second every 300 ms until it is older, which cost
  about 2 s per fresh instance: the files are written with an older mtime.
- Every command also needs a main.cf; Debian's "No configuration" install has
  none in /etc/postfix, so each one is run with ``-c`` (``postmap_command``).
- Mail that Postfix cannot deliver is deferred and retried, not lost and not
  reported: :meth:`PostfixServer.wait_for_empty_queue` makes a test wait for
  (and assert) delivery, and shows why mail is stuck when it is.
- The master daemonizes and is not our child, and a container's init may
  never reap processes: liveness is read from /proc, where a zombie counts
  as gone.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
import re
import signal
import socket
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

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
    tail,
    wait_until,
)

SBIN = Path("/usr/sbin")
REQUIRED_PROGRAMS = ("postfix", "postconf", "postmap", "postqueue")
MAIL_OWNER = "postfix"
SETGID_GROUP = "postdrop"
COMMAND_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0
SETTLED_AGE_SECONDS = 60
# A ``main_cf_extra`` that sets transport_maps or relay_domains replaces the
# instance's own (render_main_cf); it keeps our routes by naming them, e.g.
#   transport_maps = $nomicbot_transport_maps, hash:/path/to/postfix_lmtp
OWN_TRANSPORT_MAPS = "$nomicbot_transport_maps"
OWN_RELAY_DOMAINS = "$nomicbot_relay_domains"
DOMAIN_PATTERN = re.compile(r"[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?")
TRANSPORT_PATTERN = re.compile(r"[a-z0-9-]+:\S*")
# A main.cf assignment starts in the first column; indented lines continue the previous one.
ASSIGNMENT_PATTERN = re.compile(r"^([A-Za-z0-9_]+)\s*=", re.MULTILINE)
# Minimal master.cf: everything runs unchrooted (the private queue holds none
# of the files a chroot needs).  No local or virtual delivery agents: with an
# empty mydestination nothing is local, and local_transport defers loudly.
MASTER_SERVICES = """\
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
"""


@dataclass(frozen=True)
class QueuedMessage:
    """One message still in the Postfix queue, as ``postqueue -j`` reports it."""

    queue_id: str
    queue_name: str  # incoming, active, deferred, hold or maildrop
    sender: str
    recipients: tuple[str, ...]
    delay_reasons: tuple[str, ...]  # why delivery was deferred, per recipient

    def describe(self) -> str:
        reasons = "; ".join(reason for reason in self.delay_reasons if reason) or "no reason yet"
        return (
            f"{self.queue_id} ({self.queue_name}) from <{self.sender}> "
            f"to {', '.join(self.recipients)}: {reasons}"
        )


def find_postfix_programs() -> dict[str, Path]:
    """Return the paths of the Postfix commands this module runs.

    Raises:
        ServerNotInstalledError: Postfix or its ``postfix``/``postdrop``
            accounts are missing, or we are not root.
    """
    programs = {name: SBIN / name for name in REQUIRED_PROGRAMS}
    missing = [name for name, path in programs.items() if not os.access(path, os.X_OK)]
    if missing or not has_postfix_accounts():
        raise ServerNotInstalledError(f"Postfix (Debian postfix) is not installed: {INSTALL_HINT}")
    if not running_as_root():
        raise ServerNotInstalledError(
            "a private Postfix needs root: its master starts as root and hands its "
            "children to the postfix account; run the Postfix tests as root"
        )
    return programs


def has_postfix_accounts() -> bool:
    try:
        pwd.getpwnam(MAIL_OWNER)
        grp.getgrnam(SETGID_GROUP)
    except KeyError:
        return False
    return True


def validate_transports(transports: Mapping[str, str]) -> dict[str, str]:
    """Return the routes with lower-cased domains.

    Raises:
        ValueError: a domain or transport cannot be written to a transport map.
    """
    return {
        validate_hostname(domain): validate_transport(transport)
        for domain, transport in transports.items()
    }


def validate_hostname(name: str) -> str:
    """Return ``name`` lower-cased; raises ValueError unless it is a plain domain name."""
    lowered = name.lower()
    if DOMAIN_PATTERN.fullmatch(lowered) is None:
        raise ValueError(f"domain {name!r} must match {DOMAIN_PATTERN.pattern}")
    return lowered


def validate_transport(transport: str) -> str:
    """Return ``transport``; raises ValueError unless it reads ``name:nexthop``."""
    if TRANSPORT_PATTERN.fullmatch(transport) is None:
        raise ValueError(f"transport {transport!r} must look like 'lmtp:[127.0.0.1]:2424'")
    return transport


def render_transport_map(routes: Mapping[str, str]) -> str:
    lines = [f"{domain}\t{transport}\n" for domain, transport in sorted(routes.items())]
    return "# Written by bot.testing.postfix: domain -> transport.\n" + "".join(lines)


def render_main_cf(
    root: Path,
    myhostname: str,
    routes: Mapping[str, str],
    default_transport: str,
    main_cf_extra: str,
) -> str:
    """Return main.cf for a loopback-only instance rooted at ``root``.

    ``main_cf_extra`` is appended verbatim and wins: Postfix takes the last
    assignment of a parameter.  Every daemon would also log a warning about
    the earlier assignment each time it starts, so our own line for a
    parameter that ``main_cf_extra`` sets is left out.
    """
    relay_domains = ", ".join(sorted(routes))
    undeliverable = "retry:4.3.5 no route for this domain in the test Postfix"
    own = f"""\
# Written by bot.testing.postfix for one test run.
compatibility_level = 3.6
queue_directory = {root}/queue
data_directory = {root}/data
mail_owner = {MAIL_OWNER}
setgid_group = {SETGID_GROUP}
maillog_file = {root}/maillog
maillog_file_prefixes = {root}
myhostname = {myhostname}
myorigin = $myhostname
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
inet_interfaces = {LOOPBACK}
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_recipient_restrictions =
nomicbot_transport_maps = hash:{root}/etc/transport
nomicbot_relay_domains = {relay_domains}
transport_maps = {OWN_TRANSPORT_MAPS}
relay_domains = {OWN_RELAY_DOMAINS}
default_transport = {default_transport}
# A subdomain of a relay domain (which relay_domains matches but the
# transport map does not) or an address at [127.0.0.1] is refused at RCPT
# with 450 and this reason, never sent anywhere.
relay_transport = {undeliverable}
local_transport = {undeliverable}
# No resolver: next hops are written as [127.0.0.1]:port.
smtp_dns_support_level = disabled
lmtp_dns_support_level = disabled
smtp_host_lookup = native
lmtp_host_lookup = native
smtpd_peername_lookup = no
smtp_address_preference = ipv4
smtputf8_enable = no
biff = no
append_dot_mydomain = no
readme_directory = no
# Retry quickly: tests wait seconds, not the default minutes.
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
delay_warning_time = 0h
smtp_connect_timeout = 5s
lmtp_connect_timeout = 5s
smtpd_error_sleep_time = 0s
"""
    overridden = assigned_parameters(main_cf_extra)
    kept = [line for line in own.splitlines(keepends=True) if parameter_of(line) not in overridden]
    if main_cf_extra and not main_cf_extra.endswith("\n"):
        main_cf_extra += "\n"
    return "".join(kept) + main_cf_extra


def parameter_of(line: str) -> str | None:
    """The parameter a main.cf line assigns, or None for comments and continuations."""
    match = ASSIGNMENT_PATTERN.match(line)
    return None if match is None else match.group(1)


def assigned_parameters(main_cf_text: str) -> frozenset[str]:
    return frozenset(ASSIGNMENT_PATTERN.findall(main_cf_text))


def render_master_cf(port: int) -> str:
    return (
        "# Written by bot.testing.postfix; nothing is chrooted.\n"
        f"{LOOPBACK}:{port} inet  n       -       n       -       -       smtpd\n"
        f"{MASTER_SERVICES}"
    )


def write_settled(path: Path, text: str) -> None:
    """Write a configuration file and date it a minute back.

    Postfix takes a main.cf changed within the last second for one still
    being edited and re-reads it every 300 ms until it is older: each
    command would otherwise spend about 2 s waiting for a fresh file.
    """
    path.write_text(text, encoding="utf-8")
    settled = time.time() - SETTLED_AGE_SECONDS
    os.utime(path, (settled, settled))


def read_smtp_greeting(host: str, port: int) -> bytes:
    """Return the first line the server sends, or b"" if it does not answer yet."""
    try:
        with socket.create_connection((host, port), timeout=0.5) as connection:
            connection.settimeout(2.0)
            return connection.makefile("rb").readline()
    except OSError:
        return b""


def parse_queue_listing(text: str) -> tuple[QueuedMessage, ...]:
    """Parse ``postqueue -j`` output: one JSON object per queued message."""
    messages = []
    for line in text.splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        recipients = entry.get("recipients", [])
        messages.append(
            QueuedMessage(
                queue_id=str(entry["queue_id"]),
                queue_name=str(entry["queue_name"]),
                sender=str(entry.get("sender", "")),
                recipients=tuple(str(item["address"]) for item in recipients),
                delay_reasons=tuple(str(item.get("delay_reason", "")) for item in recipients),
            )
        )
    return tuple(messages)


def is_running(pid: int) -> bool:
    """Whether ``pid`` is alive; a zombie is not (nobody may ever reap it here)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    state = next((line for line in status.splitlines() if line.startswith("State:")), "")
    return "zombie" not in state


class PostfixServer(LoopbackServer):
    """A private Postfix on 127.0.0.1 routing test domains; use as a context manager.

    Args:
        myhostname: the name Postfix greets with and puts in Received headers.
        transports: domain -> Postfix transport, e.g.
            ``{"bot.example.test": "lmtp:[127.0.0.1]:2424"}``; these domains
            are the relay domains.
        default_transport: where mail for every other domain goes; the
            default ``discard:`` accepts and drops it.
        main_cf_extra: text appended verbatim to main.cf.  Postfix takes the
            last assignment of a parameter, so it overrides anything above;
            to add tables rather than replace ours, write e.g.
            ``transport_maps = $nomicbot_transport_maps, hash:/x/postfix_lmtp``
            and ``relay_domains = $nomicbot_relay_domains, hash:/x/postfix_domains``.
        start_timeout: seconds to wait for the SMTP greeting.

    Raises (from ``start`` / ``__enter__``):
        ServerNotInstalledError: Postfix is missing, or we are not root.
        ServerStartError: ``postfix check`` or ``start`` failed, or smtpd did
            not greet in time; the message carries the log tail.
        ValueError (from the constructor): a host name, domain or transport
            cannot be written to Postfix's files.
    """

    host = LOOPBACK

    def __init__(
        self,
        *,
        myhostname: str = "mx.test.invalid",
        transports: Mapping[str, str] | None = None,
        default_transport: str = "discard:",
        main_cf_extra: str = "",
        start_timeout: float = 20.0,
    ) -> None:
        self.myhostname = validate_hostname(myhostname)
        self.routes = validate_transports(transports or {})
        self.default_transport = validate_transport(default_transport)
        self.main_cf_extra = main_cf_extra
        self.start_timeout = start_timeout
        self._root: Path | None = None
        self._port = 0
        self._programs: dict[str, Path] = {}

    @property
    def config_directory(self) -> Path:
        """The directory holding this instance's main.cf and master.cf."""
        return self.root / "etc"

    @property
    def postmap_command(self) -> str:
        """``postmap`` bound to this instance's configuration, for Mailman's ``postmap_command``."""
        return f"{self._program('postmap')} -c {self.config_directory}"

    @property
    def relay_domains(self) -> tuple[str, ...]:
        return tuple(sorted(self.routes))

    def start(self) -> None:
        """Write the instance's files, check and start Postfix, and wait for smtpd's greeting."""
        self._programs = find_postfix_programs()
        self._root = make_private_root("nomicbot-postfix-")
        self._port = free_loopback_port()
        self._prepare_directories()
        self._write_configuration()
        self._run_or_fail("postmap", "-c", str(self.config_directory), self._transport_map())
        self._postfix("check")
        self._postfix("start")
        self._wait_for_greeting()

    def _prepare_directories(self) -> None:
        # The queue's subdirectories are made by `postfix check`
        # (post-install create-missing) with the owners Postfix wants.
        self.config_directory.mkdir(mode=0o755)
        (self.root / "queue").mkdir(mode=0o755)
        data = self.root / "data"
        data.mkdir(mode=0o700)
        owner = pwd.getpwnam(MAIL_OWNER)
        os.chown(data, owner.pw_uid, owner.pw_gid)

    def _write_configuration(self) -> None:
        main_cf = render_main_cf(
            self.root, self.myhostname, self.routes, self.default_transport, self.main_cf_extra
        )
        write_settled(self.config_directory / "main.cf", main_cf)
        write_settled(self.config_directory / "master.cf", render_master_cf(self._port))
        write_settled(self.config_directory / "transport", render_transport_map(self.routes))

    def _transport_map(self) -> str:
        return f"hash:{self.config_directory / 'transport'}"

    def _wait_for_greeting(self) -> None:
        def greeted() -> bool:
            return read_smtp_greeting(self.host, self._port).startswith(b"220")

        if wait_until(greeted, self.start_timeout, interval=0.05):
            return
        raise ServerStartError(
            f"Postfix smtpd did not greet on {self.host}:{self._port} within "
            f"{self.start_timeout} s. Log tail:\n{tail(self.log_text())}"
        )

    def stop(self) -> None:
        """Stop the master (it ends its children) and remove the instance's files."""
        if self._root is None:
            return
        pid = self._master_pid()
        if pid is not None and is_running(pid):
            terminate_master(pid)
        remove_tree(self._root)
        self._root = None

    def _master_pid(self) -> int | None:
        text = read_text(self.root / "queue" / "pid" / "master.pid").strip()
        return int(text) if text.isdigit() else None

    def reload(self) -> None:
        """Make the running master re-read main.cf and master.cf (``postfix reload``).

        Lookup tables rebuilt with :attr:`postmap_command` need no reload:
        the daemons notice a changed ``.db`` file and restart by themselves.

        Raises:
            ServerError: the reload failed; the message carries the log tail.
        """
        self._postfix("reload", error=ServerError)

    def queue(self) -> tuple[QueuedMessage, ...]:
        """The messages Postfix still holds (``postqueue -j``).

        Raises:
            ServerError: postqueue failed; the message carries the log tail.
        """
        arguments = ("-c", str(self.config_directory), "-j")
        output = self._run_or_fail("postqueue", *arguments, error=ServerError, record=False)
        return parse_queue_listing(output)

    def wait_for_empty_queue(self, timeout: float = 10.0) -> None:
        """Block until every message has left the queue (delivered, discarded or bounced).

        Raises:
            TimeoutError: mail is still queued after ``timeout`` seconds; the
                message lists it with Postfix's reasons and the log tail.
        """
        if wait_until(lambda: not self.queue(), timeout, interval=0.1):
            return
        listing = "\n".join(message.describe() for message in self.queue())
        raise TimeoutError(
            f"Postfix still holds mail after {timeout} s:\n{listing}\n"
            f"Log tail:\n{tail(self.log_text())}"
        )

    def log_text(self) -> str:
        """Return the output of Postfix's commands and its log file, for diagnostics."""
        if self._root is None:
            return ""
        commands = read_text(self._root / "commands.log")
        return f"{commands}{read_text(self._root / 'maillog')}"

    def _postfix(self, command: str, error: type[ServerError] = ServerStartError) -> None:
        self._run_or_fail("postfix", "-c", str(self.config_directory), command, error=error)

    def _run_or_fail(
        self,
        program: str,
        *arguments: str,
        error: type[ServerError] = ServerStartError,
        record: bool = True,
    ) -> str:
        """Run a Postfix command and return its stdout.

        Its command line and stderr go to commands.log (which ``log_text``
        shows) when ``record`` is true or the command failed.

        Raises:
            ``error``: it exited with a non-zero status; the message carries the log tail.
        """
        command = [str(self._program(program)), *arguments]
        result = subprocess.run(
            command, capture_output=True, text=True, check=False, timeout=COMMAND_TIMEOUT
        )
        if record or result.returncode != 0:
            with (self.root / "commands.log").open("a", encoding="utf-8") as log:
                log.write(f"$ {' '.join(command)}\n{result.stderr}")
        if result.returncode != 0:
            raise error(
                f"{' '.join(command)} exited with status {result.returncode}. "
                f"Log tail:\n{tail(self.log_text())}"
            )
        return result.stdout

    def _program(self, name: str) -> Path:
        if not self._programs:
            raise ServerError("PostfixServer has not been started")
        return self._programs[name]


def terminate_master(pid: int) -> None:
    """SIGTERM the master, as ``postfix stop`` does, and wait until it is gone.

    The master passes the signal on to its process group; ``postfix stop``
    itself polls only once a second, which would make every test a second slower.
    """
    os.kill(pid, signal.SIGTERM)
    if wait_until(lambda: not is_running(pid), STOP_TIMEOUT):
        return
    os.killpg(pid, signal.SIGKILL)
    wait_until(lambda: not is_running(pid), STOP_TIMEOUT)
