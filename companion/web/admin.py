"""The café admin (token printed at start-up): every table's state with its stuck-game and
join-secret actions, the history of finished games with their logs and replays, the
leaderboard, CSV exports. Pages are templates filled by admin.js from the JSON below."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
    url_for,
)
from simple_websocket import ConnectionClosed

from companion.cafe.history import History, PeriodError, games_csv, leaderboard_csv, period
from companion.engine import State, apply, new_game, views, visible_events
from companion.engine.colours import PLAYER_COLOURS
from companion.store.results import companion_levels, engine_log, meta
from companion.table import SEATS_MAX, TableError
from companion.web.guard import RateLimit, Refused, parse, pong
from companion.web.hub import WsConnection
from companion.web.replay import chapters, step_view
from companion.web.sockets import sock

bp = Blueprint("admin", __name__)


# -- access ---------------------------------------------------------------------------------
def _token() -> str | None:
    return (
        request.headers.get("X-Admin-Token")
        or request.args.get("token")
        or request.form.get("token")
    )


def _check() -> tuple[Response, int] | None:
    """None when the admin token is right; else the refusal (wrong guesses are throttled)."""
    guesses = current_app.extensions.get("guesses")
    addr = request.remote_addr or "?"
    if guesses is not None and guesses.wait(addr) > 0:
        return jsonify({"error": "rate_limited", "reason": "too many wrong tokens; wait"}), 429
    token = _token()
    if isinstance(token, str) and hmac.compare_digest(token, current_app.extensions["admin_token"]):
        return None
    if guesses is not None:
        guesses.failed(addr)
    return jsonify({"error": "bad_token", "reason": "the admin token is missing or wrong"}), 403


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def _history() -> History:
    return History(current_app.extensions["outbox"].read)


def _period() -> tuple[float | None, float | None]:
    return period(request.args.get("from"), request.args.get("to"))


# -- pages ----------------------------------------------------------------------------------
@bp.get("/admin")
def admin_page() -> Any:
    refused = _check()
    if refused:
        return refused
    return _no_store(Response(render_template("admin.html", admin_token=_token())))


# -- tables ---------------------------------------------------------------------------------
@bp.get("/admin/api/tables")
def tables_json() -> Any:
    refused = _check()
    if refused:
        return refused
    outbox = current_app.extensions["outbox"]
    out = []
    for hub in current_app.extensions["hubs"].values():
        table = hub.table
        with table.lock:
            g = table.game
            seats = [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "colour": s.colour,
                    "hex": PLAYER_COLOURS.get(s.colour),
                    "state": s.state,
                    "connected": s.seat in hub.seat_conns,
                }
                for s in table.seats
            ]
            board = table.board_status
            row: dict[str, Any] = {
                "name": table.name,
                "title": table.title,
                "status": table.status(),
                "game_id": g.id if g else None,
                "game_status": g.status if g else None,
                "round": g.state["round"] if g else None,
                "seats": seats,
                "board": (
                    {
                        "mode": board.get("mode"),
                        "connected": board.get("connected"),
                        "detail": board.get("detail"),
                    }
                    if board
                    else None
                ),
                "host_url": url_for("pages.host_page", name=table.name, token=table.host_token),
                "display_url": url_for("pages.display_page", name=table.name),
            }
            game_id = g.id if g else None
            created = None
            if g is not None:
                stored = table.store.game(g.id)
                created = stored.created if stored else None
        last = None
        if game_id is not None:
            rows = outbox.read("SELECT MAX(at) AS at FROM commands WHERE game_id = ?", (game_id,))
            last = rows[0]["at"] if rows and rows[0]["at"] is not None else created
        row["last_command_at"] = last
        row["seconds_since_command"] = round(time.time() - last, 1) if last else None
        out.append(row)
    return _no_store(
        jsonify(
            {
                "tables": out,
                "now": time.time(),
                "retention_days": current_app.config["COMPANION"].retention_days,
            }
        )
    )


def _table_action(name: str, action: str) -> Any:
    refused = _check()
    if refused:
        return refused
    table = current_app.extensions["cafe"].get(name)
    if table is None:
        return jsonify({"error": "no_table", "reason": f"no table {name!r} here"}), 404
    try:
        if action == "close":
            table.end_game()  # the host's "end game": seats stay, the table can start anew
            current_app.extensions["outbox"].notify()
        else:
            table.rotate_join()
    except TableError as exc:
        return jsonify({"error": exc.code, "reason": exc.reason}), 409
    return jsonify({"ok": True})


@bp.post("/admin/api/tables/<name>/close")
def close_game(name: str) -> Any:
    """Close a stuck game (a table nobody finishes): it ends as the host's end would."""
    return _table_action(name, "close")


@bp.post("/admin/api/tables/<name>/rotate")
def rotate_join(name: str) -> Any:
    """A new join secret: the old QR code (say, photographed) no longer seats anyone."""
    return _table_action(name, "rotate")


# -- history, leaderboard, exports ------------------------------------------------------------
def _history_row(result: dict[str, Any], token: str) -> dict[str, Any]:
    gid = result["game_id"]
    return {
        **result,
        "log": f"/admin/games/{gid}/log.json?token={token}",
        "replay": f"/admin/games/{gid}/replay?token={token}",
    }


@bp.get("/admin/api/history")
def history_json() -> Any:
    refused = _check()
    if refused:
        return refused
    try:
        since, until = _period()
    except PeriodError as exc:
        return jsonify({"error": "bad_period", "reason": str(exc)}), 400
    token = _token() or ""
    games = [_history_row(r, token) for r in _history().games(since, until)]
    return _no_store(jsonify({"games": games}))


@bp.get("/admin/api/leaderboard")
def leaderboard_json() -> Any:
    refused = _check()
    if refused:
        return refused
    try:
        since, until = _period()
    except PeriodError as exc:
        return jsonify({"error": "bad_period", "reason": str(exc)}), 400
    people_only = request.args.get("people_only") == "1"  # leave companion players out
    return _no_store(jsonify({"players": _history().leaderboard(since, until, people_only)}))


@bp.get("/admin/export/<kind>.csv")
def export_csv(kind: str) -> Any:
    refused = _check()
    if refused:
        return refused
    if kind not in ("games", "leaderboard"):
        abort(404)
    try:
        since, until = _period()
    except PeriodError as exc:
        return jsonify({"error": "bad_period", "reason": str(exc)}), 400
    history = _history()
    text = (
        games_csv(history.games(since, until, limit=100_000))
        if kind == "games"
        else leaderboard_csv(
            history.leaderboard(since, until, request.args.get("people_only") == "1")
        )
    )
    response = _no_store(Response(text, mimetype="text/csv"))
    response.headers["Content-Disposition"] = f'attachment; filename="chocolatl-{kind}.csv"'
    return response


def _stored_over(game_id: int) -> Any:
    store = current_app.extensions["cafe"].store
    stored = store.game(game_id)
    if stored is None or stored.status == "playing":
        # A running game's log would give away unrevealed bids and sacrifices.
        abort(404, description=f"no finished game {game_id}")
    return stored


@bp.get("/admin/games/<int:game_id>/log.json")
def game_log(game_id: int) -> Any:
    refused = _check()
    if refused:
        return refused
    stored = _stored_over(game_id)
    cafe = current_app.extensions["cafe"]
    table = cafe.get(stored.table_name)
    if table is not None:
        doc = table.log_document(game_id)  # the same log as the host's download
    else:  # a table no longer in the configuration: its games stay in the history
        document, commands = engine_log(
            stored.document, [c.command for c in cafe.store.commands(game_id)]
        )
        doc = {
            **document,
            "meta": meta(stored.table_name, stored.created, stored.seats),
            "commands": commands,
        }
    response = _no_store(jsonify(doc))
    response.headers["Content-Disposition"] = (
        f'attachment; filename="chocolatl-{stored.table_name}-game-{game_id}.json"'
    )
    return response


# -- replay on the display --------------------------------------------------------------------
class Replay:
    """One finished game, stepped through on a display page: a view frame per event, with the
    events of its round so far as ``history`` (the display renders it as on a reload)."""

    def __init__(self, frames: list[dict[str, Any]]) -> None:
        self.frames = frames
        self.step = 0  # a replay starts at the beginning
        self.conns: list[WsConnection] = []
        self.lock = threading.Lock()
        self.used = time.monotonic()

    def show(self, step: int) -> int:
        with self.lock:
            self.step = max(0, min(len(self.frames) - 1, step))
            frame = {
                **self.frames[self.step],
                "replay": {"step": self.step, "steps": len(self.frames)},
            }
            for conn in list(self.conns):
                conn.send(frame)
            self.used = time.monotonic()
            return self.step

    def attach(self, conn: WsConnection) -> None:
        with self.lock:
            self.conns.append(conn)
        self.show(self.step)

    def detach(self, conn: WsConnection) -> None:
        with self.lock:
            if conn in self.conns:
                self.conns.remove(conn)


_REPLAYS: OrderedDict[str, Replay] = OrderedDict()
_REPLAYS_LOCK = threading.Lock()
MAX_REPLAYS = 20


def replay_frames(
    *,
    table: str,
    title: str,
    lang: str,
    game_id: int,
    document: dict[str, Any],
    seats: list[dict[str, Any]],
    commands: list[dict[str, Any]],
    status: str,
) -> list[dict[str, Any]]:
    """The display's view frames of a finished game, one per event: the start, then each
    event of each command in turn. The board (the view) moves on with the command's last event,
    so no step shows what a later event of the same command reveals."""
    state = new_game(document["players"], document.get("stack"), document.get("profile"))
    seats_info = [
        {
            "id": s["seat"],
            "name": s["name"],
            "colour": s["colour"],
            "hex": PLAYER_COLOURS.get(s["colour"]),
            "connected": True,
            "state": "phone",
            "companion": bool(s.get("companion")),  # ⚙ as at the live table
            "level": s.get("companion"),
        }
        for s in seats
    ]
    frames: list[dict[str, Any]] = []
    round_events: list[dict[str, Any]] = []

    def frame(shown: State, over: bool, done: list[Any] | None = None) -> dict[str, Any]:
        summary = {
            "name": table,
            "title": title,
            "status": "finished" if over else "playing",
            "dice": "digital",
            "seats_filled": len(seats),
            "seats_max": SEATS_MAX,
            "game_id": game_id,
            "round": shown["round"],
            "lang": lang,
            "urls": {"display": f"/t/{table}/", "qr": None, "join": None},
        }
        return {
            "type": "view",
            "seq": len(frames),
            "reason": "replay",
            "table": summary,
            "seats": seats_info,
            "you": None,
            "game": {
                "id": game_id,
                "status": status if over else "playing",
                "dice": "digital",
                "view": step_view(views(shown, [None])[None], done or []),
            },
            "events": [],
            "history": visible_events(list(round_events), None),
            "board": None,
        }

    frames.append(frame(state, False))
    for n, command in enumerate(commands, start=1):
        before = state
        state, events = apply(state, command)
        last = n == len(commands)
        if not events:
            frames.append(frame(state, last))
        for j, e in enumerate(events):
            if e["type"] == "round_started":
                round_events = []
            round_events.append(e)
            done = j == len(events) - 1
            frames.append(frame(state, last) if done else frame(before, False, events[: j + 1]))
    return frames


@bp.get("/admin/games/<int:game_id>/replay")
def replay_page(game_id: int) -> Any:
    refused = _check()
    if refused:
        return refused
    stored = _stored_over(game_id)
    cafe = current_app.extensions["cafe"]
    table = cafe.get(stored.table_name)
    logged = cafe.store.commands(game_id)
    levels = companion_levels((c.command, c.source) for c in logged)
    document, commands = engine_log(stored.document, [c.command for c in logged])
    frames = replay_frames(
        table=stored.table_name,
        title=table.title if table else f"Table {stored.table_name}",
        lang=table.settings.get("lang", "en") if table else "en",
        game_id=game_id,
        document=document,
        seats=[{**s, "companion": levels.get(s["seat"])} for s in stored.seats],
        status=stored.status,
        commands=commands,
    )
    rid = secrets.token_urlsafe(16)
    with _REPLAYS_LOCK:
        _REPLAYS[rid] = Replay(frames)
        while len(_REPLAYS) > MAX_REPLAYS:
            _REPLAYS.popitem(last=False)
    summary = frames[-1]["table"]
    urls = {
        **summary["urls"],
        "ws_display": f"/admin/replay/{rid}/ws",
        "qr": "",
        "step": f"/admin/replay/{rid}/step",
    }
    return _no_store(
        Response(
            render_template(
                "replay.html",
                table=summary,
                urls=urls,
                colours=[],
                wifi_ssid=None,
                admin_token=_token(),
                steps=len(frames),
                chapters=chapters(frames),
            )
        )
    )


def _replay(rid: str) -> Replay | None:
    with _REPLAYS_LOCK:
        return _REPLAYS.get(rid)


@bp.post("/admin/replay/<rid>/step")
def replay_step(rid: str) -> Any:
    """Move the replay to step ``to`` (0 = before the first event)."""
    refused = _check()
    if refused:
        return refused
    replay = _replay(rid)
    if replay is None:
        return jsonify(
            {"error": "no_replay", "reason": "this replay has expired; reopen it from the history"}
        ), 404
    body = request.get_json(silent=True)
    to = body.get("to") if isinstance(body, dict) else None
    if isinstance(to, bool) or not isinstance(to, int):
        return jsonify({"error": "bad_message", "reason": 'send {"to": step number}'}), 400
    return jsonify({"step": replay.show(to), "steps": len(replay.frames)})


@sock.route("/admin/replay/<rid>/ws", bp=bp)
def replay_socket(ws: Any, rid: str) -> None:
    conn = WsConnection(ws, "display")
    try:
        replay = _replay(rid)
        if replay is None:
            conn.close(4404, "no such replay")
            return
        replay.attach(conn)
        config = current_app.config["COMPANION"]
        limit = RateLimit(config.rate, config.burst)
        try:
            while conn.alive:
                raw = conn.ws.receive()
                try:
                    if not limit.allow():
                        raise Refused("rate_limited", "too many messages; this one was dropped")
                    msg = parse(raw, config.max_message)
                    if msg["type"] != "ping":
                        raise Refused("unknown_type", "the replay display only sends ping")
                    conn.send(pong(msg))
                except Refused as exc:
                    conn.send({"type": "error", "code": exc.code, "reason": exc.reason})
        except ConnectionClosed:
            pass
        finally:
            replay.detach(conn)
    finally:
        conn.shutdown()
