"""The LED picture computed from hand-made public views (shaped like engine.view(s, None))."""

from __future__ import annotations

import pytest

from companion.leds.layout import layout_from_dict, load_layout
from companion.leds.palette import PLAYER_COLOURS as PC
from companion.leds.palette import TRACK_COLOURS as TC
from companion.leds.picture import (
    EMPTY_BOX_LEVEL,
    LAP_PERIOD_S,
    MAX_LAP_FLASHES,
    ROW_ANIMATION_S,
    STACK_PAGE_S,
    WINNER_ANIMATION_S,
    Animation,
    PictureError,
    animation_active,
    animations_between,
    animations_from_events,
    assign_colours,
    box_slots,
    lap_visible,
    needs_frames,
    prune,
    render,
)

from .builders import led_rgb, make_view, pixel, small_dict

COLOURS = {"ana": "orange", "ben": "sky", "cleo": "green", "dev": "yellow", "eli": "blue"}
BLACK = (0, 0, 0)


def dim(track_colour: str) -> tuple[int, int, int]:
    return led_rgb(TC[track_colour], EMPTY_BOX_LEVEL)


def front(layout, box):
    return layout.box_leds[box][-1]


def test_buffer_is_rgb_per_led_in_strip_order(small):
    buf = render(make_view(), small, COLOURS)
    assert isinstance(buf, bytes)
    assert len(buf) == 3 * small.led_count == 93


def test_unused_leds_stay_dark():
    d = small_dict(status={})
    d["pyramid"] = [[40, 41], [42]]
    layout = layout_from_dict(d)
    buf = render(make_view(), layout, COLOURS)
    assert len(buf) == 3 * 43
    assert all(pixel(buf, i) == BLACK for i in range(18, 40))


def test_empty_boxes_show_their_dimmed_track_colour(small):
    # R2.3: box b uses track_colors[b % n]; default pattern red, gold, green.
    buf = render(make_view(), small, COLOURS)
    for box in range(1, 6):
        want = dim(["red", "gold", "green"][box % 3])
        assert [pixel(buf, i) for i in small.box_leds[box]] == [want] * 3, box


def test_track_colours_longer_than_the_pattern_wrap_by_box_number(small):
    view = make_view(profile={"track_colors": ["gold", "gold", "red", "green"]})
    buf = render(view, small, COLOURS)
    for box in range(1, 6):
        want = dim(["gold", "gold", "red", "green"][box % 4])
        assert pixel(buf, small.box_leds[box][0]) == want


def test_a_lone_marker_lights_the_front_led_and_keeps_the_box_colour(small):
    view = make_view({"0": ["ana", "cleo"], "4": ["ben"]})
    buf = render(view, small, COLOURS)
    back, middle, front_led = small.box_leds[4]  # reversed segment: (14, 13, 12)
    assert front_led == 12
    assert pixel(buf, front_led) == led_rgb(PC["sky"])
    assert pixel(buf, middle) == pixel(buf, back) == dim("gold")


def test_a_shared_box_shows_every_marker_with_the_top_at_the_front(small):
    # R3.4: the stack order breaks ties, so it must be readable: top = front LED, then backwards.
    buf = render(make_view({"2": ["ana", "ben"], "0": ["cleo"]}), small, COLOURS)
    slot0, slot1, slot2 = (pixel(buf, i) for i in small.box_leds[2])
    assert slot2 == led_rgb(PC["sky"])  # ben on top
    assert slot1 == led_rgb(PC["orange"])
    assert slot0 == dim("green")
    swapped = render(make_view({"2": ["ben", "ana"], "0": ["cleo"]}), small, COLOURS)
    assert pixel(swapped, small.box_leds[2][2]) == led_rgb(PC["orange"])
    assert pixel(swapped, small.box_leds[2][1]) == led_rgb(PC["sky"])


def test_three_markers_fill_a_three_led_box(small):
    buf = render(make_view({"0": ["ana", "ben", "cleo"]}), small, COLOURS)
    assert [pixel(buf, i) for i in small.box_leds[0]] == [
        led_rgb(PC["orange"]),
        led_rgb(PC["sky"]),
        led_rgb(PC["green"]),
    ]
    assert not needs_frames(make_view({"0": ["ana", "ben", "cleo"]}), small)


def test_an_overfull_box_keeps_the_top_in_front_and_pages_through_the_rest(small):
    players = ("ana", "ben", "cleo", "dev", "eli")
    view = make_view({"0": list(players)}, players=players)  # eli on top
    assert needs_frames(view, small)
    seen = set()
    for n in range(4):
        buf = render(view, small, COLOURS, now=n * STACK_PAGE_S + 0.1)
        slots = [pixel(buf, i) for i in small.box_leds[0]]
        assert slots[2] == led_rgb(PC["blue"])  # top marker stays on the front LED
        seen.update(slots[:2])
    # pages: (dev, cleo) then (ben, ana), each shown top-down from front to back
    page0 = render(view, small, COLOURS, now=0.1)
    assert pixel(page0, 1) == led_rgb(PC["yellow"]) and pixel(page0, 0) == led_rgb(PC["green"])
    page1 = render(view, small, COLOURS, now=STACK_PAGE_S + 0.1)
    assert pixel(page1, 1) == led_rgb(PC["sky"]) and pixel(page1, 0) == led_rgb(PC["orange"])
    assert seen == {led_rgb(PC[c]) for c in ("orange", "sky", "green", "yellow")}


def test_an_uneven_last_page_shows_the_box_colour_in_the_spare_slot():
    assert box_slots(["d", "c", "b", "a"], 3, 0.0) == ["d", "c", "b"]
    assert box_slots(["d", "c", "b", "a"], 3, STACK_PAGE_S) == ["d", "a", None]
    assert box_slots(["d", "c", "b", "a"], 3, 2 * STACK_PAGE_S) == ["d", "c", "b"]


def test_a_one_led_box_cycles_the_whole_stack_top_first():
    d = small_dict(track={"boxes": 6, "leds_per_box": 1}, pyramid=[[6, 7], [8]], status={})
    layout = layout_from_dict(d)
    view = make_view({"0": ["ana", "ben"], "3": ["cleo"]})
    shown = [pixel(render(view, layout, COLOURS, now=n * STACK_PAGE_S), 0) for n in range(3)]
    assert shown == [led_rgb(PC["sky"]), led_rgb(PC["orange"]), led_rgb(PC["sky"])]
    assert pixel(render(view, layout, COLOURS), 3) == led_rgb(PC["green"])


def dark_runs(view, layout, led, lap_start=0.0):
    """How many times LED ``led`` goes dark in one lap cycle, sampled at 20 fps."""
    frames = [
        pixel(render(view, layout, COLOURS, now=lap_start + i / 20), led)
        for i in range(int(LAP_PERIOD_S * 20))
    ]
    return sum(
        1 for a, b in zip([frames[-1], *frames], frames, strict=False) if b == BLACK and a != BLACK
    )


def test_scores_past_the_end_wrap_around_and_show_their_lap(small):
    # R6.2: scores are not capped; 6 boxes, so 7 stands on box 1, lap 1; 13 on box 1, lap 2.
    view = make_view({"0": ["cleo"], "7": ["ana"], "14": ["ben"]})
    assert needs_frames(view, small)
    lit = render(view, small, COLOURS, now=LAP_PERIOD_S - 0.1)
    assert pixel(lit, front(small, 1)) == led_rgb(PC["orange"])
    assert pixel(lit, front(small, 2)) == led_rgb(PC["sky"])
    assert dark_runs(view, small, front(small, 1)) == 1
    assert dark_runs(view, small, front(small, 2)) == 2
    assert dark_runs(view, small, front(small, 0)) == 0  # lap 0 never blinks


def test_lap_flashes_stop_at_the_maximum():
    assert [lap_visible(0, t / 20) for t in range(60)] == [True] * 60
    runs = sum(
        1 for t in range(60) if not lap_visible(99, t / 20) and lap_visible(99, (t - 1) / 20)
    )
    assert runs == MAX_LAP_FLASHES


def test_markers_of_different_laps_on_one_box_stack_by_score(small):
    # ben on 1 (lap 0) and ana on 7 (lap 1) share box 1: the higher score is shown on top.
    view = make_view({"1": ["ben"], "7": ["ana"], "0": ["cleo"]})
    buf = render(view, small, COLOURS, now=LAP_PERIOD_S - 0.1)
    assert pixel(buf, front(small, 1)) == led_rgb(PC["orange"])
    assert pixel(buf, small.box_leds[1][1]) == led_rgb(PC["sky"])


def test_a_static_picture_needs_no_frames(small):
    assert not needs_frames(make_view({"0": ["ana"], "3": ["ben", "cleo"]}), small)


def test_pyramid_cells_show_their_owners(small):
    view = make_view(
        pyramid=[
            ["ana", "ben", None, None, None],
            ["cleo", None, None, None],
            [None, None, None],
            [None, None],
        ]
    )
    buf = render(view, small, COLOURS)
    assert pixel(buf, 18) == led_rgb(PC["orange"])
    assert pixel(buf, 19) == led_rgb(PC["sky"])
    assert pixel(buf, 20) == led_rgb(PC["green"])
    empty = render(make_view(), small, COLOURS)
    faint = pixel(empty, 18)
    assert faint == pixel(empty, 19) == pixel(empty, 20)
    assert 0 < max(faint) <= 10  # empty cells glow faintly so the pyramid shape shows


def test_default_pyramid_cells_follow_the_serpentine_map():
    layout = load_layout()
    rows = [
        ["ana", None, None, None, "ben"],
        ["cleo", None, None, None],
        [None, None, None],
        [None, "ana"],
    ]
    buf = render(make_view(pyramid=rows), layout, COLOURS)
    assert pixel(buf, 180) == led_rgb(PC["orange"], cap=layout.brightness_cap)
    assert pixel(buf, 184) == led_rgb(PC["sky"], cap=layout.brightness_cap)
    assert pixel(buf, 188) == led_rgb(PC["green"], cap=layout.brightness_cap)  # row 2 cell 1
    assert pixel(buf, 192) == led_rgb(PC["orange"], cap=layout.brightness_cap)  # row 4 cell 2


def test_status_leds_show_mode_round_and_station(small):
    view = make_view(mode="green", round=2, station=4)
    buf = render(view, small, COLOURS)
    assert pixel(buf, 21) == led_rgb(TC["green"])
    assert pixel(buf, 23) == (255, 255, 255)  # current round
    assert 0 < pixel(buf, 22)[0] < 100  # past round, dimmer
    assert pixel(buf, 24) == BLACK  # rounds to come
    assert [pixel(buf, i) for i in range(25, 31)] == [BLACK] * 3 + [(255, 255, 255)] + [BLACK] * 2


def test_the_round_light_turns_amber_once_the_round_is_the_last(small):
    """R6.3: the board says "last round" too (its reason is on the screens)."""
    view = make_view(mode="green", round=2, station=4)
    plain = render(view, small, COLOURS)
    last = render({**view, "last_round": True}, small, COLOURS)
    assert pixel(plain, 23) == (255, 255, 255)
    red, green, blue = pixel(last, 23)
    assert red > green > blue and red > 200  # amber, not white
    assert pixel(last, 22) == pixel(plain, 22)  # past rounds unchanged
    over = render({**view, "last_round": True, "finished": True}, small, COLOURS)
    assert pixel(over, 23) == (255, 255, 255)


def test_status_leds_before_the_game_and_past_the_last_round_led(small):
    before = render(make_view(mode=None, round=0), small, COLOURS)
    assert all(pixel(before, i) == BLACK for i in range(21, 31))
    late = render(make_view(mode="gold", round=6), small, COLOURS)
    assert pixel(late, 21) == led_rgb(TC["gold"])
    assert pixel(late, 24) == (255, 255, 255)
    assert pixel(late, 22) == pixel(late, 23) != BLACK


def test_row_animation_runs_then_stops(small):
    rows = [["ana", "ben"], ["ana"]]
    view = make_view(pyramid=rows)
    events = [
        {"type": "scored", "player": "ana"},
        {"type": "row_completed", "row": 0, "player": "ben", "bonus": 5},
    ]
    anims = animations_from_events(events, now=10.0)
    assert anims == [Animation("row", 10.0, 0, ("ben",))]
    assert animation_active(anims, 10.0) and needs_frames(view, small, anims, 10.0)
    flash = render(view, small, COLOURS, 10.0, anims)
    assert pixel(flash, 18) == pixel(flash, 19) == led_rgb(PC["sky"])
    owners = render(view, small, COLOURS, 10.3, anims)
    assert pixel(owners, 18) == led_rgb(PC["orange"])
    assert pixel(owners, 20) == led_rgb(PC["orange"])  # other rows untouched
    end = 10.0 + ROW_ANIMATION_S
    assert not animation_active(anims, end) and not needs_frames(view, small, anims, end)
    assert render(view, small, COLOURS, end, anims) == render(view, small, COLOURS, end)
    assert prune(anims, end) == [] and prune(anims, end - 0.01) == anims


def test_animations_from_view_changes(small):
    before = make_view(pyramid=[["ana", None], [None]])
    after = make_view(pyramid=[["ana", "ben"], [None]])
    assert animations_between(before, after, 5.0) == [Animation("row", 5.0, 0)]
    assert animations_between(after, after, 5.0) == []
    assert animations_between(None, after, 5.0) == []  # a restart replays nothing
    done = make_view(pyramid=[["ana", "ben"], [None]], finished=True, winners=["ben"])
    assert animations_between(after, done, 6.0) == [Animation("winners", 6.0, players=("ben",))]
    flash = render(after, small, COLOURS, 5.0, animations_between(before, after, 5.0))
    assert pixel(flash, 18) == pixel(flash, 19) == (255, 255, 255)  # scorer unknown: white


def test_winner_animation_uses_only_winner_colours_then_stops(small):
    view = make_view(
        {"5": ["ana"], "3": ["ben"], "4": ["cleo"]}, finished=True, winners=["ana", "ben"]
    )
    anims = animations_from_events([{"type": "game_over", "winners": ["ana", "ben"]}], 100.0)
    assert [a.kind for a in anims] == ["winners"] and anims[0].players == ("ana", "ben")
    allowed_hues = {
        led_rgb(PC["orange"]),
        led_rgb(PC["sky"]),
        led_rgb(PC["orange"], 0.15),
        led_rgb(PC["sky"], 0.15),
    }
    frames = [
        render(view, small, COLOURS, 100.0 + i / 20, anims)
        for i in range(int(WINNER_ANIMATION_S * 20))
    ]
    track_leds = [i for box in small.box_leds for i in box]
    for buf in frames:
        assert {pixel(buf, i) for i in track_leds} <= allowed_hues
    assert len({frame for frame in frames}) > 10  # it moves
    assert {pixel(frames[0], i) for i in track_leds} != {pixel(frames[0], 0)}  # bands
    after = 100.0 + WINNER_ANIMATION_S
    assert not needs_frames(view, small, anims, after)
    assert render(view, small, COLOURS, after, anims) == render(view, small, COLOURS, after)


def test_brightness_cap_limits_every_channel_in_every_frame():
    layout = load_layout()
    limit = round(layout.brightness_cap * 255)
    players = ("ana", "ben", "cleo", "dev", "eli")
    view = make_view(
        {"0": list(players[:4]), "61": ["eli"]},
        players=players,
        mode="gold",
        round=3,
        station=2,
        pyramid=[list(players), [None] * 4, [None] * 3, [None] * 2],
    )
    anims = [Animation("row", 0.0, 0, ("dev",)), Animation("winners", 0.0, players=players)]
    peak = 0
    for i in range(0, 200, 3):
        buf = render(view, layout, COLOURS, i / 20, anims)
        peak = max(peak, max(buf))
    assert peak == limit  # white status LEDs reach the cap, nothing goes past it
    uncapped = layout_from_dict({**small_dict(), "brightness_cap": 1.0})
    assert max(render(make_view(station=1), uncapped, COLOURS)) == 255


def test_players_without_a_colour_get_free_ones_in_seat_order(small):
    assert assign_colours(
        ["ana", "ben", "cleo"], {"ben": "orange"}, ["orange", "sky", "green"]
    ) == {"ben": "orange", "ana": "sky", "cleo": "green"}
    buf = render(make_view({"0": ["ana"], "1": ["ben"], "2": ["cleo"]}), small, {"ben": "purple"})
    assert pixel(buf, front(small, 0)) == led_rgb(PC["orange"])
    assert pixel(buf, front(small, 1)) == led_rgb(PC["purple"])
    assert pixel(buf, front(small, 2)) == led_rgb(PC["sky"])


BAD_VIEWS = [
    ("stranger on track", make_view({"0": ["ana", "zed"]}), {}, "'zed' is not a player"),
    ("stranger in pyramid", make_view(pyramid=[["zed"]]), {}, "'zed' is not a player"),
    ("score key", make_view({"ten": ["ana"]}), {}, "'ten' is not a score"),
    ("negative score", make_view({"-2": ["ana"]}), {}, "never negative"),
    ("stack type", make_view({"0": "ana"}), {}, "not a list"),
    ("no track", {k: v for k, v in make_view().items() if k != "track"}, {}, "no track"),
    ("no players", {k: v for k, v in make_view().items() if k != "players"}, {}, "no players"),
    ("no pyramid", {k: v for k, v in make_view().items() if k != "pyramid"}, {}, "no pyramid"),
    ("mode", make_view(mode="blue"), {}, "mode 'blue'"),
    ("track colour", make_view(profile={"track_colors": ["red", "pink"]}), {}, "'pink' of box 1"),
    ("no track colours", make_view(profile={}), {}, "track_colors is missing"),
    ("unknown player colour", make_view(), {"ana": "teal"}, "unknown colour 'teal'"),
    ("shared colour", make_view(), {"ana": "sky", "ben": "sky"}, "both have colour 'sky'"),
]


@pytest.mark.parametrize(
    ("view", "colours", "message"), [b[1:] for b in BAD_VIEWS], ids=[b[0] for b in BAD_VIEWS]
)
def test_views_that_cannot_be_drawn_are_refused(small, view, colours, message):
    with pytest.raises(PictureError, match=message) as info:
        render(view, small, colours)
    assert isinstance(info.value, ValueError)


def test_bad_animations_are_refused():
    with pytest.raises(PictureError, match="unknown animation kind"):
        Animation("fireworks", 0.0)
    with pytest.raises(PictureError, match="needs the row number"):
        Animation("row", 0.0)
