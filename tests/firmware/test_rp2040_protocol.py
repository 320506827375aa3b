"""The firmware on the real MicroPython rp2 port in an emulated RP2040 answers the wire protocol.

Every host_to_board vector of hardware/protocol_vectors.json goes over the emulated USB CDC
port; the board's answers are compared byte for byte with what the vectors' events call for
(hardware/PROTOCOL.md sections 3 and 4), bad frames included. The STOP vector goes last: the
watchdog runs by then, so the board reboots and announces itself again (FIRMWARE.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.board import protocol as p

from . import emulator as em

T = p.MessageType
ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "hardware/protocol_vectors.json").read_text())["vectors"]
HOST_VECTORS = [v for v in VECTORS if v["direction"] == "host_to_board"]
LEDS = 208


def version_payload() -> bytes:
    """VERSION of the firmware in firmware/micropython/config.py on the rp2 port."""
    text = (ROOT / "firmware/micropython/config.py").read_text()
    firmware = text.split('FIRMWARE_VERSION = "')[1].split('"')[0]
    return (
        bytes((p.PROTOCOL_VERSION,))
        + LEDS.to_bytes(2, "big")
        + p.MAX_PAYLOAD.to_bytes(2, "big")
        + f"{firmware} rp2".encode()
    )


def expected_replies(vector: dict) -> list[bytes | tuple[int, int]]:
    """Wire bytes of each answer the vector's events call for; (STATUS, seq) where the payload
    holds counters (checked separately)."""
    out: list[bytes | tuple[int, int]] = []
    for e in vector["events"]:
        if e["event"] == "error":
            if e["reason"] == "unknown_type":  # CRC good: seq and type are trusted
                out.append(p.encode(T.NACK, e["seq"], bytes((p.Reason.UNKNOWN_TYPE, e["type"]))))
            else:
                out.append(p.encode(T.NACK, 0, bytes((p.Reason[e["reason"].upper()], 0))))
            continue
        mtype, seq, payload = T[e["type"]], e["seq"], bytes.fromhex(e["payload"])
        if mtype == T.HELLO:
            out.append(p.encode(T.VERSION, seq, version_payload()))
        elif mtype == T.PING:
            out.append((T.STATUS, seq))
        elif mtype == T.PICTURE and (len(payload) % 3 or len(payload) > 3 * LEDS):
            out.append(p.encode(T.NACK, seq, bytes((p.Reason.BAD_PAYLOAD, mtype))))
        else:
            out.append(p.encode(T.ACK, seq, bytes((mtype,))))
    return out


def test_the_board_announces_itself_at_boot(rp2040):
    (first,) = em.wait_replies(rp2040, 0, 1)
    assert first == p.Frame(T.VERSION, 0, version_payload())
    # Nothing but the announcement went out before the first frame's flag (no REPL banner).
    assert bytes(rp2040.received).startswith(p.encode(T.VERSION, 0, version_payload()))


def test_the_vector_file_keeps_its_named_vectors():
    names = {v["name"] for v in HOST_VECTORS}
    assert {"hello", "game_picture_largest"} <= names
    assert any(e["event"] == "error" for v in HOST_VECTORS for e in v["events"])


@pytest.mark.parametrize(
    "vector", [v for v in HOST_VECTORS if v["name"] != "stop"], ids=lambda v: v["name"]
)
def test_every_host_vector_is_answered_exactly(rp2040, vector):
    expected = expected_replies(vector)
    assert expected, "a host vector always gets an answer"
    start = len(rp2040.received)
    rp2040.write(bytes.fromhex(vector["hex"]))
    got = em.wait_replies(rp2040, start, len(expected))
    for want, frame in zip(expected, got, strict=True):
        if isinstance(want, tuple):
            assert isinstance(frame, p.Frame) and (frame.type, frame.seq) == want
            status = p.parse_status(frame.payload)
            assert status["budget_ma"] >= 100 and not status["host_lost"]
        else:
            assert p.encode(frame.type, frame.seq, frame.payload) == want, vector["name"]
    # ... and nothing more: a PING answered after the vector is the very next frame.
    rp2040.write(p.encode(T.PING, 200))
    after = em.wait_replies(rp2040, start, len(expected) + 1)
    assert (after[-1].type, after[-1].seq) == (T.STATUS, 200)


def test_stop_is_acked_then_the_board_reboots_with_the_watchdog_running(rp2040):
    (stop,) = [v for v in HOST_VECTORS if v["name"] == "stop"]
    resets = len([e for e in rp2040.events if e["ev"] == "reset"])
    start = len(rp2040.received)
    rp2040.write(bytes.fromhex(stop["hex"]))
    ack, announce = em.wait_replies(rp2040, start, 2)
    assert ack == p.Frame(T.ACK, 8, bytes((T.STOP,)))
    assert announce == p.Frame(T.VERSION, 0, version_payload())  # booted again from flash
    assert len([e for e in rp2040.events if e["ev"] == "reset"]) == resets + 1
