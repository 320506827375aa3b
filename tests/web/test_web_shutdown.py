"""Stopping the server (systemd's SIGTERM or Ctrl-C) tells every screen the table is closed,
so phones show "table closed" rather than "reconnecting"."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from live_server import LiveServer, Peer, Phone


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_server_sends_table_closed(tmp_path: Path, signum: int) -> None:
    live = LiveServer(tmp_path / "data").start()
    try:
        seat = live.join("1", "Ana", "orange")
        phone = Phone(live, "1", seat)
        phone.hello()
        display = Peer(f"{live.ws_base}/t/1/ws/display")
        display.until(lambda f: f["type"] == "view")
        assert live.proc is not None
        live.proc.send_signal(signum)
        for peer in (phone, display):
            closed = peer.until(lambda f: f["type"] == "table_closed", timeout=10)
            assert closed == {"type": "table_closed"}
        live.proc.wait(timeout=15)
        assert live.proc.returncode == 0
    finally:
        live.stop()
