"""Debian's Chromium for the café tests' page checks."""

from __future__ import annotations

from pathlib import Path


def with_chromium(check, viewport: dict | None = None) -> None:  # noqa: ANN001
    """Run ``check(page)`` in Debian's Chromium (Playwright, no browser download).

    Playwright's sync API refuses to start inside another running instance's event loop (the
    browser tests keep one open for the whole session), so this one runs on its own thread.
    Without Chromium the calling test skips, unless CHOCOLATL_REQUIRE_BROWSER=1.
    """
    import os
    import threading

    import pytest

    if not Path("/usr/bin/chromium").exists():
        if os.environ.get("CHOCOLATL_REQUIRE_BROWSER") == "1":
            raise AssertionError("Chromium is required (CHOCOLATL_REQUIRE_BROWSER=1)")
        pytest.skip("Debian's chromium is not installed")
    errors: list[BaseException] = []

    def run() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                try:
                    page = browser.new_page(viewport=viewport or {"width": 1280, "height": 720})
                    check(page)
                finally:
                    browser.close()
        except BaseException as exc:  # noqa: BLE001 - re-raised on the test's thread
            errors.append(exc)

    thread = threading.Thread(target=run, name="chromium")
    thread.start()
    thread.join(timeout=240)
    if thread.is_alive():
        raise TimeoutError("the browser check did not finish")
    if errors:
        raise errors[0]
