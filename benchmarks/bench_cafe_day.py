"""A café day: hundreds of whole games on a live ``companion serve``, worker memory sampled.

Every table has three phones (real websocket clients) that play each game to its end, each
answering what its own view asks (the tests' ``play``), and a host who starts the next game;
the tables take turns. Each game over is reviewed in the companion players' pool as in a
café (a small review budget). Prints the worker's resident
memory (from /proc) every ``--every`` games, the games per second, and at the end how many
games have their stored review and how many wait in the review queue.

With ``--trace DIR`` the worker traces its allocations (``COMPANION_TRACEMALLOC``,
web/serve.py) and writes a snapshot at game ``--first`` and at game ``--second``; the
largest differences between them (what grew, by the line that allocated it) are printed.

    nice .venv/bin/python benchmarks/bench_cafe_day.py --games 500 --tables 4
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

from live_server import Host, LiveServer, play, seat_phones  # noqa: E402


class Table:
    """One table: three phones that play every game to its end (the tests' ``play``: each
    phone answers what its own view asks), and the host, who starts the next game."""

    def __init__(self, server: LiveServer, name: str) -> None:
        self.name = name
        self.phones = seat_phones(server, name, ["Ana", "Ben", "Cleo"])
        self.host = Host(server, name)
        self.host.hello()
        self.done = 0

    def game(self) -> None:
        """One whole game, then back to the lobby."""
        assert self.host.act("start", dice="digital")["type"] == "ok"
        play(self.phones, [], self.host)
        assert self.host.act("new_game")["type"] == "ok"
        for peer in [self.host, *self.phones]:
            peer.frames.clear()  # the client keeps only what it needs (its latest view)
        self.done += 1


def reviews(data: Path) -> dict[str, int]:
    db = sqlite3.connect(data / "companion.sqlite3")
    try:
        over = db.execute(
            "SELECT COUNT(*) FROM games WHERE status IN ('finished', 'ended')"
        ).fetchone()[0]
        stored = db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
        try:
            queued = db.execute("SELECT COUNT(*) FROM review_queue").fetchone()[0]
        except sqlite3.OperationalError:  # a release before the durable queue (--root)
            queued = -1
    finally:
        db.close()
    return {"games_over": over, "reviewed": stored, "queued": queued}


def drain(data: Path, seconds: float) -> dict[str, int]:
    """Wait (up to ``seconds``) until the review queue is empty, so that a game without its
    review at the end is a lost review, not one still waiting its turn."""
    deadline = time.monotonic() + seconds
    now = reviews(data)
    while now["queued"] > 0 and time.monotonic() < deadline:
        time.sleep(0.5)
        now = reviews(data)
    return now


def snapshot(server: LiveServer, trace: Path, n: int) -> Path:
    """Ask the worker for its ``n``-th snapshot and wait until it is written."""
    os.kill(server.worker_pid(), signal.SIGUSR2)
    done = trace / f"snapshot-{n}.done"
    deadline = time.monotonic() + 120
    while not done.exists():
        if time.monotonic() > deadline:
            raise TimeoutError("no snapshot")
        time.sleep(0.2)
    return trace / f"snapshot-{n}.pickle"


def grown(first: Path, second: Path, top: int = 15) -> list[dict[str, Any]]:
    """What grew between two snapshots, by the allocating line (largest first)."""
    a = tracemalloc.Snapshot.load(str(first))
    b = tracemalloc.Snapshot.load(str(second))
    stats = b.compare_to(a, "traceback")
    out = []
    for stat in stats[:top]:
        out.append(
            {
                "kb": round(stat.size_diff / 1024, 1),
                "blocks": stat.count_diff,
                "where": [
                    f"{f.filename.split('site-packages/')[-1]}:{f.lineno}" for f in stat.traceback
                ][-6:],
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--budget", default="0.1", help="review budget (COMPANION_REVIEW_BUDGET)")
    parser.add_argument(
        "--drain", type=float, default=300, help="seconds to wait for the review queue at the end"
    )
    parser.add_argument("--trace", metavar="DIR", help="tracemalloc snapshots into DIR")
    parser.add_argument("--first", type=int, default=100)
    parser.add_argument("--second", type=int, default=400)
    args = parser.parse_args()
    os.environ["COMPANION_REVIEW_BUDGET"] = args.budget
    trace = Path(args.trace).resolve() if args.trace else None
    if trace is not None:
        trace.mkdir(parents=True, exist_ok=True)
        os.environ["COMPANION_TRACEMALLOC"] = str(trace)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        server = LiveServer(data, tables=args.tables, extra=["--board", "none"]).start()
        try:
            tables = [Table(server, str(i + 1)) for i in range(args.tables)]
            samples = [{"games": 0, **server.worker_status()}]
            print(json.dumps(samples[0]), flush=True)
            snaps: list[Path] = []
            finished = 0
            t0 = time.monotonic()
            while finished < args.games:
                table = tables[finished % len(tables)]
                table.game()
                finished += 1
                if finished % args.every == 0:
                    sample = {"games": finished, **server.worker_status(), **reviews(data)}
                    samples.append(sample)
                    print(json.dumps(sample), flush=True)
                if trace is not None and finished in (args.first, args.second):
                    snaps.append(snapshot(server, trace, len(snaps) + 1))
            elapsed = time.monotonic() - t0
            at_end = reviews(data)
            drained = drain(data, args.drain)
            samples.append({"games": finished, **server.worker_status(), **drained})
            rss = [s["rss_kb"] / 1024 for s in samples]
            half = len(rss) // 2
            print(
                json.dumps(
                    {
                        "result": "cafe_day",
                        "games": finished,
                        "tables": args.tables,
                        "seconds": round(elapsed, 1),
                        "games_per_s": round(finished / elapsed, 2),
                        "rss_mb_start": round(rss[0], 1),
                        "rss_mb_mid": round(rss[half], 1),
                        "rss_mb_end": round(rss[-1], 1),
                        "rss_mb_max": round(max(rss), 1),
                        "rss_mb_second_half_growth": round(rss[-1] - rss[half], 1),
                        "at_last_game": at_end,
                        **drained,
                        "lost": drained["games_over"]
                        - drained["reviewed"]
                        - max(0, drained["queued"]),
                    }
                ),
                flush=True,
            )
            if len(snaps) == 2:
                for row in grown(*snaps):
                    print(json.dumps(row), flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
