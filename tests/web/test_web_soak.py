"""Soak (bounded): many websocket connect/close cycles leave the worker as it was.

The full run (10,000 cycles) is benchmarks/bench_soak.py; figures in the README. Here: the
threaded worker, where a leaked writer shows as a thread (1,000 display cycles once took it
from 2 to 866 threads), and the default gevent worker, where it would show as memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from live_server import Host, LiveServer, Peer, Phone, settled_status


def _cycles(server: LiveServer, seat: dict, count: int) -> None:
    """Display, seat and host connections in turn: open, first view, close."""
    for i in range(count):
        kind = i % 3
        if kind == 0:
            peer: Peer = Peer(f"{server.ws_base}/t/1/ws/display")
            peer.until(lambda f: f["type"] == "view")
        elif kind == 1:
            peer = Phone(server, "1", seat)
            peer.hello()
        else:
            peer = Host(server, "1")
            peer.hello()
        peer.close()


@pytest.mark.parametrize(("worker", "cycles"), [("gthread", 450), ("gevent", 900)])
def test_connect_close_cycles_leave_threads_and_memory_flat(
    tmp_path: Path, worker: str, cycles: int
) -> None:
    server = LiveServer(tmp_path / "data", extra=["--board", "none", "--worker", worker])
    server.start()
    try:
        seat = server.join("1", "Ana", "orange")
        _cycles(server, seat, 60)  # warm up: pools, caches, the first frames
        start = settled_status(server, lambda s: True)
        _cycles(server, seat, cycles)
        end = settled_status(
            server,
            lambda s: (
                s["threads"] <= start["threads"] + 10 and s["rss_kb"] <= start["rss_kb"] + 15 * 1024
            ),
        )
        assert end["threads"] <= start["threads"] + 10, (start, end)
        assert end["rss_kb"] <= start["rss_kb"] + 15 * 1024, (start, end)
    finally:
        server.stop()
