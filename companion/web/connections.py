"""One live connection (a websocket) as a table's hub sees it: who it is, and a writer
thread of its own, so a phone that stops reading never holds up the table; the writer ends
when its socket's handler ends (:meth:`WsConnection.shutdown`), so closed sockets leave no
thread behind.
"""

from __future__ import annotations

import itertools
import socket
import threading
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

import orjson

from companion.table.frames import Audience
from companion.table.model import Role

CLOSE_TAKEN_OVER = 4409
CLOSE_TABLE_CLOSED = 4410

_OPENED = itertools.count()  # the order connections opened in (see Hub.attach)


class Connection:
    """One live connection as the hub sees it; subclasses deliver the text."""

    def __init__(self, role: Role, seat: str | None = None) -> None:
        self.role = role
        self.seat = seat
        self.alive = True
        self.resent: int | None = None  # the view number this phone was last sent again at
        self.report: tuple[int, frozenset[str], bool] | None = None  # its last `showing`
        self.recheck: threading.Timer | None = None  # a look again once the beats end
        # When it opened, in order: of two connections of one seat the newer holds it,
        # whichever said hello last (a socket left open by an abandoned page says it late).
        self.opened = next(_OPENED)

    @property
    def audience(self) -> Audience:
        return (self.role, self.seat)

    def send(self, frame: Mapping[str, object] | str) -> bool:
        """Send one frame; a failure marks the connection dead instead of raising."""
        if not self.alive:
            return False
        text = frame if isinstance(frame, str) else orjson.dumps(frame).decode()
        try:
            self._send(text)
            return True
        except Exception:  # noqa: BLE001 - a broken socket must not break the table
            self.alive = False
            return False

    def _send(self, text: str) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self, code: int = 1000, reason: str = "") -> None:  # pragma: no cover
        self.alive = False

    def flush(self, timeout: float = 2.0) -> None:
        """Wait until the frames sent so far are out (nothing is queued here)."""


class WholeWrites:
    """A websocket's socket whose every write goes out whole.

    simple-websocket writes each frame (and its own pings, pongs and close) with one
    ``socket.send`` and ignores the count it returns. Under the server's gevent worker that
    send is non-blocking underneath: when the kernel buffer has less room than the frame (a
    phone on weak Wi-Fi, a browser busy for a moment, a large ``hello`` view), only a part
    goes out and the rest is lost, and after a wait for room it may even send nothing and say
    0. The phone's stream is then broken in the middle of a frame: its browser fails the
    connection (and reconnects), or, when fewer bytes follow than the cut frame announced,
    waits for them and shows nothing new until its heartbeat gives the socket up (25 s). Here
    every write is ``sendall``, and one at a time, so the writer thread's frames and the
    library's own control frames never interleave.
    """

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self._lock = threading.Lock()

    def send(self, data: bytes, flags: int = 0) -> int:
        with self._lock:
            self._sock.sendall(data, flags)
        return len(data)

    def sendall(self, data: bytes, flags: int = 0) -> None:
        self.send(data, flags)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class WsConnection(Connection):
    """A hub's view of one flask-sock websocket.

    Frames go out through an outbox drained by the connection's own writer thread, so the
    table (which publishes under its lock) never waits on a phone's network. A phone that
    stops reading (asleep with its socket open) leaves frames waiting; after ``STALLED_S`` it
    is dropped, and it reconnects when it wakes and gets its whole view back.
    """

    STALLED_S = 10.0  # a frame waiting this long means the peer stopped reading
    MAX_BACKLOG = 1000  # frames, whatever their age (memory bound)

    def __init__(self, ws: Any, role: Role, seat: str | None = None) -> None:
        super().__init__(role, seat)
        self.ws = ws
        sock_ = getattr(ws, "sock", None)
        if sock_ is not None and not isinstance(sock_, WholeWrites):
            ws.sock = WholeWrites(sock_)  # every frame whole (see WholeWrites)
        self._outbox: deque[tuple[float, str | tuple[int, str]]] = deque()
        self._ready = threading.Condition()
        self._writer: threading.Thread | None = None
        self._busy = False
        self._stopped = False  # set by shutdown(): the writer ends once the outbox is empty
        self._writer_done = False

    def _send(self, text: str) -> None:
        self._post(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the frames already sent are out (the reason frame comes first)."""
        self._post((code, reason))
        self.alive = False

    def _post(self, item: str | tuple[int, str]) -> None:
        now = time.monotonic()
        with self._ready:
            if self._stopped:
                return
            if self._outbox and (
                now - self._outbox[0][0] > self.STALLED_S or len(self._outbox) >= self.MAX_BACKLOG
            ):
                self._outbox.clear()
                self.alive = False
                self._abort()
            else:
                self._outbox.append((now, item))
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._drain, daemon=True, name=f"ws-out-{self.role}-{self.seat}"
                )
                self._writer.start()
            self._ready.notify()

    def _drain(self) -> None:
        item: str | tuple[int, str] | None = None
        try:
            while True:
                with self._ready:
                    self._busy = False
                    self._ready.notify_all()
                    while not self._outbox and not self._stopped:
                        self._ready.wait()
                    if not self._outbox:
                        return  # shut down with nothing left to send
                    _queued, item = self._outbox.popleft()
                    self._busy = True
                if isinstance(item, tuple):
                    self.ws.close(reason=item[0], message=item[1])
                    return
                self.ws.send(item)
        except Exception:  # noqa: BLE001 - a broken socket ends this writer
            self.alive = False
        finally:
            with self._ready:
                self._outbox.clear()
                self._busy = False
                self._writer_done = True
                self._ready.notify_all()

    def flush(self, timeout: float = 2.0) -> None:
        """Wait until the frames sent so far are out (the handler's end closes the socket)."""
        with self._ready:
            self._ready.wait_for(
                lambda: self._writer_done or (not self._outbox and not self._busy), timeout
            )

    def shutdown(self, timeout: float = 2.0) -> None:
        """The handler is ending: let the frames sent so far go out (up to ``timeout``), then
        stop the writer thread. Without this every closed websocket left a thread waiting
        forever for frames that never come."""
        self.flush(timeout)
        with self._ready:
            self._stopped = True
            self.alive = False
            busy = self._busy
            self._outbox.clear()
            self._ready.notify_all()
            writer = self._writer
        if busy:
            self._abort()  # a send still stuck after the flush: the peer stopped reading
        if writer is not None and writer is not threading.current_thread():
            writer.join(timeout)

    def _abort(self) -> None:
        """Unblock a writer stuck in a send to a peer that stopped reading."""
        sock_ = getattr(self.ws, "sock", None)
        if sock_ is not None:
            try:
                sock_.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
