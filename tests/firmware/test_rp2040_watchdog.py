"""Host-lost pattern, watchdog, Ctrl-C and allocation on the real MicroPython rp2 port in an
emulated RP2040 (hardware/FIRMWARE.md "Host lost, watchdog, status LED" and "Ctrl-C, STOP and
the REPL"). Emulated time comes from the cycle stamps of the board's events (125 MHz)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.board import protocol as p

from . import emulator as em

T = p.MessageType
ROOT = Path(__file__).resolve().parents[2]
LEDS = 208
HOST_LOST_MS = 3000
STEP_MS = 250
AMBER_GRB = bytes((16, 48, 0))  # FIRMWARE.md: dim amber (48, 16, 0), every 8th LED


def lit(grb: bytes) -> list[int]:
    return [i for i in range(LEDS) if any(grb[3 * i : 3 * i + 3])]


def is_lost_pattern(grb: bytes) -> bool:
    on = lit(grb)
    return (
        len(on) == LEDS // 8
        and all(b - a == 8 for a, b in zip(on, on[1:], strict=False))
        and all(grb[3 * i : 3 * i + 3] == AMBER_GRB for i in on)
    )


def leds_after(
    board: em.EmulatedBoard, cycle: int, check=lambda grb: True, timeout: float = 90.0
) -> dict:
    _, e = board.event(
        "leds", 0, timeout, lambda e: e["cycle"] >= cycle and check(bytes.fromhex(e["grb"]))
    )
    return e


def resets(board: em.EmulatedBoard) -> list[dict]:
    return [e for e in board.events if e["ev"] == "reset"]


def request(board: em.EmulatedBoard, mtype: int, seq: int, payload: bytes = b"") -> tuple:
    start = len(board.received)
    at = board.write(p.encode(mtype, seq, payload))
    (answer,) = em.wait_replies(board, start, 1)
    return answer, board.cycle_of_out(at)


@pytest.fixture(scope="module")
def boot_cycle(rp2040) -> int:
    return rp2040.cycle_of_in(0)  # the boot announcement left the board


def test_dark_after_boot_then_the_walking_host_lost_pattern(rp2040, boot_cycle):
    first = leds_after(rp2040, 0)
    assert bytes.fromhex(first["grb"]) == bytes(3 * LEDS)  # blanked at boot
    a = leds_after(rp2040, boot_cycle, is_lost_pattern)
    assert em.ms(a["cycle"] - boot_cycle) >= HOST_LOST_MS - 50  # dark for 3 s first
    b = leds_after(rp2040, a["end"] + 1, is_lost_pattern)
    c = leds_after(rp2040, b["end"] + 1, is_lost_pattern)
    step = em.ms(c["cycle"] - b["cycle"])  # the first step may be short (phase of the clock)
    assert STEP_MS - 20 <= step <= STEP_MS + 20, step
    # the pattern walks one LED a step, so a hung board (frozen pattern) is told apart
    assert lit(bytes.fromhex(b["grb"]))[0] == (lit(bytes.fromhex(a["grb"]))[0] + 1) % 8
    assert lit(bytes.fromhex(c["grb"]))[0] == (lit(bytes.fromhex(b["grb"]))[0] + 1) % 8


def test_no_watchdog_runs_before_a_host_frame(rp2040, boot_cycle):
    leds_after(rp2040, boot_cycle + 6 * em.HZ, is_lost_pattern)  # 6 s without a host
    assert resets(rp2040) == []
    assert [e for e in rp2040.events if e["ev"] == "wdt"] == []  # never started


def test_a_host_frame_ends_the_pattern_and_the_picture_stays(rp2040):
    answer, sent = request(rp2040, T.HELLO, 1, p.hello_payload())
    assert answer.type == T.VERSION
    _, wdt = rp2040.event("wdt")  # the first host frame started the watchdog: 5 s
    assert wdt["enabled"] and wdt["timeout_ms"] == 5000 and wdt["cycle"] >= sent
    picture = em.game_pictures(seed=8, players=5, limit=6)[-1]
    answer, sent = request(rp2040, T.PICTURE, 2, p.picture_payload(picture))
    assert answer == p.Frame(T.ACK, 2, bytes((T.PICTURE,)))
    assert bytes.fromhex(leds_after(rp2040, sent)["grb"]) == em.expected_grb(picture)
    # silence: the pattern after 3 s, while the fed watchdog keeps the board up
    lost = leds_after(rp2040, sent, is_lost_pattern)
    assert em.ms(lost["cycle"] - sent) >= HOST_LOST_MS - 50
    leds_after(rp2040, sent + 7 * em.HZ, is_lost_pattern)  # 7 s > the 5 s watchdog
    assert resets(rp2040) == []
    # the status LED blinks with the pattern (FIRMWARE.md): on and off while the host is lost
    blinks = [
        e["on"]
        for e in rp2040.events
        if e["ev"] == "status_led" and lost["cycle"] <= e["cycle"] <= sent + 7 * em.HZ
    ]
    assert True in blinks and False in blinks and len(blinks) >= 8
    # the next valid frame brings the held picture back, and the LED stays on
    answer, sent = request(rp2040, T.PING, 3)
    assert answer.type == T.STATUS and not p.parse_status(answer.payload)["host_lost"]
    assert bytes.fromhex(leds_after(rp2040, sent)["grb"]) == em.expected_grb(picture)
    # The LED is on and blinks no more: no "off" since the frame (when the blink was in its
    # "on" half as the frame came, the pin is set on again and records no change).
    answer, later = request(rp2040, T.PING, 4)
    assert answer.type == T.STATUS
    led = [e for e in rp2040.events if e["ev"] == "status_led"]
    assert led[-1]["on"], led[-3:]
    assert [e for e in led if e["cycle"] >= sent and not e["on"]] == [], (sent, later, led[-3:])


def test_nothing_is_allocated_per_frame(rp2040):
    before, _ = request(rp2040, T.PING, 10, b"\x01")
    heap = p.parse_status(before.payload)
    pictures = em.game_pictures(seed=12, players=5, limit=25)
    for i, picture in enumerate(pictures):
        answer, _ = request(rp2040, T.PICTURE, 11 + i, p.picture_payload(picture))
        assert answer.type == T.ACK
    after, _ = request(rp2040, T.PING, 40, b"\x01")
    heap_after = p.parse_status(after.payload)
    assert heap_after["frames"] == heap["frames"] + len(pictures)
    assert heap_after["heap_used"] == heap["heap_used"]
    # far inside the heap (hardware/FIRMWARE.md states the figure)
    assert heap["heap_used"] < 0.25 * (heap["heap_used"] + heap["heap_free"])


def test_ctrl_c_with_the_watchdog_running_reboots_then_reaches_the_repl(rp2040):
    count = len(resets(rp2040))
    start = len(rp2040.received)
    at = rp2040.write(b"\r\x03")  # what mpremote sends to get the REPL
    sent = rp2040.cycle_of_out(at)
    dark = leds_after(rp2040, sent)
    assert bytes.fromhex(dark["grb"]) == bytes(3 * LEDS)  # strip blanked first
    (announce,) = em.wait_replies(rp2040, start, 1)
    assert announce.type == T.VERSION and announce.seq == 0  # booted again
    assert len(resets(rp2040)) == count + 1
    # back without a watchdog: the next Ctrl-C gets the REPL, no reboot
    start = len(rp2040.received)
    rp2040.write(b"\x03")
    rp2040.read_until(b">>> ", start)
    assert len(resets(rp2040)) == count + 1


def test_the_board_runs_the_micropython_release_the_firmware_pins(rp2040):
    pinned = (ROOT / "firmware/micropython/config.py").read_text().split('MICROPYTHON = "')[1]
    pinned = pinned.split('"')[0]
    start = len(rp2040.received)
    rp2040.write(b"\x03")  # the REPL (the firmware runs without a watchdog here)
    rp2040.read_until(b">>> ", start)
    start = len(rp2040.received)
    rp2040.write(b"import sys; print('v=%d.%d.%d' % sys.implementation.version[:3])\r")
    end = rp2040.read_until(b">>> ", start)
    assert f"v={pinned}".encode() in rp2040.received[start:end]
    assert f"v{pinned}".encode() in em.IMAGE.name.encode()


def test_an_unfed_watchdog_resets_the_board(rp2040):
    # The firmware relies on machine.WDT resetting a board whose loop stops feeding it.
    start = len(rp2040.received)
    rp2040.write(b"\r\x03")  # at the REPL (the firmware runs without a watchdog now)
    rp2040.read_until(b">>> ", start)
    count = len(resets(rp2040))
    start = len(rp2040.received)
    at = rp2040.write(b"import machine; w = machine.WDT(timeout=2000)\r")
    typed = rp2040.cycle_of_out(at)
    _, reset = rp2040.event("reset", 0, match=lambda e: e["cycle"] > typed)
    assert reset["reason"] == "watchdog timeout"
    assert 1900 <= em.ms(reset["cycle"] - typed) <= 2600
    assert len(resets(rp2040)) == count + 1
    flag = rp2040.read_until(b"\xc0", start) - 1  # the REPL's echo comes first
    (announce,) = em.wait_replies(rp2040, flag, 1)
    assert announce.type == T.VERSION and announce.seq == 0  # the firmware runs again
