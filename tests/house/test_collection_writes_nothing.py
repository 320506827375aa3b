"""Collecting the tests changes nothing in the project's files.

pytest imports every module under ``tests/`` and ``companion/`` for their doctests, in each
worker at once. A script that wrote at import (``tests/board/make_vectors.py`` rewrote the
board's protocol vectors) let another worker read the file half written: a collection error
in one CI run in many. Scripts that write run their work under ``if __name__ == "__main__"``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tracked() -> dict[str, tuple[int, int]]:
    """Each file git tracks, with its size and modification time (ns)."""
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    out = {}
    for raw in filter(None, names):
        path = ROOT / os.fsdecode(raw)
        if path.is_file():
            st = path.stat()
            out[str(path.relative_to(ROOT))] = (st.st_size, st.st_mtime_ns)
    return out


def test_collecting_every_module_writes_no_tracked_file() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("an unpacked copy without git: nothing lists its files")
    before = _tracked()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    after = _tracked()
    changed = sorted(name for name in before if after.get(name) != before[name])
    assert changed == [], f"collecting the tests wrote {changed}"
