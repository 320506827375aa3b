"""Host-token checks of HTTP routes, throttled as one: every route that takes a table's host
token goes through ``host_refusal``, so none can check the token without counting wrong
guesses (guard.GuessThrottle; the café admin's token has its own check in admin.py)."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request

from companion.table import Table
from companion.web.services import guesses_of

Refusal = tuple[Any, int]


def throttled() -> Refusal | None:
    """The 429 answer while this address has used up its wrong guesses (guard.GuessThrottle)."""
    wait = guesses_of().wait(request.remote_addr or "?")
    if wait > 0:
        response = jsonify(
            {
                "error": "too_many_guesses",
                "reason": f"too many wrong links or tokens from this device; "
                f"try again in {wait:.0f} s",
            }
        )
        response.headers["Retry-After"] = str(int(wait) + 1)
        return response, 429
    return None


def wrong_guess() -> None:
    guesses_of().failed(request.remote_addr or "?")


def bad_token() -> Refusal:
    return jsonify({"error": "bad_token", "reason": "the host token is missing or wrong"}), 403


def host_token() -> str | None:
    """The host token of a request: ``?token=`` or the ``X-Host-Token`` header."""
    return request.args.get("token") or request.headers.get("X-Host-Token")


def host_refusal(table: Table, token: str | None, wrong: Refusal | None = None) -> Refusal | None:
    """None when ``token`` is the table's host token. Else the refusal: 429 while this
    address is throttled (the token is not even checked), or ``wrong`` (default: a JSON 403),
    and the wrong guess is counted."""
    if (busy := throttled()) is not None:
        return busy
    if table.check_host(token):
        return None
    wrong_guess()
    return wrong if wrong is not None else bad_token()


def seat_or_host_refusal(table: Table, seat: str | None, token: str | None) -> Refusal | None:
    """None when ``token`` is ``seat``'s own token (or, without a seat, the host token); else
    the throttled refusal, as :func:`host_refusal` (a finished game's replay link on a phone)."""
    if not seat:
        return host_refusal(table, token)
    if (busy := throttled()) is not None:
        return busy
    if table.check_seat(seat, token):
        return None
    wrong_guess()
    return jsonify({"error": "bad_token", "reason": "the seat or host token is wrong"}), 403
