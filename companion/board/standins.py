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


def _module(name: str, **attributes: object) -> ModuleType:
    """A module named ``name`` holding ``attributes`` (type checkers know no such names)."""
    module = ModuleType(name)
    vars(module).update(attributes)
    return module


def make_modules() -> dict[str, ModuleType]:
    """Fresh machine, neopixel, time, sys, gc and micropython modules for one boot of the
    firmware. @micropython.viper functions run as plain Python (same integer results: no
    value in the firmware's viper code reaches 2**31)."""
    machine = _module("machine", Pin=Pin, WDT=WDT, reset=_reset)
    neopixel = _module("neopixel", NeoPixel=NeoPixel)
    mtime = _module(
        "time", ticks_ms=ticks_ms, ticks_diff=ticks_diff, sleep_ms=sleep_ms, time=time.time
    )
    msys = _module("sys", platform="sim", implementation=sys.implementation)
    # No MicroPython heap to measure here.
    mgc = _module("gc", collect=lambda: None, mem_alloc=lambda: 0, mem_free=lambda: 0)
    micropython = _module("micropython", const=_same, viper=_same, native=_same)
    return {
        "machine": machine,
        "neopixel": neopixel,
        "time": mtime,
        "sys": msys,
        "gc": mgc,
        "micropython": micropython,
    }
