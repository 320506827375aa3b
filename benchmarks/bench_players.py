"""Strength of the companion players, measured with the arena (issue goals in brackets):

- ``strong`` against three ``random`` (wins >= 85 %),
- ``good`` against three ``random`` (wins >= 70 %),
- ``strong`` against three ``good`` (wins >= 40 %; a fair share is 25 %),

4-player games, 200 games each by default, seating rotated, one process on one core (run it
with ``nice``: it is CPU-heavy). For each match it prints the arena's table: win share with its
95 % interval, mean final score and the decision time p50/p95 of each kind, plus the number of
playouts ``strong`` managed per second (the basis of the Raspberry Pi estimate in the README).

Run: ``nice .venv/bin/python benchmarks/bench_players.py [--games N] [--seed S]
[--match strong,random,random,random ...] [--strong-rollouts N] [--time-limit S]
[--speed-only]``
"""

from __future__ import annotations

import argparse
import random
import time
import types

from companion.commands import arena
from companion.engine import apply_in_place, new_game, view
from companion.players import strong
from companion.players.random_games import random_command

ROLLOUTS = strong.ROLLOUTS  # the speed is always measured at the default budget
MATCHES = ("strong,random,random,random", "good,random,random,random", "strong,good,good,good")


def playouts_per_second(samples: int = 40) -> tuple[float, float]:
    """Strong's search speed on this machine: playouts a second over mid-game decisions, by
    the wall clock and by this process's CPU time (steadier on a shared machine)."""
    done = 0
    spent = 0.0
    cpu = 0.0
    rng = random.Random(0)
    while done < samples:
        state = new_game(["ana", "ben", "cleo", "dev"])
        for _ in range(rng.randrange(4, 60)):
            if state["finished"]:
                break
            apply_in_place(state, random_command(state, rng))
        seat = next(
            (e["player"] for e in state["pending"] if e.get("player") and e["type"] == "bid"), None
        )
        if seat is None:
            continue
        start, start_cpu = time.perf_counter(), time.process_time()
        strong.choose(view(state, seat), rng, rollouts=strong.ROLLOUTS, time_limit=None)
        spent += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        done += 1
    return samples * strong.ROLLOUTS / spent, samples * strong.ROLLOUTS / cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--match", nargs="*", default=list(MATCHES))
    parser.add_argument(
        "--strong-rollouts",
        type=int,
        default=strong.ROLLOUTS,
        help="playouts per decision (a quarter of the default stands in for "
        "a Raspberry Pi 4 within the same time limit)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=strong.TIME_LIMIT,
        help="strong's time limit per decision in seconds (a quarter of the default with "
        "--strong-rollouts 100000 measures what a quarter of the thinking time buys)",
    )
    parser.add_argument("--speed-only", action="store_true", help="only the playouts a second")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="strong's time limit counts this process's CPU time, not the wall clock (on a "
        "machine shared with other work the wall clock says more about the others)",
    )
    args = parser.parse_args()
    if args.cpu_clock:
        strong.time = types.SimpleNamespace(perf_counter=time.process_time)  # type: ignore[assignment]
    strong.ROLLOUTS = args.strong_rollouts
    strong.TIME_LIMIT = args.time_limit
    if args.speed_only:
        args.match = []
    for match in args.match:
        kinds = arena.parse_kinds(match)
        start = time.perf_counter()
        results = [arena.play_game(kinds, args.seed, g) for g in range(args.games)]
        print(arena.report(kinds, results, time.perf_counter() - start), flush=True)
        print(flush=True)
    strong.ROLLOUTS = ROLLOUTS
    wall, cpu = playouts_per_second()
    print(
        f"strong: {wall:,.0f} playouts/s on bid decisions by the clock, {cpu:,.0f} by CPU time "
        f"(budget {strong.ROLLOUTS} playouts, no time limit)"
    )


if __name__ == "__main__":
    main()
