"""Browser test fixtures: a live table server on 127.0.0.1 and Debian's Chromium via Playwright.

The server runs as a real ``companion serve`` process (its own SQLite file in a temp dir), so a
test can stop and restart it. Chromium is the system one (/usr/bin/chromium); nothing is
downloaded. Without it the tests skip, unless CHOCOLATL_REQUIRE_BROWSER=1 makes them fail.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
    # A LAN-like name for 127.0.0.1: pages opened as http://table.lan are NOT a secure
    # context (unlike http://127.0.0.1), so the keep-awake fallback is exercised for real.
    "--host-resolver-rules=MAP table.lan 127.0.0.1",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """A ``companion serve`` process that can be stopped and started again on the same data."""

    data: Path
    port: int = field(default_factory=_free_port)
    host_name: str = "127.0.0.1"
    proc: subprocess.Popen | None = None
    host_token: str = ""

    @property
    def base(self) -> str:
        return f"http://{self.host_name}:{self.port}"

    @property
    def local(self) -> str:
        """The same server as Python's requests reach it (no custom name resolution)."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = open(self.data / "server.log", "ab")  # noqa: SIM115 - kept open by the child
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--data", str(self.data), "--board", "sim",
             "--public-url", self.base, "--allow-origin", self.base],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True,
            start_new_session=True)  # its own process group: the server and its workers
        deadline = time.monotonic() + 30
        lines = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            m = re.search(r"host:\s+\S+\?token=(\S+)", line)
            if m:
                self.host_token = m.group(1)
                break
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.local}/healthz", timeout=1).ok:
                    return
            except requests.RequestException:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not start: " + "".join(lines))

    def stop(self) -> None:
        """A clean stop (SIGTERM), as a host shutting the server down."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._reap_group()
        self.proc = None

    def interrupt(self) -> None:
        """Ctrl-C in the server's terminal (SIGINT), the usual way a host stops it."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._reap_group()
        self.proc = None

    def kill(self) -> None:
        """A power cut: SIGKILL to the server's whole process group (master and workers)."""
        if self.proc:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        self.proc = None

    def _reap_group(self) -> None:
        if self.proc:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def join_url(self, table: str = "1") -> str:
        html = requests.get(f"{self.local}/t/{table}/", timeout=5).text
        m = re.search(r'id="join-url"[^>]*>([^<]+)<', html)
        assert m, "the display page shows no join URL"
        return m.group(1).strip()

    def host_url(self, table: str = "1") -> str:
        return f"{self.base}/t/{table}/host?token={self.host_token}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(data=tmp_path, host_name="table.lan")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser():
    required = os.environ.get("CHOCOLATL_REQUIRE_BROWSER") == "1"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:  # pragma: no cover - depends on the machine
        if required:
            pytest.fail(f"playwright is required: {e}")
        pytest.skip(f"playwright not installed: {e}")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    except Exception as e:  # noqa: BLE001 - any launch failure means "no browser here"
        pw.stop()
        if required:
            pytest.fail(f"Chromium could not be launched: {e}")
        pytest.skip(f"Chromium could not be launched: {e}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
