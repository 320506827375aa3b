"""Builds hardware/protocol_vectors.json from first principles.

Deliberately independent of both decoders under test: the CRC is computed bit by bit and the
escaping is spelled out here, so a shared mistake in companion/board/protocol.py and
firmware/micropython/fw_wire.py cannot hide. Run from the repository root:

    .venv/bin/python tests/board/make_vectors.py > hardware/protocol_vectors.json
"""

from __future__ import annotations

import json
import sys

FLAG, ESC, MAGIC = 0x7E, 0x7D, 0xC1
NAMES = {0x01: "HELLO", 0x02: "PICTURE", 0x03: "CONFIG", 0x04: "PING", 0x05: "STATUS_REQ",
         0x80: "ACK", 0x81: "NACK", 0x82: "VERSION", 0x83: "STATUS"}
REASONS = {1: "BAD_CRC", 2: "TRUNCATED", 3: "BAD_LENGTH", 4: "OVERSIZE", 5: "BAD_BYTE",
           6: "UNKNOWN_TYPE", 7: "BAD_PAYLOAD", 8: "UNSUPPORTED_VERSION"}
CODES = {v: k for k, v in REASONS.items()}
BOARD = {"led_count": 8, "boot_id": 0x1234, "name": "test", "firmware": "1.0.0"}


def crc16_bitwise(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def body(t: int, seq: int, payload: bytes, *, length: int | None = None) -> bytes:
    n = len(payload) if length is None else length
    b = bytes([MAGIC, t, seq, n >> 8, n & 0xFF]) + payload
    c = crc16_bitwise(b)
    return b + bytes([c >> 8, c & 0xFF])


def escape(b: bytes) -> bytes:
    out = bytearray()
    for x in b:
        if x < 0x20 or x in (ESC, FLAG):
            out += bytes([ESC, x ^ 0x20])
        else:
            out.append(x)
    return bytes(out)


def wire(t: int, seq: int, payload: bytes = b"", **kw) -> bytes:
    return bytes([FLAG]) + escape(body(t, seq, payload, **kw)) + bytes([FLAG])


def bad_crc(t: int, seq: int, payload: bytes = b"") -> bytes:
    b = body(t, seq, payload)
    return bytes([FLAG]) + escape(b[:-1] + bytes([b[-1] ^ 0x01])) + bytes([FLAG])


REPL_TEXT = b"Traceback (most recent call last):\r\n>>> "


def frame(t: int, seq: int, payload: bytes = b"") -> dict:
    return {"type": t, "type_name": NAMES.get(t, "UNKNOWN"), "seq": seq, "payload": payload.hex()}


def error(reason: str, seq: int = 0, t: int = 0) -> dict:
    return {"error": reason, "seq": seq, "type": t}


def ack(seq: int, t: int) -> dict:
    return frame(0x80, seq, bytes([t]))


def nack(seq: int, t: int, reason: str) -> dict:
    return frame(0x81, seq, bytes([t, CODES[reason]]))


def version(seq: int, reason: int) -> bytes:
    return bytes([1, 1, 0, 0, 0, BOARD["led_count"], 0x04, 0x00, 0x12, 0x34, reason]) + b"test"


def case(name, meaning, data, frames, garbage=0, replies=None, pixels=None, direction="h2b"):
    c = {"name": name, "meaning": meaning,
         "direction": "host_to_board" if direction == "h2b" else "board_to_host",
         "wire": data.hex(), "frames": frames, "garbage": garbage}
    if replies is not None:
        c["replies"] = replies
    if pixels is not None:
        c["pixels"] = pixels.hex()
    return c


def build() -> dict:
    # A picture whose bytes need escaping (FLAG, ESC, Ctrl-C, NUL, LF) in raw form.
    raw_pixels = bytes([0x7E, 0x7D, 0x03, 0x00, 0x0A, 0xFF, 0x10, 0x20, 0x30] + [0] * 15)
    raw_payload = bytes([0, 0, 8]) + raw_pixels
    red, green = bytes([255, 0, 0]), bytes([0, 160, 60])
    rle_pixels = red * 3 + green * 4 + red
    rle_payload = bytes([1, 0, 8, 2]) + red + green + bytes([0, 3, 1, 4, 0, 1])
    short_payload = bytes([1, 0, 4, 1, 0, 0, 255, 0, 4])  # 4 blue LEDs of 8
    short_pixels = bytes([0, 0, 255]) * 4 + bytes(12)
    ping = wire(0x04, 9)
    cases = [
        case("hello", "HELLO protocol 1; the board answers VERSION with its boot id",
             wire(0x01, 1, b"\x01"), [frame(0x01, 1, b"\x01")],
             replies=[frame(0x82, 1, version(1, 1))]),
        case("hello_unsupported", "HELLO for protocol 2 is refused",
             wire(0x01, 2, b"\x02"), [frame(0x01, 2, b"\x02")],
             replies=[nack(2, 0x01, "UNSUPPORTED_VERSION")]),
        case("ping_seq_needs_escape", "PING with sequence number 0x7E (escaped as 7D 5E)",
             wire(0x04, 0x7E), [frame(0x04, 0x7E)], replies=[ack(0x7E, 0x04)]),
        case("picture_raw", "raw picture of 8 LEDs whose bytes include FLAG, ESC, ^C, NUL, LF",
             wire(0x02, 3, raw_payload), [frame(0x02, 3, raw_payload)],
             replies=[ack(3, 0x02)], pixels=raw_pixels),
        case("picture_palette_rle", "palette picture: 2 colours, runs 3 red, 4 green, 1 red",
             wire(0x02, 4, rle_payload), [frame(0x02, 4, rle_payload)],
             replies=[ack(4, 0x02)], pixels=rle_pixels),
        case("picture_short", "picture of 4 LEDs on an 8-LED board: the rest go dark",
             wire(0x02, 5, short_payload), [frame(0x02, 5, short_payload)],
             replies=[ack(5, 0x02)], pixels=short_pixels),
        case("config", "brightness 128, 2000 mA budget, 20 mA per channel, host lost after 3 s",
             wire(0x03, 6, bytes([128, 0x07, 0xD0, 20, 0x0B, 0xB8])),
             [frame(0x03, 6, bytes([128, 0x07, 0xD0, 20, 0x0B, 0xB8]))],
             replies=[ack(6, 0x03)]),
        case("config_bad", "config with a 50 mA budget is refused and changes nothing",
             wire(0x03, 7, bytes([128, 0, 50, 20, 0x0B, 0xB8])),
             [frame(0x03, 7, bytes([128, 0, 50, 20, 0x0B, 0xB8]))],
             replies=[nack(7, 0x03, "BAD_PAYLOAD")]),
        case("idle_flags", "repeated flags are idle fill, then a PING",
             bytes([FLAG, FLAG, FLAG]) + ping, [frame(0x04, 9)], replies=[ack(9, 0x04)]),
        case("shared_flag", "two frames sharing one flag between them",
             wire(0x04, 10)[:-1] + wire(0x04, 11), [frame(0x04, 10), frame(0x04, 11)],
             replies=[ack(10, 0x04), ack(11, 0x04)]),
        case("bad_crc", "PING with its last CRC byte flipped: NACK BAD_CRC",
             bad_crc(0x04, 9), [error("BAD_CRC", 9, 0x04)],
             replies=[nack(9, 0x04, "BAD_CRC")]),
        case("truncated_then_good", "a picture cut off mid-payload, then a good PING",
             wire(0x02, 12, rle_payload)[:12] + ping,
             [error("TRUNCATED", 12, 0x02), frame(0x04, 9)],
             replies=[nack(12, 0x02, "TRUNCATED"), ack(9, 0x04)]),
        case("truncated_header", "a frame of only magic and type",
             bytes([FLAG, MAGIC, ESC, 0x22, FLAG]), [error("TRUNCATED", 0, 0x02)],
             replies=[nack(0, 0x02, "TRUNCATED")]),
        case("bad_length", "length says 0 but one payload byte follows (CRC good)",
             bytes([FLAG]) + escape(body(0x04, 13, b"\x55", length=0)) + bytes([FLAG]),
             [error("BAD_LENGTH", 13, 0x04)], replies=[nack(13, 0x04, "BAD_LENGTH")]),
        case("garbage_between_frames", "REPL text between two frames is skipped silently",
             ping + REPL_TEXT + wire(0x04, 14),
             [frame(0x04, 9), frame(0x04, 14)], garbage=len(REPL_TEXT),
             replies=[ack(9, 0x04), ack(14, 0x04)]),
        case("text_with_tilde", "text with '~' is not a frame: no MAGIC after the flag",
             b"a~b~c" + ping, [frame(0x04, 9)], garbage=3, replies=[ack(9, 0x04)]),
        case("control_byte_inside", "a raw LF inside a frame damages it; hunting resumes",
             ping[:6] + b"\n" + ping[6:] + ping, [error("BAD_BYTE", 9, 0x04), frame(0x04, 9)],
             garbage=len(ping) - 6 - 1,
             replies=[nack(9, 0x04, "BAD_BYTE"), ack(9, 0x04)]),
        case("escape_abort", "ESC right before FLAG aborts the frame",
             ping[:-2] + bytes([ESC]) + ping,
             [error("BAD_BYTE", 9, 0x04), frame(0x04, 9)],
             replies=[nack(9, 0x04, "BAD_BYTE"), ack(9, 0x04)]),
        case("oversize_body", "1100 payload bytes: more than any frame may hold",
             wire(0x02, 15, bytes([0x41]) * 1100, length=1100), [error("OVERSIZE", 15, 0x02)],
             replies=[nack(15, 0x02, "OVERSIZE")]),
        case("oversize_declared", "length field of 1025 with a short body",
             bytes([FLAG]) + escape(body(0x02, 16, b"\x41\x41", length=1025)) + bytes([FLAG]),
             [error("OVERSIZE", 16, 0x02)], replies=[nack(16, 0x02, "OVERSIZE")]),
        case("unknown_type", "a good frame of type 0x10 is refused with UNKNOWN_TYPE",
             wire(0x10, 17), [frame(0x10, 17)], replies=[nack(17, 0x10, "UNKNOWN_TYPE")]),
        case("picture_bad_palette_index", "run uses colour 5 of a 2-colour palette",
             wire(0x02, 18, rle_payload[:-2] + bytes([5, 1])),
             [frame(0x02, 18, rle_payload[:-2] + bytes([5, 1]))],
             replies=[nack(18, 0x02, "BAD_PAYLOAD")], pixels=bytes(24)),
        case("picture_too_many_leds", "9 LEDs for an 8-LED board is refused",
             wire(0x02, 19, bytes([0, 0, 9]) + bytes(27)),
             [frame(0x02, 19, bytes([0, 0, 9]) + bytes(27))],
             replies=[nack(19, 0x02, "BAD_PAYLOAD")], pixels=bytes(24)),
        case("ack", "board ACKs PICTURE seq 3", wire(0x80, 3, b"\x02"), [ack(3, 0x02)],
             direction="b2h"),
        case("nack", "board NACKs seq 9 PING for BAD_CRC", wire(0x81, 9, b"\x04\x01"),
             [nack(9, 0x04, "BAD_CRC")], direction="b2h"),
        case("version_boot", "boot announcement: protocol 1, firmware 1.0.0, 8 LEDs",
             wire(0x82, 0, version(0, 0)), [frame(0x82, 0, version(0, 0))], direction="b2h"),
        case("status", "status: 5 good, 1 bad, 41 garbage, 120 mA, no limiting, live",
             wire(0x83, 20, bytes([0, 5, 0, 1, 0, 41, 0, 120, 255, 1, 0, 0, 0, 7, 4])),
             [frame(0x83, 20, bytes([0, 5, 0, 1, 0, 41, 0, 120, 255, 1, 0, 0, 0, 7, 4]))],
             direction="b2h"),
        case("echo_not_answered", "a damaged board-type frame (an echo) gets no NACK",
             bad_crc(0x80, 3, b"\x02"), [error("BAD_CRC", 3, 0x80)],
             replies=[]),
    ]
    return {
        "protocol": 1,
        "description": "Test vectors for hardware/PROTOCOL.md. 'wire' is fed to a fresh "
        "decoder in one go; 'frames' lists what it must yield in order (good frames or errors), "
        "'garbage' the bytes it must skip outside frames. For host_to_board cases 'replies' "
        "are the frames a board configured as in 'board' must send, 'pixels' its picture "
        "afterwards (RGB, 3 bytes per LED).",
        "board": BOARD,
        "crc_check": {"input": b"123456789".hex(), "crc16": "29b1"},
        "cases": cases,
    }


if __name__ == "__main__":
    json.dump(build(), sys.stdout, indent=1)
    sys.stdout.write("\n")
