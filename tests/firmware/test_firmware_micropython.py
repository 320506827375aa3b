"""The board firmware under a real MicroPython interpreter (the WebAssembly port under Node).

tests/firmware/mp_suite.py runs inside MicroPython with firmware/micropython/*.py and the
stand-in machine/neopixel modules and reports what the firmware did; the assertions are here,
cross-checked with the host codec (companion/board/protocol.py) and companion/leds/power.py.
Set CHOCOLATL_REQUIRE_MICROPYTHON=1 to fail instead of skip when Node or the package is missing.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.board import protocol as p
from companion.leds.power import LIMITER_BUDGET_MA, frame_current_ma

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PACKAGE = ROOT / "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"
VECTORS = ROOT / "hardware/protocol_vectors.json"
LEDS = 208
GAMMA = 2.2


def _missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not PACKAGE.exists():
        return f"{PACKAGE.relative_to(ROOT)} is missing (npm install)"
    return None


@functools.cache
def _run_suite() -> dict:
    proc = subprocess.run(
        ["node", str(HERE / "run_micropython.mjs"), str(ROOT / "firmware/micropython"),
         str(HERE / "standins"), str(HERE / "mp_suite.py"), str(VECTORS)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, proc.stdout + proc.stderr
    out = json.loads(lines[-1][len("RESULT "):])
    out["stdout"] = proc.stdout.splitlines()
    return out


@pytest.fixture(scope="module")
def suite() -> dict:
    reason = _missing()
    if reason:
        if os.environ.get("CHOCOLATL_REQUIRE_MICROPYTHON") == "1":
            pytest.fail(f"MicroPython required but {reason}")
        pytest.skip(reason)
    return _run_suite()


def result(suite: dict, name: str) -> dict:
    out = suite[name]
    assert out["ok"], out
    return out


def frames(hex_bytes: str) -> list[p.Frame | p.BadFrame]:
    return p.Decoder().feed(bytes.fromhex(hex_bytes))


def gamma(v: int) -> int:
    return max(1, int(255 * (v / 255) ** GAMMA + 0.5)) if v else 0


def rgb(np_buf: bytes) -> bytes:
    """The stand-in's GRB buffer back in RGB order."""
    out = bytearray()
    for i in range(0, len(np_buf), 3):
        out += bytes((np_buf[i + 1], np_buf[i], np_buf[i + 2]))
    return bytes(out)


def test_interpreter_is_micropython(suite):
    out = result(suite, "implementation")
    assert out["name"] == "micropython"


def test_firmware_decoder_passes_every_vector(suite):
    out = result(suite, "vectors")
    doc = json.loads(VECTORS.read_text())
    assert out["count"] == len(doc["vectors"]) and out["names"] == [v["name"] for v in
                                                                     doc["vectors"]]
    assert out["failures"] == []
    assert out["crc_check"] == "29b1"  # CRC-16/CCITT-FALSE check value of "123456789"


def test_version_announced_at_boot_and_on_hello(suite):
    out = result(suite, "boot_and_version")
    payload = bytes((1, 0, LEDS, 4, 0)) + f"1.0.0 {out['platform']}".encode()
    assert bytes.fromhex(out["boot"]) == p.encode(p.MessageType.VERSION, 0, payload)
    assert bytes.fromhex(out["reply"]) == p.encode(p.MessageType.VERSION, 1, payload)
    assert out["strip_dark"]


def test_picture_is_acked_and_shown_through_the_gamma_table(suite):
    out = result(suite, "picture_gamma")
    assert bytes.fromhex(out["reply"]) == p.encode(p.MessageType.ACK, 7, bytes((0x10,)))
    picture = bytes.fromhex(out["picture"])
    assert out["held"] and out["writes"] == 1 and not out["limited"]
    assert out["order"][:3] == [1, 0, 2]
    assert rgb(bytes.fromhex(out["np_buf"])) == bytes(gamma(v) for v in picture)


def test_current_limiter_scales_a_white_frame_under_the_budget(suite):
    out = result(suite, "current_limit")
    shown = bytes.fromhex(out["np_buf"])
    assert out["limited"] and out["budget"] == LIMITER_BUDGET_MA
    estimate = frame_current_ma(shown)  # the host's formula on what the strip shows
    assert estimate <= LIMITER_BUDGET_MA
    assert estimate > 0.95 * LIMITER_BUDGET_MA  # scaled down, not blanked
    assert len(set(shown)) == 1  # every channel scaled alike: white stays white
    replies = frames(out["reply"])
    assert replies[-1] == p.Frame(p.MessageType.ACK, 8, bytes((0x10,)))
    status = p.parse_status(frames(out["status"])[0].payload)
    assert status["limited"] and status["milliamps"] == out["last_ma"] <= LIMITER_BUDGET_MA


def test_config_sets_brightness_and_budget_and_refuses_a_bad_one(suite):
    out = result(suite, "config")
    assert frames(out["reply"]) == [p.Frame(p.MessageType.ACK, 2, bytes((0x11,)))]
    assert out["brightness"] == 128 and out["budget"] == 1000
    shown = bytes.fromhex(out["np_buf"])
    assert frame_current_ma(shown) <= 1000
    assert frames(out["bad_reply"]) == [p.Frame(p.MessageType.NACK, 3,
                                                 bytes((p.Reason.BAD_PAYLOAD, 0x11)))]
    assert out["unchanged_by_bad"]


def test_host_lost_pattern_after_the_timeout_with_a_fake_clock(suite):
    out = result(suite, "host_lost")
    assert out["still_shown_before_timeout"]
    assert out["lost_flag"]
    lost = rgb(bytes.fromhex(out["lost_buf"]))
    lit = [i for i in range(LEDS) if any(lost[3 * i:3 * i + 3])]
    assert len(lit) == LEDS // 8 and all(b - a == 8 for a, b in zip(lit, lit[1:], strict=False))
    assert lost[3 * lit[0]:3 * lit[0] + 3] == bytes((48, 16, 0))  # dim amber
    moved = rgb(bytes.fromhex(out["moved_buf"]))
    assert moved != lost  # the pattern walks, so a stuck board is told from a lost host
    assert out["restored"]  # the next host frame brings the last picture back
    assert not p.parse_status(frames(out["status_after"])[0].payload)["host_lost"]
    assert 1 in out["led_values"]


def test_watchdog_starts_with_the_host_and_is_fed_every_pass(suite):
    out = result(suite, "watchdog")
    assert out["created_before_host"] == 0 and out["created"] == 1
    assert out["timeout"] == 5000
    assert out["feeds_in_20_steps"] == 20


def test_bad_frames_are_nacked_with_their_reason(suite):
    out = result(suite, "errors_nack")

    def nack(hex_bytes: str) -> tuple[int, int, int]:
        (f,) = frames(hex_bytes)
        assert f.type == p.MessageType.NACK
        return (f.seq, *p.parse_nack(f.payload))

    assert nack(out["bad_crc"]) == (0, p.Reason.BAD_CRC, 0)
    assert nack(out["unknown_type"]) == (13, p.Reason.UNKNOWN_TYPE, 0x7A)
    assert nack(out["bad_payload"]) == (5, p.Reason.BAD_PAYLOAD, 0x10)
    assert nack(out["unexpected"]) == (6, p.Reason.UNEXPECTED, p.MessageType.ACK)
    garbage, good = frames(out["garbage_then_good"])
    assert garbage.type == p.MessageType.NACK
    assert good == p.Frame(p.MessageType.ACK, 4, bytes((0x10,)))
    assert out["frames"] == 1 and out["errors"] == 5


def test_stop_acks_and_leaves_the_loop(suite):
    out = result(suite, "stop")
    assert frames(out["reply"]) == [p.Frame(p.MessageType.ACK, 8, bytes((0x30,)))]
    assert out["running"] is False


def test_main_reboots_on_stop_or_ctrl_c_once_the_watchdog_runs(suite):
    out = result(suite, "main_entry")
    for how in ("stop", "ctrl_c"):
        assert out[how]["outcome"] == "reset" and out[how]["resets"] == 1, out[how]
        assert out[how]["wdt"] == 1
        replies = frames(out[how]["replies"])
        assert replies[0].type == p.MessageType.VERSION
        assert p.Frame(p.MessageType.ACK, 1, bytes((0x10,))) in replies
    assert out["ctrl_c_no_host"] == {"outcome": "keyboard_interrupt", "resets": 0}


def test_no_repl_control_byte_on_the_wire(suite):
    assert result(suite, "no_ctrl_c_on_wire")["control_bytes"] == 0


def test_no_allocation_per_frame(suite):
    out = result(suite, "no_allocation_per_frame")
    if "skipped" in out:
        pytest.skip(out["skipped"])
    assert out["alloc_5_frames"] == 0 and out["alloc_100_frames"] == 0
    assert out["frames"] >= 105 and out["limited"]


def test_usb_stream_reads_without_blocking_and_writes_exactly_n_bytes(suite):
    out = result(suite, "usbstream")
    assert out["read"] == 0
    assert "USBSTREAM-OK" in suite["stdout"]
    assert not any("not-this" in line for line in suite["stdout"])
