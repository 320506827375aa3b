"""Every frame reaches a phone whole, even when its socket's buffer is nearly full.

The server runs under gevent (companion/web/worker.py), where a socket's ``send`` may send only
part of what it is given. simple-websocket writes each frame with one ``send`` and ignores the
count, so a frame larger than the room left in the kernel buffer was cut, and the phone's
stream broke in the middle of a frame (the client below saw the next frame's header as text
and closed with 1007). This test runs the real pieces the
server runs — gevent's patched sockets, simple-websocket's server side, the hub's
``WsConnection`` and its writer — over a real kernel socket pair with small buffers, in a
child process (gevent's patching must not reach the test process), and a phone side that
reads slowly and checks every frame with wsproto.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()

    import json
    import socket
    import sys

    import gevent
    import simple_websocket
    from wsproto import ConnectionType, WSConnection
    from wsproto.events import AcceptConnection, CloseConnection, Request, TextMessage

    from companion.web.connections import WsConnection

    FRAMES = 6
    SIZE = 32 * 1024  # a large view: more than the buffers below hold at once

    server_side, phone_side = socket.socketpair()
    server_side.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    phone_side.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    server_side.settimeout(20)  # as the app sets it on an upgraded socket
    phone_side.settimeout(20)

    phone = WSConnection(ConnectionType.CLIENT)
    request = phone.send(Request(host="table.lan", target="/t/1/ws/seat"))
    head = request.decode().split("\\r\\n")[1:]
    environ = {"gunicorn.socket": server_side}
    for line in head:
        if ": " in line:
            name, value = line.split(": ", 1)
            environ["HTTP_" + name.upper().replace("-", "_")] = value
    ws = simple_websocket.Server(environ)  # answers the handshake on server_side
    conn = WsConnection(ws, "seat", "ana")
    frames = [
        json.dumps({"type": "view", "seq": i, "pad": chr(97 + i) * SIZE}) for i in range(FRAMES)
    ]

    def publish():
        for text in frames:
            conn.send(text)

    received, problems, parts = [], [], []

    def read():
        # A phone that reads, but slowly: the server's buffer is full most of the time.
        try:
            while len(received) < FRAMES:
                gevent.sleep(0.002)
                chunk = phone_side.recv(4096)
                if not chunk:
                    problems.append("closed")
                    return
                phone.receive_data(chunk)
                for event in phone.events():
                    if isinstance(event, AcceptConnection):
                        continue
                    if isinstance(event, CloseConnection):
                        problems.append(f"close {event.code} {event.reason}")
                        return
                    if isinstance(event, TextMessage):
                        parts.append(event.data)
                        if event.message_finished:
                            received.append("".join(parts))
                            parts.clear()
        except Exception as exc:  # a broken stream shows here (bad header, bad UTF-8)
            problems.append(f"{type(exc).__name__}: {exc}")

    reader = gevent.spawn(read)
    gevent.spawn(publish)
    reader.join(timeout=30)
    whole = sum(1 for got, sent in zip(received, frames) if got == sent)
    print(json.dumps({"sent": FRAMES, "received": len(received), "whole": whole,
                      "problems": problems}))
    sys.stdout.flush()
    phone_side.close()  # the server side's reader sees the end and stops
    conn.shutdown(timeout=1)
    """
)


def test_large_frames_to_a_slow_phone_arrive_whole_and_in_order() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["problems"] == [], result
    assert result["received"] == result["sent"] == 6, result
    assert result["whole"] == 6, result  # each frame as sent, in the order sent
