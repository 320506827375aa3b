"""The one step route and the one display socket of every open replay, the café admin's and a
table's phones' alike (``replay_sessions``). Neither needs a token: a replay's id is an
unguessable secret that only a checked replay page hands out (the admin token for the café
admin's, a seat or the host token for a table's, PROTOCOL.md 7).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request, url_for
from simple_websocket import ConnectionClosed

from companion.web.connections import WsConnection
from companion.web.guard import Refused, body_json, pong
from companion.web.receive import messages, send_error
from companion.web.replay_sessions import Built, move
from companion.web.responses import no_store
from companion.web.services import replays_of
from companion.web.sockets import ws_route

bp = Blueprint("replays", __name__)


def socket_path(rid: str) -> str:
    """The display socket of replay ``rid`` (a path: the page adds ws:// and its host)."""
    return f"/replays/{rid}/ws"


def render_replay(rid: str, built: Built, admin_token: str = "", start_step: int = 0) -> Response:
    """The page of replay ``rid``: the display's page, moved by this step route and shown
    through this socket, whoever opened it (the café admin's carries the admin token for its
    controls; a table's phone or host opens it at ``start_step``)."""
    summary = built.frames[-1]["table"]
    urls = {
        **summary["urls"],
        "ws_display": socket_path(rid),
        "qr": "",
        "step": url_for("replays.replay_step", rid=rid),
    }
    page = render_template(
        "replay.html",
        table=summary,
        urls=urls,
        colours=[],
        wifi_ssid=None,
        admin_token=admin_token,
        steps=len(built.frames),
        start_step=start_step,
        chapters=built.chapters,
    )
    return no_store(Response(page))


@bp.post("/replays/<rid>/step")
def replay_step(rid: str) -> Any:
    """Move replay ``rid``: ``{"to": n}`` shows step n (0 = before the first event); with
    ``pace`` it plays (``replay_sessions.move``)."""
    replay = replays_of().get(rid)
    if replay is None:
        reason = "this replay has expired; open it again"
        return jsonify({"error": "no_replay", "reason": reason}), 404
    try:
        body = body_json(request.get_data())
    except Refused as exc:
        return jsonify({"error": exc.code, "reason": exc.reason}), 400
    answer, status = move(replay, body)
    return jsonify(answer), status


@ws_route("/replays/<rid>/ws", bp)
def replay_socket(ws: Any, rid: str) -> None:
    """A display following replay ``rid``: it gets the step shown now and every move."""
    conn = WsConnection(ws, "display")
    try:
        replay = replays_of().get(rid)
        if replay is None:
            conn.close(4404, "no such replay")
            return
        replay.attach(conn)
        try:
            for msg in messages(conn):
                if msg["type"] == "ping":
                    conn.send(pong(msg))
                else:
                    send_error(conn, "unknown_type", "the replay display only sends ping")
        except ConnectionClosed:
            pass
        finally:
            replay.detach(conn)
    finally:
        conn.shutdown()
