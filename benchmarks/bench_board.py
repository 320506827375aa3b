"""Host link latency to the LAPTOP STAND-IN: show() of a new picture to the ACK, through a real
pty to the simulated board (the firmware's Python files run in a CPython thread on this
machine's CPU), with real rendered pictures of 5-player games on the default layout.

This measures the host link code and the pty, not a board: CPython on a laptop is far faster
than MicroPython on an RP2040. The board's own figures come from the real firmware on the real
MicroPython in an emulated RP2040: benchmarks/bench_board_emulated.py.

    .venv/bin/python benchmarks/bench_board.py [--updates 500] [--seed 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.board import protocol as p  # noqa: E402
from companion.board.service import BoardService  # noqa: E402
from companion.engine import apply, new_game, view  # noqa: E402
from companion.leds import animations_from_events, assign_colours, load_layout, render  # noqa: E402
from companion.players.random_games import random_command, random_players  # noqa: E402


def pictures(count: int, seed: int) -> list[bytes]:
    """Distinct consecutive pictures of 5-player games (new games until there are enough)."""
    layout = load_layout()
    rng = random.Random(seed)
    out: list[bytes] = []
    now = 0.0
    while len(out) < count:
        state = new_game(random_players(5))
        colours = assign_colours(list(state["players"]), {}, layout.player_colours)
        while not state["finished"] and len(out) < count:
            state, events = apply(state, random_command(state, rng))
            now += 0.7
            pic = render(
                view(state, None), layout, colours, now, animations_from_events(events, now)
            )
            if not out or pic != out[-1]:
                out.append(pic)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--updates", type=int, default=500)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    pics = pictures(args.updates, args.seed)
    wire = [len(p.encode(p.MessageType.PICTURE, 1, p.picture_payload(pic))) for pic in pics]
    svc = BoardService(None, 208).start()
    try:
        if not svc.wait_shown(svc.show(bytes(3 * 208)), 10):
            print("simulated board did not answer", file=sys.stderr)
            return 1
        latencies = []
        for pic in pics:
            t0 = time.perf_counter()
            gen = svc.show(pic)
            if not svc.wait_shown(gen, 5):
                print("a picture was not acknowledged within 5 s", file=sys.stderr)
                return 1
            latencies.append((time.perf_counter() - t0) * 1000)
        st = svc.status()
        mismatch = svc.simulated_pixels() != pics[-1]
    finally:
        svc.stop()
    print("LAPTOP STAND-IN (firmware files in CPython behind a pty), not a board's figures")
    print(f"updates: {len(pics)} distinct pictures of 5-player games, 208 LEDs (624 bytes raw)")
    print(
        f"show() -> written -> acked: p50 {statistics.median(latencies):.2f} ms, "
        f"p99 {percentile(latencies, 0.99):.2f} ms, max {max(latencies):.2f} ms"
    )
    print(
        f"bytes per update on the wire: mean {statistics.mean(wire):.1f}, min {min(wire)}, "
        f"max {max(wire)} (goal < 1024); ACK back: "
        f"{len(p.encode(p.MessageType.ACK, 1, bytes((p.MessageType.PICTURE,))))} bytes"
    )
    print(
        f"link: sent {st['frames_sent']}, acked {st['frames_acked']}, "
        f"resent {st['frames_resent']}, nacks {st['nacks']}"
    )
    if mismatch:
        print("error: the board's last picture differs from the last one shown", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
