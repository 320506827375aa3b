"""Fixtures of the firmware tests.

The rp2040 fixtures boot the real MicroPython rp2 image on an emulated RP2040
(tests/firmware/emulator.py); without Node or rp2040js they skip, unless
CHOCOLATL_REQUIRE_MICROPYTHON=1 (set in CI) turns the skip into a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from . import emulator as em


def _require_emulator() -> None:
    reason = em.missing()
    if reason:
        if os.environ.get("CHOCOLATL_REQUIRE_MICROPYTHON") == "1":
            pytest.fail(f"the emulated RP2040 is required but {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def flash_patch() -> Path:
    """The firmware files on a LittleFS, put there through the raw REPL (once per session)."""
    _require_emulator()
    return em.firmware_flash_patch()


@pytest.fixture(scope="module")
def rp2040(flash_patch: Path) -> Iterator[em.EmulatedBoard]:
    """A booted emulated Pico running the firmware from its file system (one per module)."""
    board = em.EmulatedBoard(flash_patch)
    try:
        board.event("usb")
        em.wait_replies(board, 0, 1)  # the boot announcement (checked in test_rp2040_protocol)
        yield board
    finally:
        board.close()
