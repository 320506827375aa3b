"""Replay speed: finished 5-player games through ``companion replay`` of many files in one
process (start-up excluded). The goal is 1,000 games per second or more (under 1 ms a game).

Run: ``.venv/bin/python benchmarks/bench_replay.py [--games N]``. It writes random finished
games to a temporary folder, then times ``companion.commands.replay.run`` over all of them, output
included (to /dev/null), best of several repeats.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from companion.commands import replay
from companion.players.random_games import random_document


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        commands = 0
        for i in range(args.games):
            doc = random_document(random.Random(i), args.players)
            commands += len(doc["commands"])
            path = Path(tmp) / f"game{i:04d}.json"
            path.write_text(json.dumps(doc))
            paths.append(str(path))
        ns = argparse.Namespace(files=paths)
        best = float("inf")
        real_stdout = sys.stdout
        for _ in range(args.repeats):
            with open("/dev/null", "w") as sink:
                sys.stdout = sink
                try:
                    start = time.perf_counter()
                    status = replay.run(ns)
                    elapsed = time.perf_counter() - start
                finally:
                    sys.stdout = real_stdout
            assert status == 0
            best = min(best, elapsed)
    per_game_ms = best * 1000 / args.games
    print(
        f"replay: {args.games} finished {args.players}-player games, "
        f"{commands / args.games:.0f} commands a game on average"
    )
    print(
        f"best of {args.repeats}: {args.games / best:,.0f} games/s, {per_game_ms:.3f} ms a game "
        f"(file read, JSON parse, engine, JSON output)"
    )


if __name__ == "__main__":
    main()
