"""The tests' forked servers (server_fork.py) are what ``subprocess`` gave: the test process's
own child in a session of its own, stopped with an exit status, killed without leftovers."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import server_fork
from live_server import LiveServer


def _status(pid: int) -> dict[str, str]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


@pytest.mark.skipif(not server_fork.ENABLED, reason="servers are started with subprocess")
def test_a_forked_server_is_the_tests_child_in_its_own_session(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data").start()
    try:
        assert live.proc is not None
        pid = live.proc.pid
        assert isinstance(live.proc, server_fork.ForkedServer)
        assert int(_status(pid)["PPid"]) == os.getpid()  # handed over: ours to wait for
        assert os.getsid(pid) == pid and os.getpgid(pid) == pid  # start_new_session's
        assert live.worker_pid() != pid  # gunicorn's master, with its one worker
        live.proc.send_signal(signal.SIGTERM)
        assert live.proc.wait(timeout=15) == 0  # a clean stop, as from systemd
    finally:
        live.kill()


def test_a_killed_server_leaves_no_process_behind(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data").start()
    assert live.proc is not None
    pid, worker = live.proc.pid, live.worker_pid()
    live.kill()  # SIGKILL to the group: master, worker, the companion players' processes
    assert live.proc is None
    for gone in (pid, worker):
        assert not Path(f"/proc/{gone}").exists(), _status(gone)  # neither running nor a zombie
    with pytest.raises(ChildProcessError):
        os.waitpid(-pid, os.WNOHANG)  # nothing of its group is left to this process
