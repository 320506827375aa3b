"""A finished game's replay as display frames: one per event, each mid-command step staged as
the live show stages it (``staging.at_beat``), each command's events as the show's steps, and
where each round and station starts (the replay page's jump controls). What the café admin's
and the phones' replays (``web/replay_sessions.py``) are built from; the commands' raw events
stay on the server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, NotRequired, TypedDict

from companion.engine import Command, Event, View, apply, new_game, views, visible_events
from companion.engine.colours import PLAYER_COLOURS
from companion.store.documents import GameDocument
from companion.table.frame_types import Chapter, ReplayFrame, ReplaySeat, ReplaySummary
from companion.table.model import SEATS_MAX
from companion.table.staging import at_beat


class SeatOfGame(TypedDict):
    """A seat as the game started with it, and the level of the companion player that played
    it (None or left out: a person)."""

    seat: str
    name: str
    colour: str
    companion: NotRequired[str | None]


def replay_frames(
    *,
    table: str,
    title: str,
    lang: str,
    game_id: int,
    document: GameDocument,
    seats: Sequence[SeatOfGame],
    commands: Sequence[Command],
    status: Literal["finished", "ended"],
    urls: dict[str, str | None] | None = None,
) -> list[ReplayFrame]:
    """The display's view frames of a finished game, one per event: the start, then each
    event of each command in turn. A mid-command step shows the view as the live show staged
    it with the events so far told (``staging.at_beat``), so no step shows what a later event
    of the same command reveals. ``urls`` are the web layer's (the display page's path); a
    seat's ``companion`` is its level, if any."""
    state = new_game(document["players"], document.get("stack"), document.get("profile"))
    seats_info: list[ReplaySeat] = [
        {
            "id": s["seat"],
            "name": s["name"],
            "colour": s["colour"],
            "hex": PLAYER_COLOURS.get(s["colour"]),
            "connected": True,
            "state": "phone",
            "companion": bool(s.get("companion")),  # as at the live table
            "level": s.get("companion"),
        }
        for s in seats
    ]
    links = {"display": None, "qr": None, "join": None, **(urls or {})}
    frames: list[ReplayFrame] = []
    round_events: list[Event] = []

    def frame(seen: View, over: bool) -> ReplayFrame:
        summary: ReplaySummary = {
            "name": table,
            "title": title,
            "status": "finished" if over else "playing",
            "dice": "digital",
            "seats_filled": len(seats),
            "seats_max": SEATS_MAX,
            "game_id": game_id,
            "round": seen["round"],
            "lang": lang,
            "urls": links,
        }
        return {
            "type": "view",
            "seq": len(frames),
            "reason": "replay",
            "table": summary,
            "seats": seats_info,
            "you": None,
            "game": {
                "id": game_id,
                "status": status if over else "playing",
                "dice": "digital",
                "view": seen,
            },
            "events": [],
            "history": visible_events(list(round_events), None),
            "board": None,
        }

    after = views(state, [None])[None]
    frames.append(frame(after, False))
    for n, command in enumerate(commands, start=1):
        before = after
        state, events = apply(state, command)
        after = views(state, [None])[None]
        told = visible_events(events, None)
        last = n == len(commands)
        if not events:
            frames.append(frame(after, last))
        for j, e in enumerate(events):
            if e["type"] == "round_started":
                round_events = []
            round_events.append(e)
            if j == len(events) - 1:
                frames.append(frame(after, last))
            else:
                frames.append(frame(at_beat(before, after, told, j + 1), False))
    return frames


def replay_steps(document: GameDocument, commands: Sequence[Command]) -> list[list[Event]]:
    """Each command's events of a finished game, as the live show's steps: what a replay's
    show block is made of (``show.block``). Kept on the server, never sent: a bid's events
    carry its cards before the reveal."""
    state = new_game(document["players"], document.get("stack"), document.get("profile"))
    out: list[list[Event]] = []
    for command in commands:
        state, events = apply(state, command)
        out.append(events)
    return out


def chapters(frames: Sequence[ReplayFrame]) -> list[Chapter]:
    """Where each round and each station of a round starts in a replay's frames, for the jump
    controls: ``{"round": r, "station": s or None, "step": k}`` (the first step of each).

    A station starts at the first step that names it: its reveal, its ranking, or the view's
    station.

    >>> def f(rnd, station=None, ev=None):
    ...     return {"game": {"view": {"round": rnd, "station": station}},
    ...             "history": [ev] if ev else []}
    >>> chapters([f(0), f(1), f(1, ev={"type": "revealed", "station": 1}), f(1, 1), f(1, 2)])
    [{'round': 1, 'station': None, 'step': 1}, {'round': 1, 'station': 1, 'step': 2}, \
{'round': 1, 'station': 2, 'step': 4}]
    """
    out: list[Chapter] = []
    seen: set[tuple[int, int | None]] = set()
    for step, frame in enumerate(frames):
        view = frame["game"]["view"]
        rnd = view["round"]
        if not rnd:
            continue
        history = frame["history"]
        newest: Mapping[str, object] = history[-1] if history else {}
        named = newest.get("station")
        station = named if isinstance(named, int) and named else view["station"]
        for key in [(rnd, None), *([(rnd, station)] if station else [])]:
            if key not in seen:
                seen.add(key)
                out.append({"round": key[0], "station": key[1], "step": step})
    return out
