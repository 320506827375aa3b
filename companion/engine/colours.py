"""Player colours and track box colours by name, as screens show them (R2.3).

The set follows the Okabe–Ito palette, chosen so that the five colours stay apart for the common
forms of colour-blind vision; each also has a name so a colour is never the only cue. The LED
board (companion/leds) derives its own light levels from these.
"""

from __future__ import annotations

# name -> "#rrggbb" for screens. Order is the offer order on the phone's colour step.
PLAYER_COLOURS: dict[str, str] = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermilion": "#D55E00",
    "purple": "#CC79A7",
}

# The same colours as a phone or TV shows them (sRGB swatches, often small). The LED values
# above are chosen for emitted light; on screens Okabe-Ito's reddish purple reads as pink and
# orange, vermilion and yellow sit close together, so screens spread those hues further apart
# (tests/web/test_screen_colours.py measures it).
SCREEN_COLOURS: dict[str, str] = {
    "orange": "#FF9500",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F2E200",
    "blue": "#0072B2",
    "vermilion": "#E2401C",
    "purple": "#A970FF",
}

# Track box colours (R2.3) as shown on screens.
TRACK_COLOURS: dict[str, str] = {"gold": "#D4A017", "red": "#C0392B", "green": "#2E8B57"}
