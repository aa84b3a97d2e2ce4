"""The systemd notification protocol (sd_notify), without a library.

With ``Type=notify`` systemd passes ``$NOTIFY_SOCKET``, a unix datagram
socket (a path, or ``@name`` in the abstract namespace), and the daemon
sends it lines such as ``READY=1``, ``STATUS=...``, ``WATCHDOG=1`` and
``STOPPING=1``.  With ``WatchdogSec=`` systemd also passes
``$WATCHDOG_USEC``: if no ``WATCHDOG=1`` arrives within that many
microseconds it kills the service and, with ``Restart=on-failure``,
starts it again.  See sd_notify(3); these few lines replace the
``systemd-python`` or ``sdnotify`` packages.

Outside systemd (no ``$NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Notifier:
    """Sends notifications to ``address`` (None: not run by systemd)."""

    address: str | None = None
    watchdog_seconds: float | None = None  # WatchdogSec, if the service has one

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """The notifier systemd asked for, from $NOTIFY_SOCKET, $WATCHDOG_USEC and $WATCHDOG_PID."""
        environ = os.environ if environ is None else environ
        return cls(environ.get("NOTIFY_SOCKET") or None, watchdog_seconds(environ))

    def notify(self, *lines: str) -> bool:
        """Send ``lines`` as one datagram; False if there is no socket or it failed (logged)."""
        if not self.address:
            return False
        target = socket_address(self.address)
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(target)
                sock.sendall("\n".join(lines).encode())
        except OSError as error:
            log.warning("could not notify systemd at %s: %s", self.address, error)
            return False
        return True


def socket_address(address: str) -> str | bytes:
    """The address to connect to: ``@name`` is ``\\0name`` in the abstract namespace."""
    if address.startswith("@"):
        return b"\0" + address[1:].encode()
    return address


def watchdog_seconds(environ: Mapping[str, str]) -> float | None:
    """WatchdogSec in seconds, if systemd asked this process (not a parent) to ping it."""
    try:
        microseconds = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    watched = environ.get("WATCHDOG_PID")
    if microseconds <= 0 or (watched and watched != str(os.getpid())):
        return None
    return microseconds / 1_000_000
