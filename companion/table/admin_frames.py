"""A table as the café admin's list shows it: no secrets, no game view (DESIGN.md "Café
operations": the admin asks tables, frames and the store, and a table's hub only for counts).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from companion.engine.colours import PLAYER_COLOURS
from companion.table.frame_types import SeatState
from companion.table.frames import Snapshot, status
from companion.table.model import GameStatus


class AdminSeat(TypedDict):
    """A seat in the admin's list: who holds it, and whether its phone is connected."""

    seat: str
    name: str
    colour: str
    hex: str | None
    state: SeatState
    connected: bool


class AdminBoard(TypedDict):
    """The table's LED board as the admin's list shows it (its ``BoardStatus`` in short)."""

    mode: Literal["simulated", "serial"]
    connected: bool
    detail: str


class AdminSockets(TypedDict):
    """The table's open sockets by kind of screen. A table at play holds one for the display,
    one for the host's page and one a connected phone; a number that only grows says a
    screen's socket outlived the screen."""

    display: int
    host: int
    seat: int


class AdminTable(TypedDict):
    """A table in the café admin's list (PROTOCOL.md 6, ``GET /admin/api/tables``): what
    :func:`admin_summary` says, then its links and the time since its last command, which
    the admin's route (web/admin.py) sets on the way out."""

    name: str
    title: str
    status: Literal["lobby", "playing", "finished"]
    game_id: int | None
    game_status: GameStatus | None
    round: int | None
    seats: list[AdminSeat]
    board: AdminBoard | None
    host_url: NotRequired[str]
    display_url: NotRequired[str]
    last_command_at: NotRequired[float | None]
    seconds_since_command: NotRequired[float | None]
    ahead_of_screens: NotRequired[bool]
    sockets: NotRequired[AdminSockets]


def admin_summary(snap: Snapshot, connected: set[str]) -> AdminTable:
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
