"""Slow and hostile clients do not lock anybody out (bounded; the full figures come from
benchmarks/bench_slow_clients.py). Before the gevent worker, 260 half-sent requests took
every thread: pages, /healthz and new websockets timed out while they stayed open."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import requests
from live_server import Host, LiveServer, Phone, seat_phones

HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
SLOW_BODY = (b"POST /t/1/api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
             b"\r\nContent-Length: 1000\r\n\r\n{")


def _slow(port: int, source: str, payload: bytes) -> socket.socket:
    s = socket.socket()
    s.settimeout(10)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(payload)
    return s


def _ended(s: socket.socket) -> bool:
    """The server answered or closed (it timed the connection out)."""
    s.setblocking(False)
    try:
        s.recv(1, socket.MSG_PEEK)
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_slow_clients_do_not_lock_out_a_new_phone(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "data", extra=["--board", "none"]).start()
    slow: list[socket.socket] = []
    try:
        phones = seat_phones(server, "1", ["Ana", "Ben", "Cleo"])
        host = Host(server, "1")
        host.hello()
        assert host.act("start", dice="digital")["type"] == "ok"
        assert host.act("release_seat", seat="cleo")["type"] == "ok"
        secret = server.join_secret("1")
        for p in phones:
            p.close()
        # 150 half-sent heads and 150 stalled bodies from six other addresses, held open.
        sources = [f"127.0.0.{i}" for i in range(2, 8)]
        for i in range(300):
            slow.append(_slow(server.port, sources[i % 6], HALF_HEAD if i % 2 else SLOW_BODY))
        # A new phone loads the pad, takes the released seat and plays its move.
        page = requests.get(f"{server.local}/t/1/join/{secret}", timeout=10)
        assert page.status_code == 200
        seat = server.join("1", "Fay", "purple", secret=secret)
        assert seat["status"] == 200 and seat["seat"] == "cleo"
        phone = Phone(server, "1", seat)
        view = phone.hello()
        assert view["you"]["pending"], view["you"]
        phone.command({"type": "sacrifice", "card": 2})
        assert phone.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"

        # One address cannot take most of the server: beyond its share it is refused at once,
        # and everybody else is still served.
        hog = [_slow(server.port, "127.0.0.9", HALF_HEAD) for _ in range(100)]
        slow += hog
        deadline = time.monotonic() + 10
        while sum(_ended(s) for s in hog) < 36 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sum(_ended(s) for s in hog) >= 36  # at most 64 kept per address
        assert requests.get(f"{server.local}/healthz", timeout=10).ok

        # Idle and slow connections are timed out (15 s without a byte).
        deadline = time.monotonic() + 60
        while not all(_ended(s) for s in slow) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert all(_ended(s) for s in slow), sum(not _ended(s) for s in slow)
        # The phone's websocket is not idle-timed out like a stalled request.
        phone.send({"type": "ping", "token": phone.token, "t": 1})
        assert phone.until(lambda f: f["type"] == "pong")["t"] == 1
    finally:
        for s in slow:
            s.close()
        server.stop()
