"""Real games driven through companion.engine.apply, rendered after every command and read back.

The reader below decodes the pixel buffer the way a player reads the board (front LED = top of
the stack, box colours, pyramid owners, status LEDs) and must find exactly the public view.
"""

from __future__ import annotations

import random

import pytest

from companion.engine import apply, new_game, view
from companion.leds.layout import Layout, layout_from_dict, load_layout
from companion.leds.palette import PLAYER_COLOURS as PC
from companion.leds.palette import TRACK_COLOURS as TC
from companion.leds.picture import (
    EMPTY_BOX_LEVEL,
    WINNER_ANIMATION_S,
    animation_active,
    animations_from_events,
    render,
)
from companion.players.random_games import random_command, random_players

from .builders import led_rgb, pixel, small_dict

LIT = 2.9  # past every lap flash in the 3 s cycle (lap markers are lit)
NAMES = ["orange", "sky", "green", "yellow", "blue"]


def ten_box_layout() -> Layout:
    """A short track so real scores wrap (R6.2)."""
    d = small_dict(
        status={"mode": 35, "round": list(range(36, 43)), "station": list(range(43, 49))}
    )
    d["track"] = {
        "boxes": 10,
        "leds_per_box": 3,
        "segments": [
            {"boxes": [0, 4], "start": 0},
            {"boxes": [5, 9], "start": 15, "reverse": True},
        ],
    }
    d["pyramid"] = [[30, 31, 32, 33, 34][::-1], [49, 50, 51, 52], [53, 54, 55], [56, 57]]
    return layout_from_dict(d)


def read_board(buf: bytes, layout: Layout, colours: dict[str, str], track_colors: list[str]):
    """Decode a frame into (track top-first stacks by box, pyramid owners, mode)."""
    cap = layout.brightness_cap
    by_rgb = {led_rgb(PC[c], 1.0, cap): p for p, c in colours.items()}
    boxes = {}
    for b, leds in enumerate(layout.box_leds):
        box_dim = led_rgb(TC[track_colors[b % len(track_colors)]], EMPTY_BOX_LEVEL, cap)
        shown = []
        for led in reversed(leds):  # front LED first
            rgb = pixel(buf, led)
            if rgb == box_dim:
                shown.append(None)
            else:
                assert rgb in by_rgb, f"box {b} LED {led}: {rgb} is neither a player nor box"
                shown.append(by_rgb[rgb])
        boxes[b] = shown
    pyramid = []
    for row in layout.pyramid:
        pyramid.append([by_rgb.get(pixel(buf, led)) for led in row])
    mode = None
    if layout.status_mode is not None:
        rgb = pixel(buf, layout.status_mode)
        mode = next((m for m in TC if led_rgb(TC[m], 1.0, cap) == rgb), None)
    return boxes, pyramid, mode


def expected_boxes(v: dict, layout: Layout) -> dict[int, list]:
    """Top-first stacks per box as the rules put them: score s on box s % boxes."""
    entries: dict[int, list] = {}
    for key, stack in v["track"].items():
        for pos, p in enumerate(stack):
            entries.setdefault(int(key) % layout.boxes, []).append((int(key), pos, p))
    return {
        b: [p for _, _, p in sorted(entries.get(b, []), reverse=True)] for b in range(layout.boxes)
    }


def check_frame(v: dict, layout: Layout, colours: dict[str, str]) -> None:
    buf = render(v, layout, colours, now=LIT)
    assert len(buf) == 3 * layout.led_count
    assert max(buf) <= round(layout.brightness_cap * 255)
    track_colors = v["profile"]["track_colors"]
    boxes, pyramid, mode = read_board(buf, layout, colours, track_colors)
    k = layout.leds_per_box
    for b, want in expected_boxes(v, layout).items():
        got = boxes[b]
        if len(want) <= k:
            assert got == want + [None] * (k - len(want)), (b, v["track"])
        else:  # overfull: the top stays in front, the rest are markers of this box
            assert got[0] == want[0]
            assert all(p in want[1:] or p is None for p in got[1:])
    for r, row in enumerate(layout.pyramid):
        cells = v["pyramid"][r]
        assert pyramid[r] == [cells[c] if c < len(cells) else None for c in range(len(row))]
    assert mode == v["mode"]
    if v["station"] and layout.status_station:
        lit = [i for i, led in enumerate(layout.status_station) if max(pixel(buf, led)) > 0]
        assert lit == [v["station"] - 1]


def play(seed: int, players: int, layout: Layout):
    """Yield (view, events) after every command of a random legal game."""
    rng = random.Random(seed)
    ids = random_players(players)
    stack = list(ids)
    rng.shuffle(stack)
    state = new_game(ids, stack)
    yield view(state, None), []
    while not state["finished"]:
        state, events = apply(state, random_command(state, rng))
        yield view(state, None), events


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 5)])
def test_every_frame_of_a_real_game_reads_back_as_the_view(seed, players):
    layout = ten_box_layout()
    colours = dict(zip(random_players(players), NAMES, strict=False))
    wrapped = rows = 0
    last = None
    for v, events in play(seed, players, layout):
        check_frame(v, layout, colours)
        wrapped += any(int(s) >= layout.boxes for s in v["track"])
        for anim in animations_from_events(events, now=50.0):
            if anim.kind == "row":
                rows += 1
                flash = render(v, layout, colours, 50.0, [anim])
                want = led_rgb(PC[colours[anim.players[0]]], 1.0, layout.brightness_cap)
                assert all(pixel(flash, led) == want for led in layout.pyramid[anim.row])
            last = anim
        assert len(v["track"]) >= 1
    assert wrapped > 0, "scores never passed the end of a 10-box track"
    assert rows > 0, "no pyramid row was completed"
    assert last is not None and last.kind == "winners" and set(last.players) == set(v["winners"])
    assert animation_active([last], 50.0 + WINNER_ANIMATION_S - 0.05)
    assert not animation_active([last], 50.0 + WINNER_ANIMATION_S)
    assert render(v, layout, colours, 100.0, [last]) == render(v, layout, colours, 100.0)


def test_a_real_game_on_the_default_board():
    layout = load_layout()
    colours = {"ana": "purple", "ben": "vermilion", "cleo": "blue", "dev": "sky"}
    frames = 0
    for v, _ in play(7, 4, layout):
        check_frame(v, layout, colours)
        frames += 1
    assert frames > 50
