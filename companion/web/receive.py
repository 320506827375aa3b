"""The receive loop of every websocket (the tables' sockets and the admin's replay display):
each message checked for rate, size and shape before its handler sees it (PROTOCOL.md 3)."""

from __future__ import annotations

from collections.abc import Iterator

from companion.table.frame_types import ErrorFrame
from companion.web.connections import Connection, WsConnection
from companion.web.guard import RateLimit, Refused, parse
from companion.web.messages import JsonObject
from companion.web.services import config_of


def send_error(conn: Connection, code: str, reason: str, msg_id: object = None) -> None:
    """An error frame; ``id`` names the refused message when it had one."""
    frame: ErrorFrame = {"type": "error", "code": code, "reason": reason}
    if isinstance(msg_id, str):
        frame["id"] = msg_id
    conn.send(frame)


def _id_of(raw: str | bytes | None, max_bytes: int) -> object:
    """The id of a dropped message, so its sender stops waiting for an answer to it (a
    phone's outbox keeps a command until an ack or an error names it)."""
    try:
        return parse(raw, max_bytes).get("id")
    except Refused:
        return None


def messages(conn: WsConnection) -> Iterator[JsonObject]:
    """Yield each valid message while the connection lives; a refused one (too many, too
    large, not a JSON object with a type) gets its error frame here and is dropped. Ends with
    ``ConnectionClosed`` from the socket when the peer goes."""
    config = config_of()
    limit = RateLimit(config.rate, config.burst)
    while conn.alive:
        raw = conn.ws.receive()
        if not limit.allow():
            send_error(
                conn,
                "rate_limited",
                f"more than {config.rate:g} messages a second; this one was dropped",
                _id_of(raw, config.max_message),
            )
            continue
        try:
            yield parse(raw, config.max_message)
        except Refused as exc:
            send_error(conn, exc.code, exc.reason)
