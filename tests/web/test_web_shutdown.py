"""Stopping the server (systemd's SIGTERM or Ctrl-C) tells every screen the table is closed,
so phones show "table closed" rather than "reconnecting"."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from live_server import LiveServer, Peer, Phone
from shapes import check

from companion.table.frame_types import TableClosedFrame


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
            check(closed, TableClosedFrame, "table_closed")  # its type (PROTOCOL.md 3.4)
        live.proc.wait(timeout=15)
        assert live.proc.returncode == 0
    finally:
        live.stop()


# The gevent worker's SIGTERM handler, in a process of its own as gevent patches everything:
# the signal arrives while a table's own thread runs (a board's link reading its port), and
# closing the tables joins that thread. Run in that thread it failed with "cannot join current
# thread" and left the board open (seen in servers' logs at stop).
SIGNAL_IN_A_THREAD = r"""
from gevent import monkey

monkey.patch_all()
import json
import threading

import gevent

from companion.web.serve import on_term

errors, stopped = [], []


def close():
    try:
        link.join(timeout=2)  # what closing a board's link does
    except RuntimeError as exc:
        errors.append(str(exc))


handler = on_term(lambda signum, frame: stopped.append(signum), close)
link = threading.Thread(target=lambda: handler(15, None), name="board-link")
link.start()
link.join()
with gevent.Timeout(5):
    while not stopped:
        gevent.sleep(0.01)
print(json.dumps({"errors": errors, "stopped": stopped}))
"""


def test_sigterm_inside_a_tables_thread_still_closes_it_then_stops() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SIGNAL_IN_A_THREAD],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(out.stdout.splitlines()[-1]) == {"errors": [], "stopped": [15]}, out.stderr
