"""Browser test fixtures: a live table server on 127.0.0.1 and Debian's Chromium via Playwright.

The server runs as a real ``companion serve`` process (its own SQLite file in a temp dir), so a
test can stop and restart it. Chromium is the system one (/usr/bin/chromium); nothing is
downloaded. Without it the tests skip, unless CHOCOLATL_REQUIRE_BROWSER=1 makes them fail.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "test-artifacts"
# Debian's Chromium headless shell (package chromium-headless-shell: chromium's Blink, V8 and
# network stack without the browser's window layer), else chromium itself. The shell cost
# test_table_games.py 81 busy CPU seconds against chromium's 88 (and drawing in the browser
# process, --in-process-gpu, 88 against 96: one process less to hand every frame to).
SHELL = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM = SHELL if os.access(SHELL, os.X_OK) else "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--in-process-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    # A LAN-like name for 127.0.0.1: pages opened as http://table.lan are NOT a secure
    # context (unlike http://127.0.0.1), so the keep-awake fallback is exercised for real.
    "--host-resolver-rules=MAP table.lan 127.0.0.1",
]
# A phone's screen in CSS pixels, which is what every layout check and tap measures. Drawn at
# one device pixel per CSS pixel (phones have two or three): the layout is the same, and the
# pixels to paint a quarter (test_table_games.py: 96 busy CPU seconds against 113).
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 1,
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of the test's own (tests that stop, restart or kill it, or need a server
    nobody else has touched)."""
    srv = LiveServer(tmp_path, host_name="table.lan")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[LiveServer]:
    """``server`` for a test of a module whose ``server`` is the shared one."""
    srv = LiveServer(tmp_path, host_name="table.lan")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


# Tables of the module's shared server: one a test (a start and stop of a server take about
# 5 s on the 2-core machine, a table nothing).
TABLES = 8


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for a module's tests, each on a table of its own (``table``)."""
    srv = LiveServer(tmp_path_factory.mktemp("data"), tables=TABLES, host_name="table.lan")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def _table_names() -> Iterator[str]:
    return (str(i) for i in itertools.count(1))


@pytest.fixture
def table(shared_server: LiveServer, _table_names: Iterator[str]) -> str:
    """A table of the module's shared server that no other test has used."""
    name = next(_table_names)
    assert int(name) <= TABLES, "raise TABLES in tests/web/browser/conftest.py"
    return name


# How often a page's wait_for_function condition is checked, in ms. Playwright's default
# checks it at every animation frame, which keeps the page drawing 60 frames a second while it
# waits: 7.5 % of a core for a waiting display and 9.7 % for a phone against 0.9 % and 1.4 %
# checked every 100 ms (measured on the 2-core machine), and the browser tests spend most of
# their time waiting, several at once under pytest-xdist. A state shorter than this can still
# be missed, so a test that must catch a moment passes ``polling="raf"`` itself.
POLL_MS = 50


def _poll_by_default(page_class: Any) -> None:
    """``wait_for_function`` of every page polls every POLL_MS unless told otherwise."""
    original = page_class.wait_for_function
    if getattr(original, "_polls_by_default", False):
        return

    def wait_for_function(self: Any, expression: str, **kwargs: Any) -> Any:
        kwargs.setdefault("polling", POLL_MS)
        return original(self, expression, **kwargs)

    wait_for_function._polls_by_default = True  # type: ignore[attr-defined]
    page_class.wait_for_function = wait_for_function


# How long a launch may take. The first run on a machine just booted and given its Chromium
# skipped a worker's browser tests (its reason was not kept): a session's browser that fails
# to launch takes every browser test of its worker with it (skipped, or failed where the
# browser is required). That first launch reads 220 MB from disk while four other workers
# start theirs; Playwright gives a launch 30 s.
LAUNCH_TIMEOUT_MS = 120_000


def _launch(pw: Any) -> Any:
    """Chromium for this worker, launched a second time if the first launch fails (the
    second launch's error is the one reported)."""
    options = {
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
        "headless": True,
        "timeout": LAUNCH_TIMEOUT_MS,
    }
    try:
        return pw.chromium.launch(**options)
    except Exception:  # noqa: BLE001 - a failed launch gets one more try
        return pw.chromium.launch(**options)


@pytest.fixture(scope="session")
def browser():
    required = os.environ.get("CHOCOLATL_REQUIRE_BROWSER") == "1"
    try:
        from playwright.sync_api import Page, sync_playwright
    except ImportError as e:  # pragma: no cover - depends on the machine
        if required:
            pytest.fail(f"playwright is required: {e}")
        pytest.skip(f"playwright not installed: {e}")
    _poll_by_default(Page)
    pw = sync_playwright().start()
    try:
        b = _launch(pw)
    except Exception as e:  # noqa: BLE001 - any launch failure means "no browser here"
        pw.stop()
        if required:
            pytest.fail(f"Chromium could not be launched: {e}")
        pytest.skip(f"Chromium could not be launched: {e}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture(autouse=True)
def _close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every page a test opened: pages left open keep their sockets reconnecting and
    their scripts running, and the shared browser gets slower test after test."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            try:
                context.close()
            except Exception:  # noqa: BLE001 - closing is best effort
                pass


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
