"""Soak: websocket connect/close cycles against a live ``companion serve``.

Each cycle opens one websocket, waits for its first view frame and closes it, taking turns
between a display, a seated phone (hello with its token) and the host. Prints the worker's
thread count and resident memory (from /proc) at the start (after a short warm-up), every
``--every`` cycles and at the end, and the cycle rate. Asserts nothing: the bounded version
is tests/web/test_web_soak.py.

    nice .venv/bin/python benchmarks/bench_soak.py --cycles 10000
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

from live_server import Host, LiveServer, Peer, Phone  # noqa: E402


def cycle(server: LiveServer, kind: str, seat: dict) -> None:
    if kind == "display":
        peer: Peer = Peer(f"{server.ws_base}/t/1/ws/display")
        peer.until(lambda f: f["type"] == "view")
    elif kind == "seat":
        peer = Phone(server, "1", seat)
        peer.hello()
    else:
        peer = Host(server, "1")
        peer.hello()
    peer.close()


def settle(server: LiveServer, timeout: float = 10.0) -> dict[str, int]:
    """The worker's figures once its handler threads have ended (or after ``timeout``)."""
    deadline = time.monotonic() + timeout
    last = server.worker_status()
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = server.worker_status()
        if now == last:
            return now
        last = now
    return last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "data", extra=["--board", "none"]).start()
        try:
            seat = server.join("1", "Ana", "orange")
            kinds = ("display", "seat", "host")
            for i in range(30):
                cycle(server, kinds[i % 3], seat)
            start = settle(server)
            print(json.dumps({"cycles": 0, **start}), flush=True)
            t0 = time.monotonic()
            for i in range(1, args.cycles + 1):
                cycle(server, kinds[i % 3], seat)
                if i % args.every == 0 or i == args.cycles:
                    print(json.dumps({"cycles": i, **server.worker_status()}), flush=True)
            elapsed = time.monotonic() - t0
            end = settle(server)
            print(
                json.dumps(
                    {
                        "result": "soak",
                        "cycles": args.cycles,
                        "seconds": round(elapsed, 1),
                        "cycles_per_s": round(args.cycles / elapsed),
                        "threads_start": start["threads"],
                        "threads_end": end["threads"],
                        "rss_mb_start": round(start["rss_kb"] / 1024, 1),
                        "rss_mb_end": round(end["rss_kb"] / 1024, 1),
                        "rss_mb_growth": round((end["rss_kb"] - start["rss_kb"]) / 1024, 1),
                    }
                )
            )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
