"""Host side of the board wire format (``hardware/PROTOCOL.md``).

Frames are byte-stuffed between 0xC0 flags; the body is ``type seq len_hi len_lo payload
crc_hi crc_lo`` with CRC-16/CCITT-FALSE (``binascii.crc_hqx`` with 0xFFFF) over type..payload.
The firmware has its own decoder (``firmware/micropython/proto.py``); both must pass
``hardware/protocol_vectors.json``.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from enum import IntEnum
from typing import NotRequired, TypedDict

FLAG = 0xC0
ESC = 0xDB
HEADER = 4
OVERHEAD = 6
MAX_PAYLOAD = 1024
# 2: PICTURE payloads go XOR 0x20 (dim values 1..5 need no escape: a game picture is about 630
#    bytes on the wire instead of about 900), PING may ask for the board's heap figures.
PROTOCOL_VERSION = 2
PICTURE_XOR = 0x20
# Escaped as ESC, b ^ 0x20: the flag, the escape and Ctrl-A..Ctrl-E (REPL control keys).
ESCAPED = frozenset({0x01, 0x02, 0x03, 0x04, 0x05, FLAG, ESC})


class ProtocolError(ValueError):
    """A message that cannot be encoded or a payload that does not parse."""


class MessageType(IntEnum):
    HELLO = 0x01
    VERSION = 0x02
    ACK = 0x06
    NACK = 0x15
    PICTURE = 0x10
    CONFIG = 0x11
    PING = 0x20
    STATUS = 0x21
    STOP = 0x30


class Reason(IntEnum):
    BAD_CRC = 1
    TRUNCATED = 2
    TOO_LARGE = 3
    UNKNOWN_TYPE = 4
    BAD_PAYLOAD = 5
    BAD_ESCAPE = 6
    BAD_LENGTH = 7
    UNEXPECTED = 8


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    return binascii.crc_hqx(data, 0xFFFF)


def stuff(body: bytes) -> bytes:
    """Escapes the bytes of a frame body (without flags)."""
    out = bytearray()
    for b in body:
        if b in ESCAPED:
            out += bytes((ESC, b ^ 0x20))
        else:
            out.append(b)
    return bytes(out)


def encode(mtype: int, seq: int, payload: bytes = b"") -> bytes:
    """The wire bytes of one frame, flags included."""
    if not 0 <= mtype <= 0xFF:
        raise ProtocolError(f"message type must be a byte, got {mtype}")
    if not 0 <= seq <= 0xFF:
        raise ProtocolError(f"sequence number must be 0..255, got {seq}")
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD} limit")
    body = bytes((mtype, seq, len(payload) >> 8, len(payload) & 0xFF)) + bytes(payload)
    body += crc16(body).to_bytes(2, "big")
    return bytes((FLAG,)) + stuff(body) + bytes((FLAG,))


@dataclass(frozen=True)
class Frame:
    """A frame that passed every check."""

    type: int
    seq: int
    payload: bytes


@dataclass(frozen=True)
class BadFrame:
    """A segment between flags that failed a check; ``seq`` is trusted only for unknown_type."""

    reason: Reason
    seq: int = 0
    type: int = 0


class Decoder:
    """Stream decoder: ``feed(data)`` returns the frames and bad segments completed by data."""

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self.max_payload = max_payload
        self._buf = bytearray()
        self._hunting = True  # bytes before the first flag are noise (boot banner, REPL text)
        self._escaped = False
        self._bad_escape = False
        self._overflow = False
        self.noise_bytes = 0

    def _reset(self) -> None:
        self._buf.clear()
        self._escaped = self._bad_escape = self._overflow = False

    def feed(self, data: bytes) -> list[Frame | BadFrame]:
        events: list[Frame | BadFrame] = []
        limit = OVERHEAD + self.max_payload
        for b in data:
            if b == FLAG:
                if self._hunting:
                    self._hunting = False
                else:
                    event = self._finish()
                    if event is not None:
                        events.append(event)
                self._reset()
                continue
            if self._hunting:
                self.noise_bytes += 1
                continue
            if self._escaped:
                self._escaped = False
                b ^= 0x20
                if b not in ESCAPED:
                    self._bad_escape = True
            elif b == ESC:
                self._escaped = True
                continue
            if len(self._buf) < limit:
                self._buf.append(b)
            else:
                self._overflow = True
        return events

    def _finish(self) -> Frame | BadFrame | None:
        buf = self._buf
        if not buf and not (self._overflow or self._bad_escape or self._escaped):
            return None  # FLAG FLAG: the closing flag of one frame, the opening of the next
        if self._bad_escape or self._escaped:
            return BadFrame(Reason.BAD_ESCAPE)
        if self._overflow:
            return BadFrame(Reason.TOO_LARGE)
        if len(buf) < OVERHEAD:
            return BadFrame(Reason.TRUNCATED)
        length = int.from_bytes(buf[2:4], "big")
        if length > self.max_payload:
            return BadFrame(Reason.TOO_LARGE)
        if len(buf) - OVERHEAD < length:
            return BadFrame(Reason.TRUNCATED)
        if len(buf) - OVERHEAD > length:
            return BadFrame(Reason.BAD_LENGTH)
        end = HEADER + length
        if crc16(bytes(buf[:end])) != int.from_bytes(buf[end : end + 2], "big"):
            return BadFrame(Reason.BAD_CRC)
        if buf[0] not in MessageType._value2member_map_:
            return BadFrame(Reason.UNKNOWN_TYPE, seq=buf[1], type=buf[0])
        return Frame(buf[0], buf[1], bytes(buf[HEADER:end]))


# -- payloads ------------------------------------------------------------------------------


def hello_payload(version: int = PROTOCOL_VERSION) -> bytes:
    return bytes((version,))


def picture_payload(rgb: bytes) -> bytes:
    """PICTURE payload of an RGB picture: every byte XOR 0x20 (PROTOCOL.md section 4), so the
    dim values 1..5 common in game pictures never need an escape on the wire."""
    return bytes(b ^ PICTURE_XOR for b in rgb)


def picture_from_payload(payload: bytes) -> bytes:
    """The RGB picture a PICTURE payload carries."""
    return bytes(b ^ PICTURE_XOR for b in payload)


def config_payload(brightness: float, milliamp_budget: int) -> bytes:
    """CONFIG: brightness 0..1 (sent as 0..255) and the limiter budget in mA (100..65535)."""
    if not 0.0 <= brightness <= 1.0:
        raise ProtocolError(f"brightness must be between 0 and 1, got {brightness}")
    if not 100 <= int(milliamp_budget) <= 0xFFFF:
        raise ProtocolError(f"milliamp budget must be 100..65535 mA, got {milliamp_budget}")
    return bytes((round(brightness * 255),)) + int(milliamp_budget).to_bytes(2, "big")


@dataclass(frozen=True)
class Version:
    protocol: int
    led_count: int
    max_payload: int
    firmware: str


def parse_version(payload: bytes) -> Version:
    if len(payload) < 5:
        raise ProtocolError(f"VERSION payload too short ({len(payload)} bytes)")
    return Version(
        payload[0],
        int.from_bytes(payload[1:3], "big"),
        int.from_bytes(payload[3:5], "big"),
        payload[5:].decode("ascii", errors="replace"),
    )


class BoardReport(TypedDict):
    """A STATUS payload's fields (``hardware/PROTOCOL.md`` section 4)."""

    frames: int  # pictures shown
    errors: int
    milliamps: int  # estimated current of the shown picture
    limited: bool  # the limiter dimmed it
    brightness: int  # 0..255
    budget_ma: int
    host_lost: bool  # the host-lost pattern is on
    heap_used: NotRequired[int]  # bytes, only when the PING asked for them
    heap_free: NotRequired[int]


def parse_status(payload: bytes) -> BoardReport:
    """STATUS fields; ``heap_used``/``heap_free`` (bytes) when the PING asked for them."""
    if len(payload) < 15:
        raise ProtocolError(f"STATUS payload too short ({len(payload)} bytes)")
    out: BoardReport = {
        "frames": int.from_bytes(payload[0:4], "big"),
        "errors": int.from_bytes(payload[4:8], "big"),
        "milliamps": int.from_bytes(payload[8:10], "big"),
        "limited": bool(payload[10]),
        "brightness": payload[11],
        "budget_ma": int.from_bytes(payload[12:14], "big"),
        "host_lost": bool(payload[14]),
    }
    if len(payload) >= 23:
        out["heap_used"] = int.from_bytes(payload[15:19], "big")
        out["heap_free"] = int.from_bytes(payload[19:23], "big")
    return out


def parse_nack(payload: bytes) -> tuple[int, int]:
    """(reason code, message type) of a NACK."""
    if len(payload) < 2:
        raise ProtocolError(f"NACK payload too short ({len(payload)} bytes)")
    return payload[0], payload[1]


def reason_name(code: int) -> str:
    try:
        return Reason(code).name.lower()
    except ValueError:
        return f"reason {code}"


def type_name(code: int) -> str:
    try:
        return MessageType(code).name
    except ValueError:
        return f"0x{code:02x}"
