"""Player colours shared by the phones, the table display and the LED board.

The set follows the Okabe–Ito palette, chosen so that the five colours stay apart for the common
forms of colour-blind vision; each also has a name so a colour is never the only cue.
"""

from __future__ import annotations

# The colours themselves are the engine's (companion/engine/colours.py); the board maps them.
from companion.engine.colours import (
    PLAYER_COLOURS,
    SCREEN_COLOURS,
    TRACK_COLOURS,
)

__all__ = ["PLAYER_COLOURS", "SCREEN_COLOURS", "TRACK_COLOURS", "rgb"]


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """``"#E69F00"`` -> ``(230, 159, 0)``.

    >>> rgb("#E69F00")
    (230, 159, 0)
    """
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
