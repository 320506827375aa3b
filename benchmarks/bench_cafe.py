"""What the café's memory costs: recording finished games as results (the engine replays each
log once), the history, leaderboard and CSV queries over a year of games, and building a
replay's display frames.

Run: ``.venv/bin/python benchmarks/bench_cafe.py [--games N]``. It stores N random finished
4-player games in a temporary SQLite file through the server's Store, then times
``Outbox.reconcile`` (all games, once), ``History.games`` / ``leaderboard`` / ``games_csv``
(best of several repeats) and ``replay_frames`` of one game.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from companion.cafe.history import History, games_csv
from companion.cafe.outbox import Outbox
from companion.players.random_games import random_document
from companion.store import Store
from companion.table.replay_frames import replay_frames

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]


def best_of(fn, repeats: int) -> float:  # noqa: ANN001
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "companion.sqlite3"
        store = Store(db)
        store.create_table("1", "j", "h", {"dice": "digital"})
        outbox = Outbox(db, clock=lambda: 0.0)  # every game counts as history, none is sent
        docs = []
        for i in range(args.games):
            doc = random_document(random.Random(i), 4)
            seats = [
                {"seat": p, "name": n, "colour": c}
                for p, n, c in zip(
                    doc["players"],
                    rng.sample(NAMES, 4),
                    ["orange", "sky", "green", "yellow"],
                    strict=True,
                )
            ]
            gid = store.create_game(
                "1", {"players": doc["players"], "stack": doc["stack"]}, seats, [[], []], "digital"
            )
            store.append(gid, 0, [(c, "t", None) for c in doc["commands"]], "finished")
            docs.append((doc, seats))
        store.set_current_game("1", None)
        t = time.perf_counter()
        recorded = outbox.reconcile()
        record_s = time.perf_counter() - t
        history = History(store)
        games_s = best_of(lambda: history.games(limit=100_000), args.repeats)
        board_s = best_of(history.leaderboard, args.repeats)
        rows = history.games(limit=100_000)
        csv_s = best_of(lambda: games_csv(rows), args.repeats)
        doc, seats = docs[0]
        frames_s = best_of(
            lambda: replay_frames(
                table="1",
                title="Table 1",
                lang="en",
                game_id=1,
                document=doc,
                seats=seats,
                commands=doc["commands"],
                status="finished",
            ),
            args.repeats,
        )
        print(f"{recorded} games recorded as results: {record_s * 1000 / recorded:.2f} ms a game")
        print(
            f"history of {len(rows)} games: {games_s * 1000:.0f} ms; leaderboard "
            f"({len(history.leaderboard())} names): {board_s * 1000:.0f} ms; games CSV: "
            f"{csv_s * 1000:.0f} ms"
        )
        print(
            f"replay frames of one game ({len(doc['commands']) + 1} steps): "
            f"{frames_s * 1000:.1f} ms"
        )
        outbox.close()
        store.close()


if __name__ == "__main__":
    main()
