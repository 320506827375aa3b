"""The tests' Chromium is launched again once when its first launch fails (conftest.py
``_launch``): one failed launch took every browser test of its worker with it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser.conftest import LAUNCH_TIMEOUT_MS, _launch


class _Chromium:
    """Playwright's ``chromium`` as far as ``_launch`` uses it: fails ``fails`` times."""

    def __init__(self, fails: int) -> None:
        self.fails = fails
        self.calls: list[dict[str, Any]] = []

    def launch(self, **options: Any) -> str:
        self.calls.append(options)
        if len(self.calls) <= self.fails:
            raise TimeoutError(f"launch {len(self.calls)} timed out")
        return "browser"


class _Playwright:
    def __init__(self, fails: int) -> None:
        self.chromium = _Chromium(fails)


def test_a_failed_launch_is_tried_again_with_the_longer_timeout() -> None:
    pw = _Playwright(fails=1)
    assert _launch(pw) == "browser"
    assert [c["timeout"] for c in pw.chromium.calls] == [LAUNCH_TIMEOUT_MS] * 2


def test_the_last_failure_is_reported() -> None:
    pw = _Playwright(fails=2)
    with pytest.raises(TimeoutError, match="launch 2 timed out"):
        _launch(pw)
    assert len(pw.chromium.calls) == 2
