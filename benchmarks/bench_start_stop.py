"""How long the server takes to start and to stop (SIGTERM, as systemd and the tests stop it).

Each round starts ``companion serve`` on a fresh data directory, waits until it answers
``/healthz`` with the host links printed (``tests/web/live_server.py``), opens a phone's
websocket, then sends SIGTERM and waits until the master and its worker are gone (the data
directory's lock let go). A stop includes telling the phone "table closed" and draining
the worker's requests (``companion/web/worker.py``).

Run: ``.venv/bin/python benchmarks/bench_start_stop.py [--rounds 10] [--server-root DIR]``.
``--server-root`` runs another tree's server (a ``git worktree`` of an older commit). Figures
are wall-clock seconds on this machine (loopback, no other load), medians and worst.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--server-root", type=Path, default=ROOT, help="the tree to run")
    args = parser.parse_args()
    sys.path.insert(0, str(args.server_root.resolve() / "tests" / "web"))
    from live_server import LiveServer, seat_phones

    starts: list[float] = []
    stops: list[float] = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            srv = LiveServer(Path(tmp))
            t0 = time.monotonic()
            srv.start()
            starts.append(time.monotonic() - t0)
            phones = seat_phones(srv, "1", ["Ana"])
            t0 = time.monotonic()
            srv.stop()
            stops.append(time.monotonic() - t0)
            for phone in phones:
                phone.close()
    for name, values in (("start", starts), ("stop", stops)):
        print(
            f"{name}: median {statistics.median(values):.2f} s, worst {max(values):.2f} s "
            f"({len(values)} rounds)"
        )


if __name__ == "__main__":
    main()
