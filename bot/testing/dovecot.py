"""A private Dovecot IMAP server on loopback, with users added while it runs.

The instance lives entirely in a temporary directory: its configuration,
``base_dir``, ``state_dir``, log and Maildirs.  Passwords are kept in
``passwd-file`` format with the PLAIN scheme, one file per user, so tests can
add users to a running server: Dovecot 2.3 re-checks a single shared file at
most once per second (``passwd_file_sync``), so a user added right after a
login would stay unknown for up to a second, whereas a path with ``%u`` in it
is opened afresh for every user it has not seen.

Dovecot refuses to serve logins when every process runs as root
(/work/shared/MAILSTACK.md).  As root we therefore keep the master as root and
hand its children to the Debian accounts ``dovenull`` (login) and ``dovecot``
(internal), with mail stored as ``nobody``; as any other user the whole
instance runs as that user, with chroots switched off.

With ``lmtp=True`` the instance also accepts mail by LMTP on a second
loopback port (:attr:`DovecotServer.lmtp_port`), e.g. from a private Postfix
(``bot.testing.postfix``).  The recipient address is the username, so mail to
``referee@bot.example.test`` lands in the Maildir that the IMAP login
``referee@bot.example.test`` reads; the user must have been added first.

Only the Dovecot 2.3 configuration syntax (Debian 12) is generated: 2.4
renamed most settings, and it is refused with a clear message.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from bot.testing.support import (
    INSTALL_HINT,
    LOOPBACK,
    LoopbackServer,
    ServerError,
    ServerNotInstalledError,
    ServerStartError,
    SystemUser,
    current_user,
    find_executable,
    free_loopback_port,
    group_name,
    make_private_root,
    read_text,
    remove_tree,
    running_as_root,
    system_user,
    tail,
    wait_until,
)

SBIN_DIRECTORIES = (Path("/usr/sbin"), Path("/usr/local/sbin"))
IMAP_HELPER_PATHS = (Path("/usr/lib/dovecot/imap"), Path("/usr/libexec/dovecot/imap"))
LMTP_HELPER_PATHS = (Path("/usr/lib/dovecot/lmtp"), Path("/usr/libexec/dovecot/lmtp"))
SUPPORTED_SERIES = (2, 3)
# passwd-file fields are separated by ":" and records by newlines; Dovecot
# lower-cases login names (auth_username_format = %Lu) before the file lookup.
USERNAME_PATTERN = re.compile(r"[a-z0-9._+@-]{1,64}")
FORBIDDEN_PASSWORD_CHARACTERS = frozenset(":\r\n\0")


@dataclass(frozen=True)
class ImapAccount:
    """Credentials of one mailbox on a test Dovecot."""

    host: str
    port: int
    username: str
    password: str


@dataclass(frozen=True)
class DovecotAccounts:
    """Which system accounts the instance's processes run as."""

    login: SystemUser
    internal: SystemUser
    mail: SystemUser
    master_is_root: bool


def find_dovecot() -> Path:
    """Return the ``dovecot`` binary of a supported release.

    Raises:
        ServerNotInstalledError: Dovecot or its IMAP service is not installed.
        ServerError: the installed Dovecot is not 2.3.
    """
    binary = find_executable("dovecot", SBIN_DIRECTORIES)
    if binary is None or not any(path.exists() for path in IMAP_HELPER_PATHS):
        raise ServerNotInstalledError(
            f"Dovecot IMAP (dovecot-imapd) is not installed: {INSTALL_HINT}"
        )
    require_supported_series(dovecot_version(binary))
    return binary


def require_lmtp() -> None:
    """Raises ServerNotInstalledError unless Dovecot's LMTP service is installed."""
    if not any(path.exists() for path in LMTP_HELPER_PATHS):
        raise ServerNotInstalledError(
            f"Dovecot LMTP (dovecot-lmtpd) is not installed: {INSTALL_HINT}"
        )


def dovecot_version(binary: Path) -> str:
    """Return the release number printed by ``dovecot --version``, e.g. ``"2.3.19.1"``."""
    result = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
    words = result.stdout.split()
    if result.returncode != 0 or not words:
        raise ServerError(f"{binary} --version failed: {result.stderr.strip()}")
    return words[0]


def require_supported_series(version: str) -> None:
    """Raises ServerError unless ``version`` is a Dovecot 2.3 release."""
    series = tuple(int(part) for part in version.split(".")[:2] if part.isdigit())
    if series != SUPPORTED_SERIES:
        raise ServerError(
            f"Dovecot {version} is installed, but bot.testing.dovecot writes Dovecot 2.3 "
            "configuration only (Debian 12's dovecot-imapd); Dovecot 2.4 renamed most "
            "settings. Run the tests on Debian 12 or add 2.4 syntax to render_config()."
        )


def choose_accounts() -> DovecotAccounts:
    """Pick unprivileged accounts so that Dovecot agrees to serve logins."""
    if not running_as_root():
        myself = current_user()
        return DovecotAccounts(login=myself, internal=myself, mail=myself, master_is_root=False)
    nobody = system_user("nobody")
    return DovecotAccounts(
        login=system_user("dovenull"),
        internal=system_user("dovecot"),
        mail=nobody,
        master_is_root=True,
    )


@dataclass(frozen=True)
class TlsFiles:
    """A self-signed certificate for 127.0.0.1 and its key (PEM files)."""

    certificate: Path
    key: Path
    port: int  # the implicit-TLS (imaps) listener


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for 127.0.0.1 and localhost."""
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-keyout",
            str(key),
            "-out",
            str(certificate),
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return certificate, key


def render_config(
    root: Path,
    port: int,
    accounts: DovecotAccounts,
    tls: TlsFiles | None = None,
    lmtp_port: int | None = None,
) -> str:
    """Return a Dovecot 2.3 configuration for a loopback-only instance rooted at ``root``.

    With ``tls``, the plain listener offers STARTTLS and an imaps listener
    speaks TLS from the start; plaintext logins stay allowed for the
    other tests' plain connections.  With ``lmtp_port``, LMTP is served
    there too; without it the text is exactly the IMAP-only configuration.
    """
    # Login processes chroot into base_dir by default, which only root may do.
    no_chroot = "" if accounts.master_is_root else "  chroot =\n"
    ssl = (
        f"ssl = yes\nssl_cert = <{tls.certificate}\nssl_key = <{tls.key}\n" if tls else "ssl = no\n"
    )
    imaps = f"address = {LOOPBACK}\n    port = {tls.port}" if tls else "port = 0"
    protocols = "imap" if lmtp_port is None else "imap lmtp"
    lmtp = "" if lmtp_port is None else render_lmtp_service(lmtp_port)
    return f"""\
# Written by bot.testing.dovecot for one test run; Dovecot 2.3 syntax.
protocols = {protocols}
listen = {LOOPBACK}
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
{ssl}disable_plaintext_auth = no
auth_mechanisms = plain login
auth_verbose = yes
# A wrong password would otherwise stall the test that tries it for 2 s.
auth_failure_delay = 0
default_login_user = {accounts.login.name}
default_internal_user = {accounts.internal.name}
default_internal_group = {group_name(accounts.internal.gid)}
first_valid_uid = {accounts.mail.uid}
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {root}/users/%u.passwd
}}
userdb {{
  driver = static
  args = uid={accounts.mail.uid} gid={accounts.mail.gid} home={root}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = {LOOPBACK}
    port = {port}
  }}
  inet_listener imaps {{
    {imaps}
  }}
{no_chroot}}}
# Without its socket anvil keeps no per-IP failure count, so one test's
# wrong password does not delay every later login from 127.0.0.1.
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
{no_chroot}}}
{lmtp}"""


def render_lmtp_service(port: int) -> str:
    """The LMTP listener on loopback, appended to the configuration when asked for."""
    # The lmtp process keeps its default user (root as root, else ourselves):
    # it must switch to the mail account of each recipient's userdb entry.
    return f"""\
service lmtp {{
  inet_listener lmtp {{
    address = {LOOPBACK}
    port = {port}
  }}
}}
"""


def read_imap_greeting(host: str, port: int) -> bytes:
    """Return the first line the server sends, or b"" if it does not answer yet."""
    try:
        with socket.create_connection((host, port), timeout=0.5) as connection:
            return connection.makefile("rb").readline()
    except OSError:
        return b""


def validate_credentials(username: str, password: str) -> None:
    """Raises ValueError for names or passwords a passwd-file cannot hold."""
    if USERNAME_PATTERN.fullmatch(username) is None:
        raise ValueError(f"IMAP username {username!r} must match {USERNAME_PATTERN.pattern}")
    if not password or FORBIDDEN_PASSWORD_CHARACTERS.intersection(password):
        raise ValueError("IMAP password must be non-empty and free of ':', CR, LF and NUL")


class DovecotServer(LoopbackServer):
    """A private Dovecot IMAP instance on 127.0.0.1; use as a context manager.

    Raises (from ``start`` / ``__enter__``):
        ServerNotInstalledError: Dovecot is missing, or with ``lmtp=True``
            its LMTP service (dovecot-lmtpd).
        ServerError: the installed Dovecot is not 2.3.
        ServerStartError: it did not greet within ``start_timeout``; the
            message carries the log tail.
    """

    host = LOOPBACK

    def __init__(
        self, *, start_timeout: float = 10.0, tls: bool = False, lmtp: bool = False
    ) -> None:
        self.start_timeout = start_timeout
        self.use_tls = tls
        self.use_lmtp = lmtp
        self.tls: TlsFiles | None = None
        self._root: Path | None = None
        self._port = 0
        self._lmtp_port = 0
        self._passwords: dict[str, str] = {}
        self._process: subprocess.Popen[bytes] | None = None
        self._startup_output: IO[bytes] | None = None
        self._accounts: DovecotAccounts | None = None

    @property
    def usernames(self) -> tuple[str, ...]:
        return tuple(self._passwords)

    @property
    def lmtp_port(self) -> int:
        """The loopback port of the LMTP listener (servers started with ``lmtp=True``)."""
        if not self.use_lmtp:
            raise ServerError("DovecotServer was created without lmtp=True")
        if not self._lmtp_port:
            raise ServerError("DovecotServer has not been started")
        return self._lmtp_port

    def start(self) -> None:
        """Write the instance's files, launch ``dovecot -F`` and wait for its greeting."""
        binary = find_dovecot()
        if self.use_lmtp:
            require_lmtp()
        accounts = self._accounts = choose_accounts()
        self._root = make_private_root("nomicbot-dovecot-")
        self._port = free_loopback_port()
        self._prepare_directories(accounts)
        config = self.root / "dovecot.conf"
        if self.use_tls:
            certificate, key = make_certificate(self.root)
            self.tls = TlsFiles(certificate, key, free_loopback_port())
        lmtp_port = None
        if self.use_lmtp:
            lmtp_port = self._lmtp_port = free_loopback_port()
        config.write_text(
            render_config(self.root, self._port, accounts, self.tls, lmtp_port), encoding="utf-8"
        )
        self._launch([str(binary), "-F", "-c", str(config)])
        self._wait_for_greeting()

    def _prepare_directories(self, accounts: DovecotAccounts) -> None:
        mail = self.root / "mail"
        mail.mkdir(mode=0o700)
        os.chown(mail, accounts.mail.uid, accounts.mail.gid)
        (self.root / "state").mkdir(mode=0o750)
        users = self.root / "users"
        users.mkdir(mode=0o750)
        if accounts.master_is_root:
            os.chown(users, 0, accounts.internal.gid)

    def _launch(self, command: list[str]) -> None:
        # -F keeps the master in the foreground, so it is our child and
        # terminating it ends the whole instance.
        self._startup_output = (self.root / "startup.log").open("wb")
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=self._startup_output,
            stderr=subprocess.STDOUT,
        )

    def _wait_for_greeting(self) -> None:
        def greeted_or_exited() -> bool:
            if self._process is not None and self._process.poll() is not None:
                return True
            return read_imap_greeting(self.host, self._port).startswith(b"* OK")

        ready = wait_until(greeted_or_exited, self.start_timeout)
        exit_status = None if self._process is None else self._process.poll()
        if ready and exit_status is None:
            return
        raise ServerStartError(
            f"Dovecot did not greet on {self.host}:{self._port} within {self.start_timeout} s "
            f"(master exit status: {exit_status}). Log tail:\n{tail(self.log_text())}"
        )

    def stop(self) -> None:
        """Terminate the master (it stops its children) and remove the instance's files."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        if self._startup_output is not None:
            self._startup_output.close()
            self._startup_output = None
        if self._root is not None:
            remove_tree(self._root)
            self._root = None

    def add_user(self, username: str, password: str) -> ImapAccount:
        """Create a mailbox user on the running server and return its credentials.

        Raises:
            ValueError: the name is taken or unusable, or the password unusable.
        """
        validate_credentials(username, password)
        if username in self._passwords:
            raise ValueError(f"IMAP user {username!r} already exists")
        self._write_password_file(username, password)
        self._passwords[username] = password
        return ImapAccount(host=self.host, port=self.port, username=username, password=password)

    def set_password(self, username: str, password: str) -> None:
        """Change an existing user's password, as an administrator fixing an account would.

        Raises:
            ValueError: no such user, or the password unusable.
        """
        validate_credentials(username, password)
        if username not in self._passwords:
            raise ValueError(f"no IMAP user {username!r}")
        self._write_password_file(username, password)
        self._passwords[username] = password

    def _write_password_file(self, username: str, password: str) -> None:
        # Written aside and renamed, so the auth process never reads half a file.
        # It runs as default_internal_user, hence the group (root mode only).
        path = self.root / "users" / f"{username}.passwd"
        draft = path.with_suffix(".draft")
        draft.write_text(f"{username}:{{PLAIN}}{password}\n", encoding="utf-8")
        draft.chmod(0o640)
        if self._accounts is not None and self._accounts.master_is_root:
            os.chown(draft, 0, self._accounts.internal.gid)
        os.replace(draft, path)

    def log_text(self) -> str:
        """Return the master's start-up output and the instance log, for diagnostics."""
        if self._root is None:
            return ""
        startup = read_text(self._root / "startup.log")
        log = read_text(self._root / "dovecot.log")
        return f"{startup}{log}"
