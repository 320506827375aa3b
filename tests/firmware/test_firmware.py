"""The board firmware under a real MicroPython interpreter (the WebAssembly port under Node).

Each scenario in tests/firmware/scenarios/ runs inside MicroPython with the firmware files and
stand-in machine/neopixel modules, and reports what the firmware did; the assertions are here.
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

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("run_micropython.mjs")
SCENARIOS = Path(__file__).with_name("scenarios")
PACKAGE = ROOT / "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"
VECTORS = json.loads((ROOT / "hardware/protocol_vectors.json").read_text())
REASONS = {"BAD_CRC": 1, "TRUNCATED": 2, "BAD_LENGTH": 3, "OVERSIZE": 4, "BAD_BYTE": 5,
           "UNKNOWN_TYPE": 6, "BAD_PAYLOAD": 7, "UNSUPPORTED_VERSION": 8}


def _missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not PACKAGE.exists():
        return f"{PACKAGE.relative_to(ROOT)} is missing (run npm ci)"
    return None


@functools.cache
def run_scenario(name: str) -> dict:
    reason = _missing()
    if reason:
        if os.environ.get("CHOCOLATL_REQUIRE_MICROPYTHON") == "1":
            pytest.fail(f"MicroPython required but {reason}")
        pytest.skip(reason)
    proc = subprocess.run(
        ["node", str(RUNNER), str(SCENARIOS / f"{name}.py")],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["ok"], report["error"]
    assert "MicroPython" in report["micropython"]
    return report


def _expected_frames(case: dict) -> list[dict]:
    out = []
    for f in case["frames"]:
        if "error" in f:
            out.append({"error": REASONS[f["error"]], "seq": f["seq"], "type": f["type"]})
        else:
            out.append({"type": f["type"], "seq": f["seq"], "payload": f["payload"]})
    return out


def _replies(case: dict) -> list[dict]:
    return [{"type": f["type"], "seq": f["seq"], "payload": f["payload"]}
            for f in case["replies"]]


def test_crc_check_value():
    assert run_scenario("vectors")["results"]["crc_check"] == VECTORS["crc_check"]["crc16"]


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[c["name"] for c in VECTORS["cases"]])
def test_firmware_passes_vector(case):
    got = run_scenario("vectors")["results"]["cases"][case["name"]]
    assert got["frames"] == _expected_frames(case)
    assert got["garbage"] == case["garbage"]
    if case["direction"] == "host_to_board":
        assert got["replies"] == _replies(case)
        if "pixels" in case:
            assert got["pixels"] == case["pixels"]
    else:
        # The firmware's encoder produces the very bytes of the vector.
        assert got["encoded"] == case["wire"]


def _gamma(v: int, brightness: int) -> int:
    return int(brightness * (v / 255) ** 2.2 + 0.5)


def test_gamma_and_colour_order():
    g = run_scenario("pixels")["results"]["gamma"]
    assert g["table"] == [_gamma(v, 255) for v in range(256)]
    strip = bytes.fromhex(g["strip"])
    # The strip is GRB: (128, 64, 0) lands as g, r, b.
    assert strip[3:6] == bytes([_gamma(64, 255), _gamma(128, 255), 0])
    assert strip[6:9] == bytes([_gamma(20, 255), _gamma(10, 255), _gamma(30, 255)])
    assert strip[:3] == b"\xff\xff\xff" and strip[9:] == b"\x00\x00\x00"
    assert g["scale"] == 255  # an ample budget: nothing cut
    assert g["replies"] == [{"type": 0x80, "seq": 1, "payload": "02"}]


def test_current_limiter_keeps_the_estimate_within_budget():
    lim = run_scenario("pixels")["results"]["limited"]
    strip = bytes.fromhex(lim["strip"])
    # Unlimited, 10 white LEDs would draw 30 channels x 20 mA + 10 x 1 mA = 610 mA.
    assert 0 < max(strip) < 255
    assert len(set(strip)) == 1  # scaled evenly, colours keep their balance
    estimate = sum(strip) * lim["channel_ma"] / 255 + lim["idle_ma"] * lim["led_count"]
    assert estimate <= lim["budget"]
    assert lim["estimated_ma"] <= lim["budget"]
    assert estimate > 0.9 * lim["budget"]  # not cut more than needed
    assert lim["scale"] < 255


def test_config_rerenders_with_new_brightness():
    c = run_scenario("pixels")["results"]["config"]
    assert c["table_255"] == 64 and c["budget"] == 300
    assert set(bytes.fromhex(c["before"])) == {255}
    assert set(bytes.fromhex(c["after"])) == {64}
    assert c["replies"][-1] == {"type": 0x80, "seq": 4, "payload": "03"}


def test_refused_picture_changes_nothing():
    r = run_scenario("pixels")["results"]["refused"]
    assert r["after"] == r["before"]
    assert r["replies"][-1] == {"type": 0x81, "seq": 6, "payload": "0207"}


def test_boot_announcement_and_dark_strip():
    h = run_scenario("hostlost")["results"]
    (announce,) = h["announce"]
    assert announce["type"] == 0x82 and announce["seq"] == 0
    payload = bytes.fromhex(announce["payload"])
    assert payload[0] == 1  # protocol version
    assert payload[8:10] == b"\xbe\xef" and payload[10] == 0  # boot id, reason "boot"
    assert payload[11:] == b"rp2"
    assert set(bytes.fromhex(h["boot_dark"])) == {0}


def test_host_lost_pattern_after_timeout_and_recovery():
    h = run_scenario("hostlost")["results"]
    states = h["states"]
    by_t = {e["t"]: e for e in h["timeline"]}
    assert by_t[2999]["state"] == states["LIVE"]
    assert by_t[2999]["strip"] == h["picture"]
    lit = []
    for t in (3000, 3100, 3200):
        assert by_t[t]["state"] == states["LOST"]
        strip = bytes.fromhex(by_t[t]["strip"])
        on = [i for i in range(6) if strip[3 * i : 3 * i + 3] != b"\0\0\0"]
        assert len(on) == 1  # one amber LED walking along the strip
        g, r, b = strip[3 * on[0] : 3 * on[0] + 3]
        assert r > g > 0 and b == 0
        lit.append(on[0])
    assert lit[1] == (lit[0] + 1) % 6 and lit[2] == (lit[1] + 1) % 6
    after = h["after_ping"]
    assert after["state"] == states["LIVE"]
    assert after["strip"] == h["picture"]  # restored by a mere PING
    assert after["replies"][-1] == {"type": 0x80, "seq": 2, "payload": "04"}


def test_watchdog_fed_every_step():
    h = run_scenario("hostlost")["results"]
    assert h["feeds_after_steps"] == 1 + len(h["timeline"])


def test_status_reply():
    (status,) = run_scenario("hostlost")["results"]["status"]
    p = bytes.fromhex(status["payload"])
    assert status["type"] == 0x83 and status["seq"] == 3 and len(p) == 15
    frames_ok = int.from_bytes(p[0:2], "big")
    assert frames_ok == 3  # picture, ping, status request
    assert p[9] == 1  # live
    assert p[14] == 1  # last picture seq


def test_no_allocation_per_frame():
    a = run_scenario("alloc")["results"]
    assert a["has_mem_alloc"]
    assert a["pictures"] == 40 and a["frames_bad"] == 1
    assert a["reply_bytes"] > 0
    assert a["locked_ok"], "the firmware allocated while the heap was locked"
    assert a["alloc_delta"] == 0


def test_main_runs_until_ctrl_c_and_keeps_the_watchdog_fed():
    m = run_scenario("main_entry")["results"]
    assert m["led_count"] == 208 and m["name"] == "rp2"
    types = [r["type"] for r in m["replies"]]
    assert types == [0x82, 0x82, 0x80]  # boot announce, HELLO reply, picture ACK
    assert m["pictures"] == 1
    assert m["wdt_armed"] == 1  # armed once, by the first valid host frame
    assert m["wdt_timeout"] == 5000 and m["wdt_feeds"] >= 1
    assert m["strip_sum"] == 0  # dark at the REPL
    assert m["timer_period"] == 1000
    assert m["timer_feeds_wdt"] == m["wdt_feeds"] + 1
    assert "stopped, at the REPL" in " ".join(run_scenario("main_entry")["output"])
