"""Writes hardware/protocol_vectors.json from the host codec (run after a protocol change).

    .venv/bin/python tests/board/make_vectors.py

The events of each vector are what the host decoder reports; the firmware decoder is checked
against the same file under MicroPython, and tests/board/test_protocol.py pins hand-checked
bytes, so a codec bug cannot silently rewrite the vectors. Only running it writes: pytest
imports it (for doctests) in every worker at once, and a write there raced their reads.
"""

# ruff: noqa: E501
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.board.protocol import FLAG, PROTOCOL_VERSION, Decoder, Frame, crc16, encode  # noqa: E402
from companion.board.protocol import MessageType as T  # noqa: E402
from companion.board.protocol import picture_payload as rgb  # noqa: E402
from companion.board.protocol import stuff as _stuff  # noqa: E402

GAME_SEED = 3
GAME_PICTURES = 500


def largest_game_picture() -> bytes:
    """The picture of real 5-player games whose PICTURE frame is longest on the wire."""
    import random

    from companion.engine import apply, new_game, view
    from companion.leds import animations_from_events, assign_colours, load_layout, render
    from companion.players.random_games import random_command, random_players

    layout = load_layout()
    rng = random.Random(GAME_SEED)
    pictures: list[bytes] = []
    now = 0.0
    while len(pictures) < GAME_PICTURES:
        state = new_game(random_players(5))
        colours = assign_colours(list(state["players"]), {}, layout.player_colours)
        while not state["finished"] and len(pictures) < GAME_PICTURES:
            state, events = apply(state, random_command(state, rng))
            now += 0.7
            pictures.append(
                render(view(state, None), layout, colours, now, animations_from_events(events, now))
            )
    return max(pictures, key=lambda pic: len(encode(T.PICTURE, 7, rgb(pic))))


def ev(events):
    out = []
    for e in events:
        if isinstance(e, Frame):
            out.append(
                {"event": "frame", "type": T(e.type).name, "seq": e.seq, "payload": e.payload.hex()}
            )
        else:
            d = {"event": "error", "reason": e.reason.name.lower(), "seq": e.seq}
            if e.type:
                d["type"] = e.type
            out.append(d)
    return out


def build() -> dict:
    """The vectors document, built from the host codec (no file is touched)."""
    vectors: list[dict] = []

    def add(name, direction, meaning, wire, encode_of=None):
        v = {
            "name": name,
            "direction": direction,
            "meaning": meaning,
            "hex": wire.hex(),
            "events": ev(Decoder().feed(wire)),
        }
        if encode_of:
            v["encode"] = {
                "type": encode_of[0].name,
                "seq": encode_of[1],
                "payload": encode_of[2].hex(),
            }
        vectors.append(v)

    def valid(name, direction, meaning, t, seq, payload=b""):
        add(name, direction, meaning, encode(t, seq, payload), (t, seq, payload))

    valid(
        "hello",
        "host_to_board",
        f"HELLO, seq 1: the host speaks protocol {PROTOCOL_VERSION}",
        T.HELLO,
        1,
        bytes((PROTOCOL_VERSION,)),
    )
    valid(
        "version",
        "board_to_host",
        f"VERSION answering seq 1: protocol {PROTOCOL_VERSION}, 208 LEDs, max payload 1024, firmware '2.0.0 rp2'",
        T.VERSION,
        1,
        bytes([PROTOCOL_VERSION, 0, 208, 4, 0]) + b"2.0.0 rp2",
    )
    valid(
        "version_at_boot",
        "board_to_host",
        "VERSION with seq 0: the board announces itself after a reboot",
        T.VERSION,
        0,
        bytes([PROTOCOL_VERSION, 0, 208, 4, 0]) + b"2.0.0 rp2",
    )
    valid(
        "config",
        "host_to_board",
        "CONFIG seq 2: brightness 255 (1.0), limiter budget 3000 mA",
        T.CONFIG,
        2,
        bytes([255, 0x0B, 0xB8]),
    )
    valid("ack_config", "board_to_host", "ACK of CONFIG seq 2", T.ACK, 2, bytes([T.CONFIG]))
    small = bytes([89, 0, 0, 0, 89, 0, 0, 0, 89])
    valid(
        "picture_3_leds",
        "host_to_board",
        "PICTURE seq 3: LED 0 red 89, LED 1 green 89, LED 2 blue 89 (the rest of the strip dark); payload bytes are the RGB values XOR 0x20",
        T.PICTURE,
        3,
        rgb(small),
    )
    full = bytes((i * 7) % 90 for i in range(624))
    valid(
        "picture_208_leds",
        "host_to_board",
        "PICTURE seq 4: 208 LEDs (624 bytes), value of RGB byte i = (7 i) mod 90 (sent XOR 0x20)",
        T.PICTURE,
        4,
        rgb(full),
    )
    valid(
        "game_picture_largest",
        "host_to_board",
        f"PICTURE seq 7: the largest frame on the wire of {GAME_PICTURES} pictures of 5-player games (seed {GAME_SEED}, default layout), payload XOR 0x20",
        T.PICTURE,
        7,
        rgb(largest_game_picture()),
    )
    valid(
        "picture_escapes",
        "host_to_board",
        "PICTURE seq 5 whose payload bytes need escaping: 01 02 03 04 05 C0 DB, then 00 06 DC E0 20 (RGB 21 22 23 24 25 E0 FB 20 26 FC C0 00)",
        T.PICTURE,
        5,
        bytes([1, 2, 3, 4, 5, 0xC0, 0xDB, 0, 6, 0xDC, 0xE0, 0x20]),
    )
    valid(
        "seq_escaped",
        "host_to_board",
        "PING with seq 3 (Ctrl-C value): the sequence byte is escaped as DB 23",
        T.PING,
        3,
    )
    valid("ping", "host_to_board", "PING seq 6 (heartbeat)", T.PING, 6)
    valid(
        "ping_heap",
        "host_to_board",
        "PING seq 9 with payload 01: the STATUS answer carries the heap figures too",
        T.PING,
        9,
        b"\x01",
    )
    valid(
        "status",
        "board_to_host",
        "STATUS answering seq 6: 40 frames, 1 error, 412 mA, not limited, brightness 255, budget 3000 mA, host not lost",
        T.STATUS,
        6,
        (40).to_bytes(4, "big")
        + (1).to_bytes(4, "big")
        + (412).to_bytes(2, "big")
        + bytes([0, 255])
        + (3000).to_bytes(2, "big")
        + b"\x00",
    )
    valid("ack_picture", "board_to_host", "ACK of PICTURE seq 4", T.ACK, 4, bytes([T.PICTURE]))
    valid(
        "nack_bad_payload",
        "board_to_host",
        "NACK of seq 7: bad_payload (5) for a PICTURE (0x10)",
        T.NACK,
        7,
        bytes([5, T.PICTURE]),
    )
    valid(
        "nack_bad_crc",
        "board_to_host",
        "NACK with seq 0: a segment failed its CRC (reason 1), sequence unknown",
        T.NACK,
        0,
        bytes([1, 0]),
    )
    valid(
        "stop",
        "host_to_board",
        "STOP seq 8: blank the strip, leave the main loop (companion flash)",
        T.STOP,
        8,
    )

    hello = encode(T.HELLO, 1, bytes((PROTOCOL_VERSION,)))
    ping = encode(T.PING, 9)
    add(
        "empty_segments",
        "host_to_board",
        "flags with nothing between them are ignored: C0 C0 C0 then a PING",
        bytes([FLAG, FLAG]) + ping,
    )
    add(
        "noise_before_first_flag",
        "board_to_host",
        "REPL banner text before the first flag is ignored silently, then a VERSION",
        b"MicroPython v1.23.0 on 2024-06-02; Raspberry Pi Pico with RP2040\r\n>>> "
        + encode(T.VERSION, 0, bytes([PROTOCOL_VERSION, 0, 208, 4, 0]) + b"2.0.0 rp2"),
    )
    add(
        "garbage_between_frames",
        "host_to_board",
        "HELLO, the text 'hello\\r\\n' typed between frames (one bad segment: its length field reads 0x6C6C, too_large), then PING",
        hello + b"hello\r\n" + ping,
    )
    pic = encode(T.PICTURE, 10, rgb(small))
    bad = bytearray(pic)
    bad[8] ^= 0x01  # flip a payload bit
    add(
        "bad_crc",
        "host_to_board",
        "PICTURE seq 10 with one payload bit flipped: bad_crc",
        bytes(bad),
    )
    add(
        "truncated_then_frame",
        "host_to_board",
        "PICTURE seq 10 cut 3 bytes short (no closing flag), then a PING: truncated, then the PING",
        pic[:-4] + ping,
    )
    add(
        "truncated_header",
        "host_to_board",
        "C0 10 01 C0: a segment shorter than a header",
        bytes([FLAG, 0x10, 0x01, FLAG]),
    )
    body = bytes([T.PICTURE, 11, 0x04, 0x01]) + bytes(1025)
    body += crc16(body).to_bytes(2, "big")
    add(
        "oversize",
        "host_to_board",
        "PICTURE seq 11 with a 1025-byte payload (limit 1024): too_large",
        bytes([FLAG]) + _stuff(body) + bytes([FLAG]) + ping,
    )
    body = bytes([T.PICTURE, 12, 0x07, 0xD0]) + bytes(4)
    body += crc16(body).to_bytes(2, "big")
    add(
        "oversize_length_field",
        "host_to_board",
        "header announcing 2000 payload bytes: too_large",
        bytes([FLAG]) + _stuff(body) + bytes([FLAG]),
    )
    body = bytes([0x7A, 13, 0, 1, 0x55])
    body += crc16(body).to_bytes(2, "big")
    add(
        "unknown_type",
        "host_to_board",
        "type 0x7A with a good CRC: unknown_type, seq 13 trusted (the board NACKs seq 13)",
        bytes([FLAG]) + _stuff(body) + bytes([FLAG]),
    )
    add(
        "bad_escape",
        "host_to_board",
        "DB 41 inside a frame (0x61 is not an escaped byte): bad_escape",
        bytes([FLAG, 0x20, 0x01, 0xDB, 0x41, 0x00, 0x00, 0x00, FLAG]),
    )
    body = bytes([T.PICTURE, 14, 0, 2, 1, 2, 3])
    body += crc16(body).to_bytes(2, "big")
    add(
        "bad_length",
        "host_to_board",
        "length field 2 but 3 payload bytes: bad_length",
        bytes([FLAG]) + _stuff(body) + bytes([FLAG]),
    )
    add(
        "two_frames_back_to_back",
        "host_to_board",
        "HELLO then PICTURE with shared flags C0 ... C0 C0 ... C0",
        hello + pic,
    )

    doc = {
        "about": "Test vectors of the board wire format (hardware/PROTOCOL.md). hex: the bytes on the wire; events: what a decoder reports after reading them, in order; encode: for single valid frames, the type/seq/payload an encoder turns into exactly these bytes. Both companion/board/protocol.py and firmware/micropython/proto.py must reproduce every vector.",
        "crc": {
            "algorithm": "CRC-16/CCITT-FALSE",
            "poly": "1021",
            "init": "ffff",
            "check_input_ascii": "123456789",
            "check": f"{crc16(b'123456789'):04x}",
        },
        "max_payload": 1024,
        "vectors": vectors,
    }
    return doc


def main() -> None:
    """Writes the document whole (a reader never sees a half-written file)."""
    doc = build()
    path = ROOT / "hardware/protocol_vectors.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n")
    tmp.replace(path)
    print(f"{len(doc['vectors'])} vectors written")


if __name__ == "__main__":
    main()
