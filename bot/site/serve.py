"""``nomicbot serve``: the built site over HTTP with the standard library, for a small game.

Each request looks the file up through the site's link afresh, so a
rebuild's swap shows at the next request.  A busy game belongs behind
nginx or any static host (deploy/GUIDE.md).
"""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files, with the types a browser wants for the feed and the JSON."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".atom": "application/atom+xml",
        ".json": "application/json",
        ".svg": "image/svg+xml",
    }

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        # Quiet: one line per request would drown the daemon's log.
        return


def make_server(directory: Path, bind: str, port: int) -> ThreadingHTTPServer:
    """A server of ``directory`` on ``bind``:``port`` (0: any free port), not yet serving."""
    handler = functools.partial(SiteHandler, directory=str(directory))
    return ThreadingHTTPServer((bind, port), handler)


def serve_site(directory: Path, bind: str, port: int) -> None:
    with make_server(directory, bind, port) as server:
        server.serve_forever()
