"""Websocket endpoints for the display, the phones and the host (PROTOCOL.md section 3).

Each connection's thread reads messages, checks size, rate, shape and token, and hands the
request to its table; the table commits and its hub sends the frames (``companion.web.hub``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from flask import Blueprint, Response, current_app, request
from flask_sock import Sock
from simple_websocket import ConnectionClosed

from companion.table import Outcome, Table, TableError, policy
from companion.table.frame_types import AckFrame, ErrorFrame
from companion.table.model import ErrorCode, Role
from companion.web import i18n, receive
from companion.web.config import ServerConfig
from companion.web.connections import Connection, WsConnection
from companion.web.guard import (
    RateLimit,
    RefusalCode,
    Refused,
    command_request,
    message_type,
    origin_allowed,
    pong,
)
from companion.web.hub import Hub
from companion.web.messages import JsonObject
from companion.web.services import cafe_of, guesses_of, hub_of

log = logging.getLogger(__name__)

bp = Blueprint("sockets", __name__)
sock = Sock()
# A websocket handler: the socket, then the URL's parts.
WsHandler = Callable[..., None]


def ws_route(path: str, blueprint: Blueprint) -> Callable[[WsHandler], WsHandler]:
    """``sock.route`` with its type said (flask-sock ships no type information)."""
    route: Callable[[WsHandler], WsHandler] = sock.route(path, bp=blueprint)
    return route


CLOSE_BAD_TOKEN = 4401


@bp.before_request
def _check_origin() -> Response | None:
    """Refuse cross-site websocket upgrades before the handshake (a page on another site
    must not drive a phone's or the host's socket)."""
    config: ServerConfig = current_app.config["COMPANION"]
    if not origin_allowed(
        request.headers.get("Origin"),
        request.headers.get("Host"),
        request.environ.get("SERVER_PORT"),
        config.allowed_origins,
        request.scheme,
    ):
        return Response(
            "websocket from a foreign origin refused", status=403, mimetype="text/plain"
        )
    return None


def _error(
    conn: Connection, code: RefusalCode | ErrorCode, reason: str, msg_id: object = None
) -> None:
    frame: ErrorFrame = {"type": "error", "code": code, "reason": reason}
    if isinstance(msg_id, str):
        frame["id"] = msg_id
    conn.send(frame)


def _messages(conn: WsConnection) -> Iterator[tuple[str, JsonObject]]:
    """Yield each valid message with its type; refused ones get their error frame
    (web/receive.py). Every other field is the reader's to check."""
    for msg in receive.messages(conn):
        try:
            kind = message_type(msg)
        except Refused as exc:  # guard.parse lets none of these through; never a dead handler
            _error(conn, exc.code, exc.reason)
            continue
        yield kind, msg


def _hub_or_close(conn: WsConnection, name: str) -> Hub | None:
    hub = hub_of(name)
    if hub is None:
        _error(conn, "no_table", f"no table {name!r} here")
        conn.close(4404, "no such table")
    return hub


def _serve(ws: Any, name: str, role: Role, handle: Callable[[Hub, WsConnection], None]) -> None:
    """Run one socket's handler; its writer always ends with it."""
    conn = WsConnection(ws, role)
    try:
        hub = _hub_or_close(conn, name)
        if hub is not None:
            try:
                handle(hub, conn)
            except ConnectionClosed:
                pass
            finally:
                hub.detach(conn)
    finally:
        conn.shutdown()  # the frames sent so far go out, then the writer ends


def _answer(
    conn: Connection, table: Table, kind: str, msg_id: object, action: Callable[[], object]
) -> None:
    """Run one request; a refusal or a bug becomes an error frame, never a dead handler."""
    try:
        action()
    except (TableError, Refused) as exc:
        _error(conn, exc.code, exc.reason, msg_id)
    except Exception:  # noqa: BLE001 - a bug must not take the connection down unexplained
        log.exception("table %s: %s message failed", table.name, kind)
        _error(
            conn,
            "server_error",
            "the server failed on this message; nothing was changed unless a view says so",
            msg_id,
        )


def _ack(conn: Connection) -> Callable[[Outcome], None]:
    """The acknowledgement of a committed command, sent before its views."""

    def send(outcome: Outcome) -> None:
        # Table.submit's reply: its outcome carries the command's id (checked to be text).
        assert outcome.ack_id is not None
        frame: AckFrame = {"type": "ack", "id": outcome.ack_id, "seq": outcome.seq}
        if outcome.retry:
            frame["retry"] = True
        conn.send(frame)

    return send


@ws_route("/t/<name>/ws/display", bp)
def display_socket(ws: Any, name: str) -> None:
    def handle(hub: Hub, conn: WsConnection) -> None:
        hub.attach(conn)
        mine = RateLimit(*LANGUAGE_PER_DISPLAY)
        for kind, msg in _messages(conn):
            try:
                if kind not in policy.DISPLAY_MESSAGES:
                    raise Refused("unknown_type", "the display only sends ping and set_language")
                if kind == "set_language":
                    # Any device on the network may open a display socket (no token): its
                    # language changes are limited per socket and per table, so a flood of
                    # them cannot keep a table's screens redrawing.
                    if not (mine.allow() and _table_language_limit(hub.table.name).allow()):
                        _error(conn, "rate_limited", LANGUAGE_LIMITED, msg.get("id"))
                        continue
                    # The display's own picker: the same setting as the host's (phones keep
                    # their own language); the new views are the answer.
                    _answer(
                        conn,
                        hub.table,
                        "set_language",
                        msg.get("id"),
                        partial(_set_display_language, hub.table, msg),
                    )
                else:
                    conn.send(pong(msg))
            except Refused as exc:
                _error(conn, exc.code, exc.reason)

    _serve(ws, name, "display", handle)


@ws_route("/t/<name>/ws/seat", bp)
def seat_socket(ws: Any, name: str) -> None:
    def handle(hub: Hub, conn: WsConnection) -> None:
        table = hub.table
        attached = False
        for kind, msg in _messages(conn):
            if not attached:
                if kind != "hello":
                    _error(conn, "not_hello", "say hello with your seat and token first")
                    continue
                seat = msg.get("seat")
                if not isinstance(seat, str) or not table.check_seat(seat, msg.get("token")):
                    _error(
                        conn,
                        "bad_token",
                        "this seat token is not valid (seat released or never joined); join again",
                    )
                    conn.close(CLOSE_BAD_TOKEN, "bad token")
                    return
                conn.seat = seat
                if not hub.attach(conn):
                    return  # a newer connection holds the seat (refused and closed)
                attached = True
                continue
            if not table.check_seat(conn.seat, msg.get("token")):
                _error(conn, "bad_token", "this seat token is not valid", msg.get("id"))
                conn.close(CLOSE_BAD_TOKEN, "bad token")
                return
            msg_id = msg.get("id")
            _answer(conn, table, kind, msg_id, partial(_seat_message, hub, conn, kind, msg))

    _serve(ws, name, "seat", handle)


def _seat_message(hub: Hub, conn: WsConnection, kind: str, msg: JsonObject) -> None:
    msg_id, table = msg.get("id"), hub.table
    if kind == "command":
        request = command_request(msg)  # exact keys: nothing unread is stored with the game
        table.submit(f"seat:{conn.seat}", msg_id, request["command"], reply=_ack(conn))
    elif kind == "ping":
        conn.send(pong(msg))
    elif kind == "leave":
        # ok only once the seat is given up (and before the socket is closed for it)
        table.leave(
            conn.seat or "",
            reply=lambda _o: conn.send(
                {"type": "ok", "for": "leave", "id": msg_id if isinstance(msg_id, str) else None}
            ),
        )
    elif kind == "hello":
        conn.send(hub.hello("seat", conn.seat))
    elif kind == "hint":
        _hint(table, conn, msg_id)
    elif kind == "showing":
        seq, asks, held = _showing(msg)
        hub.showing(conn, seq, asks, held)
    else:
        raise TableError("unknown_type", f"unknown message type {kind!r}")


PAD_KINDS = frozenset({"sacrifice", "bid", "dice", "roll", "city", "pyramid"})


def _showing(msg: JsonObject) -> tuple[int, frozenset[str], bool]:
    """A pad's report of what it asks at which view (PROTOCOL.md 3.3)."""
    seq, asks, held = msg.get("seq"), msg.get("asks"), msg.get("held", False)
    if (
        not isinstance(seq, int)
        or isinstance(seq, bool)
        or not 0 <= seq < 2**31
        or not isinstance(asks, list)
        or len(asks) > len(PAD_KINDS)
        or not all(isinstance(a, str) and a in PAD_KINDS for a in asks)
        or not isinstance(held, bool)
    ):
        raise Refused(
            "bad_message",
            "showing needs seq (a view number), asks (a list of question kinds) "
            "and optionally held (true or false)",
        )
    return seq, frozenset(asks), held


def _hint(table: Table, conn: WsConnection, msg_id: object) -> None:
    """Learning mode: the suggestion for this seat's own view, to this connection only."""
    level, seen, seq = table.hint_request(conn.seat or "")
    bots = cafe_of().bots
    if bots is None:
        raise TableError("hints_off", "this server runs no companion players")

    def done(result: Any, error: BaseException | None) -> None:
        conn.send(
            {
                "type": "hint",
                "id": msg_id if isinstance(msg_id, str) else None,
                "seq": seq,
                "hint": None if error else result,
            }
        )

    bots.hint(level, seen, done)


# A display's language picker: (changes a second, burst) per display socket and per table.
# (A person flicking through the four languages and back stays within the burst.)
LANGUAGE_PER_DISPLAY = (1.0, 6)
LANGUAGE_PER_TABLE = (2.0, 8)
LANGUAGE_LIMITED = "the display's language may change about once a second; this one was dropped"
_language_limits: dict[str, RateLimit] = {}  # by table name (a café's tables are few)


def _table_language_limit(name: str) -> RateLimit:
    limit = _language_limits.get(name)
    if limit is None:
        limit = _language_limits[name] = RateLimit(*LANGUAGE_PER_TABLE)
    return limit


def _set_display_language(table: Table, msg: JsonObject) -> Outcome:
    """The display's own language picker: checked here, inside the answer's error handling."""
    return table.set_language(_language(msg.get("lang")))


def _language(lang: object) -> str:
    if not isinstance(lang, str) or lang not in i18n.LANGUAGES:
        raise TableError("bad_message", f"lang must be one of {', '.join(i18n.LANGUAGES)}")
    return lang


# Each host action with its message: every field is checked where it goes (the table's
# methods, ``_language``).
HOST_ACTIONS: dict[str, Callable[[Table, JsonObject], object]] = {
    "start": lambda t, m: t.start(m.get("dice")),
    "set_dice": lambda t, m: t.set_dice(m.get("dice")),
    "set_companion_dice": lambda t, m: t.set_companion_dice(m.get("dice")),
    "set_track_colors": lambda t, m: t.set_track_colors(m.get("colors")),
    "set_language": lambda t, m: t.set_language(_language(m.get("lang"))),
    "undo": lambda t, m: t.undo(m.get("game"), m.get("n")),
    "skip_seat": lambda t, m: t.skip_seat(m.get("seat")),
    "resume_seat": lambda t, m: t.resume_seat(m.get("seat")),
    "add_bot": lambda t, m: t.add_bot(m.get("level"), m.get("name")),
    "hand_to_bot": lambda t, m: t.hand_to_bot(m.get("seat"), m.get("level")),
    "set_hints": lambda t, m: t.set_hints(m.get("level")),
    "set_pace": lambda t, m: t.set_pace(m.get("pace")),
    "show_next": lambda t, m: t.stage.next() if t.stage is not None else None,
    "set_board_drawing": lambda t, m: t.set_board_drawing(m.get("shown")),
    "release_seat": lambda t, m: t.release_seat(m.get("seat")),
    "remove_seat": lambda t, m: t.remove_seat(m.get("seat")),
    "end_game": lambda t, m: t.end_game(),
    "new_game": lambda t, m: t.new_game(),
    "rotate_join": lambda t, m: t.rotate_join(),
}
assert set(HOST_ACTIONS) == set(policy.HOST_ACTIONS)


@ws_route("/t/<name>/ws/host", bp)
def host_socket(ws: Any, name: str) -> None:
    def handle(hub: Hub, conn: WsConnection) -> None:
        table = hub.table
        attached = False
        guesses = guesses_of()
        addr = request.remote_addr or "?"
        for kind, msg in _messages(conn):
            if not attached and (wait := guesses.wait(addr)) > 0:
                _error(
                    conn,
                    "too_many_guesses",
                    f"too many wrong links or tokens from this device; try again in {wait:.0f} s",
                    msg.get("id"),
                )
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
                hub.attach(conn)
                attached = True
                continue
            _answer(conn, table, kind, msg.get("id"), partial(_host_message, hub, conn, kind, msg))

    _serve(ws, name, "host", handle)


def _host_message(hub: Hub, conn: WsConnection, kind: str, msg: JsonObject) -> None:
    msg_id, table = msg.get("id"), hub.table
    if kind == "command":
        request = command_request(msg)  # exact keys: nothing unread is stored with the game
        table.submit("host", msg_id, request["command"], reply=_ack(conn))
    elif kind == "ping":
        conn.send(pong(msg))
    elif kind == "hello":
        conn.send(hub.hello("host"))
    elif kind in HOST_ACTIONS:
        # The views of the change go out first (the table tells the hub), then the ok.
        HOST_ACTIONS[kind](table, msg)
        conn.send({"type": "ok", "for": kind, "id": msg_id if isinstance(msg_id, str) else None})
    else:
        raise TableError("unknown_type", f"unknown message type {kind!r}")
