"""Real game pictures (companion.engine + companion.leds, default layout) through the link to the
simulated board: every picture arrives byte for byte, and none is over 1 KB on the wire."""

from __future__ import annotations

import random

from companion.board import protocol as p
from companion.engine import apply, new_game, view
from companion.leds import animations_from_events, assign_colours, load_layout, render
from companion.players.random_games import random_command, random_players

from .conftest import DEADLINE_S


def game_pictures(seed: int, players: int, limit: int) -> list[bytes]:
    layout = load_layout()
    rng = random.Random(seed)
    state = new_game(random_players(players))
    colours = assign_colours(list(state["players"]), {}, layout.player_colours)
    out, now = [], 0.0
    while not state["finished"] and len(out) < limit:
        state, events = apply(state, random_command(state, rng))
        now += 0.7
        out.append(
            render(view(state, None), layout, colours, now, animations_from_events(events, now))
        )
    return out


def test_real_game_pictures_arrive_identical(service):
    pictures = game_pictures(seed=11, players=5, limit=150)
    assert len({len(pic) for pic in pictures}) == 1 and len(pictures[0]) == 3 * 208
    assert len(set(pictures)) > 10  # the game really changes the picture
    for pic in pictures:
        gen = service.show(pic)
        assert service.wait_shown(gen, DEADLINE_S)
        assert service.simulated_pixels() == pic
    st = service.status()
    assert st["frames_acked"] >= len(set(pictures)) - 1
    assert st["last_error"] is None


def test_game_frames_stay_under_one_kilobyte_on_the_wire():
    sizes = [
        len(p.encode(p.MessageType.PICTURE, 255, p.picture_payload(pic)))
        for pic in game_pictures(seed=5, players=5, limit=400)
    ]
    assert max(sizes) < 1024
