"""A tiny authoritative DNS server on loopback: the test world's public records.

GNU Mailman 3 checks the DKIM signatures and DMARC policies of the posts it
receives (its ``validate-authenticity`` handler) through the system
resolver, and publishes what it found in the ARC-Authentication-Results it
seals.  This machine has no DNS for the test domains, so the tests answer
those questions themselves: ``ZoneServer`` serves TXT records (DKIM keys,
``_dmarc`` policies) for the names it was given and NXDOMAIN for every
other name, over UDP and TCP on one loopback address, port 53.

A program is pointed at it without touching the machine's own resolver:
``in_private_resolver`` wraps a command so that it runs in a mount
namespace of its own in which ``/etc/resolv.conf`` names this server
(needs root, like Postfix).  Everything else on the machine, package
managers included, keeps resolving as before.
"""

from __future__ import annotations

import socket
import socketserver
import struct
import threading
from collections.abc import Mapping
from pathlib import Path

import dns.flags
import dns.message
import dns.rcode
import dns.rdataclass
import dns.rdatatype
import dns.rrset

from bot.testing.support import ServerStartError, running_as_root

# A loopback address of its own: port 53 there is free even where a local
# resolver (systemd-resolved's 127.0.0.53) listens.
DEFAULT_ADDRESS = "127.83.0.1"
TXT_CHUNK = 255  # RFC 1035: a TXT record is a list of strings of at most 255 bytes
TTL = 60


def split_txt(value: str) -> list[bytes]:
    """A long TXT value (a 2048-bit DKIM key) as the strings one record holds."""
    data = value.encode("ascii")
    return [data[i : i + TXT_CHUNK] for i in range(0, len(data), TXT_CHUNK)] or [b""]


class Zone:
    """TXT records by lower-case name (no trailing dot); thread-safe to update."""

    def __init__(self, records: Mapping[str, str] = {}) -> None:
        self._lock = threading.Lock()
        self._records: dict[str, list[str]] = {}
        for name, value in records.items():
            self.add(name, value)

    def add(self, name: str, value: str) -> None:
        with self._lock:
            self._records.setdefault(_key(name), []).append(value)

    def values(self, name: str) -> list[str]:
        with self._lock:
            return list(self._records.get(_key(name), ()))

    def answer(self, wire: bytes) -> bytes | None:
        """The reply to one query in wire format, or None for unreadable input."""
        try:
            query = dns.message.from_wire(wire)
        except Exception:  # dnspython raises many kinds of errors on garbage
            return None
        response = dns.message.make_response(query)
        response.flags |= dns.flags.AA
        if not query.question:
            response.set_rcode(dns.rcode.FORMERR)
            return response.to_wire()
        question = query.question[0]
        values = self.values(question.name.to_text())
        if not values:
            response.set_rcode(dns.rcode.NXDOMAIN)
        elif question.rdtype in (dns.rdatatype.TXT, dns.rdatatype.ANY):
            rrset = dns.rrset.from_text_list(
                question.name,
                TTL,
                dns.rdataclass.IN,
                dns.rdatatype.TXT,
                [" ".join(f'"{part.decode()}"' for part in split_txt(v)) for v in values],
            )
            response.answer.append(rrset)
        return response.to_wire()


def _key(name: str) -> str:
    return name.strip().rstrip(".").lower()


class _Udp(socketserver.BaseRequestHandler):
    server: _UdpServer

    def handle(self) -> None:
        data, sock = self.request
        reply = self.server.zone.answer(data)
        if reply is not None:
            sock.sendto(reply, self.client_address)


class _Tcp(socketserver.StreamRequestHandler):
    server: _TcpServer

    def handle(self) -> None:
        header = self.rfile.read(2)
        if len(header) < 2:
            return
        (length,) = struct.unpack("!H", header)
        reply = self.server.zone.answer(self.rfile.read(length))
        if reply is not None:
            self.wfile.write(struct.pack("!H", len(reply)) + reply)


class _UdpServer(socketserver.ThreadingUDPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], zone: Zone) -> None:
        self.zone = zone
        super().__init__(address, _Udp)


class _TcpServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], zone: Zone) -> None:
        self.zone = zone
        super().__init__(address, _Tcp)


class ZoneServer:
    """Serve ``zone`` on ``address``:53 (UDP and TCP) in threads; a context manager.

    Raises ServerStartError (from ``start``) when not root or the port is taken.
    """

    def __init__(self, zone: Zone, address: str = DEFAULT_ADDRESS) -> None:
        self.zone = zone
        self.address = address
        self._servers: list[socketserver.BaseServer] = []
        self._serving = False

    def start(self) -> None:
        if not running_as_root():
            raise ServerStartError("the test DNS server needs root to listen on port 53")
        try:
            self._servers = [_UdpServer((self.address, 53), self.zone)]
            self._servers.append(_TcpServer((self.address, 53), self.zone))
        except OSError as error:
            self.stop()
            raise ServerStartError(
                f"cannot listen on {self.address}:53 (is another test world running?): {error}"
            ) from None
        for server in self._servers:
            threading.Thread(target=server.serve_forever, daemon=True).start()
        self._serving = True

    def stop(self) -> None:
        for server in self._servers:
            # shutdown() waits for serve_forever to end: it would wait for ever on
            # a server that never served (when start failed half-way).
            if self._serving:
                server.shutdown()
            server.server_close()
        self._servers = []
        self._serving = False

    def __enter__(self) -> ZoneServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def resolv_conf(self, folder: Path) -> Path:
        """A resolv.conf naming only this server."""
        path = folder / "resolv.conf"
        path.write_text(f"nameserver {self.address}\noptions timeout:1 attempts:2\n")
        path.chmod(0o644)
        return path

    def query_txt(self, name: str) -> list[str]:
        """Ask the server itself (over UDP), for a test's sanity check."""
        query = dns.message.make_query(name, dns.rdatatype.TXT)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.settimeout(2)
            sock.sendto(query.to_wire(), (self.address, 53))
            reply = dns.message.from_wire(sock.recv(65535))
        return [
            b"".join(rdata.strings).decode()
            for rrset in reply.answer
            for rdata in rrset
            if rrset.rdtype == dns.rdatatype.TXT
        ]


def in_private_resolver(resolv_conf: Path, command: list[str]) -> list[str]:
    """``command`` run in a mount namespace whose /etc/resolv.conf is ``resolv_conf``."""
    script = 'mount --bind "$0" /etc/resolv.conf && exec "$@"'
    return [
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        script,
        str(resolv_conf),
        *command,
    ]
