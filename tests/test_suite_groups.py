"""``make test``'s workers keep a module's tests together (``tests/conftest.py``): a module's
shared server and fixtures are set up once, on one worker, and each chaos seed is a group of
its own. pytest 9.2 with pytest-xdist 3.8 silently dropped every group (each test went to
whichever worker was free, and each worker set the module's fixtures up again); this runs
the suite's own settings on a small suite in a pytest of its own, on four workers, and looks
at which worker ran what.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")

MODULE = """
import os
import pytest

@pytest.fixture(scope="module")
def shared():
    with open(os.environ["GROUPS_LOG"], "a") as f:
        f.write(f"setup {__name__}\\n")
    return __name__

@pytest.mark.parametrize("n", range(6))
def test_one(shared, n):
    with open(os.environ["GROUPS_LOG"], "a") as f:
        f.write(f"ran {__name__} {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""


def test_a_module_runs_on_one_worker_and_sets_up_once(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    suite = tmp_path / "tests"
    suite.mkdir()
    (suite / "conftest.py").write_text(CONFTEST.read_text(encoding="utf-8"), encoding="utf-8")
    for name in ("test_alpha", "test_beta", "test_gamma"):
        (suite / f"{name}.py").write_text(MODULE, encoding="utf-8")
    log = tmp_path / "groups.log"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "4"]
        + ["--dist", "loadgroup", "--no-loadscope-reorder", "tests"],
        cwd=tmp_path,
        env={**os.environ, "GROUPS_LOG": str(log)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = log.read_text(encoding="utf-8").split("\n")
    setups = [line.split()[1] for line in lines if line.startswith("setup ")]
    assert sorted(setups) == ["test_alpha", "test_beta", "test_gamma"], setups
    workers: dict[str, set[str]] = {}
    for line in lines:
        if line.startswith("ran "):
            _, module, worker = line.split()
            workers.setdefault(module, set()).add(worker)
    assert {m: len(w) for m, w in workers.items()} == {
        "test_alpha": 1,
        "test_beta": 1,
        "test_gamma": 1,
    }, workers
