"""Slow and hostile clients do not lock anybody out (bounded; the full figures come from
benchmarks/bench_slow_clients.py). Before the gevent worker, 260 half-sent requests took
every thread: pages, /healthz and new websockets timed out while they stayed open."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import requests
from live_server import (
    HALF_HEAD,
    SLOW_BODY,
    Host,
    LiveServer,
    Peer,
    Phone,
    ended,
    seat_phones,
    slow_client,
)


def test_slow_clients_do_not_lock_out_a_new_phone(tmp_path: Path) -> None:
    server = LiveServer(
        tmp_path / "data", extra=["--board", "none", "--max-per-address", "64"]
    ).start()
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
            slow.append(slow_client(server.port, sources[i % 6], HALF_HEAD if i % 2 else SLOW_BODY))
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
        hog = [slow_client(server.port, "127.0.0.9", HALF_HEAD) for _ in range(100)]
        slow += hog
        deadline = time.monotonic() + 10
        while sum(ended(s) for s in hog) < 36 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sum(ended(s) for s in hog) >= 36  # at most 64 kept per address
        assert requests.get(f"{server.local}/healthz", timeout=10).ok

        # Idle and slow connections are timed out (15 s without a byte).
        deadline = time.monotonic() + 60
        while not all(ended(s) for s in slow) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert all(ended(s) for s in slow), sum(not ended(s) for s in slow)
        # The phone's websocket is not idle-timed out like a stalled request.
        phone.send({"type": "ping", "token": phone.token, "t": 1})
        assert phone.until(lambda f: f["type"] == "pong")["t"] == 1
    finally:
        for s in slow:
            s.close()
        server.stop()


def test_hundreds_of_open_websockets_still_serve_a_newcomer(tmp_path: Path) -> None:
    """300 open websockets (the benchmark holds 1,000): a newcomer's display still gets its
    view and the page loads; the worker stays far under 200 MB. All clients here come from
    127.0.0.1, so this server lets one address hold them."""

    server = LiveServer(
        tmp_path / "data", tables=10, extra=["--board", "none", "--max-per-address", "400"]
    ).start()
    peers: list[Peer] = []
    try:
        for t in range(1, 11):
            peers += seat_phones(server, str(t), ["Ana", "Ben", "Cleo", "Dan", "Eva"])
        while len(peers) < 300:
            peers.append(Peer(f"{server.ws_base}/t/{1 + len(peers) % 10}/ws/display"))
        for peer in peers[50:]:
            peer.until(lambda f: f["type"] == "view")
        newcomer = Peer(f"{server.ws_base}/t/1/ws/display")
        assert newcomer.until(lambda f: f["type"] == "view")["table"]["name"] == "1"
        assert requests.get(f"{server.local}/t/1/", timeout=10).status_code == 200
        assert server.worker_status()["rss_kb"] < 200 * 1024
    finally:
        for peer in peers:
            peer.close()
        server.stop()
