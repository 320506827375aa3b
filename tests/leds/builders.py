"""Shared builders for LED tests: small layouts and hand-made public views."""

from __future__ import annotations

import copy
from typing import Any

# A tiny board: 6 boxes of 3 LEDs, a 2-1 pyramid, one mode LED, 3 round LEDs, 6 station LEDs.
SMALL: dict[str, Any] = {
    "name": "small test board",
    "track": {
        "boxes": 6,
        "leds_per_box": 3,
        "segments": [
            {"boxes": [0, 2], "start": 0},
            {"boxes": [3, 5], "start": 9, "reverse": True},
        ],
    },
    "pyramid": [[18, 19], [20]],
    "status": {"mode": 21, "round": [22, 23, 24], "station": [25, 26, 27, 28, 29, 30]},
    "brightness_cap": 1.0,
    "player_colours": ["orange", "sky", "green", "yellow", "blue"],
}


def small_dict(**changes: Any) -> dict[str, Any]:
    """A deep copy of SMALL with top-level keys replaced."""
    d = copy.deepcopy(SMALL)
    d.update(changes)
    return d


def make_view(
    track: dict[str, list[str]] | None = None,
    pyramid: list[list[str | None]] | None = None,
    players: tuple[str, ...] = ("ana", "ben", "cleo"),
    **extra: Any,
) -> dict[str, Any]:
    """A public view shaped like ``companion.engine.view(state, None)``."""
    scores = {p: 0 for p in players}
    for key, stack in (track or {"0": list(players)}).items():
        for p in stack if isinstance(stack, list) else []:
            if p in scores and key.lstrip("-").isdigit():
                scores[p] = int(key)
    view: dict[str, Any] = {
        "round": 1,
        "mode": "red",
        "last_round": False,
        "finished": False,
        "station": None,
        "winners": [],
        "seats": list(players),
        "players": {p: {"score": scores[p]} for p in players},
        "track": track if track is not None else {"0": list(players)},
        "pyramid": pyramid
        if pyramid is not None
        else [[None] * 5, [None] * 4, [None] * 3, [None] * 2],
        "profile": {"track_colors": ["red", "gold", "green"]},
    }
    view.update(extra)
    return view


def led_rgb(hex_colour: str, level: float = 1.0, cap: float = 1.0) -> tuple[int, int, int]:
    """The bytes an LED gets to emit screen colour ``hex_colour`` at ``level`` under ``cap``.

    LEDs emit linear light, so the sRGB screen value is linearised first.
    """
    from companion.leds.vision import hex_to_linear

    return tuple(round(c * level * cap * 255) for c in hex_to_linear(hex_colour))  # type: ignore


def pixel(buf: bytes, i: int) -> tuple[int, int, int]:
    """LED ``i`` of a pixel buffer."""
    return buf[3 * i], buf[3 * i + 1], buf[3 * i + 2]
