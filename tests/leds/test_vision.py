"""Colour science used to keep LED colours apart for colour-blind players."""

from __future__ import annotations

import itertools

import pytest

from companion.leds.palette import PLAYER_COLOURS, TRACK_COLOURS
from companion.leds.picture import (
    EMPTY_BOX_LEVEL,
    PLAYER_LINEAR,
    TOP_MARKER_LEVEL,
    TRACK_LINEAR,
    UNDER_MARKER_LEVEL,
)
from companion.leds.vision import (
    MACHADO_2009,
    VISIONS,
    ciede2000,
    difference,
    hex_to_linear,
    linear_to_lab,
    simulate,
)

# Minimum CIEDE2000 difference between any two colours players must tell apart on the board.
# About 1 is just noticeable side by side; 10 reads as "a different colour" across a table.
MIN_DIFFERENCE = 10.0

# Sharma, Wu & Dalal (2005) CIEDE2000 test data (pairs 1, 2, 7, 17, 25, 34).
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA)
def test_ciede2000_matches_published_test_data(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_lab_of_white_and_black():
    lightness, a, b = linear_to_lab((1.0, 1.0, 1.0))
    assert lightness == pytest.approx(100, abs=0.01) and abs(a) < 0.01 and abs(b) < 0.01
    assert linear_to_lab((0.0, 0.0, 0.0)) == pytest.approx((0, 0, 0), abs=1e-9)


def test_hex_to_linear_uses_the_srgb_curve():
    assert hex_to_linear("#FFFFFF") == pytest.approx((1, 1, 1))
    # sRGB 50 % grey is about 21.4 % light.
    assert hex_to_linear("#808080")[0] == pytest.approx(0.2158, abs=1e-3)


@pytest.mark.parametrize("vision", list(MACHADO_2009))
def test_simulation_keeps_greys_and_confuses_its_own_axis(vision):
    # Each Machado matrix maps white to white (rows sum to 1) ...
    assert simulate((1.0, 1.0, 1.0), vision) == pytest.approx((1, 1, 1), abs=1e-3)
    # ... and collapses the colour pair its deficiency confuses.
    red_green = ("#FF0000", "#7F7F00")
    blue_green = ("#3050FF", "#20A080")
    confused, other = (blue_green, red_green) if vision == "tritanopia" else (red_green, blue_green)
    a, b = (hex_to_linear(h) for h in confused)
    assert difference(a, b, vision) < difference(a, b, "normal") / 2
    # The other axis stays readable.
    c, d = (hex_to_linear(h) for h in other)
    assert difference(c, d, vision) > difference(c, d, "normal") / 2


def test_unknown_vision_is_refused():
    with pytest.raises(ValueError, match="unknown vision"):
        simulate((0.5, 0.5, 0.5), "monochromacy")


@pytest.mark.parametrize("vision", VISIONS)
def test_every_pair_of_player_colours_stays_apart(vision):
    worst = min(
        (difference(PLAYER_LINEAR[a], PLAYER_LINEAR[b], vision), a, b)
        for a, b in itertools.combinations(PLAYER_COLOURS, 2)
    )
    assert worst[0] >= MIN_DIFFERENCE, worst


@pytest.mark.parametrize("vision", VISIONS)
def test_markers_stand_out_from_every_dimmed_box_colour(vision):
    for (p, pl), (t, tl) in itertools.product(PLAYER_LINEAR.items(), TRACK_LINEAR.items()):
        box = tuple(c * EMPTY_BOX_LEVEL for c in tl)
        for level in (TOP_MARKER_LEVEL, UNDER_MARKER_LEVEL):
            marker = tuple(c * level for c in pl)
            d = difference(marker, box, vision)
            assert d >= MIN_DIFFERENCE, (vision, p, level, t, round(d, 1))


@pytest.mark.parametrize("vision", VISIONS)
def test_a_lower_marker_never_looks_like_another_players_top_marker(vision):
    for a, b in itertools.permutations(PLAYER_LINEAR, 2):
        top = tuple(c * TOP_MARKER_LEVEL for c in PLAYER_LINEAR[a])
        under = tuple(c * UNDER_MARKER_LEVEL for c in PLAYER_LINEAR[b])
        assert difference(top, under, vision) >= MIN_DIFFERENCE, (vision, a, b)


def test_track_colours_are_the_three_mode_colours():
    assert set(TRACK_COLOURS) == {"gold", "red", "green"}
