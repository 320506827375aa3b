"""Host codec (companion/board/protocol.py) against hardware/protocol_vectors.json."""

from __future__ import annotations

import json
import random
import runpy
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.board import protocol as p

VECTORS_FILE = Path(__file__).resolve().parents[2] / "hardware/protocol_vectors.json"
MAKE_VECTORS = Path(__file__).resolve().parent / "make_vectors.py"
DOC = json.loads(VECTORS_FILE.read_text())
VECTORS = DOC["vectors"]


def events(decoded: list) -> list[dict]:
    out = []
    for e in decoded:
        if isinstance(e, p.Frame):
            out.append(
                {
                    "event": "frame",
                    "type": p.MessageType(e.type).name,
                    "seq": e.seq,
                    "payload": e.payload.hex(),
                }
            )
        else:
            d = {"event": "error", "reason": e.reason.name.lower(), "seq": e.seq}
            if e.reason == p.Reason.UNKNOWN_TYPE:
                d["type"] = e.type
            out.append(d)
    return out


def crc16_bitwise(data: bytes) -> int:
    """CRC-16/CCITT-FALSE written out bit by bit, independent of binascii."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def test_crc_check_value():
    assert p.crc16(b"123456789") == 0x29B1 == crc16_bitwise(b"123456789")
    assert DOC["crc"]["check"] == "29b1"


def test_the_vectors_file_is_what_the_host_codec_builds():
    """The committed vectors are current: make_vectors.py run now would write the same."""
    built = runpy.run_path(str(MAKE_VECTORS), run_name="make_vectors")["build"]()
    assert json.loads(json.dumps(built)) == DOC


def test_loading_the_vectors_script_writes_nothing():
    """pytest imports every module under tests/ for its doctests, in each worker at once: a
    script that wrote the vectors file on import let another worker read it half written
    (an empty file, a JSONDecodeError at collection)."""
    before = VECTORS_FILE.stat().st_mtime_ns, VECTORS_FILE.read_bytes()
    runpy.run_path(str(MAKE_VECTORS), run_name="make_vectors")
    assert (VECTORS_FILE.stat().st_mtime_ns, VECTORS_FILE.read_bytes()) == before
    assert not VECTORS_FILE.with_suffix(".json.tmp").exists()


def test_vectors_cover_the_required_cases():
    names = {v["name"] for v in VECTORS}
    assert {
        "bad_crc",
        "truncated_then_frame",
        "garbage_between_frames",
        "oversize",
        "unknown_type",
        "hello",
        "version",
        "picture_208_leds",
        "config",
        "ping",
        "status",
        "ack_picture",
        "nack_bad_payload",
    } <= names


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_decoder_reproduces_vector(vector):
    wire = bytes.fromhex(vector["hex"])
    assert events(p.Decoder(DOC["max_payload"]).feed(wire)) == vector["events"]
    # Split at random points: the result must not depend on how reads cut the stream.
    rng = random.Random(vector["name"])
    dec, got, i = p.Decoder(DOC["max_payload"]), [], 0
    while i < len(wire):
        j = i + rng.randint(1, 40)
        got += dec.feed(wire[i:j])
        i = j
    assert events(got) == vector["events"]


@pytest.mark.parametrize(
    "vector",
    [v for v in VECTORS if "encode" in v],
    ids=[v["name"] for v in VECTORS if "encode" in v],
)
def test_encoder_reproduces_vector(vector):
    e = vector["encode"]
    wire = p.encode(p.MessageType[e["type"]], e["seq"], bytes.fromhex(e["payload"]))
    assert wire.hex() == vector["hex"]


def test_hand_checked_hello_bytes():
    # type 01, seq 01, length 00 01, payload 02 (protocol 2) -> 0x01 escaped as DB 21, 0x02 as
    # DB 22; CRC 0xde9a.
    body = bytes((1, 1, 0, 1, 2))
    crc = crc16_bitwise(body)
    assert crc == 0xDE9A
    expected = bytes(
        (0xC0, 0xDB, 0x21, 0xDB, 0x21, 0x00, 0xDB, 0x21, 0xDB, 0x22, crc >> 8, crc & 0xFF, 0xC0)
    )
    assert p.encode(p.MessageType.HELLO, 1, b"\x02") == expected
    assert bytes.fromhex(next(v for v in VECTORS if v["name"] == "hello")["hex"]) == expected


def test_picture_payload_is_rgb_xor_0x20():
    rgb = bytes((0, 1, 2, 3, 4, 5, 0x20, 0xFF))
    assert p.picture_payload(rgb) == bytes((0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x00, 0xDF))
    assert p.picture_from_payload(p.picture_payload(rgb)) == rgb
    # dim values need no escape any more: 3 LEDs of value 1..5 stay 9 bytes on the wire
    wire = p.encode(p.MessageType.PICTURE, 6, p.picture_payload(bytes((1, 2, 3, 4, 5, 1, 2, 3, 4))))
    assert len(wire) == 2 + 4 + 9 + 2


@given(st.integers(0, 255), st.sampled_from(list(p.MessageType)), st.binary(max_size=p.MAX_PAYLOAD))
def test_round_trip_and_no_repl_control_bytes(seq, mtype, payload):
    wire = p.encode(mtype, seq, payload)
    assert p.Decoder().feed(wire) == [p.Frame(mtype, seq, payload)]
    assert not set(wire[1:-1]) & {0x01, 0x02, 0x03, 0x04, 0x05, p.FLAG}
    assert len(wire) <= 2 + 2 * (p.OVERHEAD + len(payload))


@given(st.binary(max_size=64), st.integers(0, 200))
def test_noise_between_frames_never_hides_the_next_frame(noise, seq):
    frame = p.encode(p.MessageType.PING, seq)
    out = p.Decoder().feed(frame + noise + frame)
    frames = [e for e in out if isinstance(e, p.Frame)]
    assert frames[0] == frames[-1] == p.Frame(p.MessageType.PING, seq, b"")


def test_encode_refuses_bad_input():
    with pytest.raises(p.ProtocolError, match="sequence"):
        p.encode(p.MessageType.PING, 256)
    with pytest.raises(p.ProtocolError, match="over the 1024 limit"):
        p.encode(p.MessageType.PICTURE, 1, bytes(1025))
    with pytest.raises(ValueError, match="brightness"):
        p.config_payload(1.5, 3000)
    with pytest.raises(ValueError, match="milliamp budget"):
        p.config_payload(1.0, 50)


def test_payload_parsers():
    assert p.config_payload(1.0, 3000) == bytes((255, 0x0B, 0xB8))
    v = p.parse_version(bytes((2, 0, 208, 4, 0)) + b"2.0.0 rp2")
    assert v == p.Version(2, 208, 1024, "2.0.0 rp2")
    status = next(v for v in VECTORS if v["name"] == "status")
    parsed = p.parse_status(bytes.fromhex(status["events"][0]["payload"]))
    assert parsed == {
        "frames": 40,
        "errors": 1,
        "milliamps": 412,
        "limited": False,
        "brightness": 255,
        "budget_ma": 3000,
        "host_lost": False,
    }
    with pytest.raises(p.ProtocolError):
        p.parse_version(b"\x01")
