"""Speed of ``companion review`` on a 5-player game, and what the review says about each kind.

1. Reviews a finished 5-player arena log (default: tests/players/logs/arena-5p-1.json) at the
   default budget and prints the decisions, the playouts each got, the wall-clock and CPU time
   and the search's playouts a second. Goal: at most 60 s on one core of the development
   machine; the CPU time is the figure to read on a machine shared with other work.
2. With ``--compare N``: plays N arena games of ``--kinds`` (default strong against three
   random players), reviews each at ``--compare-budget`` and prints every kind's mean
   expected loss per decision and its labels.

Run: ``nice .venv/bin/python benchmarks/bench_review.py [--log FILE] [--budget S] [--seed S]
[--compare N] [--kinds strong,random,random,random] [--compare-budget S]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from companion.commands import arena
from companion.players import review

ROOT = Path(__file__).resolve().parents[1]


def timed_review(
    document: dict, budget: float, seed: int
) -> tuple[review.ReviewDocument, float, float]:
    start, start_cpu = time.perf_counter(), time.process_time()
    result = review.review_game(document, seed=seed, budget=budget)
    return result, time.perf_counter() - start, time.process_time() - start_cpu


def speed(path: Path, budget: float, seed: int) -> None:
    document = json.loads(path.read_text())
    result, wall, cpu = timed_review(document, budget, seed)
    decisions = result["decisions"]
    playouts = sum(d["playouts"] for d in decisions)
    searched = sum(1 for d in decisions if not d["forced"])
    print(
        f"{path.name}: {len(document['players'])} players, {len(decisions)} decisions "
        f"({searched} searched), budget {budget:g} s -> {result['playouts']} playouts a decision"
    )
    print(
        f"review: {wall:.1f} s by the clock, {cpu:.1f} s CPU; {playouts:,} playouts, "
        f"{playouts / cpu:,.0f} playouts/s CPU (REFERENCE_RATE {review.REFERENCE_RATE:,.0f})"
    )


def compare(games: int, kinds: list[str], budget: float, seed: int) -> None:
    losses: dict[str, list[float]] = {k: [] for k in dict.fromkeys(kinds)}
    labels: dict[str, dict[str, int]] = {k: {} for k in losses}
    start = time.process_time()
    for g in range(games):
        document = arena.play_game(kinds, seed, g).document
        result = review.review_game(document, seed=seed, budget=budget)
        for d in result["decisions"]:
            if d["forced"]:
                continue
            kind = document["meta"]["seats"][d["player"]]
            losses[kind].append(d["loss"])
            labels[kind][d["label"]] = labels[kind].get(d["label"], 0) + 1
    print(
        f"{games} arena games of {','.join(kinds)}, reviewed at budget {budget:g} s "
        f"({time.process_time() - start:.0f} s CPU):"
    )
    for kind, values in losses.items():
        mean = statistics.fmean(values)
        se = statistics.stdev(values) / len(values) ** 0.5
        counts = ", ".join(f"{n} {name}" for name, n in sorted(labels[kind].items()))
        print(
            f"  {kind:<7} {len(values):>4} decisions, mean loss {mean:.2f} ± {se:.2f} points "
            f"a decision; {counts}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", type=Path, default=ROOT / "tests/players/logs/arena-5p-1.json")
    parser.add_argument("--budget", type=float, default=review.DEFAULT_BUDGET)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compare", type=int, default=0, metavar="N")
    parser.add_argument("--kinds", default="strong,random,random,random")
    parser.add_argument("--compare-budget", type=float, default=10.0)
    args = parser.parse_args()
    speed(args.log, args.budget, args.seed)
    if args.compare:
        compare(args.compare, arena.parse_kinds(args.kinds), args.compare_budget, args.seed)


if __name__ == "__main__":
    main()
