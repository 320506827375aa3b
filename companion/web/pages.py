"""Pages and JSON endpoints (PROTOCOL.md sections 1, 2 and 4)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template, request

from companion.engine.colours import PLAYER_COLOURS, SCREEN_COLOURS
from companion.engine.scoring import LINES
from companion.store.database import DamagedRow
from companion.table import NAME_MAX, TableError
from companion.table.frame_types import TableSummary
from companion.web import i18n
from companion.web.access import host_refusal, host_token, throttled, wrong_guess
from companion.web.guard import Refused, body_json
from companion.web.hub import Hub
from companion.web.qr import qr_svg
from companion.web.responses import no_store
from companion.web.services import cafe_of, config_of, hub_of, hubs_of

bp = Blueprint("pages", __name__)

HTTP_STATUS = {
    "bad_secret": 403,
    "bad_token": 403,
    "colour_taken": 409,
    "table_full": 409,
    "game_running": 409,
    "bad_state": 409,
    "no_game": 404,
    "storage_failed": 503,
}


def _hub(name: str) -> Hub:
    hub = hub_of(name)
    if hub is None:
        abort(404, description=f"no table {name!r} here")
    return hub


def _refuse(code: str, reason: str, status: int | None = None) -> tuple[Response, int]:
    return jsonify({"error": code, "reason": reason}), status or HTTP_STATUS.get(code, 400)


# Throttled token checks live in access.py (one place, so no route can skip the throttle).
_throttled = throttled
_wrong_guess = wrong_guess


def _summaries() -> list[TableSummary]:
    return [hub.summary() for hub in hubs_of().values()]


def _colours() -> list[list[str]]:
    return [[name, SCREEN_COLOURS.get(name, hex_)] for name, hex_ in PLAYER_COLOURS.items()]


# Flask takes a context processor's answer as a plain dict (a TypedDict is none), so the
# values stay ``object`` here: the templates read them by name.
@bp.app_context_processor
def _screen_colours() -> dict[str, object]:
    """Every page gets the screen palette, the languages and the final-scoring lines (R7, in
    the engine's order): base.html hands them to the scripts, which keep no list of their
    own. And the longest name a player may have (the join form says it)."""
    return {
        "screen_colours": SCREEN_COLOURS,
        "name_max": NAME_MAX,
        "languages": list(i18n.LANGUAGES),
        "final_lines": list(LINES),
    }


@bp.get("/")
def cafe_page() -> str:
    return render_template("cafe.html", tables=_summaries())


@bp.get("/api/tables")
def tables_json() -> Response:
    return no_store(jsonify({"tables": _summaries()}))


@bp.get("/healthz")
def healthz() -> Response:
    return jsonify({"ok": True})


@bp.get("/i18n/<lang>.json")
def catalogue(lang: str) -> Response:
    if lang not in i18n.LANGUAGES:
        abort(404, description=f"no translations for {lang!r}")
    response = jsonify(i18n.catalogue(lang))
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


@bp.get("/t/<name>/")
def display_page(name: str) -> str:
    summary = _hub(name).summary(with_join=True)
    wifi = config_of().wifi
    return render_template(
        "display.html",
        table=summary,
        urls=summary["urls"],
        colours=_colours(),
        wifi_ssid=wifi.ssid if wifi else None,
    )


@bp.get("/t/<name>/join/<secret>")
def join_page(name: str, secret: str) -> Response | tuple[str | Response, int]:
    hub = _hub(name)
    if (busy := _throttled()) is not None:
        return busy
    if not hub.table.check_join(secret):
        _wrong_guess()
        return "This join link is not valid for this table (the QR code may have changed).", 403
    summary = hub.summary()
    return no_store(
        Response(
            render_template(
                "phone.html",
                table=summary,
                urls=summary["urls"],
                join_secret=secret,
                colours=_colours(),
            )
        )
    )


@bp.get("/t/<name>/seat")
def seat_page(name: str) -> Response:
    summary = _hub(name).summary()
    return no_store(
        Response(
            render_template(
                "phone.html",
                table=summary,
                urls=summary["urls"],
                join_secret=None,
                colours=_colours(),
            )
        )
    )


@bp.get("/t/<name>/host")
def host_page(name: str) -> Response | tuple[str | Response, int]:
    hub = _hub(name)
    token = request.args.get("token")
    wrong = ("The host link is not valid for this table.", 403)
    if (refused := host_refusal(hub.table, token, wrong)) is not None:
        return refused
    summary = hub.summary(with_join=True)
    return no_store(
        Response(
            render_template(
                "host.html",
                table=summary,
                urls=summary["urls"],
                host_token=token,
                colours=_colours(),
                webhooks=len(config_of().webhooks),
            )
        )
    )


@bp.get("/t/<name>/qr.svg")
def qr_image(name: str) -> Response:
    return no_store(Response(qr_svg(_hub(name).join_url()), mimetype="image/svg+xml"))


@bp.get("/wifi.svg")
def wifi_qr() -> Response:
    """The ``WIFI:`` QR code of ``--wifi`` (shown in the lobby, so phones join the network
    before they scan the table's join code)."""
    wifi = config_of().wifi
    if wifi is None:
        abort(404, description="no Wi-Fi network is configured (companion serve --wifi)")
    return no_store(Response(qr_svg(wifi.uri()), mimetype="image/svg+xml"))


@bp.post("/t/<name>/api/join")
def join_api(name: str) -> Any:
    hub = _hub(name)
    table = hub.table
    try:
        body = body_json(request.get_data())
    except Refused as exc:
        return _refuse(exc.code, f"{exc.reason}: send a JSON object with secret, name and colour")
    if not isinstance(body, dict):
        return _refuse("bad_json", "send a JSON object with secret, name and colour")
    if (busy := _throttled()) is not None:
        return busy
    if not table.check_join(body.get("secret")):
        _wrong_guess()
        return _refuse("bad_secret", "this join link is not valid for this table")
    try:
        outcome = table.join(body.get("secret"), body.get("name"), body.get("colour"))
    except TableError as exc:
        return _refuse(exc.code, exc.reason)
    seat = {**(outcome.result or {}), "ws": hub.links().paths["ws_seat"]}
    return no_store(jsonify(seat))


@bp.get("/t/<name>/api/state")
def state_json(name: str) -> Response:
    frame = _hub(name).hello("display")
    return no_store(jsonify(frame))


@bp.get("/t/<name>/games/<int:game_id>/log.json")
def game_log(name: str, game_id: int) -> Any:
    table = _hub(name).table
    if (refused := host_refusal(table, host_token())) is not None:
        return refused
    try:
        doc = table.log_document(game_id)
    except TableError as exc:
        return _refuse(exc.code, exc.reason)
    except DamagedRow as exc:
        # A command that cannot be read: named (and logged once), as on the admin's copy.
        cafe_of().store.skipped(exc)
        return jsonify({"error": "damaged_row", "reason": str(exc), "damaged": exc.report()}), 409
    response = no_store(jsonify(doc))
    response.headers["Content-Disposition"] = (
        f'attachment; filename="chocolatl-{name}-game-{game_id}.json"'
    )
    return response
