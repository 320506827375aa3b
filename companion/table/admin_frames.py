"""A table as the café admin's list shows it: no secrets, no game view (DESIGN.md "Café
operations": the admin asks tables and frames, never a table's lock or the hub's sockets).
"""

from __future__ import annotations

from typing import Any

from companion.engine.colours import PLAYER_COLOURS
from companion.table.frames import Snapshot, status


def admin_summary(snap: Snapshot, connected: set[str]) -> dict[str, Any]:
    """A table as the café admin lists it: state, seats (with whether their phone is
    connected) and the LED board's connection; no secrets, no game view."""
    g = snap.game
    board = snap.board
    return {
        "name": snap.name,
        "title": snap.title,
        "status": status(snap),
        "game_id": g.id if g else None,
        "game_status": g.status if g else None,
        "round": g.state["round"] if g else None,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "colour": s.colour,
                "hex": PLAYER_COLOURS.get(s.colour),
                "state": s.state,
                "connected": s.seat in connected,
            }
            for s in snap.seats
        ],
        "board": (
            {
                "mode": board.get("mode"),
                "connected": board.get("connected"),
                "detail": board.get("detail"),
            }
            if board
            else None
        ),
    }
