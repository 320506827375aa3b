"""The simulated board's port directory (its stable ``/dev/serial/by-id``-like name) does not
outlive the board: closed, collected, or left by a killed server."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from companion.board.simboard import DIR_PREFIX, SimBoard


def test_a_closed_board_leaves_no_directory() -> None:
    board = SimBoard(8).plug()
    folder = Path(board.path).parent
    assert folder.is_dir() and Path(board.path).is_symlink()
    board.close()
    assert not folder.exists()


def test_a_board_nobody_closed_leaves_none_once_collected() -> None:
    board = SimBoard(8)
    folder = Path(board.path).parent
    assert folder.is_dir()
    del board
    gc.collect()
    assert not folder.exists()


def test_the_directory_of_a_killed_server_is_removed_by_the_next_board() -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead_pid = int(gone.stdout)
    left = Path(tempfile.mkdtemp(prefix=f"{DIR_PREFIX}{dead_pid}-"))
    (left / "usb-port").symlink_to("/dev/null")
    alive = Path(tempfile.mkdtemp(prefix=f"{DIR_PREFIX}{os.getppid()}-"))  # a live process's
    try:
        board = SimBoard(8)
        try:
            assert not left.exists(), "the dead server's directory was left behind"
            assert alive.is_dir(), "a running process's directory was removed"
        finally:
            board.close()
    finally:
        for folder in (left, alive):
            for entry in folder.glob("*"):
                entry.unlink()
            if folder.exists():
                folder.rmdir()


def test_a_directory_gone_between_the_listing_and_the_look_is_passed_over(
    tmp_path: Path, monkeypatch
) -> None:
    """Servers side by side: another board was closed (or another server removed a dead one's
    directory) between this board's listing of the temp directory and its look at an entry's
    owner. The entry is gone, which is no reason for the board not to start (it did not: the
    table ran without its simulated board). The window is forced: the listing names an entry
    that is no longer there."""
    gone = tmp_path / f"{DIR_PREFIX}{os.getpid()}-gone"
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(Path, "glob", lambda self, pattern: iter([gone]))
    board = SimBoard(10)
    try:
        assert Path(board.path).parent.parent == tmp_path  # its own directory, made anyway
    finally:
        board.close()
