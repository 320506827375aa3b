"""What one step of a replay shows on the display's player cards.

A replay steps event by event, but the engine moves the board a whole command at a time. A
step in the middle of a command shows the view from before the command (a later event of the
same command must not be given away) with what the events up to that step already announced
in the log: who has bid, decided on dice or sacrificed (never what), scores, huts, dice, cubes,
the figure and the old man. So the log and the cards agree at every step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.table.show import move_marker


def step_view(before: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The public view ``before`` a command with its ``events`` so far applied to the cards.

    >>> v = {"bid_status": {"tom": False}, "players": {"tom": {"score": 3, "huts": 0}},
    ...      "track": {"3": ["tom"]}, "pending": [{"type": "bid", "player": "tom"}]}
    >>> s = step_view(v, [{"type": "bid_placed", "player": "tom", "bids": [5]},
    ...                   {"type": "scored", "player": "tom", "from": 3, "score": 7}])
    >>> s["bid_status"], s["players"]["tom"]["score"], s["track"], s["pending"]
    ({'tom': True}, 7, {'7': ['tom']}, [])
    >>> v["bid_status"]  # the view it came from is left alone
    {'tom': False}
    """
    # Only the containers a step changes are copied, one level deep (a replay builds one such
    # view for most of its steps; the rest is shared with ``before``).
    view: dict[str, Any] = dict(before)
    if view.get("players"):
        view["players"] = {p: dict(card) for p, card in view["players"].items()}
    if view.get("track") is not None:
        view["track"] = {box: list(stack) for box, stack in view["track"].items()}
    if view.get("pyramid") is not None:
        view["pyramid"] = [list(row) for row in view["pyramid"]]
    if view.get("bid_status") is not None:
        view["bid_status"] = dict(view["bid_status"])
    if view.get("dice_window"):
        window = view["dice_window"]
        view["dice_window"] = {**window, "decided": dict(window.get("decided") or {})}
    players = view.get("players") or {}
    for ev in events:
        kind, player = ev.get("type"), ev.get("player")
        card = players.get(player) if isinstance(player, str) else None
        if kind in ("bid_placed", "sacrificed", "dice_decided"):
            # R2.7, R1.2, R3.2: that an answer came is public, never the answer itself.
            wanted = {"bid_placed": "bid", "sacrificed": "sacrifice", "dice_decided": "dice"}[kind]
            view["pending"] = [
                p
                for p in view.get("pending") or []
                if not (p.get("type") == wanted and p.get("player") == player)
            ]
            if kind == "bid_placed" and view.get("bid_status") is not None:
                view["bid_status"][player] = True
            window = view.get("dice_window")
            if kind == "dice_decided" and window and player in window.get("decided", {}):
                window["decided"][player] = True
        elif kind == "scored" and card is not None:
            if view.get("track") is not None:
                move_marker(view["track"], str(player), ev.get("from", card["score"]), ev["score"])
            card["score"] = ev["score"]
        elif kind == "hut" and card is not None:
            card["huts"] = ev["huts"]
            card["cubes_used"] = card.get("cubes_used", 0) + 1  # R6.4: a hut takes a cube
        elif kind == "die" and card is not None:
            card["dice"] = ev["dice"]
        elif kind == "cube" and card is not None and ev.get("row") is not None:
            card["cubes_used"] = card.get("cubes_used", 0) + 1  # R5.4
            rows = view.get("pyramid")
            if rows and ev["row"] < len(rows) and ev["cell"] < len(rows[ev["row"]]):
                rows[ev["row"]][ev["cell"]] = player
        elif kind == "figure":
            view["chocolatl"] = player
        elif kind == "old_man":
            view["old_man"] = player
    return view


def chapters(frames: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
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
    out: list[dict[str, Any]] = []
    seen: set[tuple[int, int | None]] = set()
    for step, frame in enumerate(frames):
        view = (frame.get("game") or {}).get("view") or {}
        rnd = view.get("round") or 0
        if not rnd:
            continue
        history = frame.get("history") or []
        newest = history[-1] if history else {}
        station = newest.get("station") or view.get("station")
        for key in [(rnd, None), *([(rnd, station)] if station else [])]:
            if key not in seen:
                seen.add(key)
                out.append({"round": key[0], "station": key[1], "step": step})
    return out
