"""What a phone costs the browser while the pad asks it something: the keep-awake video plays
then (static/js/wake.js, over plain http where the Screen Wake Lock API is missing).

A phone joins over ``http://table.lan`` (not a secure context, as phones on the LAN), two
companion players fill the table and the game starts; the phone is then asked for its first
move (a sacrifice) and nobody answers. The benchmark reads the whole browser's CPU from
``/proc`` over a window with the phone asked (the video playing) and over a window with the
video paused, the same page and moment otherwise.

Run: ``.venv/bin/python benchmarks/bench_keep_awake.py [--seconds 20] [--server-root DIR]``.
``--server-root`` serves another tree's pages (a ``git worktree`` of an older commit). Figures
are of this machine's Chromium (Debian's, software drawing, headless), not of a phone.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bench_pages import ARGS, CHROMIUM, PHONE, ROOT, browser_cpu_s
from playwright.sync_api import sync_playwright

VIDEO = "document.querySelector('video.keep-awake-video')"


def share(seconds: float) -> float:
    """The whole browser's CPU over ``seconds`` from now, in % of a core."""
    c0, t0 = browser_cpu_s(), time.monotonic()
    time.sleep(seconds)
    return 100 * (browser_cpu_s() - c0) / (time.monotonic() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="each measured window")
    parser.add_argument("--server-root", type=Path, default=ROOT, help="the tree to serve")
    args = parser.parse_args()
    sys.path.insert(0, str(args.server_root.resolve() / "tests" / "web"))
    from live_server import Host, LiveServer

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        srv = LiveServer(Path(tmp), host_name="table.lan")
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
            for name in ("Ben", "Cleo"):
                assert host.act("add_bot", level="plain", name=name)["type"] == "ok"
            assert host.act("start", dice="digital")["type"] == "ok"
            phone.wait_for_function(
                "!['', 'none'].includes(document.body.dataset.task || '')", timeout=60_000
            )
            task = phone.evaluate("document.body.dataset.task")
            phone.wait_for_function("window.__keepAwake.isAwake()")
            clip = phone.evaluate(
                f"{VIDEO}.currentSrc.startsWith('data:') ? 'NoSleep.js inline clip'"
                f" : {VIDEO}.currentSrc.split('/').pop()"
            )
            time.sleep(2)
            asked = share(args.seconds)
            phone.evaluate(f"{VIDEO}.pause()")
            time.sleep(1)
            paused = share(args.seconds)
        finally:
            browser.close()
            srv.stop()
    print(f"server: {args.server_root.resolve()}")
    print(f"clip: {clip}")
    print(f"a phone asked ({task}), the video playing: {asked:.1f} % of a core (whole browser)")
    print(f"the same phone, the video paused: {paused:.1f} % of a core")


if __name__ == "__main__":
    main()
