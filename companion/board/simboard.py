"""A simulated LED board: the firmware's files behind a real pseudo-terminal, a laptop stand-in.

It lets the whole product run without hardware; its timings are CPython's on the host CPU and
say nothing about a board (benchmarks/bench_board_emulated.py measures the real MicroPython on
an emulated RP2040). The firmware files (``firmware/micropython/*.py``) run unchanged in a
CPython thread, each boot in a fresh module namespace, with stand-ins for ``machine``,
``neopixel``, ``time``, ``sys``, ``gc`` and ``micropython`` (viper functions run as plain
Python; :mod:`companion.board.standins`). The firmware holds the pty's master side; the host link
opens the slave side with pyserial exactly as it opens ``/dev/ttyACM0``, through a stable
symlink like ``/dev/serial/by-id/...``. The board can be unplugged (pty closed, symlink gone),
replugged (new pty, firmware booted again) and rebooted (firmware restarted on the same pty).
"""

from __future__ import annotations

import builtins
import contextlib
import os
import select
import shutil
import tempfile
import threading
import tty
import weakref
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.board.standins import SimReset, SimStopped, make_modules

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware" / "micropython"
FIRMWARE_MODULES = ("config", "proto", "leds", "app", "main")
STABLE_NAME = "usb-Chocolatl_LED_board_sim-if00"
# How long the simulated firmware sleeps when nothing comes (the board polls every 2 ms): data
# wakes it at once, and what runs on its clock is coarse (host lost after 3 s, its pattern
# stepping every 250 ms). At 20 ms an idle simulated board cost its server 3.4 % of a core,
# every table of a café that has no board, all day.
IDLE_WAIT_MS = 100
DIR_PREFIX = "chocolatl-sim-"
# Settings of firmware/micropython/config.py replaced once it is loaded (LED_COUNT, ...), by
# name; its settings are ints, floats and text.
ConfigOverrides = dict[str, int | float | str]


def _port_dir() -> str:
    """A fresh directory for the stable port name, named by this process. Directories left by
    processes that are gone (killed before they could close their board) are removed first,
    so a server that is killed again and again does not fill the temp directory."""
    top = Path(tempfile.gettempdir())
    for old in top.glob(f"{DIR_PREFIX}*-*"):
        pid = old.name[len(DIR_PREFIX) :].split("-", 1)[0]
        try:
            owner = old.stat().st_uid
        except FileNotFoundError:  # gone since the listing: closed, or cleaned by another server
            continue
        if not pid.isdigit() or owner != os.getuid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(old, ignore_errors=True)
        except OSError:  # alive, under another user
            continue
    return tempfile.mkdtemp(prefix=f"{DIR_PREFIX}{os.getpid()}-")


def _identity(value: Any) -> Any:
    return value


class FirmwareImage:
    """One boot's worth of firmware modules, imported from the firmware directory by path."""

    def __init__(
        self, directory: Path, stand_ins: dict[str, ModuleType], config: ConfigOverrides
    ) -> None:
        self.directory = directory
        self.modules: dict[str, ModuleType] = dict(stand_ins)
        self.config = config
        # The viper pointer casts (ptr8(buf)[i]) are plain indexing in CPython.
        self._builtins = dict(
            builtins.__dict__,
            __import__=self._import,
            ptr8=_identity,
            ptr16=_identity,
            ptr32=_identity,
        )

    def _import(
        self,
        name: str,
        globals_: Any = None,
        locals_: Any = None,
        fromlist: Any = (),
        level: int = 0,
    ) -> ModuleType:
        if level == 0 and name in self.modules:
            return self.modules[name]
        if level == 0 and name in FIRMWARE_MODULES:
            return self.load(name)
        return builtins.__import__(name, globals_, locals_, fromlist, level)

    def load(self, name: str) -> ModuleType:
        if name in self.modules:
            return self.modules[name]
        path = self.directory / f"{name}.py"
        if not path.is_file():
            raise FileNotFoundError(f"firmware file {path} is missing")
        module = ModuleType(name)
        module.__file__ = str(path)
        module.__dict__["__builtins__"] = self._builtins
        self.modules[name] = module
        exec(compile(path.read_text(), str(path), "exec"), module.__dict__)  # noqa: S102
        if name == "config":
            for key, value in self.config.items():
                setattr(module, key, value)
        return module


class PtyStream:
    """The firmware's stream interface (readinto / write / wait) on the pty master."""

    def __init__(self, fd: int, stop: threading.Event, board: SimBoard) -> None:
        self.fd = fd
        self.stop = stop
        self.board = board

    def any(self) -> bool:
        """True when the host has sent something the firmware has not read yet."""
        if self.stop.is_set():
            raise SimStopped
        if self.board.hung:
            return False
        ready, _, _ = select.select([self.fd], [], [], 0)
        return bool(ready)

    def readinto(self, buf: bytearray, n: int) -> int:
        """Exactly n bytes, blocking like MicroPython's sys.stdin.buffer.readinto(buf, n)."""
        got = 0
        while got < n:
            if self.stop.is_set():
                raise SimStopped
            if self.board.hung:
                self.stop.wait(0.05)
                continue
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.fd, n - got)
            except (BlockingIOError, OSError):
                continue
            if self.board.corrupt_reads > 0 and len(data) > 2:
                self.board.corrupt_reads -= 1
                data = bytes((data[0], data[1] ^ 0x40)) + data[2:]  # line noise on the cable
            buf[got : got + len(data)] = data
            got += len(data)
        return n

    def write(self, buf: bytearray, n: int) -> None:
        data = bytes(buf[:n])
        while data and not self.stop.is_set():
            try:
                written = os.write(self.fd, data)
            except BlockingIOError:
                return  # nobody reading: dropped, like a USB CDC port with no host
            except OSError:
                return
            data = data[written:]

    def wait(self, timeout_ms: int) -> None:
        if self.stop.is_set():
            raise SimStopped
        # Data wakes the select at once; the longer idle timeout only spares the CPU.
        select.select([self.fd], [], [], max(timeout_ms, IDLE_WAIT_MS) / 1000)


class SimBoard:
    """The simulated board; ``path`` is its stable serial port name."""

    def __init__(
        self,
        led_count: int = 208,
        *,
        firmware_dir: Path | None = None,
        host_lost_ms: int | None = None,
    ) -> None:
        self.led_count = led_count
        self.firmware_dir = Path(firmware_dir or FIRMWARE_DIR)
        if not (self.firmware_dir / "main.py").is_file():
            raise FileNotFoundError(f"no firmware main.py in {self.firmware_dir}")
        self.config: ConfigOverrides = {"LED_COUNT": led_count}
        if host_lost_ms is not None:
            self.config["HOST_LOST_MS"] = host_lost_ms
        self._dir = _port_dir()
        self.path = os.path.join(self._dir, STABLE_NAME)
        # A board nobody closed still leaves no directory behind when it is collected or the
        # process ends.
        self._cleanup = weakref.finalize(self, shutil.rmtree, self._dir, True)
        self.boots = 0
        self.last_error: str | None = None
        self.corrupt_reads = 0  # flip a bit in this many of the next reads (tests, demos)
        self.hung = False  # the firmware stops reading (a hung board; tests)
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._image: FirmwareImage | None = None
        self._reboot = threading.Event()

    # -- power and cable ------------------------------------------------------------------
    @property
    def plugged(self) -> bool:
        return self._master is not None

    def plug(self) -> SimBoard:
        """Connect the cable: a new pty, the stable symlink, and the firmware boots."""
        with self._lock:
            if self._master is not None:
                return self
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line editing: a USB CDC port is raw bytes
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            os.symlink(os.ttyname(slave), self.path)
            self._start_thread()
        return self

    def unplug(self) -> None:
        """Pull the cable: the firmware stops, the pty closes, the port disappears."""
        with self._lock:
            self._stop_thread()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None
            self._image = None
            self.hung = False

    def replug(self) -> SimBoard:
        self.unplug()
        return self.plug()

    def reboot(self) -> None:
        """Reset button: the firmware starts again on the same port."""
        with self._lock:
            if self._master is None:
                return
            self._stop_thread()
            self._start_thread()

    def hang(self, hung: bool = True) -> None:
        """The firmware stops reading its port (as a crashed loop would) or reads again."""
        self.hung = hung

    def inject_noise(self, reads: int = 1) -> None:
        """Corrupts one byte in each of the next ``reads`` reads of the firmware."""
        self.corrupt_reads = reads

    def close(self) -> None:
        self.unplug()
        self._cleanup()

    # -- what the board holds -------------------------------------------------------------
    @property
    def firmware(self) -> Any:
        """The running firmware object (``app.Firmware``) or None."""
        image = self._image
        main = image.modules.get("main") if image else None
        return getattr(main, "firmware", None)

    def picture(self) -> bytes | None:
        """The last picture the board received (RGB, strip order), or None when unplugged."""
        fw = self.firmware
        return bytes(fw.strip.picture) if fw is not None and self.plugged else None

    def shown(self) -> bytes | None:
        """What the LEDs show (after gamma, brightness and limiter), RGB, strip order."""
        fw = self.firmware
        if fw is None or not self.plugged:
            return None
        buf, strip = bytes(fw.strip.buf), fw.strip
        out = bytearray(3 * strip.count)
        for i in range(strip.count):
            o = i * strip.bpp
            out[3 * i : 3 * i + 3] = (buf[o + strip.ro], buf[o + strip.go], buf[o + strip.bo])
        return bytes(out)

    # -- firmware thread ------------------------------------------------------------------
    def _start_thread(self) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(self._master, self._stop), name="simboard-firmware", daemon=True
        )
        self._thread.start()

    def _stop_thread(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self, fd: int, stop: threading.Event) -> None:
        while not stop.is_set():
            stand_ins = make_modules()
            image = FirmwareImage(self.firmware_dir, stand_ins, self.config)
            self._image = image
            self.boots += 1
            try:
                image.load("main").main(PtyStream(fd, stop, self))
            except SimReset:
                continue  # machine.reset(): boot again on the same port
            except SimStopped:
                return
            except Exception as exc:  # noqa: BLE001 - a firmware crash ends at the "REPL"
                self.last_error = f"firmware stopped: {exc!r}"
                return
            return  # main() returned (STOP without a watchdog): the board sits at the REPL
