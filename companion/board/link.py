"""The host link to one table's LED board over USB serial (``hardware/PROTOCOL.md``).

Never blocks the game: :meth:`BoardLink.show` only stores the latest picture and wakes a
background thread, which owns the port. The thread finds the board by a stable id, shakes
hands (HELLO/VERSION), sends CONFIG and the picture, resends when an ACK is missing, sends a
heartbeat, and survives unplugging, replugging and board reboots: whenever the board comes
back it gets the current picture again (pictures are idempotent, so resending is safe).
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

import serial
from serial.tools import list_ports

from companion.board import protocol as p
from companion.table.board_status import LinkState

log = logging.getLogger(__name__)

T = p.MessageType
# No ACK this long after a frame: send the latest picture again. Derived from the firmware's
# measured worst answer, 14.5 ms emulated at 125 MHz (a picture arriving during the previous
# picture's 6.2 ms strip write; benchmarks/bench_board_emulated.py): x3 for real XIP flash
# (cache misses), plus 20 ms for USB frames and host scheduling = about 64 ms, rounded up.
ACK_TIMEOUT_S = 0.1
HELLO_EVERY_S = 0.5  # handshake retry
HEARTBEAT_S = 1.0  # PING when nothing else was sent (the board's host-lost is 3 s)
SILENCE_S = 2.5  # nothing valid heard this long: the board is gone, shake hands again
REOPEN_EVERY_S = 0.2  # look for the port again this often (the board back within 1 s)
# Reasons after which resending the same bytes cannot help.
REFUSALS = {p.Reason.BAD_PAYLOAD, p.Reason.UNEXPECTED, p.Reason.UNKNOWN_TYPE}


# The link's counters, as status() reports them.
Count = Literal[
    "frames_sent",
    "frames_acked",
    "frames_resent",
    "nacks",
    "handshakes",
    "board_boots",
    "bad_frames",
]


class LinkCounts(TypedDict):
    frames_sent: int
    frames_acked: int
    frames_resent: int
    nacks: int
    handshakes: int
    board_boots: int
    bad_frames: int


class LinkStatus(LinkCounts):
    """:meth:`BoardLink.status`: the link's state, the board's VERSION, the counters and the
    board's last STATUS."""

    state: LinkState
    port: str
    device: str | None
    firmware: str | None
    version: int | None
    led_count: int | None
    last_error: str | None
    last_ack_age: float | None  # seconds since the last picture's ACK
    board: p.BoardReport | None


class LinkError(ValueError):
    """A port that cannot be used: bad port id, no such device, wrong picture size."""


def resolve_port(port: str) -> str:
    """Device path for a port id: a path (``/dev/serial/by-id/...``) or ``usb:VID:PID[:SERIAL]``."""
    if port.startswith("usb:"):
        parts = port.split(":")
        if len(parts) not in (3, 4):
            raise LinkError(f"port {port!r}: expected usb:VID:PID or usb:VID:PID:SERIAL (hex ids)")
        try:
            vid, pid = int(parts[1], 16), int(parts[2], 16)
        except ValueError:
            raise LinkError(f"port {port!r}: VID and PID must be hexadecimal") from None
        serial_no = parts[3] if len(parts) == 4 else None
        for info in list_ports.comports():
            if (
                info.vid == vid
                and info.pid == pid
                and (serial_no is None or info.serial_number == serial_no)
            ):
                device: str = info.device
                return device
        raise LinkError(f"no USB serial device {port[4:]} plugged in")
    if not os.path.exists(port):
        raise LinkError(f"serial port {port} is not there (board unplugged?)")
    return port


@dataclass
class _Outstanding:
    seq: int
    type: int
    sent: float
    generation: int = -1


class BoardLink:
    """One table's board link; ``start()`` it once, ``show()`` pictures, ``stop()`` at the end."""

    def __init__(
        self,
        port: str,
        led_count: int,
        *,
        brightness: float = 1.0,
        milliamp_budget: int = 3000,
        simulated: bool = False,
        ack_timeout: float = ACK_TIMEOUT_S,
        heartbeat: float = HEARTBEAT_S,
        silence: float = SILENCE_S,
    ) -> None:
        if not isinstance(port, str) or not port:
            raise LinkError("a board port is a device path or usb:VID:PID[:SERIAL]")
        if led_count <= 0 or 3 * led_count > p.MAX_PAYLOAD:
            raise LinkError(f"{led_count} LEDs do not fit a frame (at most {p.MAX_PAYLOAD // 3})")
        self.port = port
        self.led_count = led_count
        self.config_payload = p.config_payload(brightness, milliamp_budget)
        self.simulated = simulated
        self.ack_timeout = ack_timeout
        self.heartbeat = heartbeat
        self.silence = silence
        self._lock = threading.Condition()
        self._picture: bytes | None = None
        self._generation = 0
        self._acked_generation = 0
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._thread = threading.Thread(target=self._run, name=f"board-link {port}", daemon=True)
        # Owned by the link thread:
        self._ser: serial.Serial | None = None
        self._decoder = p.Decoder()
        self._seq = 0
        self._outstanding: _Outstanding | None = None
        self._ready = False
        self._config_needed = True
        self._board_generation = -1  # picture generation the board holds
        self._sent_generation = -1  # last picture generation written to the port
        self._last_hello = 0.0
        self._last_sent = 0.0
        self._last_heard = 0.0
        # Reported by status():
        self._state: LinkState = "searching"
        self._device: str | None = None
        self._version: p.Version | None = None
        self._last_error: str | None = None
        self._last_ack: float | None = None
        self._board_status: p.BoardReport | None = None
        self._counts: LinkCounts = {
            "frames_sent": 0,
            "frames_acked": 0,
            "frames_resent": 0,
            "nacks": 0,
            "handshakes": 0,
            "board_boots": 0,
            "bad_frames": 0,
        }

    # -- caller side (never blocks) ---------------------------------------------------------
    def start(self) -> BoardLink:
        self._thread.start()
        return self

    def show(self, pixels: bytes) -> int:
        """Stores the picture to show (latest wins) and returns its generation number."""
        if len(pixels) != 3 * self.led_count:
            raise LinkError(
                f"a picture of {self.led_count} LEDs has {3 * self.led_count} "
                f"bytes, got {len(pixels)}"
            )
        with self._lock:
            if pixels != self._picture:
                self._picture = bytes(pixels)
                self._generation += 1
            generation = self._generation
        self._wake()
        return generation

    def wait_shown(self, generation: int, timeout: float) -> bool:
        """Waits until the board acknowledged picture ``generation`` (or a newer one)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._acked_generation >= generation, timeout)

    def status(self) -> LinkStatus:
        with self._lock:
            state = self._state
            if state == "connected" and self.simulated:
                state = "simulated"
            version = self._version
            return {
                "state": state,
                "port": self.port,
                "device": self._device,
                "firmware": version.firmware if version else None,
                "version": version.protocol if version else None,
                "led_count": version.led_count if version else None,
                **self._counts,
                "last_error": self._last_error,
                "last_ack_age": (
                    round(time.monotonic() - self._last_ack, 3)
                    if self._last_ack is not None
                    else None
                ),
                "board": self._board_status.copy() if self._board_status else None,
            }

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread.is_alive():
            self._thread.join(timeout=3)
        self._close(None)
        wake_r, wake_w = self._wake_r, self._wake_w
        self._wake_r = self._wake_w = -1  # never write into a reused descriptor
        for fd in (wake_r, wake_w):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def _wake(self) -> None:
        fd = self._wake_w
        if fd >= 0:
            with contextlib.suppress(BlockingIOError, OSError):
                os.write(fd, b"\0")

    # -- link thread ----------------------------------------------------------------------
    def _set(self, **fields: Any) -> None:
        with self._lock:
            for key, value in fields.items():
                setattr(self, f"_{key}", value)

    def _count(self, key: Count) -> None:
        with self._lock:
            self._counts[key] += 1

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._ser is None:
                if not self._open():
                    self._stop.wait(REOPEN_EVERY_S)
                continue
            try:
                self._service()
            except (serial.SerialException, OSError) as exc:
                self._close(f"board disconnected: {exc}")
            except Exception as exc:  # noqa: BLE001 - the link must outlive any bug
                log.exception("board link %s", self.port)
                self._close(f"link error: {exc!r}")

    def _open(self) -> bool:
        try:
            device = resolve_port(self.port)
            ser = serial.Serial(device, 115200, timeout=0, write_timeout=1, exclusive=True)
        except (LinkError, serial.SerialException, OSError) as exc:
            self._set(state="searching", last_error=str(exc))
            return False
        with contextlib.suppress(serial.SerialException, OSError):
            ser.reset_input_buffer()
        self._ser = ser
        self._decoder = p.Decoder()
        self._outstanding = None
        self._ready = False
        self._config_needed = True
        self._board_generation = -1
        self._sent_generation = -1
        self._last_hello = 0.0
        self._last_heard = time.monotonic()
        self._set(device=device, state="searching", last_error=None)
        log.info("board link %s: opened %s", self.port, device)
        return True

    def _close(self, error: str | None) -> None:
        ser, self._ser = self._ser, None
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()
        self._ready = False
        self._outstanding = None
        if error is not None:
            log.info("board link %s: %s", self.port, error)
            self._set(state="searching", last_error=error, device=None)

    def _next_seq(self) -> int:
        self._seq = self._seq % 255 + 1  # 1..255; 0 is the board's "not an answer"
        return self._seq

    def _send(self, mtype: int, payload: bytes = b"", generation: int = -1) -> None:
        assert self._ser is not None
        seq = self._next_seq()
        self._ser.write(p.encode(mtype, seq, payload))
        now = time.monotonic()
        self._last_sent = now
        if mtype != T.HELLO:
            self._outstanding = _Outstanding(seq, mtype, now, generation)

    def _service(self) -> None:
        assert self._ser is not None
        ready, _, _ = select.select([self._ser.fileno(), self._wake_r], [], [], self._timeout())
        if self._wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake_r, 4096)
        if self._ser.fileno() in ready:
            data = self._ser.read(self._ser.in_waiting or 1)
            for event in self._decoder.feed(data):
                self._receive(event)
        self._pump(time.monotonic())

    def _timeout(self) -> float:
        if self._outstanding is not None:
            left = self._outstanding.sent + self.ack_timeout - time.monotonic()
            return max(0.0, min(left, 0.1))
        return 0.1

    def _receive(self, event: p.Frame | p.BadFrame) -> None:
        now = time.monotonic()
        if isinstance(event, p.BadFrame):
            self._count("bad_frames")  # line noise or a REPL message; resends cover it
            return
        self._last_heard = now
        out = self._outstanding
        answered = out is not None and event.seq == out.seq
        if event.type == T.VERSION:
            self._on_version(event)
        elif event.type == T.ACK and answered:
            assert out is not None
            self._outstanding = None
            if out.type == T.PICTURE:
                self._board_generation = out.generation
                with self._lock:
                    self._counts["frames_acked"] += 1
                    self._last_ack = now
                    self._acked_generation = max(self._acked_generation, out.generation)
                    self._lock.notify_all()
            elif out.type == T.CONFIG:
                self._config_needed = False
        elif event.type == T.NACK and (answered or event.seq == 0):
            self._on_nack(event)
        elif event.type == T.STATUS:
            with contextlib.suppress(p.ProtocolError):
                self._set(board_status=p.parse_status(event.payload))
            if answered:
                self._outstanding = None

    def _on_version(self, event: p.Frame) -> None:
        try:
            version = p.parse_version(event.payload)
        except p.ProtocolError as exc:
            self._set(state="error", last_error=f"bad VERSION from the board: {exc}")
            return
        if event.seq == 0 and self._ready:
            self._count("board_boots")  # the board rebooted: config and picture again
        self._set(version=version)
        if version.protocol != p.PROTOCOL_VERSION:
            self._ready = False
            self._set(
                state="error",
                last_error=(
                    f"board firmware speaks protocol {version.protocol}, this companion speaks "
                    f"{p.PROTOCOL_VERSION}: update it with `companion flash`"
                ),
            )
            return
        if version.led_count < self.led_count:
            self._ready = False
            self._set(
                state="error",
                last_error=(
                    f"board firmware drives {version.led_count} LEDs, the layout has "
                    f"{self.led_count}: set LED_COUNT in firmware/micropython/config.py"
                ),
            )
            return
        if not self._ready or event.seq == 0:
            self._count("handshakes")
        self._ready = True
        self._config_needed = True
        self._board_generation = -1
        self._outstanding = None
        self._set(state="connected", last_error=None)

    def _on_nack(self, event: p.Frame) -> None:
        self._count("nacks")
        reason, mtype = p.parse_nack(event.payload) if len(event.payload) >= 2 else (0, 0)
        out, self._outstanding = self._outstanding, None
        if out is None:
            return
        if reason in REFUSALS:
            # Sending the same bytes again would be refused again.
            what = p.type_name(out.type)
            self._set(last_error=f"board refused {what}: {p.reason_name(reason)}")
            if out.type == T.CONFIG:
                self._config_needed = False
            elif out.type == T.PICTURE:
                self._board_generation = out.generation
        # Otherwise (bad_crc, truncated, ...) _pump sends again at once.

    def _pump(self, now: float) -> None:
        """Sends whatever is due: handshake, CONFIG, the latest picture, a resend, a PING."""
        if now - self._last_heard > self.silence and self._ready:
            self._ready = False
            self._outstanding = None
            self._set(state="searching", last_error="board not answering")
        if not self._ready:
            if now - self._last_hello >= HELLO_EVERY_S:
                self._last_hello = now
                self._send(T.HELLO, p.hello_payload())
            return
        out = self._outstanding
        if out is not None:
            if now - out.sent < self.ack_timeout:
                return  # stop-and-wait: one frame in flight
            self._outstanding = None  # no answer in time: fall through and send again
        if self._config_needed:
            self._send(T.CONFIG, self.config_payload)
            return
        with self._lock:
            picture, generation = self._picture, self._generation
        if picture is not None and generation != self._board_generation:
            resend = generation == self._sent_generation
            self._send(T.PICTURE, p.picture_payload(picture), generation)
            self._sent_generation = generation
            self._count("frames_resent" if resend else "frames_sent")
            return
        if now - self._last_sent >= self.heartbeat:
            self._send(T.PING)
