"""What every blueprint's answers tell the browser's cache.

Pages and JSON that carry a table's secrets or live state (join links, tokens, a game's
progress) are never kept by a browser or a proxy: a phone's back button or a shared café
machine must not show an earlier state or another seat's page.
"""

from __future__ import annotations

from flask import Response


def no_store(response: Response) -> Response:
    """``response``, marked never to be stored by any cache."""
    response.headers["Cache-Control"] = "no-store"
    return response
