"""Does the review's headline tell good play from better, how fast is it, how steady are its labels?

1. Speed: reviews a finished 5-player arena log (default: tests/players/logs/arena-5p-1.json)
   at ``--budget`` and prints the decisions, the playouts each got, the wall-clock and CPU
   time and the search's playouts a second. Goal: at most 60 s on one core of the
   development machine; the CPU time is the figure to read on a machine shared with other work.
2. ``--games N``: plays N four-player arena games of strong, good, plain and random in
   rotating seats (``companion arena`` seating: game g gives seat i kind ``(i + g) % 4``),
   reviews each at ``--budget`` and prints, for each pair of neighbouring kinds (strong vs
   good, good vs plain, plain vs random), in how many single games the stronger kind got the
   lower headline loss (``players.<id>.mean_loss``); each kind's mean headline with a 95 %
   bootstrap interval over the games; the same for the raw mean over the decisions faced;
   and the seconds each review took. ``--jobs`` reviews games in that many processes (nice
   them: the machine is shared). ``--out FILE`` keeps every game's rated decisions as JSON;
   ``--rescore FILE`` prints the same figures from such a file with the current headline.
3. ``--agree K``: reviews the first K of those games twice, with seeds 0 and 1, at each budget
   of ``--agree-budgets``, and prints how often a decision gets the same label on both seeds
   and the correlation of the losses: the café budget's steadiness.

Run: ``nice .venv/bin/python benchmarks/bench_review.py [--log FILE] [--budget S] [--games N]
[--jobs J] [--out FILE] [--rescore FILE] [--agree K] [--agree-budgets 4,16,40]``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from companion.commands import arena
from companion.players import review

ROOT = Path(__file__).resolve().parents[1]
KINDS = ["strong", "good", "plain", "random"]  # strongest first (arena: win share 88/9/2/0 %)
BOOTSTRAP = 2000


def timed_review(
    document: dict[str, Any], budget: float, seed: int
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


def one_game(seed: int, game: int, budget: float) -> dict[str, Any]:
    """One mixed game played and reviewed: each kind's headline and raw mean, the review's
    seconds, and the rated decisions (kind of player, kind of decision, losses)."""
    document = arena.play_game(KINDS, seed, game).document
    result, wall, cpu = timed_review(document, budget, seed)
    seats = document["meta"]["seats"]
    return {
        "game": game,
        "wall": wall,
        "cpu": cpu,
        "headline": {seats[p]: pr["mean_loss"] for p, pr in result["players"].items()},
        "raw": {seats[p]: pr["raw_mean_loss"] for p, pr in result["players"].items()},
        "decisions": [
            {
                "player": seats[d["player"]],
                "kind": review.kind_of(d),
                "loss": d["loss"],
                "points_loss": d["points_loss"],
                "label": d["label"],
            }
            for d in result["decisions"]
            if not d["forced"]
        ],
    }


def rescored(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Saved games (``--out``) with each kind's headline computed again by the current
    ``review.headline`` from the saved decisions: a change of the summing-up is measured on
    the same ratings without rating again."""
    out = []
    for g in games:
        headline = {}
        for kind in KINDS:
            mine: list[Any] = [
                {"kind": "bid", "step": 1 if d["kind"] == "gold" else "all", "loss": d["loss"]}
                if d["kind"] in ("bid", "gold")
                else {"kind": d["kind"], "step": None, "loss": d["loss"]}
                for d in g["decisions"]
                if d["player"] == kind
            ]
            headline[kind] = review.headline(mine)
        out.append({**g, "headline": headline})
    return out


def interval(values: list[float], rng: random.Random) -> tuple[float, float]:
    """95 % bootstrap interval of the mean (games resampled)."""
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(BOOTSTRAP))
    return means[int(0.025 * BOOTSTRAP)], means[int(0.975 * BOOTSTRAP) - 1]


def summary(games: list[dict[str, Any]], field: str, label: str) -> None:
    rng = random.Random(0)
    print(f"{label}:")
    for kind in KINDS:
        values = [g[field][kind] for g in games]
        low, high = interval(values, rng)
        print(f"  {kind:<7} {statistics.fmean(values):.2f} [{low:.2f}, {high:.2f}]")
    for better, worse in zip(KINDS, KINDS[1:], strict=False):
        wins = sum(1 for g in games if g[field][better] < g[field][worse])
        diffs = [g[field][worse] - g[field][better] for g in games]
        low, high = interval(diffs, rng)
        print(
            f"  {better} below {worse} in {wins} of {len(games)} games "
            f"({100 * wins / len(games):.0f} %); {worse} - {better} "
            f"{statistics.fmean(diffs):+.2f} [{low:+.2f}, {high:+.2f}]"
        )


def report(results: list[dict[str, Any]]) -> None:
    summary(results, "headline", "headline (mean_loss: points of margin per decision, common mix)")
    summary(results, "raw", "raw mean over the decisions faced (for comparison)")
    cpu = [r["cpu"] for r in results]
    wall = [r["wall"] for r in results]
    print(
        f"review seconds: CPU mean {statistics.fmean(cpu):.1f}, max {max(cpu):.1f}; "
        f"clock mean {statistics.fmean(wall):.1f}, max {max(wall):.1f}"
    )


def mixed(games: int, budget: float, seed: int, jobs: int, out: Path | None) -> None:
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(one_game, seed, g, budget) for g in range(games)]
        results = []
        for f in futures:
            results.append(f.result())
            r = results[-1]
            print(
                f"game {r['game']}: review {r['wall']:.1f} s clock, {r['cpu']:.1f} s CPU; "
                + ", ".join(f"{k} {r['headline'][k]:.2f}" for k in KINDS),
                flush=True,
            )
            if out is not None:
                out.write_text(json.dumps(results))
    print(
        f"\n{games} mixed games ({','.join(KINDS)}, rotating seats), reviewed at budget "
        f"{budget:g} s, in {time.perf_counter() - start:.0f} s with {jobs} process(es)"
    )
    report(results)


def agree(games: int, budgets: list[float], seed: int) -> None:
    """Labels and losses of the same games reviewed with two seeds, at each budget."""
    documents = [arena.play_game(KINDS, seed, g).document for g in range(games)]
    for budget in budgets:
        same = total = 0
        xs: list[float] = []
        ys: list[float] = []
        cpu = 0.0
        for document in documents:
            a, _, ca = timed_review(document, budget, 0)
            b, _, cb = timed_review(document, budget, 1)
            cpu += ca + cb
            for da, db in zip(a["decisions"], b["decisions"], strict=True):
                if da["forced"]:
                    continue
                total += 1
                same += da["label"] == db["label"]
                xs.append(da["loss"])
                ys.append(db["loss"])
        r = statistics.correlation(xs, ys)
        print(
            f"budget {budget:g} s: same label on seeds 0 and 1 for {same} of {total} decisions "
            f"({100 * same / total:.1f} %), loss correlation {r:.2f}; "
            f"{cpu / (2 * games):.1f} s CPU a review",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", type=Path, default=ROOT / "tests/players/logs/arena-5p-1.json")
    parser.add_argument("--budget", type=float, default=review.DEFAULT_BUDGET)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=0, metavar="N")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--agree", type=int, default=0, metavar="K")
    parser.add_argument("--agree-budgets", default="4,16,40")
    parser.add_argument("--no-speed", action="store_true", help="skip the 5-player speed run")
    parser.add_argument(
        "--rescore", type=Path, metavar="FILE", help="summarise a saved --out file again"
    )
    args = parser.parse_args()
    if args.rescore:
        results = rescored(json.loads(args.rescore.read_text()))
        print(f"{len(results)} saved games of {args.rescore}, headline computed again:")
        report(results)
        return
    if not args.no_speed:
        speed(args.log, args.budget, args.seed)
    if args.games:
        mixed(args.games, args.budget, args.seed, args.jobs, args.out)
    if args.agree:
        agree(args.agree, [float(b) for b in args.agree_budgets.split(",")], args.seed)


if __name__ == "__main__":
    main()
