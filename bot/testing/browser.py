"""Debian's headless Chromium, driven through ChromeDriver by the W3C WebDriver protocol.

WebDriver is a handful of JSON requests over HTTP, so the standard
library's ``urllib`` drives it and the suite needs no browser bindings.
Chromium runs with a fresh profile and without its background traffic,
which a closed network refuses (scripts/install-test-servers.sh installs it).
"""

from __future__ import annotations

import base64
import json
import subprocess
import tempfile
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from bot.testing.support import (
    LOOPBACK,
    ServerNotInstalledError,
    ServerStartError,
    find_executable,
    free_loopback_port,
    wait_until,
)

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
START_TIMEOUT = 20.0


def chromium_paths() -> tuple[Path, Path]:
    """(chromium, chromedriver); raises ServerNotInstalledError when either is missing."""
    chromium = find_executable("chromium")
    driver = find_executable("chromedriver")
    if chromium is None or driver is None:
        raise ServerNotInstalledError(
            "Chromium or ChromeDriver is not installed: "
            "run scripts/install-test-servers.sh (as root) to install them"
        )
    return chromium, driver


class Browser:
    """One ChromeDriver and one browser session: ``with Browser() as browser: ...``."""

    def __init__(self, width: int = 1024, height: int = 900) -> None:
        self.width, self.height = width, height
        self._profile = tempfile.TemporaryDirectory(prefix="nomicbot-chromium-")
        self._driver: subprocess.Popen[bytes] | None = None
        self._base = ""
        self._session = ""

    def __enter__(self) -> Self:
        chromium, driver = chromium_paths()
        port = free_loopback_port()
        self._driver = subprocess.Popen(
            [str(driver), f"--port={port}", "--allowed-ips=127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._base = f"http://{LOOPBACK}:{port}"
        if not wait_until(self._driver_ready, START_TIMEOUT, interval=0.05):
            self.close()
            raise ServerStartError(f"ChromeDriver did not answer on port {port}")
        self._session = self._new_session(chromium)["sessionId"]
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._session:
            try:
                self._request("DELETE", f"/session/{self._session}")
            finally:
                self._session = ""
        if self._driver is not None:
            self._driver.terminate()
            self._driver.wait(timeout=10)
            self._driver = None
        self._profile.cleanup()

    def open(self, url: str) -> None:
        self._command("POST", "url", {"url": url})

    def script(self, source: str, *arguments: Any) -> Any:
        """The value ``source`` (a function body) returns in the page."""
        return self._command("POST", "execute/sync", {"script": source, "args": list(arguments)})

    def resize(self, width: int, height: int) -> None:
        """Set the window's size, as a phone's or a desktop's screen."""
        self._command("POST", "window/rect", {"width": width, "height": height})

    def screenshot(self, path: Path) -> Path:
        path.write_bytes(base64.b64decode(self._command("GET", "screenshot")))
        return path

    def console_errors(self) -> list[str]:
        """The console's severe entries since the last call (ChromeDriver's browser log)."""
        entries = self._command("POST", "se/log", {"type": "browser"})
        return [entry["message"] for entry in entries if entry.get("level") == "SEVERE"]

    def _new_session(self, chromium: Path) -> Any:
        options = {
            "binary": str(chromium),
            "args": [
                *CHROMIUM_FLAGS,
                f"--user-data-dir={self._profile.name}",
                f"--window-size={self.width},{self.height}",
            ],
        }
        capabilities = {
            "browserName": "chrome",
            "goog:chromeOptions": options,
            "goog:loggingPrefs": {"browser": "ALL"},
        }
        return self._request("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})

    def _driver_ready(self) -> bool:
        try:
            return bool(self._request("GET", "/status").get("ready"))
        except OSError:
            return False

    def _command(self, method: str, path: str, body: Any = None) -> Any:
        return self._request(method, f"/session/{self._session}/{path}", body)

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self._base + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())["value"]
