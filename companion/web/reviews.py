"""The replay of a finished game at one step, for the table's phones and host: "that moment of
the replay" behind each of a phone's costliest decisions in its review (cafe/reviews.py).

A phone opens it with its own seat token (the host with the host token): the same replay as
the café admin's (``replay_frames.replay_frames``), started at the asked step, whose step URL then
needs only the replay's own unguessable id (``replay_routes``: one route for every replay). The
café admin's review routes live in admin.py behind the admin token.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from companion.store import DamagedRow
from companion.web.access import seat_or_host_refusal
from companion.web.replay_routes import render_replay
from companion.web.replay_sessions import BuildFailed, open_game
from companion.web.services import cafe_of, replays_of
from companion.web.shown import over_on_screens

bp = Blueprint("reviews", __name__)


@bp.errorhandler(DamagedRow)
def _damaged(exc: DamagedRow) -> tuple[Response, int]:
    """A game whose log cannot be read: said by name (and logged), not a 500."""
    cafe_of().store.skipped(exc)
    return jsonify({"error": "damaged_row", "reason": str(exc), "damaged": exc.report()}), 409


@bp.get("/t/<name>/games/<int:game_id>/replay")
def table_replay(name: str, game_id: int) -> Any:
    """The replay of one of this table's games that is over, opened at ``?step=``, for a
    seat of the table (``?seat=&token=``, its own seat token) or the host (``?token=``)."""
    cafe = cafe_of()
    table = cafe.get(name)
    if table is None:
        return jsonify({"error": "no_table", "reason": f"no table {name!r} here"}), 404
    refused = seat_or_host_refusal(table, request.args.get("seat"), request.args.get("token"))
    if refused is not None:
        return refused
    stored = cafe.store.game(game_id)
    if (
        stored is None
        or stored.table_name != name
        or stored.status == "playing"
        or not over_on_screens(table, game_id)
    ):
        # A running game's log would give away unrevealed bids and sacrifices; a game whose
        # end the screens have not shown yet is still running to its players.
        return jsonify({"error": "no_game", "reason": f"no game {game_id} that is over"}), 404
    try:
        step = int(request.args.get("step", "0"))
    except ValueError:
        return jsonify({"error": "bad_step", "reason": "step must be a whole number"}), 400
    opener = f"table:{name}:{request.args.get('seat') or 'host'}"
    if (wait := replays_of().open_wait(opener)) > 0:
        # A token that opens replays in a loop waits (each open is a page and a replay kept).
        reason = f"too many replays opened; try again in {wait:.0f} s"
        return jsonify({"error": "rate_limited", "reason": reason}), 429
    try:
        rid, built = open_game(
            replays_of(),
            cafe,
            stored,
            table.title,
            table.settings.get("lang", "en"),
            url_for("pages.display_page", name=name),
            opener,
        )
    except BuildFailed as exc:
        return jsonify({"error": "replay_failed", "reason": str(exc)}), 503
    replay = replays_of().get(rid)
    return render_replay(rid, built, start_step=replay.show(step) if replay is not None else 0)
