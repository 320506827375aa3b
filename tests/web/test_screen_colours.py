"""Player colours on screens (issue 7: "Purple" looked pink; orange, vermilion and yellow were
hard to tell apart on a phone). Measured with CIEDE2000 as the LED palette is."""

from __future__ import annotations

import itertools
import math

from companion.leds.palette import PLAYER_COLOURS, SCREEN_COLOURS
from companion.leds.vision import difference, hex_to_linear, linear_to_lab

VISIONS = ("protanopia", "deuteranopia", "tritanopia")


def _de(a: str, b: str, vision: str = "normal") -> float:
    return difference(hex_to_linear(a), hex_to_linear(b), vision)


def test_every_player_colour_has_a_screen_colour():
    assert set(SCREEN_COLOURS) == set(PLAYER_COLOURS)


def test_screen_colours_stay_apart_for_normal_and_colour_blind_vision():
    pairs = list(itertools.combinations(SCREEN_COLOURS.values(), 2))
    assert min(_de(a, b) for a, b in pairs) >= 20
    for vision in VISIONS:
        assert min(_de(a, b, vision) for a, b in pairs) >= 9, vision


def test_purple_is_a_purple_and_the_warm_colours_are_further_apart_than_on_leds():
    _l, a, b = linear_to_lab(hex_to_linear(SCREEN_COLOURS["purple"]))
    assert 280 <= math.degrees(math.atan2(b, a)) % 360 <= 320  # pink sits near 345
    for x, y in (("orange", "yellow"), ("orange", "vermilion"), ("vermilion", "yellow")):
        assert _de(SCREEN_COLOURS[x], SCREEN_COLOURS[y]) > _de(
            PLAYER_COLOURS[x], PLAYER_COLOURS[y]
        ), (x, y)
