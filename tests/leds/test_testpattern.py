"""Build check patterns: they light what the layout says, inside the brightness cap."""

from __future__ import annotations

from companion.leds.layout import load_layout
from companion.leds.palette import PLAYER_COLOURS, TRACK_COLOURS
from companion.leds.testpattern import map_frame, walk_frame

from .builders import led_rgb, pixel


def test_map_frame_marks_start_direction_pyramid_rows_and_status(small):
    buf = map_frame(small)
    assert len(buf) == 3 * small.led_count
    red = led_rgb(TRACK_COLOURS["red"])
    assert [pixel(buf, i) for i in small.box_leds[0]] == [red] * 3
    # box 5 is on the reversed piece: its front LED is its lowest strip index
    assert pixel(buf, small.box_leds[5][2]) == (255, 255, 255) == pixel(buf, 9)
    assert pixel(buf, small.box_leds[5][0]) == led_rgb(TRACK_COLOURS["green"], 0.1)
    assert pixel(buf, 18) == pixel(buf, 19) == led_rgb(PLAYER_COLOURS["orange"])
    assert pixel(buf, 20) == led_rgb(PLAYER_COLOURS["sky"])
    assert pixel(buf, 21) == led_rgb(TRACK_COLOURS["gold"])
    assert {pixel(buf, i) for i in range(22, 25)} == {(255, 255, 255)}


def test_patterns_respect_the_cap_of_the_default_board():
    layout = load_layout()
    assert max(map_frame(layout)) == round(layout.brightness_cap * 255)
    for step in (0, 207, 208):
        buf = walk_frame(layout, step)
        lit = [i for i in range(layout.led_count) if max(pixel(buf, i)) > 0]
        assert lit == [step % 208]
        assert max(buf) == 89
