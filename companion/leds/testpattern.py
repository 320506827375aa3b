"""Check patterns for building the board: they show whether the strip follows the layout.

``map_frame``: box 0 all red (where the track starts), every fifth box's front LED white (the
direction of play and the box pitch), the other boxes in their faint default colours; pyramid
rows 1-4 in orange, sky, green, yellow; mode LED gold, round LEDs white, station LEDs sky.
``walk_frame``: one LED at a time in strip order, for finding a broken joint or a swapped piece.
Both respect the layout's brightness cap.
"""

from __future__ import annotations

from companion.leds.layout import Layout
from companion.leds.palette import PLAYER_COLOURS, TRACK_COLOURS
from companion.leds.picture import EMPTY_BOX_LEVEL
from companion.leds.vision import Vec, hex_to_linear

_ROWS = ("orange", "sky", "green", "yellow")
_DEFAULT_TRACK = ("red", "gold", "green")  # the profile placeholder pattern (R2.3)


def _bytes(px: list[Vec], cap: float) -> bytes:
    return bytes(round(min(1.0, max(0.0, c)) * cap * 255) for p in px for c in p)


def map_frame(layout: Layout) -> bytes:
    """One frame that shows the layout's start, direction, pyramid rows and status LEDs."""
    px: list[Vec] = [(0.0, 0.0, 0.0)] * layout.led_count
    white: Vec = (1.0, 1.0, 1.0)
    for box, leds in enumerate(layout.box_leds):
        name = _DEFAULT_TRACK[box % 3]
        dim = tuple(c * EMPTY_BOX_LEVEL for c in hex_to_linear(TRACK_COLOURS[name]))
        for led in leds:
            px[led] = dim  # type: ignore[assignment]
        if box == 0:
            for led in leds:
                px[led] = hex_to_linear(TRACK_COLOURS["red"])
        elif box % 5 == 0:
            px[leds[-1]] = white
    for r, row in enumerate(layout.pyramid):
        for led in row:
            px[led] = hex_to_linear(PLAYER_COLOURS[_ROWS[r % len(_ROWS)]])
    if layout.status_mode is not None:
        px[layout.status_mode] = hex_to_linear(TRACK_COLOURS["gold"])
    for led in layout.status_round:
        px[led] = white
    for led in layout.status_station:
        px[led] = hex_to_linear(PLAYER_COLOURS["sky"])
    return _bytes(px, layout.brightness_cap)


def walk_frame(layout: Layout, step: int) -> bytes:
    """Frame ``step`` of the walk: only LED ``step % led_count`` lit, white."""
    px: list[Vec] = [(0.0, 0.0, 0.0)] * layout.led_count
    px[step % layout.led_count] = (1.0, 1.0, 1.0)
    return _bytes(px, layout.brightness_cap)
