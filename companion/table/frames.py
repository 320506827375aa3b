"""Every frame a display, phone or host receives, rendered from a table's snapshot.

The only way out of a table, as ``view()`` is for the engine: pure functions of a
:class:`Snapshot` (taken under the table's lock), the :class:`Links` the web layer made, and
the audience — ``(role, seat)``. What an audience may not see never enters its frame: a seat's
frame holds the engine view for that seat, display and host frames the public view
(PROTOCOL.md 3.4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from companion.engine import views, visible_events
from companion.engine.colours import PLAYER_COLOURS
from companion.table.model import SEATS_MAX, Game, Seat

Audience = tuple[str, str | None]  # ("display" | "seat" | "host", seat id or None)


@dataclass(frozen=True)
class HostInfo:
    """What only the host's frame carries."""

    undo_possible: bool
    undo_reason: str
    inputs: list[dict[str, Any]]
    games: list[dict[str, Any]]  # id, status, players, created
    track_colors: list[str]
    saved_track_colors: list[str] | None
    join_secret: str


@dataclass(frozen=True)
class Snapshot:
    name: str
    title: str
    settings: dict[str, Any]
    seats: tuple[Seat, ...]
    game: Game | None
    board: dict[str, Any] | None
    host: HostInfo | None = None  # only taken when a host is in the audience


@dataclass(frozen=True)
class Links:
    """The table's URLs, made by the web layer (Flask's url_for); ``join`` is absolute."""

    paths: dict[str, str]  # display, qr, join_api, seat_page, ws_display, ws_seat, ...
    join: str
    log: Callable[[int], str]  # a finished game's log download, with the host token


def status(snap: Snapshot) -> str:
    """``lobby`` | ``playing`` | ``finished`` (PROTOCOL.md section 4)."""
    if snap.game is None:
        return "lobby"
    return "playing" if snap.game.status == "playing" else "finished"


def summary(snap: Snapshot, links: Links, with_join: bool = False) -> dict[str, Any]:
    """PROTOCOL.md section 4; the join URL only for the display and host."""
    g = snap.game
    return {
        "name": snap.name,
        "title": snap.title,
        "status": status(snap),
        "dice": g.dice if g else snap.settings["dice"],
        "seats_filled": sum(1 for s in snap.seats if s.state != "vacant"),
        "seats_max": SEATS_MAX,
        "game_id": g.id if g else None,
        "round": g.state["round"] if g else None,
        "urls": {**links.paths, "join": links.join if with_join else None},
        "lang": snap.settings.get("lang", "en"),
        "hints": snap.settings.get("hints"),
        # The host may hide the LED board's drawing on the display (shown by default).
        "board_drawing": snap.settings.get("board_drawing", True) is not False,
    }


def _history(game: Game | None) -> list[dict[str, Any]]:
    """Events since the start of the current round (or of the game)."""
    if game is None:
        return []
    out: list[dict[str, Any]] = []
    for events in reversed(game.events):
        starts = [i for i, e in enumerate(events) if e["type"] == "round_started"]
        if starts:
            out[:0] = events[starts[-1] :]
            break
        out[:0] = events
    return out


def _events(events: list[dict[str, Any]], seat: str | None) -> list[dict[str, Any]]:
    """Redacted for ``seat``, without the engine's English ``text``: the pages word every
    event from their own catalogues."""
    return [{k: v for k, v in e.items() if k != "text"} for e in visible_events(events, seat)]


def render(
    snap: Snapshot,
    links: Links,
    audiences: Iterable[Audience],
    reason: str,
    events: list[dict[str, Any]],
    history: bool,
    connected: set[str],
) -> dict[Audience, dict[str, Any]]:
    """The view frame of every audience. What they share (the engine views, seats,
    summaries, history) is built once."""
    audiences = list(dict.fromkeys(audiences))
    g = snap.game
    seats_info = [
        {
            "id": s.seat,
            "name": s.name,
            "colour": s.colour,
            "hex": PLAYER_COLOURS.get(s.colour),
            "connected": s.seat in connected,
            "state": s.state,
            "companion": s.companion,
            "level": s.level if s.state == "bot" else ("plain" if s.state == "auto" else None),
            "person": s.token_hash is not None,
        }
        for s in snap.seats
    ]
    game_seats = {
        seat: (seat if g is not None and seat in g.state["players"] else None)
        for _role, seat in audiences
    }
    game_views = views(g.state, list(set(game_seats.values()))) if g is not None else {}
    whole_history = _history(g) if history else []
    summaries = {w: summary(snap, links, w) for w in (True, False)}
    frames: dict[Audience, dict[str, Any]] = {}
    for role, seat in audiences:
        frame: dict[str, Any] = {
            "type": "view",
            "seq": g.seq if g else 0,
            "reason": reason,
            "table": summaries[role != "seat"],
            "seats": seats_info,
            "you": None,
            "game": None,
            "events": _events(events, seat),
        }
        if g is not None:
            frame["game"] = {
                "id": g.id,
                "status": g.status,
                "dice": g.dice,
                "view": game_views[game_seats[seat]],
            }
        if role == "seat" and seat is not None:
            s = next((x for x in snap.seats if x.seat == seat), None)
            mine = [dict(e) for e in g.state["pending"] if e.get("player") == seat] if g else []
            frame["you"] = {
                "seat": seat,
                "name": s.name if s else seat,
                "colour": s.colour if s else None,
                "hex": PLAYER_COLOURS.get(s.colour) if s else None,
                "pending": mine,
            }
        if history:
            frame["history"] = _events(whole_history, seat)
        if role != "seat":
            frame["board"] = snap.board
        if role == "host":
            frame["host"] = _host(snap.host, links)
        frames[(role, seat)] = frame
    return frames


def _host(info: HostInfo | None, links: Links) -> dict[str, Any] | None:
    if info is None:
        return None
    return {
        "undo": {"possible": info.undo_possible, "reason": info.undo_reason},
        "inputs": info.inputs,
        "games": [{**game, "log": links.log(game["id"])} for game in info.games],
        "profile": {"track_colors": info.track_colors, "saved": info.saved_track_colors},
        "join_secret": info.join_secret,
    }


def hello(snap: Snapshot, links: Links, audience: Audience, connected: set[str]) -> dict[str, Any]:
    """The whole view a newly connected screen starts from."""
    return render(snap, links, [audience], "hello", [], True, connected)[audience]
