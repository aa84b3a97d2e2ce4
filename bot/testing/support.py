"""Plumbing shared by the loopback test servers: errors, ports, users, logs."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Self

LOOPBACK = "127.0.0.1"
INSTALL_HINT = "run scripts/install-test-servers.sh (as root) to install the test servers"
LOG_TAIL_LINES = 40


class ServerError(RuntimeError):
    """A test server could not be provided."""


class ServerNotInstalledError(ServerError):
    """A server binary or system account is missing; the message says how to install it."""


class ServerStartError(ServerError):
    """A server was found but did not start; the message carries its log tail."""


@dataclass(frozen=True)
class SystemUser:
    """An account a server process runs as."""

    name: str
    uid: int
    gid: int


def running_as_root() -> bool:
    return os.geteuid() == 0


def current_user() -> SystemUser:
    entry = pwd.getpwuid(os.geteuid())
    return SystemUser(name=entry.pw_name, uid=entry.pw_uid, gid=entry.pw_gid)


def system_user(name: str) -> SystemUser:
    """Return the system account ``name``, creating it (as root) when it is missing.

    Raises:
        ServerNotInstalledError: the account is missing and we are not root.
        ServerStartError: ``useradd`` failed.
    """
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        create_system_user(name)
        entry = pwd.getpwnam(name)
    return SystemUser(name=entry.pw_name, uid=entry.pw_uid, gid=entry.pw_gid)


def create_system_user(name: str) -> None:
    """Create a locked, home-less system account with its own group."""
    if not running_as_root():
        raise ServerNotInstalledError(f"system user {name!r} is missing: {INSTALL_HINT}")
    command = ["useradd", "--system", "--user-group", "--no-create-home"]
    command += ["--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ServerStartError(f"could not create system user {name!r}: {result.stderr.strip()}")


def group_name(gid: int) -> str:
    return grp.getgrgid(gid).gr_name


def free_loopback_port() -> int:
    """Ask the kernel for a free port on 127.0.0.1.

    The port is released before the server binds it, so another process could
    take it in between; on a test machine that race is rare enough to accept.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


def make_private_root(prefix: str) -> Path:
    """Create a temporary directory that unprivileged server processes can traverse.

    ``mkdtemp`` makes it 0700; the servers drop root for some of their
    processes, which must still reach their sockets and files inside it.
    """
    root = Path(tempfile.mkdtemp(prefix=prefix))
    root.chmod(0o755)
    return root


def remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def wait_until(condition: Callable[[], bool], timeout: float, interval: float = 0.02) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; return whether it held."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


def read_text(path: Path) -> str:
    """Read a log file for diagnostics; a missing or unreadable log reads as empty."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def tail(text: str, lines: int = LOG_TAIL_LINES) -> str:
    kept = text.rstrip("\n").splitlines()[-lines:]
    return "\n".join(kept) if kept else "(log is empty)"


def find_executable(name: str, extra_directories: tuple[Path, ...] = ()) -> Path | None:
    """Find ``name`` on $PATH, then in ``extra_directories`` (sbin is often off a user's PATH)."""
    found = shutil.which(name)
    if found is not None:
        return Path(found)
    for directory in extra_directories:
        candidate = directory / name
        if os.access(candidate, os.X_OK):
            return candidate
    return None


class LoopbackServer:
    """A server started on a free loopback port, usable as a context manager.

    Subclasses implement ``start`` (setting ``_port`` and, if they keep
    files, ``_root``) and ``stop``, which must be safe after a failed start.
    """

    _port = 0
    _root: Path | None = None

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        exception_type: type[BaseException] | None,
        exception: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if not self._port:
            raise ServerError(f"{type(self).__name__} has not been started")
        return self._port

    @property
    def root(self) -> Path:
        if self._root is None:
            raise ServerError(f"{type(self).__name__} has not been started")
        return self._root
