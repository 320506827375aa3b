"""Supply current of the LED picture over real random games (figures for hardware/POWER.md).

.venv/bin/python benchmarks/leds_power.py [games]
"""

from __future__ import annotations

import random
import statistics
import sys

from companion.engine import apply, new_game, view
from companion.leds.layout import load_layout
from companion.leds.picture import WINNER_ANIMATION_S, animations_from_events, render
from companion.leds.power import LIMITER_BUDGET_MA, frame_current_ma, worst_case_ma
from companion.players.random_games import random_command, random_players


def main(games: int = 20) -> None:
    layout = load_layout()
    n = layout.led_count
    print(f"LEDs: {n}, brightness cap {layout.brightness_cap}")
    print(f"all white, no cap:    {worst_case_ma(n) / 1000:.2f} A")
    print(f"all white, capped:    {worst_case_ma(n, layout.brightness_cap) / 1000:.2f} A")
    play, anim = [], []
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(random_players(5))
        while not state["finished"]:
            state, events = apply(state, random_command(state, rng))
            v = view(state, None)
            play.append(frame_current_ma(render(v, layout, {}, 2.9)))
            running = animations_from_events(events, 0.0)
            for i in range(int(WINNER_ANIMATION_S * 20) if running else 0):
                anim.append(frame_current_ma(render(v, layout, {}, i / 20, running)))
    print(
        f"game frames ({len(play)} from {games} 5-player games): "
        f"mean {statistics.fmean(play) / 1000:.2f} A, peak {max(play) / 1000:.2f} A"
    )
    print(f"animation frames ({len(anim)}): peak {max(anim) / 1000:.2f} A")
    print(f"firmware limiter budget: {LIMITER_BUDGET_MA / 1000:.2f} A")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
