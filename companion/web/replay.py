"""What one step of a replay shows on the display's player cards.

A replay steps event by event, but the engine moves the board a whole command at a time. A
step in the middle of a command shows the view from before the command (a later event of the
same command must not be given away) with what the events up to that step already announced
in the log: who has bid, decided on dice or sacrificed (never what), scores, huts, dice, cubes,
the figure and the old man. So the log and the cards agree at every step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


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
