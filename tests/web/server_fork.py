"""Test servers forked from one process that has already imported the server.

Before it serves, a ``companion serve`` process spends about 0.35 CPU s on imports (gevent's
patching, gunicorn, Flask, the companion), and the suite starts some 120 servers on two cores.
This module's process (one per pytest process, started with the first server) makes those
imports once, then forks each server from that image. What runs is what ``python -m companion
serve`` runs, ``companion.cli.main(["serve", ...])``, after the same ``patch_for_gevent``.

The server is still the test's own child: the fork is double, and the test process is a child
subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``), so the server is handed to it. The test waits
for it, reads its exit status and kills its process group as with ``subprocess``
(:class:`ForkedServer` has ``Popen``'s ``pid``, ``poll``, ``wait``, ``send_signal`` and
``returncode``). Tests that start servers with ``subprocess`` themselves still run
``python -m companion serve`` from the start, as does ``CHOCOLATL_FORK_SERVERS=0``.

What a fork shares with its siblings and a fresh start would not: ``random``'s state (seeded
again in each server) and the string hash seed (so sets of strings iterate in the same order
in every server; nothing in the companion may depend on that order anyway).
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
ENABLED = os.environ.get("CHOCOLATL_FORK_SERVERS", "1") != "0"
_libc = ctypes.CDLL("libc.so.6", use_errno=True)


class ForkedServer:
    """A forked server, seen from the test process (its parent since the hand-over)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere: gone, status unknown
                self.returncode = -signal.SIGKILL
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if timeout is None:
            if self.returncode is None:
                _, status = os.waitpid(self.pid, 0)
                self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode
        deadline = time.monotonic() + timeout
        while (code := self.poll()) is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout)
            time.sleep(0.01)
        return code

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)


class Forker:
    """The pre-imported process of this test process; :meth:`start` forks a server from it."""

    _lock = threading.Lock()
    _current: Forker | None = None

    def __init__(self) -> None:
        if _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
        self.proc = subprocess.Popen(
            [sys.executable, "-u", __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=die_with_parent,
        )
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("the server forker did not start")

    @classmethod
    def shared(cls) -> Forker:
        with cls._lock:
            if cls._current is None or cls._current.proc.poll() is not None:
                cls._current = cls()
            return cls._current

    def start(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> ForkedServer:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        log.touch()  # there before the test first reads it
        request = {
            "argv": argv,
            "env": env,
            "cwd": str(cwd),
            "log": str(log),
            "parent": os.getpid(),
        }
        with self._lock:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError("the server forker died")
        return ForkedServer(int(json.loads(answer)["pid"]))


def reap_group(pgid: int, timeout: float = 5.0) -> None:
    """After a SIGKILL to the group: reap what the killed server hands to the test process (its
    worker and the companion players' processes come to it as their parents die), until no
    process of the group is left: zombies otherwise, for as long as the test process lives."""
    deadline = time.monotonic() + timeout
    while _group_left(pgid) and time.monotonic() < deadline:
        try:
            while os.waitpid(-pgid, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass  # none of them ours yet: their parents are still dying
        time.sleep(0.005)


def _group_left(pgid: int) -> bool:
    """Whether any process (a zombie too) is still in process group ``pgid``."""
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                stat = Path(entry.path, "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == pgid:
                return True
    return False


def die_with_parent() -> None:
    """In the child: SIGKILL when the test process dies, so no server outlives a killed run."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _serve_requests() -> None:
    """The forker: import what a server imports, then fork one server per request line."""
    from companion.cli import patch_for_gevent

    patch_for_gevent()
    from gevent import monkey

    import companion.web.app
    import companion.web.serve
    import companion.web.worker  # noqa: F401 - imported once here, not in every server

    fork = monkey.get_original("os", "fork")
    waitpid = monkey.get_original("os", "waitpid")
    sleep = monkey.get_original("time", "sleep")
    assert threading.active_count() == 1, "a fork keeps only the forking thread"
    # What the imports made is frozen in every server's worker anyway (``settle_memory``);
    # frozen here, the worker's collection before it does not walk it again.
    gc.collect()
    gc.freeze()
    print("ready", flush=True)
    for line in sys.stdin:
        request: dict[str, Any] = json.loads(line)
        read, write = os.pipe()
        middle = fork()
        if middle == 0:
            os.close(read)
            server = fork()
            if server == 0:
                os.close(write)
                _become_server(request, sleep)  # does not come back
            os.write(write, f"{server}\n".encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as answer:
            pid = int(answer.readline())
        waitpid(middle, 0)
        print(json.dumps({"pid": pid}), flush=True)


def _become_server(request: dict[str, Any], sleep: Any) -> None:
    """In the server: wait to be handed to the test process, take its environment, run."""
    os.setsid()  # its own process group, as ``start_new_session``
    deadline = time.monotonic() + 5
    while os.getppid() != request["parent"]:
        if time.monotonic() > deadline:
            os._exit(70)
        sleep(0.001)
    die_with_parent()
    if os.getppid() != request["parent"]:
        os._exit(70)
    null = os.open(os.devnull, os.O_RDONLY)
    log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(null)
    os.close(log)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    import random

    random.seed()  # not the forker's sequence, shared by every server
    from companion.cli import main

    sys.argv = ["companion", *request["argv"]]
    raise SystemExit(main(request["argv"]))  # exits as ``python -m companion`` does


if __name__ == "__main__":
    _serve_requests()
