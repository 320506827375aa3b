"""The one way tests wait: poll a condition until it holds or a deadline passes.

A wait is never a speed check: the deadline is generous (the suite runs on a shared 2-core
machine, several tests at once) and only says when to stop hoping. Tests that need an order
of events assert the order, not the seconds between them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 15.0


class WaitTimeout(AssertionError, TimeoutError):
    """``what`` did not happen before the deadline (a failed test, and a timeout for code
    that catches ``TimeoutError``)."""


def wait_for(
    pred: Callable[[], T],
    what: str = "condition",
    timeout: float = DEFAULT_TIMEOUT_S,
    every: float = 0.05,
) -> T:
    """``pred()``'s first true value, polled every ``every`` s; :class:`WaitTimeout` naming
    ``what`` and the last value once ``timeout`` s have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() > deadline:
            raise WaitTimeout(f"{what} did not happen within {timeout} s (last: {value!r})")
        time.sleep(every)
