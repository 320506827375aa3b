"""How fast the LED picture renders (the caller needs 20 fps while an animation runs).

.venv/bin/python benchmarks/leds_render.py
"""

from __future__ import annotations

import random
import time

from companion.engine import apply, new_game, view
from companion.leds.layout import load_layout
from companion.leds.picture import Animation, render
from companion.players.random_games import random_command


def main() -> None:
    layout = load_layout()
    rng = random.Random(4)
    state = new_game(["ana", "ben", "cleo", "dev", "eli"])
    for _ in range(120):
        if state["finished"]:
            break
        state, _ = apply(state, random_command(state, rng))
    v = view(state, None)
    colours = {}
    anims = [Animation("winners", 0.0, players=("ana", "ben")), Animation("row", 0.0, 0)]
    for label, animations in (("static frame", []), ("frame with animations", anims)):
        n = 300
        start = time.perf_counter()
        for i in range(n):
            render(v, layout, colours, i / 20, animations)
        dt = (time.perf_counter() - start) / n
        print(f"{label}: {dt * 1000:.3f} ms ({1 / dt:,.0f} frames/s) for {layout.led_count} LEDs")


if __name__ == "__main__":
    main()
