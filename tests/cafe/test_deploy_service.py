"""The Raspberry Pi service: ``deploy/install.sh`` into a scratch root (DESTDIR), the unit checked
by ``systemd-analyze verify`` against that root, and the installed program started as the
unprivileged service user on its data directory, then stopped with SIGTERM as systemd does."""

from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from live_server import free_port
from server_fork import die_with_parent

ROOT = Path(__file__).resolve().parents[2]
UNIT = "/etc/systemd/system/chocolatl.service"


def _need(tool: str) -> str:
    """The systemd tool, installed with scripts/ensure-systemd (Debian's package) when it is
    missing and this is root with apt; without root or apt the test skips and says why."""
    path = shutil.which(tool)
    if path is None and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["bash", str(ROOT / "scripts" / "ensure-systemd")], check=False, timeout=600)
        path = shutil.which(tool)
        assert path is not None, f"{tool} is still missing after scripts/ensure-systemd"
    if path is None:
        pytest.skip(
            f"{tool} is not installed and this is not root with apt (Debian package "
            "systemd: run scripts/ensure-systemd as root)"
        )
    return path


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    """A scratch root with the companion installed by the documented command. It lives under a
    world-readable directory so the service user can reach its files."""
    _need("systemd-sysusers")
    _need("systemctl")
    if os.geteuid() != 0:
        pytest.skip("the install writes files owned by the service user: needs root")
    top = Path(tempfile.mkdtemp(prefix="chocolatl-root-"))
    top.chmod(0o755)
    root = top / "root"
    try:
        done = subprocess.run(
            ["bash", str(ROOT / "deploy" / "install.sh")],
            cwd=ROOT,
            env={**os.environ, "DESTDIR": str(root)},
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        yield root
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _service_user(root: Path) -> tuple[int, int, str]:
    for line in (root / "etc" / "passwd").read_text().splitlines():
        name, _, uid, gid, _, home, shell = line.split(":")
        if name == "chocolatl":
            return int(uid), int(gid), shell
    raise AssertionError("no chocolatl user in the scratch root's /etc/passwd")


def test_install_creates_user_data_directory_venv_and_enabled_unit(scratch: Path) -> None:
    uid, gid, shell = _service_user(scratch)
    assert uid != 0 and uid < 1000, "a system user, not root and not a login user"
    assert shell == "/usr/sbin/nologin"
    with pytest.raises(KeyError):
        pwd.getpwnam("chocolatl")  # the scratch install never touched this machine's users
    data = scratch / "var" / "lib" / "chocolatl"
    st = data.stat()
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (uid, gid, 0o750)
    assert os.access(scratch / "opt" / "chocolatl" / "venv" / "bin" / "companion", os.X_OK)
    # mpremote: the Pi flashes its own LED board (companion flash).
    assert os.access(scratch / "opt" / "chocolatl" / "venv" / "bin" / "mpremote", os.X_OK)
    unit = scratch / UNIT.lstrip("/")
    assert unit.read_text() == (ROOT / "deploy" / "chocolatl.service").read_text()
    wants = scratch / "etc/systemd/system/multi-user.target.wants/chocolatl.service"
    assert wants.is_symlink() and os.readlink(wants) == UNIT
    env = scratch / "etc" / "chocolatl" / "companion.env"
    assert env.stat().st_mode & 0o007 == 0, "settings may hold a webhook secret"


def test_unit_passes_systemd_analyze_verify(scratch: Path) -> None:
    """``systemd-analyze verify`` against the scratch root: unknown keys, a missing or
    non-executable ExecStart and bad dependencies all fail it."""
    analyze = _need("systemd-analyze")
    units = scratch / "usr" / "lib" / "systemd" / "system"
    if not units.exists():  # the targets the unit depends on, from this machine's systemd
        shutil.copytree("/usr/lib/systemd/system", units, symlinks=True)
    done = subprocess.run(
        [analyze, "verify", f"--root={scratch}", UNIT], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stdout + done.stderr
    # It does check: a unit whose program is missing is refused.
    broken = scratch / "etc" / "systemd" / "system" / "chocolatl-broken.service"
    broken.write_text(unit_text(scratch).replace("/venv/bin/companion", "/venv/bin/nothing"))
    done = subprocess.run(
        [analyze, "verify", f"--root={scratch}", str(broken)[len(str(scratch)) :]],
        capture_output=True,
        text=True,
        timeout=60,
    )
    broken.unlink()
    assert done.returncode != 0 and "nothing" in done.stderr


def unit_text(root: Path) -> str:
    return (root / UNIT.lstrip("/")).read_text()


def unit_settings(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        m = re.match(r"([A-Za-z]+)=(.*)", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def test_unit_runs_unprivileged_restarts_logs_and_stops_with_sigterm() -> None:
    s = unit_settings((ROOT / "deploy" / "chocolatl.service").read_text())
    assert s["User"] == "chocolatl" and s["StateDirectory"] == "chocolatl"
    assert s["Restart"] == "on-failure"
    assert s["StandardOutput"] == s["StandardError"] == "journal"
    assert s["KillSignal"] == "SIGTERM" and s["KillMode"] == "mixed"
    assert s["WantedBy"] == "multi-user.target"
    assert "--data /var/lib/chocolatl" in s["ExecStart"]


def test_default_settings_are_accepted_by_companion_serve() -> None:
    """The shipped companion.env's arguments parse (a typo there would make the service
    fail at every boot)."""
    from companion.cli import build_parser
    from companion.web.serve import config_from_args

    env = (ROOT / "deploy" / "companion.env").read_text()
    args_line = re.search(r"^CHOCOLATL_ARGS=(.*)$", env, re.M)
    assert args_line is not None
    argv = ["serve", "--data", "/var/lib/chocolatl", *shlex.split(args_line.group(1))]
    config = config_from_args(build_parser(argv).parse_args(argv))
    assert config.port == 80


def test_installed_program_runs_as_service_user_and_stops_on_sigterm(scratch: Path) -> None:
    """The installed venv started as the service user (as systemd would, minus the port 80
    capability) writes its database in the data directory and exits 0 on SIGTERM."""
    setpriv = _need("setpriv")
    uid, gid, _ = _service_user(scratch)
    data = scratch / "var" / "lib" / "chocolatl"
    port = free_port()
    cmd = [
        setpriv,
        f"--reuid={uid}",
        f"--regid={gid}",
        "--clear-groups",
        str(scratch / "opt" / "chocolatl" / "venv" / "bin" / "companion"),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data",
        str(data),
        "--board",
        "none",
    ]
    proc = subprocess.Popen(
        cmd,
        cwd=data,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=die_with_parent,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1).ok:
                    break
            except requests.RequestException:  # refused, or the worker not answering yet
                pass
            assert time.monotonic() < deadline, "the installed server did not start"
            time.sleep(0.1)
        db = data / "companion.sqlite3"
        assert db.stat().st_uid == uid
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
