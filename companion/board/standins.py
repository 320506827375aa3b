"""CPython stand-ins for the MicroPython modules the firmware imports, for the simulated board.

Each boot gets fresh ones (:func:`make_modules`), as a real reset would. ``machine.reset()``
raises :class:`SimReset`, which the simulated board turns into a new boot.
"""

from __future__ import annotations

import sys
import time
from types import ModuleType

TICKS_PERIOD = 1 << 30


class SimReset(BaseException):
    """machine.reset() in the simulated board (BaseException: firmware code must not catch it)."""


class SimStopped(BaseException):
    """Raised in the firmware thread when the simulated board is unplugged or rebooted."""


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, pin: object, mode: int = -1) -> None:
        self.pin = pin
        self.mode = mode
        self.level = 0

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.level
        self.level = int(bool(v))
        return None


class WDT:
    def __init__(self, id: int = 0, timeout: int = 5000) -> None:  # noqa: A002 - machine API
        self.timeout = timeout
        self.feeds = 0

    def feed(self) -> None:
        self.feeds += 1


class NeoPixel:
    """Same buffer layout as MicroPython's neopixel driver (GRB, ORDER, bpp)."""

    ORDER = (1, 0, 2, 3)

    def __init__(self, pin: object, n: int, bpp: int = 3, timing: int = 1) -> None:
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def write(self) -> None:
        self.writes += 1


def _reset() -> None:
    raise SimReset


def ticks_ms() -> int:
    return int(time.monotonic() * 1000) % TICKS_PERIOD


def ticks_diff(a: int, b: int) -> int:
    half = TICKS_PERIOD // 2
    return ((a - b + half) % TICKS_PERIOD) - half


def sleep_ms(ms: int) -> None:
    time.sleep(ms / 1000)


def _same(value: object) -> object:
    return value


def make_modules() -> dict[str, ModuleType]:
    """Fresh machine, neopixel, time, sys, gc and micropython modules for one boot of the
    firmware. @micropython.viper functions run as plain Python (same integer results: no
    value in the firmware's viper code reaches 2**31)."""
    machine = ModuleType("machine")
    machine.Pin = Pin
    machine.WDT = WDT
    machine.reset = _reset
    neopixel = ModuleType("neopixel")
    neopixel.NeoPixel = NeoPixel
    mtime = ModuleType("time")
    mtime.ticks_ms = ticks_ms
    mtime.ticks_diff = ticks_diff
    mtime.sleep_ms = sleep_ms
    mtime.time = time.time
    msys = ModuleType("sys")
    msys.platform = "sim"
    msys.implementation = sys.implementation
    mgc = ModuleType("gc")
    mgc.collect = lambda: None
    mgc.mem_alloc = lambda: 0  # no MicroPython heap to measure here
    mgc.mem_free = lambda: 0
    micropython = ModuleType("micropython")
    micropython.const = _same
    micropython.viper = _same
    micropython.native = _same
    return {
        "machine": machine,
        "neopixel": neopixel,
        "time": mtime,
        "sys": msys,
        "gc": mgc,
        "micropython": micropython,
    }
