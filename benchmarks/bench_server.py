"""Table server under load: N tables x 5 phones + 1 display as real websocket clients.

Measures, for every reveal (the last lock-in of a step makes the engine reveal a station or the
first cards), the time from that lock-in being sent to the reveal's view frame arriving at every
phone and the display of the table. The same run measures a bare flask-sock broadcast (no
engine, no database, no per-seat views: one frame of the same size to the same six clients per
message) as the floor. The server is held to one CPU core with ``taskset -c 0``; the clients
run on the other core(s). Prints the figures; asserts nothing.

Players think before each move: ``--think-ms T`` (default 300) makes every phone wait a random
0.5T..1.5T before answering, far quicker than people but not all at once; the bare broadcast is
paced the same way, with the same number of messages per table and the companion's mean frame
size, so both runs carry the same messages. ``--think-ms 0`` is a flood: every phone answers
at once, which saturates the one core and measures queueing rather than a reveal.

    .venv/bin/python benchmarks/bench_server.py --tables 20
    .venv/bin/python benchmarks/bench_server.py --tables 20 --think-ms 0
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import requests
import simple_websocket

ROOT = Path(__file__).resolve().parents[1]
STATIONS = ("1", "2", "3", "4", "5", "6")
NAMES = ["ana", "ben", "cleo", "dan", "eva"]
COLOURS = ["orange", "sky", "green", "yellow", "blue"]
REVEALS = {"revealed", "first_cards_revealed"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PACE = "instant"  # --pace: the show's pace of every table (companion serve --pace)
SERVER_ROOT = ROOT  # --server-root: the tree whose server is measured (an older release)
SERVER_NICE = 0  # --server-nice: the server's priority against other load on a shared machine


def pinned(cmd: list[str]) -> list[str]:
    if SERVER_NICE:
        cmd = ["nice", "-n", str(SERVER_NICE), *cmd]
    return (["taskset", "-c", "0"] + cmd) if shutil.which("taskset") else cmd


def wait_up(url: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("server exited")
        try:
            if requests.get(url, timeout=1).ok:
                return
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


def rss_mb(pids: list[int]) -> float:
    """Resident memory of ``pids`` together, in MB."""
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def cpu_seconds(pid: int) -> dict[int, float]:
    """User + system CPU time so far of ``pid`` and each process under it (gunicorn master,
    its worker, the companion players' pool), in seconds: the server's work, whatever the
    clock did."""
    tick = os.sysconf("SC_CLK_TCK")
    times: dict[int, float] = {}
    todo = [pid]
    while todo:
        p = todo.pop()
        if p in times:
            continue
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            times[p] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
            todo += [int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except (OSError, IndexError, ValueError):
            pass
    return times


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def worker_rss_mb(pid: int) -> float:
    """The largest single process under ``pid`` (the worker that holds the tables)."""
    best = 0.0
    try:
        pids = [pid] + [
            int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ]
    except OSError:
        pids = [pid]
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    best = max(best, int(line.split()[1]) / 1024)
        except OSError:
            pass
    return best


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


# --- the player ------------------------------------------------------------------------


def move(view: dict[str, Any], seat: str, entry: dict[str, Any]) -> dict[str, Any]:
    game = view["game"]["view"]
    me = game["players"][seat]
    kind = entry["type"]
    if kind == "sacrifice":
        return {"type": "sacrifice", "card": game["seats"].index(seat)}
    if kind == "bid":
        left = Counter(me["deck"])
        left.subtract(me["used"])
        cards = sorted(left.elements())
        step = game["step"]
        if step == "all":
            bids = {s: cards[2 * i : 2 * i + 2] for i, s in enumerate(STATIONS)}
        elif step in ("first", "second"):
            bids = {s: [cards[i]] for i, s in enumerate(STATIONS)}
        else:
            bids = {str(step): cards[:2]}
        return {"type": "bid", "bids": bids}
    if kind == "dice":
        return {"type": "dice", "count": me["dice"]}
    if kind == "city":
        return {"type": "city", "choice": "die" if game["round"] % 2 else "hut"}
    return {"type": "pyramid", "first": seat}


class Client(threading.Thread):
    """One phone (seat given) or the display (seat None) of a table."""

    def __init__(
        self, base: str, table: str, seat: dict | None, sink: TableLog, think_s: float = 0.0
    ) -> None:
        super().__init__(daemon=True)
        self.think_s = think_s
        self.rng = random.Random(hash((table, seat["seat"] if seat else None)))
        self.due: float | None = None  # when this phone sends its next move
        path = "ws/seat" if seat else "ws/display"
        self.ws = simple_websocket.Client.connect(f"ws://{base}/t/{table}/{path}")
        self.seat = seat
        self.sink = sink
        self.counter = 0
        self.outstanding: str | None = None
        self.stale = False
        self.view: dict[str, Any] | None = None
        if seat:
            self.ws.send(
                json.dumps({"type": "hello", "seat": seat["seat"], "token": seat["token"]})
            )

    def run(self) -> None:
        try:
            while not self.sink.done.is_set():
                wait = 0.5 if self.due is None else max(0.0, self.due - time.perf_counter())
                raw = self.ws.receive(timeout=wait)
                now = time.perf_counter()
                if raw is not None:
                    self.handle(json.loads(raw), now, len(raw))
                if self.due is not None and time.perf_counter() >= self.due:
                    self.due = None
                    self.send_move()
        except simple_websocket.ConnectionClosed:
            pass

    def handle(self, frame: dict[str, Any], now: float, size: int) -> None:
        kind = frame["type"]
        if kind == "ack" and frame["id"] == self.outstanding:
            self.sink.acked(frame["seq"], self.sent_at)
            self.outstanding, self.stale = None, True
        elif kind == "error":
            print("error frame:", frame, file=sys.stderr)
            self.outstanding = None
        elif kind == "view":
            self.view, self.stale = frame, False
            self.sink.reasons[f"{'phone' if self.seat else 'display'}:{frame['reason']}"] += 1
            if any(e["type"] in REVEALS for e in frame["events"]):
                self.sink.arrived(frame["seq"], now, self.seat is None)
            self.sink.size(size)
            game = frame["game"]
            if game and game["status"] != "playing":
                self.sink.finished()
        if self.seat and self.due is None and self.pending():
            self.due = now + self.think_s * self.rng.uniform(0.5, 1.5)
            if self.think_s == 0:
                self.due = None
                self.send_move()

    def pending(self) -> list[dict[str, Any]]:
        if not self.view or self.outstanding is not None or self.stale:
            return []
        return self.view["you"]["pending"] if self.view["you"] else []

    def send_move(self) -> None:
        pending = self.pending()
        if not pending:
            return
        self.counter += 1
        self.outstanding = f"{self.seat['seat']}-{self.counter}"
        cmd = move(self.view, self.seat["seat"], pending[0])
        self.sent_at = time.perf_counter()
        self.ws.send(
            json.dumps(
                {
                    "type": "command",
                    "token": self.seat["token"],
                    "id": self.outstanding,
                    "command": cmd,
                }
            )
        )


class TableLog:
    """Send times of acknowledged commands and arrival times of reveal frames of one table."""

    def __init__(self, peers: int) -> None:
        self.lock = threading.Lock()
        self.sent: dict[int, float] = {}  # ack seq -> send time
        self.arrivals: dict[int, list[float]] = {}  # reveal frame seq -> arrival times
        self.peers = peers
        self.done = threading.Event()
        self.sizes: list[int] = []
        self.finished_count = 0
        self.reasons: Counter[str] = Counter()  # frames each client got, by reason

    def acked(self, seq: int, sent: float) -> None:
        with self.lock:
            self.sent[seq] = sent

    def arrived(self, seq: int, now: float, display: bool) -> None:
        with self.lock:
            self.arrivals.setdefault(seq, []).append(now)

    def size(self, n: int) -> None:
        self.sizes.append(n)

    def finished(self) -> None:
        with self.lock:
            self.finished_count += 1
            if self.finished_count >= self.peers:
                self.done.set()

    def latencies(self) -> list[float]:
        out = []
        for seq, times in self.arrivals.items():
            if len(times) < self.peers:
                continue
            lock_in = max((s for s in self.sent if s <= seq), default=None)
            if lock_in is None:
                continue
            out.append((max(times) - self.sent[lock_in]) * 1000)
        return out


def start_bot_table(base: str, name: str, token: str, level: str) -> None:
    """A table of four companion players of ``level`` and no phones: it only thinks."""
    host = simple_websocket.Client.connect(f"ws://{base}/t/{name}/ws/host")
    host.send(json.dumps({"type": "hello", "token": token}))
    for i in range(5):
        msg = (
            {"type": "add_bot", "level": level, "id": f"b{i}"}
            if i < 4
            else {"type": "start", "dice": "digital", "id": "s"}
        )
        host.send(json.dumps({**msg, "token": token}))
        while True:
            frame = json.loads(host.receive(timeout=10))
            if frame.get("id") == msg["id"]:
                if frame["type"] != "ok":
                    raise RuntimeError(f"bot table {name}: {frame}")
                break
    host.close()


def _has_pace(root: Path) -> bool:
    return any("--pace" in p.read_text() for p in (root / "companion").rglob("serve.py"))


def run_companion(
    tables: int, timeout: float, think_s: float, bot_tables: int = 0, bot_level: str = "strong"
) -> dict[str, Any]:
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="bench-server-"))
    log = (data / "server.log").open("w")
    proc = subprocess.Popen(
        pinned(
            [
                sys.executable,
                "-m",
                "companion",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--data",
                str(data),
                "--tables",
                str(tables + bot_tables),
                "--threads",
                str(tables * 8 + 16),
                # every client of the benchmark is 127.0.0.1 (a café's phones are not)
                "--max-per-address",
                "2000",
                # "instant" measures the path from lock-in to the reveal's frames; with a
                # pace the reveal still goes out at once, the round after waits. (A tree
                # from before the show has no pace: it is instant.)
                *(["--pace", PACE] if _has_pace(SERVER_ROOT) else []),
            ]
        ),
        cwd=SERVER_ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"127.0.0.1:{port}"
    try:
        wait_up(f"http://{base}/healthz", proc)
        tokens = {}
        for _ in range(100):
            text = (data / "server.log").read_text()
            tokens = dict(re.findall(r"Table (\S+) host:\s+\S+/host\?token=(\S+)", text))
            if len(tokens) >= tables + bot_tables:
                break
            time.sleep(0.05)
        logs, clients = [], []
        for t in range(1, tables + 1):
            name = str(t)
            state = requests.get(f"http://{base}/t/{name}/api/state", timeout=5).json()
            secret = state["table"]["urls"]["join"].rsplit("/", 1)[1]
            sink = TableLog(peers=6)
            logs.append(sink)
            for n, c in zip(NAMES, COLOURS, strict=True):
                seat = requests.post(
                    f"http://{base}/t/{name}/api/join",
                    timeout=5,
                    json={"secret": secret, "name": n, "colour": c},
                ).json()
                clients.append(Client(base, name, seat, sink, think_s))
            clients.append(Client(base, name, None, sink))
        bot_names = [str(t) for t in range(tables + 1, tables + bot_tables + 1)]
        for name in bot_names:  # thinking before the human tables start, and throughout
            start_bot_table(base, name, tokens[name], bot_level)
        for c in clients:
            c.start()
        # The clients' own pauses would be counted as the server's: Python's full garbage
        # collections of this process took 20-40 ms mid-run (its frames are JSON, freed by
        # reference counting, so nothing is lost by not collecting until the run is over).
        gc.collect()
        gc.freeze()
        gc.disable()
        time.sleep(0.5)
        cpu0 = cpu_seconds(proc.pid)
        t0 = time.perf_counter()
        for t in range(1, tables + 1):
            host = simple_websocket.Client.connect(f"ws://{base}/t/{t}/ws/host")
            token = tokens[str(t)]
            host.send(json.dumps({"type": "hello", "token": token}))
            host.send(json.dumps({"type": "start", "token": token, "dice": "digital"}))
            host.receive(timeout=5)
            host.close()
        for sink in logs:
            sink.done.wait(timeout)
        elapsed = time.perf_counter() - t0
        gc.enable()
        cpu1 = cpu_seconds(proc.pid)
        spent = {p: t - cpu0.get(p, 0.0) for p, t in cpu1.items()}
        cpu = sum(spent.get(p, 0.0) for p in children(proc.pid))  # the worker (tables)
        cpu_others = sum(spent.values()) - cpu
        workers = children(proc.pid)
        memory, worker = rss_mb([proc.pid, *workers]), worker_rss_mb(proc.pid)
        pool = rss_mb([p for w in workers for p in children(w)])
        lat = [x for sink in logs for x in sink.latencies()]
        sizes = [s for sink in logs for s in sink.sizes]
        commands = sum(len(s.sent) for s in logs)
        bot_moves = sum(
            requests.get(f"http://{base}/t/{n}/api/state", timeout=5).json()["seq"]
            for n in bot_names
        )
        return {
            "bot_moves": bot_moves,
            "latencies": lat,
            "rss": memory,
            "pool_rss": pool,
            "worker_rss": worker,
            "elapsed": elapsed,
            "cpu": cpu,
            "reasons": sum((s.reasons for s in logs), Counter()),
            "cpu_others": cpu_others,
            "commands": commands,
            "frame_bytes": statistics.mean(sizes) if sizes else 0,
            "unfinished": sum(not s.done.is_set() for s in logs),
        }
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(data, ignore_errors=True)


# --- the bare broadcast floor ------------------------------------------------------------


def bare_app(frame_bytes: int):  # type: ignore[no-untyped-def]
    from flask import Flask
    from flask_sock import Sock

    app = Flask(__name__)
    sock = Sock(app)
    rooms: dict[str, list[Any]] = {}
    lock = threading.Lock()
    payload = json.dumps({"type": "view", "pad": "x" * max(0, frame_bytes - 30)})

    @app.get("/healthz")
    def healthz() -> str:
        return "ok"

    @sock.route("/r/<room>")
    def room_socket(ws: Any, room: str) -> None:
        with lock:
            rooms.setdefault(room, []).append(ws)
        while True:
            ws.receive()
            with lock:
                for peer in rooms[room]:
                    peer.send(payload)

    return app


def serve_bare(port: int, frame_bytes: int, threads: int) -> None:
    from gunicorn.app.base import BaseApplication

    class Bare(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for k, v in {
                "bind": f"127.0.0.1:{port}",
                "workers": 1,
                "worker_class": "gthread",
                "threads": threads,
                "accesslog": None,
                "loglevel": "warning",
            }.items():
                self.cfg.set(k, v)

        def load(self) -> Any:
            return bare_app(frame_bytes)

    Bare().run()


def run_bare(tables: int, frame_bytes: int, messages: int, think_s: float) -> list[float]:
    port = free_port()
    proc = subprocess.Popen(
        pinned(
            [
                sys.executable,
                __file__,
                "--bare-server",
                str(port),
                "--frame-bytes",
                str(frame_bytes),
                "--threads",
                str(tables * 8 + 16),
            ]
        ),
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", proc)
        results: list[float] = []
        rlock = threading.Lock()

        def room(r: int) -> None:
            peers = [
                simple_websocket.Client.connect(f"ws://127.0.0.1:{port}/r/{r}") for _ in range(6)
            ]
            time.sleep(0.5)
            mine = []
            rng = random.Random(r)
            for i in range(messages):
                time.sleep(think_s * rng.uniform(0.5, 1.5) if think_s else 0.002)
                t = time.perf_counter()
                peers[i % 5].send('{"type": "command"}')
                for p in peers:
                    p.receive(timeout=10)
                mine.append((time.perf_counter() - t) * 1000)
            with rlock:
                results.extend(mine)
            for p in peers:
                p.close()

        threads = [threading.Thread(target=room, args=(r,)) for r in range(tables)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        return results
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument(
        "--think-ms",
        type=float,
        default=300,
        help="mean think time of a phone before each move (0 = flood)",
    )
    ap.add_argument(
        "--bot-tables",
        type=int,
        default=0,
        help="extra tables where four companion players play alone (thinking "
        "all the time); latency is measured at the human tables only",
    )
    ap.add_argument("--bot-level", default="strong", choices=("good", "strong"))
    ap.add_argument("--no-bare", action="store_true", help="skip the bare broadcast run")
    ap.add_argument(
        "--server-nice",
        type=int,
        default=0,
        help="run the server (and so its companion players' pool, 19 steps "
        "lower) at this nice value: on a machine shared with other work, a "
        "negative value (root) stands in for a machine of its own",
    )
    ap.add_argument(
        "--pace",
        default="instant",
        choices=("instant", "quick", "normal", "relaxed"),
        help="the show's pace (default instant: each step shown at once)",
    )
    ap.add_argument(
        "--server-root",
        type=Path,
        default=ROOT,
        help="measure the server of another tree (e.g. a git worktree of an older release) "
        "with the same clients",
    )
    ap.add_argument("--bare-server", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--frame-bytes", type=int, default=3000, help=argparse.SUPPRESS)
    ap.add_argument("--threads", type=int, default=256, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.bare_server:
        serve_bare(args.bare_server, args.frame_bytes, args.threads)
        return 0
    try:  # clients off the server's core
        cpus = os.sched_getaffinity(0) - {0}
        if cpus:
            os.sched_setaffinity(0, cpus)
    except (AttributeError, OSError):
        pass
    global SERVER_NICE, PACE, SERVER_ROOT
    SERVER_NICE = args.server_nice
    SERVER_ROOT = args.server_root.resolve()
    PACE = args.pace
    think_s = args.think_ms / 1000
    ours = run_companion(args.tables, args.timeout, think_s, args.bot_tables, args.bot_level)
    lat = ours["latencies"]
    bare = (
        []
        if args.no_bare
        else run_bare(
            args.tables,
            int(ours["frame_bytes"]),
            messages=max(20, ours["commands"] // args.tables),
            think_s=think_s,
        )
    )
    p50, p99 = pct(lat, 50), pct(lat, 99)
    b50, b99 = (pct(bare, 50), pct(bare, 99)) if bare else (float("nan"), float("nan"))
    if args.bot_tables:
        print(
            f"companion tables: {args.bot_tables} x 4 {args.bot_level} players (thinking in the "
            f"server's pool at the lowest priority); {ours['bot_moves']} commands played "
            "there"
        )
    print(f"think time: {'flood (none)' if not think_s else f'{args.think_ms:g} ms mean'}")
    print(
        f"tables: {args.tables} x (5 phones + display), server on CPU 0 "
        f"({'taskset' if shutil.which('taskset') else 'not pinned'})"
    )
    print(
        f"games: {args.tables - ours['unfinished']}/{args.tables} finished, "
        f"{ours['commands']} player commands acknowledged in {ours['elapsed']:.1f} s"
    )
    print(
        f"lock-in -> reveal at all 6 clients: n={len(lat)} p50={p50:.1f} ms "
        f"p99={p99:.1f} ms max={max(lat) if lat else float('nan'):.1f} ms"
    )
    print(
        f"bare flask-sock broadcast ({int(ours['frame_bytes'])} B to 6 clients): "
        f"n={len(bare)} p50={b50:.1f} ms p99={b99:.1f} ms"
    )
    print(f"ratio p99 companion / bare: {p99 / b99:.2f}")
    print(
        f"server CPU: {ours['cpu']:.2f} s for {ours['commands']} commands "
        f"({1000 * ours['cpu'] / max(1, ours['commands']):.2f} ms a command) in the worker "
        f"that holds the tables; {ours['cpu_others']:.2f} s in the master and the companion "
        "players' pool (reviews of finished games included)"
    )
    frames = ", ".join(f"{k} {v}" for k, v in sorted(ours["reasons"].items()))
    print(f"view frames received, by audience and reason: {frames}")
    print(
        f"server RSS: worker {ours['worker_rss']:.0f} MB, master+worker {ours['rss']:.0f} MB, "
        f"the companion players' processes {ours['pool_rss']:.0f} MB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
