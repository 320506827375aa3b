"""Slow and many clients against a live ``companion serve``: is anybody locked out?

1. ``--heads`` connections that send half a request head and stop, and ``--bodies`` POSTs that
   announce a body and send one byte, spread over ``--addresses`` loopback source addresses
   (127.0.0.2, 127.0.0.3, ...), all held open. Meanwhile a new phone (127.0.0.1) loads the
   join page, joins a released seat of a running game, opens its websocket, says hello and
   plays its move: the time until the move's ack is printed (the aim: under 1 s).
2. How many of those slow connections the server has closed after ``--hold`` seconds (idle
   and slow connections are timed out).
3. One address opening ``--one-address`` connections: how many the server keeps open.
4. ``--websockets`` open websockets (40 tables x 6 clients, the rest idle displays), then a
   newcomer's display: time to its first view frame (aim: under 100 ms) and the worker's
   resident memory (aim: under 200 MB).

Prints JSON lines; asserts nothing (tests/web/test_web_slow_clients.py is the bounded check).

    nice .venv/bin/python benchmarks/bench_slow_clients.py
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

import requests  # noqa: E402
from live_server import Host, LiveServer, Peer, Phone, seat_phones  # noqa: E402

HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
SLOW_BODY = (
    b"POST /t/1/api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
    b"\r\nContent-Length: 1000\r\n\r\n{"
)


def slow_socket(port: int, source: str, payload: bytes) -> socket.socket | None:
    s = socket.socket()
    s.settimeout(5)
    try:
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(payload)
    except OSError:
        s.close()
        return None
    return s


def still_open(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        s.recv(1, socket.MSG_PEEK)  # an answer (an error) or the end: the server ended it
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False


def newcomer(server: LiveServer, secret: str) -> dict[str, Any]:
    """A phone that loads the pad, takes the released seat and plays its move."""
    t0 = time.monotonic()
    page = requests.get(f"{server.local}/t/1/join/{secret}", timeout=30)
    t_page = time.monotonic()
    seat = server.join("1", "Fay", "purple", secret=secret)
    t_join = time.monotonic()
    phone = Phone(server, "1", seat)
    view = phone.hello()
    t_view = time.monotonic()
    pending = view["you"]["pending"]
    phone.command({"type": "sacrifice", "card": 2} if pending else {"type": "noop"})
    ack = phone.until(lambda f: f["type"] in ("ack", "error"), timeout=30)
    t_ack = time.monotonic()
    phone.close()
    return {
        "page_status": page.status_code,
        "join_status": seat["status"],
        "answer": ack["type"],
        "page_ms": round((t_page - t0) * 1000),
        "join_ms": round((t_join - t_page) * 1000),
        "hello_ms": round((t_view - t_join) * 1000),
        "total_ms": round((t_ack - t0) * 1000),
    }


def many_websockets(args: argparse.Namespace, data: Path) -> None:
    """Part 4: every client of this benchmark comes from 127.0.0.1, so this server lets one
    address hold them all (--max-per-address)."""
    extra = [
        "--board",
        "none",
        "--max-per-address",
        str(args.websockets + 100),
        *args.server_args.split(),
    ]
    server = LiveServer(data, tables=41, extra=extra).start()
    try:
        peers: list[Peer] = []
        for t in range(2, 42):
            if len(peers) >= args.websockets:
                break
            peers += seat_phones(server, str(t), ["Ana", "Ben", "Cleo", "Dan", "Eva"])
            peers.append(Peer(f"{server.ws_base}/t/{t}/ws/display"))
        while len(peers) < args.websockets:
            peers.append(Peer(f"{server.ws_base}/t/{2 + len(peers) % 40}/ws/display"))
        time.sleep(2.0)
        times = []
        for _ in range(20):
            t0 = time.monotonic()
            peer = Peer(f"{server.ws_base}/t/1/ws/display")
            peer.until(lambda f: f["type"] == "view")
            times.append((time.monotonic() - t0) * 1000)
            peer.close()
        page_t0 = time.monotonic()
        requests.get(f"{server.local}/t/1/", timeout=30)
        page_ms = (time.monotonic() - page_t0) * 1000
        times.sort()
        print(
            json.dumps(
                {
                    "result": "many_websockets",
                    "open": len(peers),
                    "newcomer_view_ms_median": round(times[len(times) // 2], 1),
                    "newcomer_view_ms_max": round(times[-1], 1),
                    "display_page_ms": round(page_ms, 1),
                    "rss_mb": round(server.worker_status()["rss_kb"] / 1024, 1),
                    "threads": server.worker_status()["threads"],
                }
            ),
            flush=True,
        )
        for p in peers:
            p.close()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heads", type=int, default=500)
    parser.add_argument("--bodies", type=int, default=500)
    parser.add_argument("--addresses", type=int, default=20)
    parser.add_argument("--hold", type=float, default=40.0)
    parser.add_argument("--one-address", type=int, default=1000)
    parser.add_argument("--websockets", type=int, default=1000)
    parser.add_argument("--server-args", default="", help="extra companion serve arguments")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        extra = ["--board", "none", *args.server_args.split()]
        server = LiveServer(Path(tmp) / "data", tables=40, extra=extra).start()
        try:
            phones = seat_phones(server, "1", ["Ana", "Ben", "Cleo"])
            host = Host(server, "1")
            host.hello()
            host.act("start", dice="digital")
            host.act("release_seat", seat="cleo")
            secret = server.join_secret("1")
            for p in phones:
                p.close()

            sources = [f"127.0.0.{2 + i}" for i in range(args.addresses)]
            slow = [
                slow_socket(server.port, sources[i % len(sources)], HALF_HEAD)
                for i in range(args.heads)
            ]
            slow += [
                slow_socket(server.port, sources[i % len(sources)], SLOW_BODY)
                for i in range(args.bodies)
            ]
            opened = sum(1 for s in slow if s is not None)
            time.sleep(1.0)  # let the server take them all in
            print(
                json.dumps(
                    {
                        "result": "newcomer_with_slow_clients",
                        "slow_opened": opened,
                        **newcomer(server, secret),
                        "rss_mb": round(server.worker_status()["rss_kb"] / 1024, 1),
                    }
                ),
                flush=True,
            )
            t0 = time.monotonic()
            while time.monotonic() - t0 < args.hold:
                time.sleep(1.0)
            left = sum(1 for s in slow if s is not None and still_open(s))
            print(
                json.dumps(
                    {
                        "result": "slow_after_hold",
                        "hold_s": args.hold,
                        "still_open": left,
                        "of": opened,
                    }
                ),
                flush=True,
            )
            for s in slow:
                if s is not None:
                    s.close()

            one = [
                slow_socket(server.port, "127.0.0.200", HALF_HEAD) for _ in range(args.one_address)
            ]
            time.sleep(1.0)
            kept = sum(1 for s in one if s is not None and still_open(s))
            print(
                json.dumps(
                    {
                        "result": "one_address",
                        "opened": args.one_address,
                        "kept_open": kept,
                        "healthz": requests.get(f"{server.local}/healthz", timeout=30).status_code,
                    }
                ),
                flush=True,
            )
            for s in one:
                if s is not None:
                    s.close()

        finally:
            server.stop()
        # 4 again on a server that lets one address hold them all (every client of this
        # benchmark comes from 127.0.0.1)
        many_websockets(args, Path(tmp) / "data2")


if __name__ == "__main__":
    main()
