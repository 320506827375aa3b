"""One client floods one path; does another table notice?

A live ``companion serve`` (pinned to CPU 0 with ``taskset``, as bench_server.py does) with two
tables. A probe display on table 2 pings every 60 ms and times each pong. While it does, one
flood at a time runs on table 1 for ``--seconds`` from a separate client process (so the
flooders' own interpreter does not delay the probe):

- ``baseline``: no flood;
- ``set_language``: 60 display sockets, no token, each sending ``set_language`` 20 times a
  second, alternating two languages (every message a change);
- ``set_language_same``: the same, always the table's own language (every message a no-op);
- ``replay``: two clients opening ``/t/1/games/<id>/replay?seat=&token=`` (a seat's own
  token) in a loop, for a finished five-player game played here first;
- ``ping``: the 60 sockets sending ``ping`` instead (the edge's own cost, for comparison);
- ``reconnect``: two clients opening that seat's socket, saying hello and closing, in a loop;
- ``qr``, ``state``, ``display_page``: two clients reloading what needs no token (the join QR
  code, ``/t/1/api/state``, the display page) in a loop;
- ``log`` (the host's token), ``history`` and ``csv`` (the café admin's): two clients
  reloading a game's log, the admin's history or the games' CSV in a loop.

``--profile DIR`` samples the worker with py-spy during each flood and prints where its time
went (functions by share of samples).

For each: the probe's p50/p99/max round trip, the worker's share of a core (its CPU seconds
over the flood's seconds) and its resident memory before and after, and what the flooders
got (frames, refusals, replays opened). Prints a table; asserts nothing. ``--server-root`` runs
another tree's server (e.g. a ``git worktree`` of an older release) under the same clients.

    .venv/bin/python benchmarks/bench_flood.py
    .venv/bin/python benchmarks/bench_flood.py --server-root /tmp/old-tree
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
import simple_websocket

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_server  # noqa: E402
from bench_server import cpu_seconds, free_port, pct, wait_up  # noqa: E402
from live_server import Host, LiveServer, Peer, play, seat_phones  # noqa: E402

HttpFlood = tuple[str, dict[str, str], dict[str, str]]
PROBE_EVERY_S = 0.06  # under the 20 messages a second a socket may send
SOCKETS, RATE = 60, 20.0  # the red team's flood: 60 sockets x 20 messages a second


# --- the flooders (a child process) -----------------------------------------------------------
def _below_the_probe() -> None:
    """The flooders share the clients' core with the probe: at a lower priority (nice 10,
    whatever the bench was started with; each thread started after this inherits it), so
    the probe times the server, not the flooders' own threads (60 of them at the probe's
    priority left it a tenth of its core)."""
    os.setpriority(os.PRIO_PROCESS, 0, max(10, os.getpriority(os.PRIO_PROCESS, 0)))


def _socket_flood(url: str, kind: str, seconds: float, out: Any) -> None:
    """``SOCKETS`` display sockets sending ``kind`` at ``RATE`` each; counts what came back."""
    _below_the_probe()
    counts = {"sent": 0, "views": 0, "rate_limited": 0, "other": 0, "failed": 0}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def one(n: int) -> None:
        try:
            ws = simple_websocket.Client.connect(url)
        except Exception:  # noqa: BLE001 - counted, the others go on
            with lock:
                counts["failed"] += 1
            return
        i, next_at = 0, time.monotonic()
        mine = {"sent": 0, "views": 0, "rate_limited": 0, "other": 0}
        try:
            while time.monotonic() < stop:
                if kind == "ping":
                    msg = {"type": "ping", "t": i}
                elif kind == "set_language_same":
                    msg = {"type": "set_language", "lang": "en", "id": f"{n}-{i}"}
                else:
                    msg = {"type": "set_language", "lang": ("de", "nl")[i % 2], "id": f"{n}-{i}"}
                ws.send(json.dumps(msg))
                mine["sent"] += 1
                i += 1
                next_at += 1 / RATE
                while True:  # read what came while waiting for the next send
                    raw = ws.receive(timeout=max(0.0, next_at - time.monotonic()))
                    if raw is None:
                        break
                    frame = json.loads(raw)
                    if frame.get("type") == "view":
                        mine["views"] += 1
                    elif frame.get("code") == "rate_limited":
                        mine["rate_limited"] += 1
                    elif frame.get("type") != "pong":
                        mine["other"] += 1
        except Exception:  # noqa: BLE001 - a closed socket ends this flooder
            pass
        finally:
            ws.close()
            with lock:
                for k, v in mine.items():
                    counts[k] += v

    threads = [threading.Thread(target=one, args=(n,)) for n in range(SOCKETS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(counts)


def _reconnect_flood(url: str, seat: dict[str, str], seconds: float, out: Any) -> None:
    """Two clients that open a seat's socket with its own token, say hello, wait for the
    view and close, in a loop (a phone reconnecting as fast as it can)."""
    _below_the_probe()
    counts = {"cycles": 0, "views": 0, "refused": 0, "failed": 0}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def one() -> None:
        while time.monotonic() < stop:
            key = "failed"
            try:
                ws = simple_websocket.Client.connect(url)
                try:
                    ws.send(json.dumps({"type": "hello", **seat}))
                    while True:
                        raw = ws.receive(timeout=10)
                        if raw is None:
                            break
                        frame = json.loads(raw)
                        if frame.get("type") == "view":
                            key = "views"
                            break
                        if frame.get("type") == "error":
                            key = "refused"
                            break
                finally:
                    ws.close()
            except Exception:  # noqa: BLE001 - counted, the loop goes on
                key = "failed"
            with lock:
                counts["cycles"] += 1
                counts[key] += 1

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(counts)


def _http_flood(
    url: str, params: dict[str, str], headers: dict[str, str], seconds: float, out: Any
) -> None:
    """Two clients asking for one URL in a loop (answers counted by status)."""
    _below_the_probe()
    counts: dict[str, int] = {}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def one() -> None:
        with requests.Session() as s:
            while time.monotonic() < stop:
                try:
                    code = str(s.get(url, params=params, headers=headers, timeout=30).status_code)
                except requests.RequestException:
                    code = "error"
                with lock:
                    counts[code] = counts.get(code, 0) + 1

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(counts)


# --- the server and the probe -----------------------------------------------------------------
def start_server(root: Path) -> tuple[LiveServer, subprocess.Popen[bytes]]:
    data = Path(tempfile.mkdtemp(prefix="bench-flood-"))
    live = LiveServer(data, tables=2)
    live.port = free_port()
    env = {**os.environ, "COMPANION_REVIEW_BUDGET": "0.3", "PYTHONUNBUFFERED": "1"}
    log = (data / "server.log").open("w")
    nice = bench_server.SERVER_NICE

    def priority() -> None:  # absolute: a bench started under `nice` does not lower it
        os.setpriority(os.PRIO_PROCESS, 0, nice)

    proc = subprocess.Popen(
        ["taskset", "-c", "0"] * bool(shutil.which("taskset"))
        + [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1"]
        + ["--port", str(live.port), "--data", str(data), "--tables", "2"]
        + ["--threads", "256", "--max-per-address", "2000", "--pace", "instant"],
        preexec_fn=priority,  # noqa: PLW1509 - before exec, no threads in the child yet
        cwd=root,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    live.log_path = data / "server.log"
    wait_up(f"{live.local}/healthz", proc)
    for _ in range(200):
        live.host_tokens = dict(
            re.findall(r"Table (\S+) host:\s+\S+/host\?token=(\S+)", live.log())
        )
        if len(live.host_tokens) >= 2:
            break
        time.sleep(0.05)
    return live, proc


def worker_pid(proc: subprocess.Popen[bytes]) -> int:
    """The gunicorn worker: the child of the master that is not the players' pool."""
    kids = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    return int(kids[0])


def waited_s(pid: int) -> float:
    """Seconds the worker's main thread (its event loop) has spent ready to run but waiting
    for a CPU (``/proc/PID/schedstat``): the machine's share of a probe's delay, not the
    server's work."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def worker_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def probe(live: LiveServer, seconds: float) -> list[float]:
    """Round trips (ms) of pings from a display of table 2, one every 60 ms."""
    peer = Peer(f"{live.ws_base}/t/2/ws/display")
    peer.until(lambda f: f["type"] == "view")
    out: list[float] = []
    stop = time.monotonic() + seconds
    n = 0
    while time.monotonic() < stop:
        n += 1
        sent = time.perf_counter()
        peer.send({"type": "ping", "t": n})
        peer.until(lambda f, n=n: f.get("type") == "pong" and f.get("t") == n, timeout=30)
        out.append((time.perf_counter() - sent) * 1000)
        time.sleep(max(0.0, PROBE_EVERY_S - (time.perf_counter() - sent)))
    peer.close()
    return out


def finished_game(live: LiveServer) -> tuple[int, dict[str, str]]:
    """A five-player game on table 1 played to its end; its id and a seat's token."""
    phones = seat_phones(live, "1", ["Ana", "Ben", "Cleo", "Dan", "Eva"])
    host = Host(live, "1")
    host.hello()
    assert host.act("start")["type"] == "ok"
    play(phones, [], host, timeout=600)
    state = requests.get(f"{live.local}/t/1/api/state", timeout=10).json()
    game_id = int(state["game"]["id"])
    # The game's review (in the players' pool) done first: the floods meet an idle pool, as
    # a game over some minutes ago would.
    deadline = time.monotonic() + 300
    while (state.get("review") or {}).get("state") != "ready" and time.monotonic() < deadline:
        time.sleep(0.5)
        state = requests.get(f"{live.local}/t/1/api/state", timeout=10).json()
    seat = {"seat": phones[0].seat, "token": phones[0].token}
    for p in [*phones, host]:
        p.close()
    return game_id, seat


def profiler(
    pid: int, flood: str, seconds: float, out: Path
) -> tuple[subprocess.Popen[bytes], Path]:
    """py-spy (from PyPI, ``pip install py-spy``) sampling the worker while the probe runs:
    collapsed stacks, one line a stack with its sample count."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{flood}.txt"
    spy_bin = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    cmd = [spy_bin, "record", "-p", str(pid), "-d", str(max(1, int(seconds))), "-r", "200"]
    cmd += ["--format", "raw", "--nonblocking", "-o", str(path)]
    spy = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return spy, path


def spy_top(spy: tuple[subprocess.Popen[bytes], Path], top: int = 12) -> dict[str, Any]:
    """Where the worker's samples were: the functions with the most samples on the stack
    (inclusive) and at its top (self), as shares of all samples."""
    proc, path = spy
    proc.wait(timeout=120)
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines() if path.exists() else []:
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [
            re.sub(r" \(.*?/(companion|site-packages)/", r" (\1/", f) for f in stack.split(";")
        ]
        for f in set(frames):
            inclusive[f] = inclusive.get(f, 0) + n
        own[frames[-1]] = own.get(frames[-1], 0) + n

    def share(d: dict[str, int]) -> list[str]:
        best = sorted(d.items(), key=lambda kv: -kv[1])[:top]
        return [f"{100 * n / max(1, total):.0f}% {f}" for f, n in best]

    return {"samples": total, "self": share(own), "inclusive": share(inclusive)}


def _admin(live: LiveServer) -> dict[str, str]:
    found = re.search(r"Café admin:\s+\S+/admin\?token=(\S+)", live.log())
    return {"X-Admin-Token": found.group(1) if found else ""}


# What else a client can repeat over HTTP: (path, query, headers) for the flood's two clients.
HTTP_FLOODS: dict[str, Callable[[LiveServer, int, dict[str, str]], HttpFlood]] = {
    # a seat's own replay (seat token): throttled per seat after a few opens
    "replay": lambda live, gid, seat: (f"/t/1/games/{gid}/replay", seat, {}),
    # no token: the join QR code, the table's state, the display page
    "qr": lambda live, gid, seat: ("/t/1/qr.svg", {}, {}),
    "state": lambda live, gid, seat: ("/t/1/api/state", {}, {}),
    "display_page": lambda live, gid, seat: ("/t/1/", {}, {}),
    # the host's token: a game's log
    "log": lambda live, gid, seat: (
        f"/t/1/games/{gid}/log.json",
        {"token": live.host_tokens["1"]},
        {},
    ),
    # the café admin's token: the history and the games' CSV
    "history": lambda live, gid, seat: ("/admin/api/history", {}, _admin(live)),
    "csv": lambda live, gid, seat: ("/admin/export/games.csv", {}, _admin(live)),
}


def run(
    root: Path, seconds: float, floods: list[str], profile: Path | None = None
) -> list[dict[str, Any]]:
    live, proc = start_server(root)
    rows = []
    try:
        needs_game = any(f in floods for f in ("replay", "reconnect", "log", "history", "csv"))
        game_id, seat = finished_game(live) if needs_game else (0, {})
        worker = worker_pid(proc)
        if bench_server.SERVER_NICE:
            # The probe at the server's priority, absolute (its thread; the flooders lower
            # their own): it stands for a well-behaved client, so it times the server, not
            # the queue of other work on the clients' core.
            os.setpriority(os.PRIO_PROCESS, 0, bench_server.SERVER_NICE)
        ctx = multiprocessing.get_context("spawn")
        for flood in floods:
            out = ctx.Queue()
            if flood == "baseline":
                child = None
            elif flood == "reconnect":
                url = f"{live.ws_base}/t/1/ws/seat"
                child = ctx.Process(target=_reconnect_flood, args=(url, seat, seconds, out))
            elif flood in HTTP_FLOODS:
                path, params, headers = HTTP_FLOODS[flood](live, game_id, seat)
                child = ctx.Process(
                    target=_http_flood, args=(live.local + path, params, headers, seconds, out)
                )
            else:
                url = f"{live.ws_base}/t/1/ws/display"
                child = ctx.Process(target=_socket_flood, args=(url, flood, seconds, out))
            rss0 = worker_rss_mb(worker)
            cpu0 = cpu_seconds(worker).get(worker, 0.0)
            wait0 = waited_s(worker)
            if child is not None:
                child.start()
                time.sleep(1.0)  # the flood under way (its sockets open) before the probe
            started = time.monotonic()
            spy = profiler(worker, flood, seconds - 2, profile) if profile else None
            rtts = probe(live, seconds - 2 if child is not None else seconds)
            got = out.get(timeout=120) if child is not None else {}
            if child is not None:
                child.join(timeout=30)
            elapsed = time.monotonic() - started + (1.0 if child is not None else 0.0)
            # messages sent, or replay pages asked for (each answer counted by status)
            sent = got.get("sent", got.get("cycles", sum(v for k, v in got.items() if k.isdigit())))
            cpu1 = cpu_seconds(worker).get(worker, 0.0)
            wait1 = waited_s(worker)
            top = spy_top(spy) if spy is not None else None
            rows.append(
                {
                    "flood": flood,
                    "n": len(rtts),
                    "p50": pct(rtts, 50),
                    "p99": pct(rtts, 99),
                    "max": max(rtts),
                    "over_200": sum(r > 200 for r in rtts),
                    "cpu_pct": 100 * (cpu1 - cpu0) / elapsed,
                    # its loop's time waiting for a CPU, ms a second (the machine's share)
                    "runq_ms_per_s": 1000 * (wait1 - wait0) / elapsed,
                    # the worker's CPU per message the flood sent (whatever the clock did)
                    "cpu_ms_per_msg": 1000 * (cpu1 - cpu0) / sent if sent else float("nan"),
                    "rss_before": rss0,
                    "rss_after": worker_rss_mb(worker),
                    "flooders_got": got,
                    **({"profile": top} if top is not None else {}),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
            time.sleep(2.0)  # the server settles between floods
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(live.data, ignore_errors=True)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="length of each flood")
    ap.add_argument(
        "--floods",
        default="baseline,set_language,set_language_same,replay,ping,reconnect,qr,state,"
        "display_page,log,history,csv",
        help="which floods, in order (comma-separated)",
    )
    ap.add_argument(
        "--server-root",
        type=Path,
        default=ROOT,
        help="measure the server of another tree (e.g. a git worktree of an older release)",
    )
    ap.add_argument(
        "--server-nice",
        type=int,
        default=0,
        help="run the server at this nice value (as bench_server.py): on a machine shared "
        "with other work, a negative value (root) stands in for a machine of its own",
    )
    ap.add_argument(
        "--profile",
        type=Path,
        help="sample the worker with py-spy during each flood; collapsed stacks into this "
        "folder, the busiest functions printed",
    )
    args = ap.parse_args()
    bench_server.SERVER_NICE = args.server_nice
    try:  # clients off the server's core
        cpus = os.sched_getaffinity(0) - {0}
        if cpus:
            os.sched_setaffinity(0, cpus)
    except (AttributeError, OSError):
        pass
    load_before = os.getloadavg()[0]
    rows = run(args.server_root.resolve(), args.seconds, args.floods.split(","), args.profile)
    print(
        f"server: {args.server_root.resolve()} (nice {args.server_nice}, the probe too); "
        "each flood "
        f"{args.seconds:g} s on table 1; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after (1 min)"
    )
    print(
        "flood               probe on table 2: n   p50     p99     max  >200ms  worker CPU"
        "  run queue  RSS"
    )
    for r in rows:
        print(
            f"{r['flood']:<20}{r['n']:>22} {r['p50']:6.1f} {r['p99']:7.1f} {r['max']:7.1f}"
            f" {r['over_200']:>6}  {r['cpu_pct']:8.0f} % ({r['cpu_ms_per_msg']:.3f} ms/msg)"
            f" {r['runq_ms_per_s']:5.0f} ms/s"
            f"  {r['rss_before']:.0f}->"
            f"{r['rss_after']:.0f} MB  {r['flooders_got']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
