"""The real MicroPython rp2 image on an emulated RP2040, driven from Python.

``tests/firmware/rp2040/board.mjs`` (Node, rp2040js) boots the Pico image; its stdin/stdout are
the board's USB CDC serial port and a third pipe reports what happened on the board (USB up,
bytes moved, decoded WS2812 frames, watchdog resets), each stamped with the emulated cycle
count at 125 MHz. :class:`EmulatedBoard` wraps that process; :func:`firmware_flash_patch` puts
the firmware files on the board's file system through the raw REPL, as ``mpremote fs cp`` does,
and returns the flash blocks that file system occupies so every later boot (and every watchdog
reboot) starts ``main.py`` from flash like a real Pico.

Used by tests/firmware/test_rp2040_*.py and benchmarks/bench_board_emulated.py.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import struct
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "rp2040"
IMAGE = HERE / "micropython-v1.28.0-rpi_pico.bin"
BOOTROM = HERE / "rp2040-bootrom-b1.bin"
HARNESS = HERE / "board.mjs"
RP2040JS = ROOT / "node_modules" / "rp2040js" / "package.json"
FIRMWARE_DIR = ROOT / "firmware" / "micropython"
HZ = 125_000_000
BLOCK = 4096


def missing() -> str | None:
    """Why the emulated board cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    for path in (RP2040JS, IMAGE, BOOTROM):
        if not path.exists():
            return f"{path.relative_to(ROOT)} is missing (npm ci)"
    return None


def ms(cycles: int) -> float:
    """Emulated milliseconds at 125 MHz."""
    return cycles * 1000 / HZ


class BoardTimeout(AssertionError):
    """The emulated board did not do what was awaited in time."""


class EmulatedBoard:
    """One emulated Pico: write() host bytes, read what the board sent, watch its events."""

    def __init__(self, flash_patch: Path | None = None, nice: bool = True) -> None:
        reason = missing()
        if reason:
            raise RuntimeError(reason)
        ev_r, ev_w = os.pipe()
        cmd = ["node", str(HARNESS), str(IMAGE), str(BOOTROM)]
        if flash_patch is not None:
            cmd.append(str(flash_patch))
        if nice:
            cmd = ["nice", "-n", "10", *cmd]
        env = dict(os.environ, BOARD_EVENTS_FD=str(ev_w))
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=(ev_w,), env=env, cwd=ROOT
        )
        os.close(ev_w)
        self._cond = threading.Condition()
        self.received = bytearray()  # every byte the board sent
        self.events: list[dict[str, Any]] = []
        self.sent_total = 0
        self._closed = False
        self._threads = [
            threading.Thread(target=self._pump_out, daemon=True),
            threading.Thread(target=self._pump_events, args=(ev_r,), daemon=True),
        ]
        for t in self._threads:
            t.start()

    # -- plumbing ----------------------------------------------------------------------------
    def _pump_out(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while True:
            data = os.read(fd, 65536)
            if not data:
                break
            with self._cond:
                self.received += data
                self._cond.notify_all()
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _pump_events(self, fd: int) -> None:
        with os.fdopen(fd, "rb") as f:
            for line in f:
                event = json.loads(line)
                with self._cond:
                    self.events.append(event)
                    self._cond.notify_all()

    def write(self, data: bytes) -> int:
        """Sends host bytes; returns the stream offset of the first one."""
        assert self.proc.stdin is not None
        at = self.sent_total
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        self.sent_total += len(data)
        return at

    def wait_for(self, check: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
        """Waits (under the lock) until check() returns something true."""
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                value = check()
                if value:
                    return value
                left = end - time.monotonic()
                if left <= 0 or self._closed and not value:
                    raise BoardTimeout(
                        f"emulated board: timed out waiting for {what}; "
                        f"last output {bytes(self.received[-200:])!r}"
                    )
                self._cond.wait(min(left, 0.5))

    def read_until(self, marker: bytes, start: int = 0, timeout: float = 60.0) -> int:
        """Offset just past the first ``marker`` at or after ``start`` in the received bytes."""

        def found() -> int:
            i = self.received.find(marker, start)
            return i + len(marker) if i >= 0 else 0

        return self.wait_for(found, f"{marker!r}", timeout)

    def event(
        self,
        kind: str,
        after: int = 0,
        timeout: float = 60.0,
        match: Callable[[dict[str, Any]], bool] | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """(index, event) of the first ``kind`` event at index >= after that matches."""

        def found() -> tuple[int, dict[str, Any]] | None:
            for i in range(after, len(self.events)):
                e = self.events[i]
                if e["ev"] == kind and (match is None or match(e)):
                    return i, e
            return None

        return self.wait_for(found, f"a {kind} event", timeout)

    def cycle_of_out(self, offset: int, timeout: float = 60.0) -> int:
        """Emulated cycle at which host byte ``offset`` reached the device."""
        return self.event("out", 0, timeout, lambda e: e["total"] > offset)[1]["cycle"]

    def cycle_of_in(self, offset: int, timeout: float = 60.0) -> int:
        """Emulated cycle at which board byte ``offset`` reached the host."""
        return self.event("in", 0, timeout, lambda e: e["total"] > offset)[1]["cycle"]

    def now_cycles(self) -> int:
        with self._cond:
            return max((e["cycle"] for e in self.events[-50:]), default=0)

    def close(self) -> dict[str, Any] | None:
        """Ends the emulator; returns its final stats event."""
        if self.proc.poll() is None:
            with contextlib.suppress(BrokenPipeError, OSError):
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for t in self._threads:
            t.join(timeout=5)
        stats = [e for e in self.events if e["ev"] == "stats"]
        return stats[-1] if stats else None

    def __enter__(self) -> EmulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the REPL, as mpremote uses it -------------------------------------------------------
    def enter_raw_repl(self, timeout: float = 60.0) -> None:
        """Ctrl-C twice (stops a running program), then Ctrl-A: the raw REPL."""
        start = len(self.received)
        self.write(b"\r\x03\x03")
        self.read_until(b">>> ", start, timeout)
        start = len(self.received)
        self.write(b"\r\x01")
        self.read_until(b"raw REPL; CTRL-B to exit\r\n>", start, timeout)

    def exec_raw(self, code: str, timeout: float = 120.0) -> bytes:
        """Runs code in the raw REPL; returns its output, raises on a Python error."""
        start = len(self.received)
        self.write(code.encode() + b"\x04")
        ok = self.read_until(b"OK", start, timeout)
        out_end = self.read_until(b"\x04", ok, timeout)
        err_end = self.read_until(b"\x04>", out_end, timeout)
        out = bytes(self.received[ok : out_end - 1])
        err = bytes(self.received[out_end : err_end - 2])
        if err:
            raise RuntimeError(f"board raised: {err.decode(errors='replace')}")
        return out


# -- putting the firmware on the board --------------------------------------------------------

_RAMDISK = """
import vfs, rp2
class _Blocks:
    # rp2.Flash's geometry, the blocks written kept in RAM (the emulator cannot program flash)
    def __init__(self, count):
        self.count = count
        self.blocks = {}
    def readblocks(self, n, buf, off=0):
        i = 0
        while i < len(buf):
            b = self.blocks.get(n)
            k = min(len(buf) - i, 4096 - off)
            if b is None:
                for j in range(i, i + k):
                    buf[j] = 0xFF
            else:
                buf[i:i + k] = b[off:off + k]
            i += k
            n += 1
            off = 0
    def writeblocks(self, n, buf, off=None):
        if off is None:
            off = 0
        i = 0
        while i < len(buf):
            b = self.blocks.get(n)
            if b is None:
                b = self.blocks[n] = bytearray(b'\\xff' * 4096)
            k = min(len(buf) - i, 4096 - off)
            b[off:off + k] = buf[i:i + k]
            i += k
            n += 1
            off = 0
    def ioctl(self, op, arg):
        if op == 4:
            return self.count
        if op == 5:
            return 4096
        if op == 6:
            self.blocks.pop(arg, None)
            return 0
        return 0
_flash = rp2.Flash()
_bd = _Blocks(_flash.ioctl(4, 0))
vfs.VfsLfs2.mkfs(_bd, progsize=256)
vfs.mount(vfs.VfsLfs2(_bd, progsize=256), '/board')
print(_bd.count)
"""


def _marker_image_offset(board: EmulatedBoard) -> int:
    """Flash offset of rp2.Flash's block 0, read back from a marker pattern in the flash."""
    out = board.exec_raw(
        "import rp2\nb = bytearray(8)\nrp2.Flash().readblocks(0, b)\nprint(bytes(b).hex())"
    )
    head = bytes.fromhex(out.decode().strip())
    if head[:4] != b"BLK0":
        raise RuntimeError(f"flash marker not found: {head!r}")
    return struct.unpack("<I", head[4:8])[0]


def _marker_patch(path: Path) -> None:
    """Marks every 4 KB block after the image with b'BLK0' and its own flash offset."""
    image_end = (IMAGE.stat().st_size + BLOCK - 1) // BLOCK * BLOCK
    with path.open("wb") as f:
        for off in range(image_end, 2 * 1024 * 1024, BLOCK):
            rec = b"BLK0" + struct.pack("<I", off)
            f.write(struct.pack("<II", off, len(rec)) + rec)


def put_file(board: EmulatedBoard, name: str, data: bytes, chunk: int = 256) -> None:
    """Writes one file the way ``mpremote fs cp`` does: open, write chunks, close."""
    board.exec_raw(f"f = open({name!r}, 'wb')\nw = f.write")
    for i in range(0, len(data), chunk):
        board.exec_raw(f"w({data[i : i + chunk]!r})")
    board.exec_raw("f.close()")


def firmware_flash_patch(
    files: dict[str, bytes] | None = None, cache_dir: Path | None = None
) -> Path:
    """A flash patch holding a LittleFS with the firmware files where rp2.Flash() finds it.

    The files travel through the raw REPL into a LittleFS file system with rp2.Flash()'s
    geometry (block size, count, progsize 256 as in the port's _boot.py), kept in the board's
    RAM; its blocks are then read back through the REPL and written at rp2.Flash()'s offset,
    found with a marker pattern. Cached by the files' hash.
    """
    if files is None:  # every .py file, as `companion flash` copies them
        files = {f.name: f.read_bytes() for f in sorted(FIRMWARE_DIR.glob("*.py"))}
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    digest.update(IMAGE.read_bytes())
    digest.update(HARNESS.read_bytes())
    cache = cache_dir or Path(tempfile.gettempdir()) / f"chocolatl-rp2040-{os.getuid()}"
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / f"flash-{digest.hexdigest()[:16]}.patch"
    if target.exists():
        return target
    # One marker file a process: another test process (a pytest-xdist worker, another
    # checkout) may be booting from its own while this one is written.
    marker = cache / f"markers.{os.getpid()}.patch"
    _marker_patch(marker)
    with EmulatedBoard(marker) as board:
        board.event("usb")
        board.enter_raw_repl()
        base = _marker_image_offset(board)
        board.exec_raw(_RAMDISK)
        for name, data in files.items():
            put_file(board, f"/board/{name}", data)
        listing = board.exec_raw("import os\nprint(sorted(os.listdir('/board')))")
        if sorted(files) != eval(listing.decode()):  # noqa: S307 - our own board's list
            raise RuntimeError(f"files missing on the board: {listing!r}")
        out = board.exec_raw("vfs.umount('/board')\nprint(sorted(_bd.blocks))")
        numbers = eval(out.decode())  # noqa: S307
        records = bytearray()
        for n in numbers:
            hexdata = board.exec_raw(
                f"import binascii\nprint(binascii.hexlify(_bd.blocks[{n}]).decode())"
            )
            block = bytes.fromhex(hexdata.decode().strip())
            assert len(block) == BLOCK
            records += struct.pack("<II", base + n * BLOCK, BLOCK) + block
    tmp = target.with_suffix(f".{os.getpid()}.tmp")  # concurrent sessions never share it
    tmp.write_bytes(bytes(records))
    tmp.replace(target)
    return target


# -- what the board should answer --------------------------------------------------------------


def decode_from(board: EmulatedBoard, start: int) -> list[Any]:
    """Frames and bad segments the board sent from byte ``start`` on (host decoder)."""
    from companion.board import protocol as p

    with board._cond:
        data = bytes(board.received[start:])
    return p.Decoder().feed(data)


def wait_replies(board: EmulatedBoard, start: int, count: int, timeout: float = 60.0) -> list[Any]:
    """The first ``count`` frames the board sent from byte ``start`` on, once they are there."""
    from companion.board import protocol as p

    def enough() -> list[Any] | None:
        got = p.Decoder().feed(bytes(board.received[start:]))
        return got[:count] if len(got) >= count else None

    return board.wait_for(enough, f"{count} replies from the board", timeout)


# -- what the strip should show (hardware/FIRMWARE.md "Pixels") --------------------------------


def gamma_table(gamma: float = 2.2) -> bytes:
    """FIRMWARE.md step 1: round(255 (v/255)^gamma), a lit value never below 1."""
    return bytes([0] + [max(1, int(255 * (v / 255) ** gamma + 0.5)) for v in range(1, 256)])


def expected_grb(
    picture: bytes, leds: int = 208, brightness: int = 255, budget_ma: int = 3000
) -> bytes:
    """The WS2812 bytes (GRB) for an RGB picture: gamma, brightness, then the limiter that
    scales every channel by the same k/1024 so sum*20/255 + 1 mA per LED fits the budget."""
    table = gamma_table()
    pic = bytes(picture) + bytes(3 * leds - len(picture))
    rgb = [table[v] * brightness // 255 for v in pic]
    total = sum(rgb)
    if total * 20 // 255 + leds > budget_ma and total > 0:
        k = (max(0, budget_ma - leds) * 255 // 20) * 1024 // total
        rgb = [v * k >> 10 for v in rgb]
    out = bytearray()
    for i in range(0, len(rgb), 3):
        out += bytes((rgb[i + 1], rgb[i], rgb[i + 2]))
    return bytes(out)


def grb_to_rgb(grb: bytes) -> bytes:
    out = bytearray()
    for i in range(0, len(grb), 3):
        out += bytes((grb[i + 1], grb[i], grb[i + 2]))
    return bytes(out)


def game_pictures(seed: int, players: int, limit: int) -> list[bytes]:
    """Consecutive distinct pictures of real games on the default layout (companion.leds)."""
    import random

    from companion.engine import apply, new_game, view
    from companion.leds import animations_from_events, assign_colours, load_layout, render
    from companion.players.random_games import random_command, random_players

    layout = load_layout()
    rng = random.Random(seed)
    out: list[bytes] = []
    now = 0.0
    while len(out) < limit:
        state = new_game(random_players(players))
        colours = assign_colours(list(state["players"]), {}, layout.player_colours)
        while not state["finished"] and len(out) < limit:
            state, events = apply(state, random_command(state, rng))
            now += 0.7
            pic = render(
                view(state, None), layout, colours, now, animations_from_events(events, now)
            )
            if not out or pic != out[-1]:
                out.append(pic)
    return out


# -- the board on a pseudo-terminal, for the host link code -------------------------------------


class PtyBridge:
    """Puts an emulated board behind a real pseudo-terminal, as its USB CDC port appears to the
    host (/dev/ttyACM0): ``path`` is a stable symlink to the pty's slave side, which
    companion.board.link opens with pyserial like a real port."""

    def __init__(self, board: EmulatedBoard, directory: Path) -> None:
        import tty

        self.board = board
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: a USB CDC port is raw bytes
        self.master, self.slave = master, slave
        self.path = str(directory / "usb-MicroPython_Board_in_FS_mode-emulated-if00")
        os.symlink(os.ttyname(slave), self.path)
        self._stop = threading.Event()
        self._sent = len(board.received)  # what the board said before the port opened is gone
        self._threads = [
            threading.Thread(target=self._to_board, daemon=True),
            threading.Thread(target=self._to_host, daemon=True),
        ]
        for t in self._threads:
            t.start()

    def _to_board(self) -> None:
        import select

        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    return
                if data:
                    self.board.write(data)

    def _to_host(self) -> None:
        board = self.board
        while not self._stop.is_set():
            with board._cond:
                if len(board.received) <= self._sent:
                    board._cond.wait(0.1)
                data = bytes(board.received[self._sent :])
            if data:
                self._sent += len(data)
                try:
                    os.write(self.master, data)
                except OSError:
                    return

    def close(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=5)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)
