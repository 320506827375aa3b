"""Frame current estimate used for the power budget, and the budget held by real pictures."""

from __future__ import annotations

import random

import pytest

from companion.engine import apply, new_game, view
from companion.leds.layout import load_layout
from companion.leds.picture import Animation, render
from companion.leds.power import (
    IDLE_MA_PER_LED,
    LIMITER_BUDGET_MA,
    MA_PER_CHANNEL,
    frame_current_ma,
    worst_case_ma,
)
from companion.players.random_games import random_command, random_players


def test_full_white_led_draws_about_60_ma():
    assert frame_current_ma(bytes([255, 255, 255]), idle=False) == pytest.approx(60.0)
    assert frame_current_ma(bytes([255, 255, 255])) == pytest.approx(60.0 + IDLE_MA_PER_LED)
    assert frame_current_ma(bytes(30)) == pytest.approx(10 * IDLE_MA_PER_LED)
    assert frame_current_ma(bytes([255, 0, 0]), idle=False) == pytest.approx(MA_PER_CHANNEL)


def test_a_torn_buffer_is_refused():
    with pytest.raises(ValueError, match="3 bytes per LED"):
        frame_current_ma(bytes(4))


def test_worst_case_of_the_default_board():
    layout = load_layout()
    assert worst_case_ma(layout.led_count) == pytest.approx(208 * 61)
    capped = worst_case_ma(layout.led_count, layout.brightness_cap)
    assert capped == pytest.approx(208 * (60 * 89 / 255 + 1))
    # The capped worst case is what the picture can reach: a frame of full white everywhere.
    assert capped < 6000  # the 6 A supply of BOM.md


def test_real_pictures_stay_inside_the_firmware_limiter_budget():
    layout = load_layout()
    rng = random.Random(11)
    players = random_players(5)
    state = new_game(players)
    peak = 0.0
    while not state["finished"]:
        state, _ = apply(state, random_command(state, rng))
        peak = max(peak, frame_current_ma(render(view(state, None), layout, {}, 2.9)))
    anims = [Animation("winners", 0.0, players=tuple(players)), Animation("row", 0.0, 0)]
    for i in range(160):
        peak = max(peak, frame_current_ma(render(view(state, None), layout, {}, i / 20, anims)))
    assert 100 < peak < LIMITER_BUDGET_MA
