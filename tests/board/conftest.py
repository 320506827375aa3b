"""Simulated boards (the real firmware behind a real pty) and polling helpers."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from companion.board.service import BoardService
from companion.board.simboard import SimBoard

DEADLINE_S = 15.0  # generous: the suite runs on a shared, noisy machine


def wait_until(check: Callable[[], object], what: str, deadline: float = DEADLINE_S) -> object:
    """Polls ``check`` until it returns something true; fails with ``what`` after the deadline."""
    end = time.monotonic() + deadline
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture
def service() -> Iterator[BoardService]:
    svc = BoardService(None, 208).start()
    yield svc
    svc.stop()


@pytest.fixture
def sim() -> Iterator[SimBoard]:
    board = SimBoard(208)
    yield board
    board.close()
