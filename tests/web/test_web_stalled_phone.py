"""A phone that stops reading (asleep with its socket still open) must not freeze its table.

The table sends frames under its lock; :class:`WsConnection` hands them to the connection's own
writer thread, so a send never waits on a phone's network, and a peer whose frames have waited
too long is dropped (the phone reconnects when it wakes and gets its whole view back). Real
kernel sockets with small buffers stand in for the phone's stalled connection; only the
websocket framing is left out.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

from companion.web.sockets import WsConnection


class RawWebsocket:
    """The two calls WsConnection makes on a flask-sock websocket, on a real socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.closed_with: tuple[Any, Any] | None = None

    def send(self, text: str) -> None:
        self.sock.sendall(text.encode())

    def close(self, reason: Any = None, message: Any = None) -> None:
        self.closed_with = (reason, message)
        self.sock.close()


def stalled_pair() -> tuple[socket.socket, socket.socket]:
    server_side, phone_side = socket.socketpair()
    server_side.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    phone_side.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    return server_side, phone_side


def test_sending_to_a_phone_that_stopped_reading_never_blocks_and_drops_it() -> None:
    server_side, phone_side = stalled_pair()
    conn = WsConnection(RawWebsocket(server_side), "seat", "ana")
    conn.STALLED_S = 0.5
    frame = "x" * 4096
    results: list[bool] = []

    def send_until_dropped() -> None:
        while len(results) < 3000 and (not results or results[-1]):
            results.append(conn.send(frame))
            time.sleep(0.01)

    # Every send returns though the phone reads nothing, until the connection is dropped: a
    # send blocked on the full socket would never return and the sender would not end.
    sender = threading.Thread(target=send_until_dropped, daemon=True)
    sender.start()
    sender.join(60)
    assert not sender.is_alive(), f"a send blocked after {len(results)} sends"
    assert results[0] is True
    assert results[-1] is False and not conn.alive  # dropped after its frames waited 0.5 s
    # The phone side sees the connection end after whatever was buffered.
    phone_side.settimeout(5)
    received = 0
    while chunk := phone_side.recv(65536):
        received += len(chunk)
    assert 0 < received < len(frame) * len(results)
    phone_side.close()


def test_frames_to_a_reading_phone_arrive_in_order_and_close_comes_last() -> None:
    server_side, phone_side = socket.socketpair()
    ws = RawWebsocket(server_side)
    conn = WsConnection(ws, "seat", "ana")
    for i in range(200):
        assert conn.send(f"<{i}>")
    conn.close(4409, "taken over by another device")
    conn.flush(timeout=5)
    phone_side.settimeout(5)
    data = b""
    while chunk := phone_side.recv(65536):
        data += chunk
    assert data.decode() == "".join(f"<{i}>" for i in range(200))
    assert ws.closed_with == (4409, "taken over by another device")
    assert conn.send("late") is False  # nothing goes out after the close
