"""``kill -9`` of the server's gunicorn worker (as its own timeout or the OOM killer would)
while companion players think: the worker's thinking processes end with it instead of living
on as orphans (companion/players/thinker.py)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from live_server import Host, LiveServer, play, seat_phones
from waiting import wait_for


def descendants(pid: int) -> list[int]:
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (FileNotFoundError, ProcessLookupError):
        return []
    out = []
    for child in map(int, children):
        out += [child, *descendants(child)]
    return out


def running(pids: list[int]) -> list[int]:
    """Those of ``pids`` that still run (a zombie waiting to be reaped has stopped)."""
    out = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if state != "Z":
            out.append(pid)
    return out


def nice(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
        return None


def test_thinking_processes_end_with_a_killed_worker(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data", extra=["--board", "none"]).start()
    orphans: list[int] = []
    try:
        phones = seat_phones(live, "1", ["Ana", "Ben"])
        host = Host(live, "1")
        host.hello()
        for _ in range(2):
            assert host.act("add_bot", level="strong")["type"] == "ok"
        assert host.act("start", dice="digital")["type"] == "ok"
        play(phones, [], host, max_steps=2)  # the people's sacrifices: the companions think
        worker = live.worker_pid()
        thinkers = wait_for(lambda: descendants(worker), "a thinking process", 60)
        assert isinstance(thinkers, list)
        os.kill(worker, signal.SIGKILL)
        try:
            wait_for(lambda: not running(thinkers), "the thinking processes ended", 15)
        except TimeoutError:
            orphans = running(thinkers)
            raise AssertionError(f"orphans of the killed worker still run: {orphans}") from None
        # gunicorn's master starts a new worker, which serves the table again.
        wait_for(lambda: live.proc and descendants(live.proc.pid), "a new worker", 30)
    finally:
        for peer in locals().get("phones", []):
            peer.close()
        live.stop()
        for pid in orphans:  # never leave them behind, even when the test fails
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_the_thinking_process_starts_with_the_server_not_mid_game(tmp_path: Path) -> None:
    """Starting a process stalls the worker (~0.2 s under gevent, every table waits): the
    server starts its companion players' process before anybody plays, not at the first
    game's end (its review) or the first companion player (README, bench_server)."""
    live = LiveServer(tmp_path / "data", extra=["--board", "none"]).start()
    try:
        worker = live.worker_pid()
        # No table has a game, a companion player or a finished game to review; the
        # process lowers its priority as it starts (the lowest: the tables are served first).
        wait_for(
            lambda: any(nice(pid) == 19 for pid in running(descendants(worker))),
            "a thinking process at the lowest priority",
            30,
        )
    finally:
        live.stop()
