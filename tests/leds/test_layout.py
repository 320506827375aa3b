"""The LED layout file: derived counts, strip mapping and every validation error."""

from __future__ import annotations

import json

import pytest

from companion.leds.layout import (
    DEFAULT_LAYOUT_PATH,
    ColourNameError,
    LayoutError,
    LayoutFormatError,
    LayoutRangeError,
    LedCollisionError,
    PyramidShapeError,
    SegmentError,
    layout_from_dict,
    load_layout,
)

from .builders import SMALL, small_dict


def test_default_layout_counts():
    layout = load_layout()
    assert layout.boxes == 60 and layout.leds_per_box == 3
    assert layout.track_led_count == 180
    assert [len(r) for r in layout.pyramid] == [5, 4, 3, 2]  # R5.4 rows from the bottom
    assert layout.pyramid_led_count == 14
    assert layout.status_led_count == 1 + 7 + 6
    assert layout.led_count == layout.used_led_count == 208
    assert 0 < layout.brightness_cap <= 1
    # every strip index is used exactly once
    assert sorted(layout.roles()) == list(range(208))


def test_default_layout_file_is_the_packaged_one():
    assert DEFAULT_LAYOUT_PATH.name == "default_layout.json"
    assert load_layout(DEFAULT_LAYOUT_PATH) == load_layout()


def test_small_layout_counts_and_reversed_segment(small):
    assert small.track_led_count == 18
    assert small.pyramid_led_count == 3
    assert small.status_led_count == 10
    assert small.led_count == 31
    assert small.box_leds[0] == (0, 1, 2)
    assert small.box_leds[2] == (6, 7, 8)
    # Segment 2 runs against the track: box 3 slot 0 is its highest index.
    assert small.box_leds[3] == (17, 16, 15)
    assert small.box_leds[5] == (11, 10, 9)


def test_gaps_stay_in_the_strip_length():
    d = small_dict(status={})
    d["pyramid"] = [[40, 41], [42]]  # LEDs 18..39 skipped (e.g. a long cable run)
    layout = layout_from_dict(d)
    assert layout.used_led_count == 21
    assert layout.led_count == 43
    assert layout.status_mode is None and layout.status_round == ()


def test_segments_default_to_one_forward_run():
    d = small_dict()
    del d["track"]["segments"]
    d["pyramid"] = [[18, 19], [20]]
    layout = layout_from_dict(d)
    assert layout.box_leds[5] == (15, 16, 17)


def test_one_led_per_box():
    d = small_dict()
    d["track"] = {"boxes": 6, "leds_per_box": 1}
    layout = layout_from_dict(d)
    assert layout.track_led_count == 6
    assert layout.box_leds[4] == (4,)


def test_load_layout_from_a_file(tmp_path):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(SMALL))
    assert load_layout(path).led_count == 31


def test_broken_json_file(tmp_path):
    path = tmp_path / "board.json"
    path.write_text('{"track": ')
    with pytest.raises(LayoutFormatError, match="not valid JSON"):
        load_layout(path)


def _track(**changes):
    t = dict(SMALL["track"])
    t.update(changes)
    return t


BAD = [
    ("not an object", [], LayoutFormatError, "expected a JSON object"),
    ("unknown key", small_dict(colour="red"), LayoutFormatError, "unknown key"),
    ("name type", small_dict(name=3), LayoutFormatError, "name"),
    (
        "no track",
        {k: v for k, v in SMALL.items() if k != "track"},
        LayoutFormatError,
        "missing key 'track'",
    ),
    ("unknown track key", small_dict(track=_track(loop=True)), LayoutFormatError, "loop"),
    ("boxes type", small_dict(track=_track(boxes="6")), LayoutFormatError, "expected int"),
    ("boxes bool", small_dict(track=_track(boxes=True)), LayoutFormatError, "expected int"),
    ("zero boxes", small_dict(track=_track(boxes=0)), LayoutRangeError, "at least 1"),
    (
        "zero leds per box",
        small_dict(track=_track(leds_per_box=0)),
        LayoutRangeError,
        "outside 1..8",
    ),
    (
        "nine leds per box",
        small_dict(track=_track(leds_per_box=9)),
        LayoutRangeError,
        "outside 1..8",
    ),
    ("segments empty", small_dict(track=_track(segments=[])), LayoutFormatError, "non-empty list"),
    (
        "segment not object",
        small_dict(track=_track(segments=[5])),
        LayoutFormatError,
        "expected an object",
    ),
    (
        "segment unknown key",
        small_dict(track=_track(segments=[{"boxes": [0, 5], "start": 0, "flip": True}])),
        LayoutFormatError,
        "flip",
    ),
    (
        "segment span",
        small_dict(track=_track(segments=[{"boxes": [0], "start": 0}])),
        LayoutFormatError,
        r"\[first, last\]",
    ),
    (
        "segment backwards",
        small_dict(track=_track(segments=[{"boxes": [5, 0], "start": 0}])),
        SegmentError,
        "after last box",
    ),
    (
        "segment outside",
        small_dict(track=_track(segments=[{"boxes": [0, 6], "start": 0}])),
        SegmentError,
        "outside 0..5",
    ),
    (
        "segment overlap",
        small_dict(
            track=_track(segments=[{"boxes": [0, 3], "start": 0}, {"boxes": [3, 5], "start": 12}])
        ),
        SegmentError,
        "box 3 is in",
    ),
    (
        "segment gap",
        small_dict(track=_track(segments=[{"boxes": [0, 4], "start": 0}])),
        SegmentError,
        "box 5 is in no track segment",
    ),
    (
        "segment start missing",
        small_dict(track=_track(segments=[{"boxes": [0, 5]}])),
        LayoutFormatError,
        "missing key 'start'",
    ),
    (
        "segment negative start",
        small_dict(track=_track(segments=[{"boxes": [0, 5], "start": -1}])),
        LayoutRangeError,
        "negative",
    ),
    (
        "segment reverse type",
        small_dict(track=_track(segments=[{"boxes": [0, 5], "start": 0, "reverse": "yes"}])),
        LayoutFormatError,
        "true or false",
    ),
    (
        "no pyramid",
        {k: v for k, v in SMALL.items() if k != "pyramid"},
        LayoutFormatError,
        "missing key 'pyramid'",
    ),
    ("pyramid empty", small_dict(pyramid=[]), PyramidShapeError, "at least one row"),
    (
        "pyramid empty row",
        small_dict(pyramid=[[18, 19], []]),
        PyramidShapeError,
        "row 2 has no cells",
    ),
    ("pyramid row type", small_dict(pyramid=[18, 19]), LayoutFormatError, "list of LED"),
    ("pyramid index type", small_dict(pyramid=[[18, "19"]]), LayoutFormatError, "LED index"),
    ("pyramid negative", small_dict(pyramid=[[18, -19]]), LayoutRangeError, "negative"),
    ("status type", small_dict(status=[21]), LayoutFormatError, "status"),
    ("status unknown key", small_dict(status={"clock": 21}), LayoutFormatError, "clock"),
    (
        "station count",
        small_dict(status={"station": [25, 26, 27]}),
        LayoutRangeError,
        "one per station",
    ),
    (
        "no cap",
        {k: v for k, v in SMALL.items() if k != "brightness_cap"},
        LayoutFormatError,
        "brightness_cap",
    ),
    ("cap zero", small_dict(brightness_cap=0), LayoutRangeError, r"outside \(0, 1\]"),
    ("cap above one", small_dict(brightness_cap=1.5), LayoutRangeError, r"outside \(0, 1\]"),
    ("cap type", small_dict(brightness_cap="0.5"), LayoutFormatError, "brightness_cap"),
    (
        "colour unknown",
        small_dict(player_colours=["orange", "sky", "green", "yellow", "pink"]),
        ColourNameError,
        "unknown colour 'pink'",
    ),
    (
        "colour twice",
        small_dict(player_colours=["orange", "sky", "green", "yellow", "sky"]),
        ColourNameError,
        "'sky' is listed twice",
    ),
    (
        "too few colours",
        small_dict(player_colours=["orange", "sky", "green", "yellow"]),
        ColourNameError,
        "needs 5",
    ),
    (
        "pyramid on track",
        small_dict(pyramid=[[4, 19], [20]]),
        LedCollisionError,
        "LED 4 is claimed by box 1 slot 1 and by pyramid row 1 cell 1",
    ),
    (
        "status on pyramid",
        small_dict(status={"mode": 20}),
        LedCollisionError,
        "LED 20 is claimed by pyramid row 2 cell 1 and by status mode",
    ),
    (
        "segments share LEDs",
        small_dict(
            track=_track(segments=[{"boxes": [0, 2], "start": 0}, {"boxes": [3, 5], "start": 8}])
        ),
        LedCollisionError,
        "LED 8",
    ),
]


@pytest.mark.parametrize(("raw", "error", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_layouts_are_refused_with_a_reason(raw, error, message):
    with pytest.raises(error, match=message) as info:
        layout_from_dict(raw)
    assert isinstance(info.value, LayoutError) and isinstance(info.value, ValueError)


def test_refusing_a_layout_leaves_the_input_untouched():
    raw = small_dict(pyramid=[[4, 19], [20]])
    before = json.dumps(raw, sort_keys=True)
    with pytest.raises(LedCollisionError):
        layout_from_dict(raw)
    assert json.dumps(raw, sort_keys=True) == before
