"""A clock that moves only when the test moves it, for the show's stage (``Stage.clock``).

A paced show checked against it is checked beat by beat in its own time: no test waits a
beat out, and "a beat holds at least the pace" is a fact about the stage's clock, not about
how busy the machine was.
"""

from __future__ import annotations

import threading
import time


class ManualClock:
    """Seconds since the epoch, starting now and standing still until :meth:`advance`."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        """Move on ``seconds`` (never back); the new time."""
        assert seconds >= 0, "a clock never goes back"
        with self._lock:
            self._now += seconds
            return self._now
