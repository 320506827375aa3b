"""Simulated boards (the real firmware behind a real pty) and polling helpers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.board.service import BoardService
from companion.board.simboard import SimBoard

DEADLINE_S = 15.0  # generous: the suite runs on a shared, noisy machine


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
