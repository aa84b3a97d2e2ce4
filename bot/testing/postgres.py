"""A private PostgreSQL cluster on loopback, with one database for the tests.

``initdb`` writes the cluster into a temporary directory and ``pg_ctl``
starts it on a free port of 127.0.0.1, with its unix socket in that same
directory, so it never meets a system cluster.  PostgreSQL refuses to run as
root, so as root every step runs as the ``postgres`` system account (created
if missing); as anyone else it runs as the current user.

Durability is switched off by default (``fsync``, ``synchronous_commit``,
``full_page_writes``): a test cluster is thrown away, and commits get several
times faster.  Pass ``durable=True`` to measure real commit costs.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

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
    make_private_root,
    read_text,
    remove_tree,
    running_as_root,
    system_user,
    tail,
)

SUPERUSER = "postgres"
REQUIRED_PROGRAMS = ("initdb", "pg_ctl", "postgres")
FAST_UNSAFE_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


@dataclass(frozen=True)
class PostgresDatabase:
    """A database the tests may use: a SQLAlchemy URL for psycopg 3."""

    url: str


def postgres_bin_directories() -> list[Path]:
    """Candidate directories, in order: $PATH, /usr/local/bin, Debian's versioned dirs."""
    found = find_executable("initdb", (Path("/usr/local/bin"),))
    candidates = [] if found is None else [found.resolve().parent]
    versioned = Path("/usr/lib/postgresql").glob("*/bin")
    candidates += sorted(versioned, key=major_version_of_bin_directory, reverse=True)
    return candidates


def major_version_of_bin_directory(directory: Path) -> int:
    version = directory.parent.name
    return int(version) if version.isdigit() else 0


def find_postgres_bin_directory() -> Path:
    """Return a directory holding initdb, pg_ctl and postgres.

    Symbolic links are resolved, because /usr/local/bin may link only some of
    a release's programs.

    Raises:
        ServerNotInstalledError: no such directory exists.
    """
    for directory in postgres_bin_directories():
        if all(os.access(directory / program, os.X_OK) for program in REQUIRED_PROGRAMS):
            return directory
    raise ServerNotInstalledError(
        f"PostgreSQL (initdb, pg_ctl, postgres) is not installed: {INSTALL_HINT}"
    )


def server_options(port: int, socket_directory: Path, settings: dict[str, str]) -> str:
    """Return the ``pg_ctl -o`` string: loopback only, private port and socket directory."""
    options = [f"-p {port}", f"-k {socket_directory}", f"-c listen_addresses={LOOPBACK}"]
    options += [f"-c {name}={value}" for name, value in settings.items()]
    return " ".join(options)


class PostgresServer(LoopbackServer):
    """A private PostgreSQL cluster with one database; use as a context manager.

    Raises (from ``start`` / ``__enter__``):
        ServerNotInstalledError: PostgreSQL or the ``postgres`` account is missing.
        ServerStartError: initdb, start-up or database creation failed; the
            message carries the log tail.
    """

    host = LOOPBACK

    def __init__(self, *, database: str = "nomicbot_test", durable: bool = False) -> None:
        self.database = database
        self.settings = {} if durable else dict(FAST_UNSAFE_SETTINGS)
        self._bin_directory: Path | None = None
        self._account: SystemUser | None = None
        self._root: Path | None = None
        self._port = 0

    @property
    def socket_directory(self) -> Path:
        return self.root / "socket"

    @property
    def url(self) -> str:
        """SQLAlchemy URL of the test database (psycopg 3 over TCP on loopback)."""
        return f"postgresql+psycopg://{SUPERUSER}@{self.host}:{self.port}/{self.database}"

    def start(self) -> None:
        """Run initdb, start the cluster with pg_ctl and create the test database."""
        self._bin_directory = find_postgres_bin_directory()
        self._account = system_user(SUPERUSER) if running_as_root() else current_user()
        self._root = make_private_root("nomicbot-postgres-")
        self._port = free_loopback_port()
        self.socket_directory.mkdir(mode=0o700)
        os.chown(self.root, self._account.uid, self._account.gid)
        os.chown(self.socket_directory, self._account.uid, self._account.gid)
        self._initdb()
        self._pg_ctl_start()
        self._create_database()

    def _initdb(self) -> None:
        # --no-sync: a throw-away cluster need not wait for the disk.
        arguments = ["-D", str(self.root / "data"), "-U", SUPERUSER, "--auth=trust"]
        arguments += ["--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"]
        self._run("initdb", arguments, "initdb")

    def _pg_ctl_start(self) -> None:
        options = server_options(self.port, self.socket_directory, self.settings)
        arguments = ["-D", str(self.root / "data"), "-l", str(self.log_path), "-o", options]
        self._run("pg_ctl", [*arguments, "-w", "-t", "30", "start"], "pg_ctl start")

    def _create_database(self) -> None:
        connection_string = f"host={self.socket_directory} port={self.port} user={SUPERUSER}"
        try:
            with psycopg.connect(connection_string, dbname="postgres", autocommit=True) as admin:
                admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.database)))
        except psycopg.Error as error:
            raise ServerStartError(
                f"could not create database {self.database!r}: {error}. "
                f"Log tail:\n{tail(self.log_text())}"
            ) from error

    @property
    def log_path(self) -> Path:
        return self.root / "postgres.log"

    def _run(self, program: str, arguments: Sequence[str], step: str) -> None:
        """Run a PostgreSQL program as the cluster's account.

        Raises:
            ServerStartError: it exited non-zero; its output and the log tail are quoted.
        """
        if self._bin_directory is None or self._account is None:
            raise ServerError("PostgresServer has not been started")
        # PostgreSQL refuses to run as root; drop to the account, groups included.
        switch = running_as_root()
        result = subprocess.run(
            [str(self._bin_directory / program), *arguments],
            capture_output=True,
            text=True,
            check=False,
            cwd=self.root,
            env=self._environment(),
            user=self._account.uid if switch else None,
            group=self._account.gid if switch else None,
            extra_groups=[] if switch else None,
        )
        if result.returncode != 0:
            raise ServerStartError(
                f"PostgreSQL {step} failed (exit status {result.returncode}):\n"
                f"{tail(result.stdout + result.stderr)}\nLog tail:\n{tail(self.log_text())}"
            )

    def _environment(self) -> dict[str, str]:
        # PG* variables of the caller must not redirect our programs elsewhere.
        kept = {name: value for name, value in os.environ.items() if not name.startswith("PG")}
        return {**kept, "LC_ALL": "C", "HOME": str(self.root)}

    def pause(self) -> None:
        """Stop the server (fast shutdown) but keep its files: an outage; ``resume`` ends it.

        Raises:
            ServerStartError: pg_ctl stop failed; the log tail is quoted.
        """
        arguments = ["-D", str(self.root / "data"), "-m", "fast", "-w", "stop"]
        self._run("pg_ctl", arguments, "pause (pg_ctl stop)")

    def resume(self) -> None:
        """Start the paused server again, on the same port and with the same data."""
        self._pg_ctl_start()

    def stop(self) -> None:
        """Stop the cluster (fast shutdown) and remove its files."""
        # postmaster.pid rather than a flag: a start that timed out may still
        # have left a server running.
        try:
            if self._root is not None and (self._root / "data" / "postmaster.pid").exists():
                arguments = ["-D", str(self._root / "data"), "-m", "fast", "-w", "stop"]
                self._run("pg_ctl", arguments, "stop")
        finally:
            if self._root is not None:
                remove_tree(self._root)
                self._root = None

    def log_text(self) -> str:
        """Return the server log, for diagnostics."""
        return "" if self._root is None else read_text(self.log_path)
