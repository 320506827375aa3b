"""What a café keeps: results and their webhook deliveries (host page), history, leaderboard
and admin pages. The tables' own pages are in pages.py."""

from __future__ import annotations

from typing import Any, TypedDict

from flask import Blueprint, abort, jsonify

from companion.cafe.outbox import DeliveryState, Outbox
from companion.store.results import iso
from companion.table import Table
from companion.web.access import host_refusal, host_token
from companion.web.responses import no_store
from companion.web.services import cafe_of, outbox_of
from companion.web.shown import over_on_screens

bp = Blueprint("cafe", __name__)


class PublicDelivery(TypedDict):
    """A result's delivery to one webhook as the host page reads it (PROTOCOL.md 5): the
    outbox's ``DeliveryState`` with its times as ISO 8601 (UTC)."""

    url: str
    state: str  # pending, delivered or failed
    attempts: int
    next_at: str | None
    last_error: str | None
    delivered_at: str | None


class WebhookGame(TypedDict):
    """A game over on the table's screens in the host page's "results sent" list (PROTOCOL.md
    5, ``GET /t/<name>/api/results``): its result's delivery to every webhook."""

    game_id: int
    status: str  # finished or ended
    ended_at: str
    deliveries: list[PublicDelivery]


def _outbox() -> Outbox:
    return outbox_of()


def _table(name: str) -> Table:
    table = cafe_of().get(name)
    if table is None:
        abort(404, description=f"no table {name!r} here")
    return table


@bp.get("/t/<name>/api/results")
def table_results(name: str) -> Any:
    """The table's games that are over and the delivery of each to every webhook (the host
    page's "results sent" list). Host token required."""
    table = _table(name)
    if (refused := host_refusal(table, host_token())) is not None:
        return refused  # wrong guesses are throttled as on every host-token route
    outbox = _outbox()
    games: list[WebhookGame] = []
    for row in outbox.results_of(name):
        if not over_on_screens(table, row.game_id):
            continue  # its end is not on the table's screens yet: still being played there
        games.append(
            {
                "game_id": row.game_id,
                "status": row.status,
                "ended_at": iso(row.ended),
                "deliveries": [_public_delivery(d) for d in outbox.deliveries(row.game_id)],
            }
        )
    return no_store(jsonify({"webhooks": len(outbox.urls), "games": games}))


def _public_delivery(d: DeliveryState) -> PublicDelivery:
    """A delivery as the host page reads it: its times as ISO 8601 (UTC)."""
    return {
        **d,
        "next_at": iso(d["next_at"]) if d["next_at"] else None,
        "delivered_at": iso(d["delivered_at"]) if d["delivered_at"] else None,
    }
