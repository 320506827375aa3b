"""Host side of the LED board wire protocol (hardware/PROTOCOL.md).

Frames are HDLC-like: ``FLAG escape(body) FLAG`` where the body is
``MAGIC TYPE SEQ LEN(2) PAYLOAD CRC16(2)``. Control bytes are escaped so a frame never carries
Ctrl-C or a line ending and never disturbs the MicroPython REPL; the magic byte 0xC1 is never
valid UTF-8, so REPL text is never taken for a frame. The board's firmware has its own
byte-at-a-time decoder (firmware/micropython/fw_wire.py); both pass
hardware/protocol_vectors.json.
"""

from __future__ import annotations

import binascii
import enum
import struct
from dataclasses import dataclass

FLAG = 0x7E
ESC = 0x7D
ESC_XOR = 0x20
MAGIC = 0xC1
HEADER = 5
TRAILER = 2
MAX_PAYLOAD = 1024
MAX_BODY = HEADER + MAX_PAYLOAD + TRAILER
PROTOCOL_VERSION = 1

ENC_RAW = 0
ENC_PALETTE_RLE = 1


class MsgType(enum.IntEnum):
    """Host -> board below 0x80, board -> host from 0x80."""

    HELLO = 0x01
    PICTURE = 0x02
    CONFIG = 0x03
    PING = 0x04
    STATUS_REQ = 0x05
    ACK = 0x80
    NACK = 0x81
    VERSION = 0x82
    STATUS = 0x83


class Reason(enum.IntEnum):
    """Why a frame was refused (NACK payload and decoder errors)."""

    BAD_CRC = 1
    TRUNCATED = 2
    BAD_LENGTH = 3
    OVERSIZE = 4
    BAD_BYTE = 5
    UNKNOWN_TYPE = 6
    BAD_PAYLOAD = 7
    UNSUPPORTED_VERSION = 8


class ProtocolError(ValueError):
    """A message cannot be encoded or a payload cannot be decoded; says why."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF).

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def _escape(body: bytes) -> bytes:
    out = bytearray()
    for b in body:
        if b < 0x20 or b in (ESC, FLAG):
            out += bytes((ESC, b ^ ESC_XOR))
        else:
            out.append(b)
    return bytes(out)


def encode_frame(msg_type: int, seq: int, payload: bytes = b"") -> bytes:
    """Wire bytes of one frame, with opening and closing flags.

    >>> encode_frame(MsgType.PING, 1).hex(" ")
    '7e c1 7d 24 7d 21 7d 20 7d 20 75 24 7e'
    """
    if not 0 <= seq <= 0xFF:
        raise ProtocolError(f"sequence number {seq} is outside 0..255")
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD} limit")
    body = bytes((MAGIC, int(msg_type), seq)) + struct.pack(">H", len(payload)) + payload
    body += struct.pack(">H", crc16(body))
    return bytes((FLAG,)) + _escape(body) + bytes((FLAG,))


@dataclass(frozen=True)
class Frame:
    """A good frame: type, sequence number and raw payload."""

    type: int
    seq: int
    payload: bytes


@dataclass(frozen=True)
class FrameError:
    """A damaged frame; seq and type are 0 when it was too short to carry them."""

    reason: Reason
    seq: int
    type: int


class FrameDecoder:
    """Stream deframer: feed bytes as they arrive, get good frames and damaged-frame errors.

    Bytes outside frames (REPL output, noise) are only counted in ``garbage``.
    """

    def __init__(self) -> None:
        self.garbage = 0
        self._state = 0  # 0 hunting, 1 after a flag, 2 inside a frame
        self._body = bytearray()
        self._esc = False
        self._over = False

    def _open(self) -> None:
        self._state = 1
        self._body = bytearray()
        self._esc = False
        self._over = False

    def _error(self, reason: Reason) -> FrameError:
        b = self._body
        return FrameError(reason, b[2] if len(b) > 2 else 0, b[1] if len(b) > 1 else 0)

    def _close(self) -> Frame | FrameError:
        b = bytes(self._body)
        if self._over:
            return self._error(Reason.OVERSIZE)
        if len(b) < HEADER + TRAILER:
            return self._error(Reason.TRUNCATED)
        declared = struct.unpack_from(">H", b, 3)[0]
        if declared > MAX_PAYLOAD:
            return self._error(Reason.OVERSIZE)
        actual = len(b) - HEADER - TRAILER
        if actual < declared:
            return self._error(Reason.TRUNCATED)
        if actual > declared:
            return self._error(Reason.BAD_LENGTH)
        if crc16(b) != 0:
            return self._error(Reason.BAD_CRC)
        return Frame(b[1], b[2], b[HEADER : HEADER + declared])

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        out: list[Frame | FrameError] = []
        for byte in data:
            if self._state == 0:
                if byte == FLAG:
                    self._open()
                else:
                    self.garbage += 1
                continue
            if self._state == 1:
                if byte == FLAG:
                    continue
                if byte != MAGIC:
                    self.garbage += 1
                    self._state = 0
                    continue
                self._state = 2
            if byte == FLAG:
                out.append(self._error(Reason.BAD_BYTE) if self._esc else self._close())
                self._open()
            elif byte < 0x20:
                out.append(self._error(Reason.BAD_BYTE))
                self._state = 0
            elif byte == ESC:
                self._esc = True
            else:
                if self._esc:
                    byte ^= ESC_XOR
                    self._esc = False
                if len(self._body) >= MAX_BODY:
                    self._over = True
                else:
                    self._body.append(byte)
        return out


# -- payloads ---------------------------------------------------------------------------------


def encode_hello(version: int = PROTOCOL_VERSION) -> bytes:
    return bytes((version,))


def _check_pixels(pixels: bytes) -> int:
    if len(pixels) % 3:
        raise ProtocolError(f"pixel buffer of {len(pixels)} bytes is not whole RGB triples")
    count = len(pixels) // 3
    if count > 0xFFFF:
        raise ProtocolError(f"{count} LEDs is more than a picture can address")
    return count


def encode_picture_raw(pixels: bytes) -> bytes:
    count = _check_pixels(pixels)
    return struct.pack(">BH", ENC_RAW, count) + bytes(pixels)


def encode_picture_rle(pixels: bytes) -> bytes | None:
    """Palette + run-length encoding, or None when the picture has over 255 colours."""
    count = _check_pixels(pixels)
    palette: dict[bytes, int] = {}
    runs = bytearray()
    prev, run = -1, 0
    for i in range(count):
        colour = bytes(pixels[3 * i : 3 * i + 3])
        idx = palette.setdefault(colour, len(palette))
        if idx > 254:
            return None
        if idx == prev and run < 255:
            run += 1
            continue
        if run:
            runs += bytes((prev, run))
        prev, run = idx, 1
    if run:
        runs += bytes((prev, run))
    if not palette:
        palette[b"\x00\x00\x00"] = 0
    return (
        struct.pack(">BHB", ENC_PALETTE_RLE, count, len(palette)) + b"".join(palette) + bytes(runs)
    )


def encode_picture(pixels: bytes) -> bytes:
    """The smaller of the raw and palette-RLE encodings; a whole picture, always idempotent."""
    raw = encode_picture_raw(pixels)
    rle = encode_picture_rle(pixels)
    best = rle if rle is not None and len(rle) < len(raw) else raw
    if len(best) > MAX_PAYLOAD:
        raise ProtocolError(
            f"picture of {len(pixels) // 3} LEDs needs {len(best)} bytes, over {MAX_PAYLOAD}"
        )
    return best


def decode_picture(payload: bytes) -> bytes:
    """RGB bytes of a PICTURE payload; raises ProtocolError naming what is wrong."""
    if len(payload) < 3:
        raise ProtocolError("picture payload shorter than its 3-byte header")
    enc, count = struct.unpack_from(">BH", payload)
    body = payload[3:]
    if enc == ENC_RAW:
        if len(body) != 3 * count:
            raise ProtocolError(f"raw picture has {len(body)} bytes for {count} LEDs")
        return bytes(body)
    if enc != ENC_PALETTE_RLE:
        raise ProtocolError(f"unknown picture encoding {enc}")
    if not body:
        raise ProtocolError("palette picture without a palette")
    ncol = body[0]
    pal_end = 1 + 3 * ncol
    if ncol == 0 or len(body) < pal_end or (len(body) - pal_end) % 2:
        raise ProtocolError("palette picture with a bad palette or half a run")
    palette = [body[1 + 3 * i : 4 + 3 * i] for i in range(ncol)]
    out = bytearray()
    for i in range(pal_end, len(body), 2):
        idx, run = body[i], body[i + 1]
        if idx >= ncol or run == 0:
            raise ProtocolError(f"run of {run} with colour {idx} of a {ncol}-colour palette")
        out += palette[idx] * run
    if len(out) != 3 * count:
        raise ProtocolError(f"runs cover {len(out) // 3} LEDs, header says {count}")
    return bytes(out)


@dataclass(frozen=True)
class BoardConfig:
    """Brightness cap (0-255), milliamp budget, mA per channel at full, host-lost timeout."""

    brightness: int = 64
    milliamp_budget: int = 1500
    channel_ma: int = 20
    host_lost_ms: int = 3000

    def __post_init__(self) -> None:
        if not 0 <= self.brightness <= 255:
            raise ProtocolError(f"brightness {self.brightness} is outside 0..255")
        if not 100 <= self.milliamp_budget <= 0xFFFF:
            raise ProtocolError(f"milliamp budget {self.milliamp_budget} is outside 100..65535")
        if not 1 <= self.channel_ma <= 255:
            raise ProtocolError(f"channel current {self.channel_ma} mA is outside 1..255")
        if not 500 <= self.host_lost_ms <= 0xFFFF:
            raise ProtocolError(f"host-lost timeout {self.host_lost_ms} ms is outside 500..65535")

    def encode(self) -> bytes:
        return struct.pack(
            ">BHBH", self.brightness, self.milliamp_budget, self.channel_ma, self.host_lost_ms
        )

    @classmethod
    def decode(cls, payload: bytes) -> BoardConfig:
        if len(payload) != 6:
            raise ProtocolError(f"config payload is {len(payload)} bytes, expected 6")
        return cls(*struct.unpack(">BHBH", payload))


@dataclass(frozen=True)
class VersionInfo:
    """The board's VERSION message: sent on boot (reason 0) and in reply to HELLO (reason 1)."""

    protocol: int
    firmware: str
    led_count: int
    max_payload: int
    boot_id: int
    reason: int
    name: str

    @classmethod
    def decode(cls, payload: bytes) -> VersionInfo:
        if len(payload) < 11:
            raise ProtocolError(f"version payload is {len(payload)} bytes, expected 11 or more")
        proto, ma, mi, pa, leds, maxp, boot, reason = struct.unpack_from(">BBBBHHHB", payload)
        name = payload[11:].decode("ascii", "replace")
        return cls(proto, f"{ma}.{mi}.{pa}", leds, maxp, boot, reason, name)

    def encode(self) -> bytes:
        ma, mi, pa = (int(x) for x in self.firmware.split("."))
        return struct.pack(
            ">BBBBHHHB", self.protocol, ma, mi, pa, self.led_count, self.max_payload,
            self.boot_id, self.reason,
        ) + self.name.encode("ascii")[:16]


@dataclass(frozen=True)
class BoardStatus:
    """The board's STATUS reply: counters, current estimate and limiter scale."""

    frames_ok: int
    frames_bad: int
    garbage: int
    estimated_ma: int
    scale: int
    state: int
    uptime_s: int
    last_seq: int

    @classmethod
    def decode(cls, payload: bytes) -> BoardStatus:
        if len(payload) != 15:
            raise ProtocolError(f"status payload is {len(payload)} bytes, expected 15")
        return cls(*struct.unpack(">HHHHBBIB", payload))


def decode_ack(payload: bytes) -> int:
    """The message type an ACK acknowledges (its sequence number is in the frame header)."""
    if len(payload) != 1:
        raise ProtocolError(f"ack payload is {len(payload)} bytes, expected 1")
    return payload[0]


def decode_nack(payload: bytes) -> tuple[int, Reason]:
    """(refused message type, reason) of a NACK."""
    if len(payload) != 2:
        raise ProtocolError(f"nack payload is {len(payload)} bytes, expected 2")
    try:
        return payload[0], Reason(payload[1])
    except ValueError:
        raise ProtocolError(f"nack with unknown reason {payload[1]}") from None
