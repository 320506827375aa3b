"""The café admin (token printed at start-up): every table's state with its stuck-game and
join-secret actions, the history of finished games with their logs and replays, the
leaderboard, CSV exports. Pages are templates filled by admin.js from the JSON below.

Admin asks, never reaches in: tables through their public methods and snapshots, frames
(the table list, replays) through ``companion.table.frames``, games through the store, and
the app's services through ``companion.web.services``. One token check guards the whole
blueprint (:func:`_check`)."""

from __future__ import annotations

import hmac
import time
from typing import Any, Literal, TypedDict

from flask import (
    Blueprint,
    Response,
    abort,
    jsonify,
    render_template,
    request,
    url_for,
)

from companion.cafe.history import (
    History,
    PeriodError,
    SeparatorError,
    games_csv,
    leaderboard_csv,
    period,
    separator,
)
from companion.cafe.reviews import ReviewProgress
from companion.engine.colours import PLAYER_COLOURS
from companion.players.reviewing import older, reasons
from companion.store.database import DamagedRow, StoredGame
from companion.store.documents import ResultDocument
from companion.store.results import engine_log, meta
from companion.table import TableError, admin_frames
from companion.web.replay_routes import render_replay
from companion.web.replay_sessions import BuildFailed, open_game
from companion.web.replay_sessions import Replay as Replay  # one replay (kept by the app's Replays)
from companion.web.responses import no_store
from companion.web.services import (
    admin_token_of,
    cafe_of,
    config_of,
    guesses_of,
    hubs_of,
    outbox_of,
    replays_of,
)
from companion.web.shown import ahead_of_screens, over_on_screens

bp = Blueprint("admin", __name__)


# -- access ---------------------------------------------------------------------------------
def _token() -> str | None:
    return (
        request.headers.get("X-Admin-Token")
        or request.args.get("token")
        or request.form.get("token")
    )


@bp.before_request
def _check() -> tuple[Response, int] | None:
    """None when the admin token is right; else the refusal (wrong guesses are throttled,
    guard.GuessThrottle)."""
    guesses = guesses_of()
    addr = request.remote_addr or "?"
    if guesses.wait(addr) > 0:
        return jsonify({"error": "rate_limited", "reason": "too many wrong tokens; wait"}), 429
    token = _token()
    if isinstance(token, str) and hmac.compare_digest(token, admin_token_of()):
        return None
    guesses.failed(addr)
    return jsonify({"error": "bad_token", "reason": "the admin token is missing or wrong"}), 403


@bp.errorhandler(DamagedRow)
def _damaged(exc: DamagedRow) -> tuple[Response, int]:
    """A game whose log or review cannot be read: said by name (and logged), not a 500;
    the history and every other game are served as usual."""
    cafe_of().store.skipped(exc)
    return jsonify({"error": "damaged_row", "reason": str(exc), "damaged": exc.report()}), 409


def _history() -> History:
    """The café's history without the games whose end their table's screens have not shown
    yet (they are still being played there)."""
    # The outbox's own store (connection): history reads never wait on the tables'.
    return History(outbox_of().store, hidden=ahead_of_screens(cafe_of().tables.values()))


def _period() -> tuple[float | None, float | None]:
    return period(request.args.get("from"), request.args.get("to"))


def _bad_period(exc: PeriodError) -> tuple[Response, int]:
    return jsonify({"error": "bad_period", "reason": str(exc)}), 400


# -- pages ----------------------------------------------------------------------------------
@bp.get("/admin")
def admin_page() -> Any:
    return no_store(Response(render_template("admin.html", admin_token=_token())))


# -- tables ---------------------------------------------------------------------------------
@bp.get("/admin/api/tables")
def tables_json() -> Any:
    store = cafe_of().store
    now = time.time()
    ahead = ahead_of_screens(cafe_of().tables.values())
    out = []
    for hub in hubs_of().values():
        table = hub.table
        row = admin_frames.admin_summary(hub.shown_snapshot(), hub.connected_seats())
        row["host_url"] = url_for("pages.host_page", name=table.name, token=table.host_token)
        row["display_url"] = url_for("pages.display_page", name=table.name)
        last = None
        if (gid := row["game_id"]) is not None:  # no command yet: since the game began
            stored = store.game(gid)
            last = store.last_command_at(gid) or (stored.created if stored else None)
        row["last_command_at"] = last
        row["seconds_since_command"] = round(now - last, 1) if last else None
        # Over in the store while its screens still show its end: not in the history yet (the
        # admin page loads its history again when this or the game changes).
        row["ahead_of_screens"] = gid in ahead
        row["sockets"] = hub.sockets()
        out.append(row)
    return no_store(
        jsonify({"tables": out, "now": now, "retention_days": config_of().retention_days})
    )


def _table_action(name: str, action: str) -> Any:
    table = cafe_of().get(name)
    if table is None:
        return jsonify({"error": "no_table", "reason": f"no table {name!r} here"}), 404
    try:
        if action == "close":
            # As the host's "end game" (seats stay, the table can start anew), but the phones
            # are told the café closed it.
            table.end_game(by="cafe")
            outbox_of().notify()
        else:
            table.rotate_join()
    except TableError as exc:
        return jsonify({"error": exc.code, "reason": exc.reason}), 409
    return jsonify({"ok": True})


@bp.post("/admin/api/tables/<name>/close")
def close_game(name: str) -> Any:
    """Close a stuck game (a table nobody finishes): it ends as the host's end would, and
    the screens say the café closed it."""
    return _table_action(name, "close")


@bp.post("/admin/api/tables/<name>/rotate")
def rotate_join(name: str) -> Any:
    """A new join secret: the old QR code (say, photographed) no longer seats anyone."""
    return _table_action(name, "rotate")


# -- history, leaderboard, exports ------------------------------------------------------------
def _history_row(result: ResultDocument, token: str) -> dict[str, object]:
    gid = result["game_id"]
    return {
        **result,
        "log": f"/admin/games/{gid}/log.json?token={token}",
        "replay": f"/admin/games/{gid}/replay?token={token}",
        "review": review_state(gid),  # stored, under way, or None
    }


class ReviewStored(TypedDict):
    state: Literal["ready"]
    created: float


class ReviewDamaged(TypedDict):
    state: Literal["damaged"]
    reason: str  # the stored review that cannot be read, named


def review_state(game_id: int) -> ReviewStored | ReviewDamaged | ReviewProgress | None:
    """A game's review (cafe/reviews.py): ``ready`` (stored), ``working`` with its progress,
    or None."""
    cafe = cafe_of()
    try:
        stored = cafe.store.review(game_id)
    except DamagedRow as exc:  # shown as such; asking again reviews the game anew
        cafe.store.skipped(exc)
        return {"state": "damaged", "reason": str(exc)}
    if stored is not None:
        return {"state": "ready", "created": stored.created}
    return cafe.reviewer.progress(game_id) if cafe.reviewer is not None else None


@bp.get("/admin/api/games/<int:game_id>/review")
def review_json(game_id: int) -> Any:
    """The stored review (``{state: ready, seed, created, names, review}``), or its
    progress; each worst decision's reason in every language (the page picks its own)."""
    cafe = cafe_of()
    store = cafe.store
    game = store.game(game_id)
    if game is not None and not over_on_screens(cafe.get(game.table_name), game_id):
        # Its decisions (sacrifices among them) are not on the table's screens yet.
        return jsonify({"error": "no_review", "reason": f"game {game_id} has no review yet"}), 404
    stored = store.review(game_id)
    if stored is not None:
        names = {s["seat"]: s["name"] for s in (game.seats if game else [])}
        document = stored.document
        review = {  # the stored document, each listed decision with its reasons
            **document,
            "players": {
                p: {**pr, "worst": [{**d, "reasons": reasons(d)} for d in pr["worst"]]}
                for p, pr in document["players"].items()
            },
        }
        body = {
            "state": "ready",
            "seed": stored.seed,
            "created": stored.created,
            "names": names,
            "older": older(document),  # rated by the older method (own points, raw mean)
            "review": review,
        }
        return no_store(jsonify(body))
    state = review_state(game_id)
    if state is None:
        return jsonify({"error": "no_review", "reason": f"game {game_id} has no review yet"}), 404
    return no_store(jsonify(state))


@bp.post("/admin/api/games/<int:game_id>/review")
def request_review(game_id: int) -> Any:
    """Review a game that is over and has none yet (a job in the low-priority pool)."""
    cafe = cafe_of()
    stored = cafe.store.game(game_id)
    if (
        stored is None
        or stored.status == "playing"
        or not over_on_screens(cafe.get(stored.table_name), game_id)
    ):
        return jsonify({"error": "no_game", "reason": f"no game {game_id} that is over"}), 404
    try:
        if cafe.store.review(game_id) is not None:
            return jsonify({"state": "ready"})
    except DamagedRow as exc:  # reviewed anew: the new review replaces the damaged one
        cafe.store.skipped(exc)
    if cafe.reviewer is None:
        reason = "this process does not run the companion players"
        return jsonify({"error": "no_reviewer", "reason": reason}), 409
    cafe.reviewer.request(game_id)
    return jsonify(cafe.reviewer.progress(game_id) or {"state": "working", "progress": 0}), 202


@bp.get("/admin/api/history")
def history_json() -> Any:
    try:
        since, until = _period()
    except PeriodError as exc:
        return _bad_period(exc)
    token = _token() or ""
    found, skipped = _history().read(since, until)
    games = [_history_row(r, token) for r in found]
    # Results that cannot be read are left out and named (also in the server's log); the
    # players' colours as the screens draw them (a holder's dot on the admin page).
    return no_store(
        jsonify(
            {
                "games": games,
                "skipped": [d.report() for d in skipped],
                # Webhook deliveries whose own row cannot be read: not sent, named here.
                "unsent": [d for d in outbox_of().store.damaged() if d["kind"] == "delivery"],
                "colours": dict(PLAYER_COLOURS),
            }
        )
    )


@bp.get("/admin/api/leaderboard")
def leaderboard_json() -> Any:
    try:
        since, until = _period()
    except PeriodError as exc:
        return _bad_period(exc)
    people_only = request.args.get("people_only") == "1"  # leave companion players out
    history = _history()
    players = history.leaderboard(since, until, people_only)
    skipped = [d.report() for d in history.skipped]
    return no_store(jsonify({"players": players, "skipped": skipped}))


@bp.get("/admin/export/<kind>.csv")
def export_csv(kind: str) -> Any:
    if kind not in ("games", "leaderboard"):
        abort(404)
    try:
        since, until = _period()
    except PeriodError as exc:
        return _bad_period(exc)
    try:  # ?sep=semicolon: for spreadsheets with a decimal comma (German Excel)
        sep = separator(request.args.get("sep"))
    except SeparatorError as exc:
        return jsonify({"error": "bad_sep", "reason": str(exc)}), 400
    history = _history()
    text = (
        games_csv(history.games(since, until, limit=100_000), sep)
        if kind == "games"
        else leaderboard_csv(
            history.leaderboard(since, until, request.args.get("people_only") == "1"), sep
        )
    )
    response = no_store(Response(text, mimetype="text/csv"))
    suffix = "-semicolon" if sep == ";" else ""
    response.headers["Content-Disposition"] = f'attachment; filename="chocolatl-{kind}{suffix}.csv"'
    return response


def _stored_over(game_id: int) -> StoredGame:
    """A game that is over, or 404 (a running game's log would give away unrevealed bids and
    sacrifices; an id no game can have is no game either)."""
    cafe = cafe_of()
    stored = cafe.store.finished_game(game_id)
    if stored is None or not over_on_screens(cafe.get(stored.table_name), game_id):
        # A game whose end its table's screens have not shown yet is still running there.
        abort(404, description=f"no finished game {game_id}")
    return stored


@bp.get("/admin/games/<int:game_id>/log.json")
def game_log(game_id: int) -> Any:
    stored = _stored_over(game_id)
    cafe = cafe_of()
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
    response = no_store(jsonify(doc))
    response.headers["Content-Disposition"] = (
        f'attachment; filename="chocolatl-{stored.table_name}-game-{game_id}.json"'
    )
    return response


# -- replay on the display --------------------------------------------------------------------
@bp.get("/admin/games/<int:game_id>/replay")
def replay_page(game_id: int) -> Any:
    stored = _stored_over(game_id)
    cafe = cafe_of()
    table = cafe.get(stored.table_name)
    try:
        rid, built = open_game(
            replays_of(),
            cafe,
            stored,
            table.title if table else f"Table {stored.table_name}",
            table.settings.get("lang", "en") if table else "en",
            url_for("pages.display_page", name=stored.table_name),
        )
    except BuildFailed as exc:
        return jsonify({"error": "replay_failed", "reason": str(exc)}), 503
    return render_replay(rid, built, admin_token=admin_token_of())  # checked by _check
