"""What the pages cost the machine that draws them while a game plays: the table display (a TV
at 1920×1080 or 1280×720), a phone watching its seat and the host's page, in Chromium, through
a paced show.

A Pi draws the TV itself, so a page's work per beat is what decides whether a Pi keeps up; it
is also most of what the browser tests cost. Three companion players and one phone's seat
handed to a companion play a game on their own at the host's pace; after a warm-up the
benchmark reads each page's own counters (Chromium's ``Performance.getMetrics``: main-thread
task, script, layout and style time, layouts done) and the whole browser's CPU from ``/proc``
over the same window, and divides by the beats the display drew in it.

Run: ``.venv/bin/python benchmarks/bench_pages.py [--seconds 60] [--pace quick]
[--tv 1920x1080] [--server-root DIR]``. ``--server-root`` serves another tree's pages (a
``git worktree`` of an older commit) under the same browser and game, to compare the two.
Figures are of this machine's Chromium (Debian's, software drawing), not of a Pi; compare runs
of one machine only, and more than one run: the game's moment in the window moves them.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--host-resolver-rules=MAP table.lan 127.0.0.1",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "LayoutCount")


def browser_cpu_s() -> float:
    """CPU seconds of every Chromium process alive now (user + system)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"chromium" not in f.read():
                    continue
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def metrics(session: Any) -> dict[str, float]:
    got = session.send("Performance.getMetrics")["metrics"]
    return {m["name"]: m["value"] for m in got if m["name"] in METRICS}


def beats_drawn(tv: Page) -> int:
    return int(tv.evaluate("window.__display.beatLog().length"))


def frame_seq(tv: Page) -> int:
    """The sequence number of the display's latest frame (one more for every change)."""
    return int(tv.evaluate("window.__display.frame()?.seq || 0"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--pace", default="quick", help="the host's pace (quick: 2 s a beat)")
    parser.add_argument("--tv", default="1920x1080")
    parser.add_argument("--server-root", type=Path, default=ROOT, help="the tree to serve")
    args = parser.parse_args()
    # The server runs from the tree its test helper lives in (live_server.ROOT).
    sys.path.insert(0, str(args.server_root.resolve() / "tests" / "web"))
    from live_server import Host, LiveServer

    width, height = (int(x) for x in args.tv.split("x"))
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        srv = LiveServer(Path(tmp), host_name="table.lan", extra=["--pace", args.pace])
        srv.start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            phone = browser.new_context(**PHONE).new_page()
            phone.goto(srv.join_url("1"))
            phone.fill("input[name=name]", "Ana")
            phone.click("label.colour-option:has(input[value=orange])")
            phone.click("#join-form button[type=submit]")
            phone.wait_for_selector("#screen-lobby:not([hidden])")
            host = Host(srv, "1")
            host.hello()
            for name in ("Ben", "Cleo", "Dev"):
                assert host.act("add_bot", level="plain", name=name)["type"] == "ok"
            tv = browser.new_context(viewport={"width": width, "height": height}).new_page()
            tv.goto(f"{srv.base}/t/1/")
            tv.wait_for_function("() => window.__display?.beat")
            assert host.act("start", dice="digital")["type"] == "ok"
            assert host.act("hand_to_bot", seat="ana", level="plain")["type"] == "ok"
            # The host's page, open on the host's phone all game.
            host_page = browser.new_context(**PHONE).new_page()
            host_page.goto(srv.host_url("1"))
            host_page.wait_for_selector("#undo")
            pages = {"display": tv, "phone": phone, "host": host_page}
            sessions = {}
            for name, page in pages.items():
                sessions[name] = page.context.new_cdp_session(page)
                sessions[name].send("Performance.enable")
            time.sleep(args.warmup)
            before = {n: metrics(s) for n, s in sessions.items()}
            cpu0, beats0, seq0 = browser_cpu_s(), beats_drawn(tv), frame_seq(tv)
            t0 = time.monotonic()
            time.sleep(args.seconds)
            after = {n: metrics(s) for n, s in sessions.items()}
            cpu1, beats1, seq1 = browser_cpu_s(), beats_drawn(tv), frame_seq(tv)
            wall = time.monotonic() - t0
        finally:
            browser.close()
            srv.stop()
    beats = max(1, beats1 - beats0)
    frames = max(1, seq1 - seq0)
    print(f"server: {args.server_root.resolve()}")
    print(
        f"pace {args.pace}, TV {args.tv}, {wall:.0f} s measured, {beats} beats drawn, "
        f"{frames} frames ({(cpu1 - cpu0) / frames * 1000:.0f} ms of Chromium CPU a frame)"
    )
    print(
        f"Chromium, all processes: {cpu1 - cpu0:.1f} CPU-s, {100 * (cpu1 - cpu0) / wall:.1f} % "
        f"of a core, {(cpu1 - cpu0) / beats:.3f} CPU-s a beat"
    )
    for name in pages:
        d = {k: after[name].get(k, 0.0) - before[name].get(k, 0.0) for k in METRICS}
        print(
            f"{name:8s} main thread {d['TaskDuration'] / beats * 1000:6.1f} ms a beat "
            f"(script {d['ScriptDuration'] / beats * 1000:.1f}, layout "
            f"{d['LayoutDuration'] / beats * 1000:.1f}, style "
            f"{d['RecalcStyleDuration'] / beats * 1000:.1f}), "
            f"{d['LayoutCount'] / beats:.1f} layouts a beat"
        )


if __name__ == "__main__":
    main()
