"""Websocket endpoints for the display, the phones and the host (PROTOCOL.md section 3).

Each connection's thread reads messages, checks size, rate, shape and token, and hands the
request to its table; the table answers through :class:`WsConnection`.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections import deque
from typing import Any

from flask import Blueprint, Response, current_app, request
from flask_sock import Sock
from simple_websocket import ConnectionClosed

from companion.tables import Connection, Table, TableError
from companion.web import i18n
from companion.web.config import ServerConfig
from companion.web.guard import RateLimit, Refused, origin_allowed, parse, pong

log = logging.getLogger(__name__)

bp = Blueprint("sockets", __name__)
sock = Sock()

CLOSE_BAD_TOKEN = 4401


class WsConnection(Connection):
    """A table's view of one flask-sock websocket.

    Frames go out through an outbox drained by the connection's own writer thread, so the
    table (which sends under its lock) never waits on a phone's network. A phone that stops
    reading (asleep with its socket open) leaves frames waiting; after ``STALLED_S`` it is
    dropped, and it reconnects when it wakes and gets its whole view back.
    """

    STALLED_S = 10.0  # a frame waiting this long means the peer stopped reading
    MAX_BACKLOG = 1000  # frames, whatever their age (memory bound)

    def __init__(self, ws: Any, role: str, seat: str | None = None) -> None:
        super().__init__(role, seat)
        self.ws = ws
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
            if self._outbox and (now - self._outbox[0][0] > self.STALLED_S
                                 or len(self._outbox) >= self.MAX_BACKLOG):
                self._outbox.clear()
                self.alive = False
                self._abort()
            else:
                self._outbox.append((now, item))
            if self._writer is None:
                self._writer = threading.Thread(target=self._drain, daemon=True,
                                                name=f"ws-out-{self.role}-{self.seat}")
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
            self._ready.wait_for(lambda: self._writer_done
                                 or (not self._outbox and not self._busy), timeout)

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


@bp.before_request
def _check_origin() -> Response | None:
    """Refuse cross-site websocket upgrades before the handshake (a page on another site
    must not drive a phone's or the host's socket)."""
    config: ServerConfig = current_app.config["COMPANION"]
    if not origin_allowed(request.headers.get("Origin"), request.headers.get("Host"),
                          request.environ.get("SERVER_PORT"), config.allowed_origins,
                          request.scheme):
        return Response("websocket from a foreign origin refused", status=403,
                        mimetype="text/plain")
    return None


def _error(conn: Connection, code: str, reason: str, msg_id: Any = None) -> None:
    frame: dict[str, Any] = {"type": "error", "code": code, "reason": reason}
    if isinstance(msg_id, str):
        frame["id"] = msg_id
    conn.send(frame)


def _messages(conn: WsConnection):  # type: ignore[no-untyped-def]
    """Yield each valid message; refused ones get their error frame here."""
    config: ServerConfig = current_app.config["COMPANION"]
    limit = RateLimit(config.rate, config.burst)
    while conn.alive:
        raw = conn.ws.receive()
        if not limit.allow():
            _error(conn, "rate_limited", f"more than {config.rate:g} messages a second; "
                   "this one was dropped")
            continue
        try:
            yield parse(raw, config.max_message)
        except Refused as exc:
            _error(conn, exc.code, exc.reason)


def _table_or_close(conn: WsConnection, name: str) -> Table | None:
    table = current_app.extensions["cafe"].get(name)
    if table is None:
        _error(conn, "no_table", f"no table {name!r} here")
        conn.close(4404, "no such table")
    return table


@sock.route("/t/<name>/ws/display", bp=bp)
def display_socket(ws: Any, name: str) -> None:
    conn = WsConnection(ws, "display")
    try:
        table = _table_or_close(conn, name)
        if table is None:
            return
        table.attach(conn)
        try:
            for msg in _messages(conn):
                try:
                    if msg["type"] != "ping":
                        raise Refused("unknown_type", "the display only sends ping")
                    conn.send(pong(msg))
                except Refused as exc:
                    _error(conn, exc.code, exc.reason)
        except ConnectionClosed:
            pass
        finally:
            table.detach(conn)
    finally:
        conn.shutdown()  # the frames sent so far go out, then the writer ends


@sock.route("/t/<name>/ws/seat", bp=bp)
def seat_socket(ws: Any, name: str) -> None:
    conn = WsConnection(ws, "seat")
    try:
        table = _table_or_close(conn, name)
        if table is None:
            return
        attached = False
        try:
            for msg in _messages(conn):
                kind = msg["type"]
                if not attached:
                    if kind != "hello":
                        _error(conn, "not_hello", "say hello with your seat and token first")
                        continue
                    if not table.check_seat(msg.get("seat"), msg.get("token")):
                        _error(conn, "bad_token", "this seat token is not valid (seat released "
                               "or never joined); join again")
                        conn.close(CLOSE_BAD_TOKEN, "bad token")
                        return
                    conn.seat = msg["seat"]
                    table.attach(conn)
                    attached = True
                    continue
                if not table.check_seat(conn.seat, msg.get("token")):
                    _error(conn, "bad_token", "this seat token is not valid", msg.get("id"))
                    conn.close(CLOSE_BAD_TOKEN, "bad token")
                    return
                _seat_message(table, conn, msg)
        except ConnectionClosed:
            pass
        finally:
            if attached:
                table.detach(conn)
    finally:
        conn.shutdown()  # the frames sent so far go out, then the writer ends


def _seat_message(table: Table, conn: WsConnection, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    msg_id = msg.get("id")
    try:
        if kind == "command":
            table.submit(f"seat:{conn.seat}", msg_id, msg.get("command"), conn)
        elif kind == "ping":
            conn.send(pong(msg))
        elif kind == "leave":
            # ok only once the seat is given up (and before the socket is closed for it)
            table.leave(conn.seat or "", lambda: conn.send(
                {"type": "ok", "for": "leave", "id": msg_id if isinstance(msg_id, str)
                 else None}))
        elif kind == "hello":
            conn.send(table.snapshot("seat", conn.seat))
        elif kind == "hint":
            table.hint(conn.seat or "", conn, msg_id)
        else:
            raise TableError("unknown_type", f"unknown message type {kind!r}")
    except (TableError, Refused) as exc:
        _error(conn, exc.code, exc.reason, msg_id)
    except Exception:  # noqa: BLE001 - a bug must not take the connection down unexplained
        log.exception("table %s: %s message failed", table.name, kind)
        _error(conn, "server_error", "the server failed on this message; nothing was "
               "changed unless a view says so", msg_id)


HOST_ACTIONS = {
    "start": lambda t, m: t.start(m.get("dice")),
    "set_dice": lambda t, m: t.set_dice(m.get("dice")),
    "set_track_colors": lambda t, m: t.set_track_colors(m.get("colors")),
    "set_language": lambda t, m: t.set_language(_language(m.get("lang"))),
    "undo": lambda t, m: t.undo(),
    "skip_seat": lambda t, m: t.skip_seat(m.get("seat")),
    "resume_seat": lambda t, m: t.resume_seat(m.get("seat")),
    "add_bot": lambda t, m: t.add_bot(m.get("level"), m.get("name")),
    "hand_to_bot": lambda t, m: t.hand_to_bot(m.get("seat"), m.get("level")),
    "set_hints": lambda t, m: t.set_hints(m.get("level")),
    "release_seat": lambda t, m: t.release_seat(m.get("seat")),
    "remove_seat": lambda t, m: t.remove_seat(m.get("seat")),
    "end_game": lambda t, m: t.end_game(),
    "new_game": lambda t, m: t.new_game(),
    "rotate_join": lambda t, m: t.rotate_join(),
}


def _language(lang: Any) -> str:
    if lang not in i18n.LANGUAGES:
        raise TableError("bad_message", f"lang must be one of {', '.join(i18n.LANGUAGES)}")
    return str(lang)


@sock.route("/t/<name>/ws/host", bp=bp)
def host_socket(ws: Any, name: str) -> None:
    conn = WsConnection(ws, "host")
    try:
        table = _table_or_close(conn, name)
        if table is None:
            return
        attached = False
        try:
            guesses = current_app.extensions["guesses"]
            addr = request.remote_addr or "?"
            for msg in _messages(conn):
                kind = msg["type"]
                if not attached and (wait := guesses.wait(addr)) > 0:
                    _error(conn, "too_many_guesses", "too many wrong links or tokens from "
                           f"this device; try again in {wait:.0f} s", msg.get("id"))
                    conn.close(CLOSE_BAD_TOKEN, "too many guesses")
                    return
                if not table.check_host(msg.get("token")):
                    if not attached:
                        guesses.failed(addr)
                    _error(conn, "bad_token", "the host token is missing or wrong", msg.get("id"))
                    conn.close(CLOSE_BAD_TOKEN, "bad token")
                    return
                if not attached:
                    if kind != "hello":
                        _error(conn, "not_hello", "say hello with the host token first")
                        continue
                    table.attach(conn)
                    attached = True
                    continue
                _host_message(table, conn, msg)
        except ConnectionClosed:
            pass
        finally:
            if attached:
                table.detach(conn)
    finally:
        conn.shutdown()  # the frames sent so far go out, then the writer ends


def _host_message(table: Table, conn: WsConnection, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    msg_id = msg.get("id")
    try:
        if kind == "command":
            table.submit("host", msg_id, msg.get("command"), conn)
        elif kind == "ping":
            conn.send(pong(msg))
        elif kind == "hello":
            conn.send(table.snapshot("host"))
        elif kind in HOST_ACTIONS:
            HOST_ACTIONS[kind](table, msg)
            conn.send({"type": "ok", "for": kind, "id": msg_id if isinstance(msg_id, str)
                       else None})
        else:
            raise TableError("unknown_type", f"unknown message type {kind!r}")
    except (TableError, Refused) as exc:
        _error(conn, exc.code, exc.reason, msg_id)
    except Exception:  # noqa: BLE001 - a bug must not take the connection down unexplained
        log.exception("table %s: %s message failed", table.name, kind)
        _error(conn, "server_error", "the server failed on this message; nothing was "
               "changed unless a view says so", msg_id)
