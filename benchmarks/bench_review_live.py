"""Time from a game's end to its stored review on a live server (cafe/reviews.py), for a 3-
and a 5-player game played to the end by websocket phones, at the café's review budget
(``COMPANION_REVIEW_BUDGET``, default players/reviewing.CAFE_BUDGET).

The review runs in the companion players' pool at nice 19, one part of decisions a job; the
figure printed is wall-clock from the last command's acknowledgement to the ``ready`` frame
on the display, with the decisions and the playouts each got.

Run: ``nice .venv/bin/python benchmarks/bench_review_live.py [--players 3 5]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

from live_server import Host, LiveServer, Peer, play, seat_phones  # noqa: E402

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli"]


def one(players: int) -> None:
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(Path(data), tables=1, extra=["--board", "none"]).start()
        try:
            phones = seat_phones(server, "1", NAMES[:players])
            display = Peer(f"{server.ws_base}/t/1/ws/display")
            host = Host(server, "1")
            host.hello()
            assert host.act("start", dice="digital")["type"] == "ok"
            play(phones, [display], host, timeout=900)
            ended = time.monotonic()
            ready = display.until(
                lambda f: f.get("review", {}).get("state") == "ready", timeout=900
            )
            took = time.monotonic() - ended
            steps = [
                f["review"]["progress"]
                for f in display.frames
                if f.get("review", {}).get("state") == "working"
            ]
            decisions = sum(p["decisions"] for p in ready["review"]["players"])
            print(
                f"{players} players: review ready {took:.1f} s after the end; "
                f"{decisions} decisions with a choice; progress frames {len(steps)}"
            )
            for peer in [display, host, *phones]:
                peer.close()
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 5])
    args = parser.parse_args()
    for n in args.players:
        one(n)


if __name__ == "__main__":
    main()
