"""Game reviews over HTTP: the café admin's review of a finished game (read, or asked for),
and the replay of a finished game at one step for the table's phones and host.

The review itself is computed by the café's reviewer (cafe/reviews.py) in the companion
players' low-priority pool; nothing here rates a decision. A phone opens "that moment of the
replay" of one of its costliest decisions with its own seat token (or the host with the host
token): the same replay as the café admin's, started at that step, whose step URL then needs
only the replay's own unguessable id.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from companion.cafe.reviews import Reviewer
from companion.players.reviewing import reasons
from companion.store.results import companion_levels, engine_log
from companion.web import admin
from companion.web.access import throttled, wrong_guess
from companion.web.replay import chapters

bp = Blueprint("reviews", __name__)


def _reviewer() -> Reviewer | None:
    return current_app.extensions["cafe"].reviewer


def _not_over(game_id: int) -> tuple[Response, int]:
    return jsonify({"error": "no_game", "reason": f"no game {game_id} that is over"}), 404


@bp.get("/admin/api/games/<int:game_id>/review")
def admin_review(game_id: int) -> Any:
    """The stored review (``{state: ready, seed, created, review}``), or its progress."""
    refused = admin._check()
    if refused:
        return refused
    store = current_app.extensions["cafe"].store
    stored = store.review(game_id)
    if stored is not None:
        game = store.game(game_id)
        names = {s["seat"]: s["name"] for s in (game.seats if game else [])}
        document = stored["document"]
        for player in document["players"].values():
            for worst in player["worst"]:
                worst["reasons"] = reasons(worst)  # the admin page's own language
        return admin._no_store(
            jsonify(
                {
                    "state": "ready",
                    "seed": stored["seed"],
                    "created": stored["created"],
                    "names": names,
                    "review": document,
                }
            )
        )
    state = admin.review_state(game_id)
    if state is None:
        return jsonify({"error": "no_review", "reason": f"game {game_id} has no review yet"}), 404
    return admin._no_store(jsonify(state))


@bp.post("/admin/api/games/<int:game_id>/review")
def admin_request_review(game_id: int) -> Any:
    """Review a game that is over and has none yet (a job in the low-priority pool)."""
    refused = admin._check()
    if refused:
        return refused
    store = current_app.extensions["cafe"].store
    stored = store.game(game_id)
    if stored is None or stored.status == "playing":
        return _not_over(game_id)
    if store.review(game_id) is not None:
        return jsonify({"state": "ready"})
    reviewer = _reviewer()
    if reviewer is None:
        return jsonify(
            {"error": "no_reviewer", "reason": "this process does not run the companion players"}
        ), 409
    reviewer.request(game_id)
    return jsonify(reviewer.progress(game_id) or {"state": "working", "progress": 0}), 202


# -- the replay of a finished game at one step, for the table ---------------------------------
@bp.get("/t/<name>/games/<int:game_id>/replay")
def table_replay(name: str, game_id: int) -> Any:
    """The replay of one of this table's games that is over, opened at ``?step=``, for a
    seat of the table (``?seat=&token=``, its own seat token) or the host (``?token=``)."""
    cafe = current_app.extensions["cafe"]
    table = cafe.get(name)
    if table is None:
        return jsonify({"error": "no_table", "reason": f"no table {name!r} here"}), 404
    if (busy := throttled()) is not None:
        return busy
    seat, token = request.args.get("seat"), request.args.get("token")
    allowed = table.check_seat(seat, token) if seat else table.check_host(token)
    if not allowed:
        wrong_guess()
        return jsonify({"error": "bad_token", "reason": "the seat or host token is wrong"}), 403
    stored = cafe.store.game(game_id)
    if stored is None or stored.table_name != name or stored.status == "playing":
        # A running game's log would give away unrevealed bids and sacrifices.
        return _not_over(game_id)
    try:
        step = int(request.args.get("step", "0"))
    except ValueError:
        return jsonify({"error": "bad_step", "reason": "step must be a whole number"}), 400
    logged = cafe.store.commands(game_id)
    levels = companion_levels((c.command, c.source) for c in logged)
    document, commands = engine_log(stored.document, [c.command for c in logged])
    frames = admin.replay_frames(
        table=name,
        title=table.title,
        lang=table.settings.get("lang", "en"),
        game_id=game_id,
        document=document,
        seats=[{**s, "companion": levels.get(s["seat"])} for s in stored.seats],
        status=stored.status,
        commands=commands,
    )
    replay = admin.Replay(frames)
    replay.step = max(0, min(len(frames) - 1, step))
    rid = secrets.token_urlsafe(16)
    with admin._REPLAYS_LOCK:
        admin._REPLAYS[rid] = replay
        while len(admin._REPLAYS) > admin.MAX_REPLAYS:
            admin._REPLAYS.popitem(last=False)
    summary = frames[-1]["table"]
    urls = {
        **summary["urls"],
        "ws_display": f"/admin/replay/{rid}/ws",
        "qr": "",
        "step": f"/t/{name}/replays/{rid}/step",
    }
    return admin._no_store(
        Response(
            render_template(
                "replay.html",
                table=summary,
                urls=urls,
                colours=[],
                wifi_ssid=None,
                admin_token="",
                steps=len(frames),
                start_step=replay.step,
                chapters=chapters(frames),
            )
        )
    )


@bp.post("/t/<name>/replays/<rid>/step")
def table_replay_step(name: str, rid: str) -> Any:
    """Move a table's replay (its id was handed out only after the token check)."""
    replay = admin._replay(rid)
    if replay is None:
        return jsonify(
            {"error": "no_replay", "reason": "this replay has expired; open it again"}
        ), 404
    body = request.get_json(silent=True)
    to = body.get("to") if isinstance(body, dict) else None
    if isinstance(to, bool) or not isinstance(to, int):
        return jsonify({"error": "bad_message", "reason": 'send {"to": step number}'}), 400
    return jsonify({"step": replay.show(to), "steps": len(replay.frames)})
