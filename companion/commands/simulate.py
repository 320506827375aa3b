"""``companion simulate``: random legal games played in-process by random players.

It is the engine's fuzzer (every game must end, every command the random players make must be
accepted) and its benchmark (games per second).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from companion.engine import State, apply_in_place, final_total, new_game
from companion.players.random_games import random_command, random_players


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")


def play(rng: random.Random, k: int) -> State:
    """One random game to the end; returns its final state."""
    players = random_players(k)
    stack = list(players)
    rng.shuffle(stack)
    state = new_game(players, stack)
    while not state["finished"]:
        apply_in_place(state, random_command(state, rng))
    return state


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise SystemExit("--games must be at least 1")
    rng = random.Random(args.seed)
    rounds: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    totals: list[int] = []
    winners_shared = 0
    start = time.perf_counter()
    for _ in range(args.games):
        state = play(rng, args.players)
        rounds[state["round"]] += 1
        endings[str(state["last_round_reason"])] += 1
        totals.extend(final_total(p) for p in state["players"].values())
        winners_shared += len(state["winners"]) > 1
    elapsed = time.perf_counter() - start
    print(f"games: {args.games} with {args.players} players, seed {args.seed}")
    per_game = elapsed * 1000 / args.games
    print(f"speed: {args.games / elapsed:,.0f} games/s ({per_game:.2f} ms a game)")
    print("rounds played: " + ", ".join(f"{r}: {n}" for r, n in sorted(rounds.items())))
    print("ended because: " + "; ".join(f"{why}: {n}" for why, n in endings.most_common()))
    q = statistics.quantiles(totals, n=4) if len(totals) > 1 else [totals[0]] * 3
    print(
        f"final scores: min {min(totals)}, quartiles {q[0]:g}/{q[1]:g}/{q[2]:g}, "
        f"max {max(totals)}, mean {statistics.fmean(totals):.1f}"
    )
    print(f"shared wins: {winners_shared}")
    return 0
