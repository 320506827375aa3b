"""The data directory: one server at a time, and plain sentences for what is wrong with it.

Two servers on one directory would both acknowledge joins and each rewrite the other's seats,
so the first holds an exclusive ``flock`` on ``companion.lock`` for its whole life (the kernel
drops it when the process ends, even on ``kill -9``; a stale file never blocks a start).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from pathlib import Path

from companion.store.migrations import DatabaseRefused


class DataDirError(Exception):
    """The data directory or its database cannot be used; the message says why in words."""


class DataDirLock:
    """An exclusive lock on ``<data>/companion.lock`` holding the owner's PID."""

    def __init__(self, data: Path) -> None:
        self.path = Path(data) / "companion.lock"
        self._fd: int | None = None

    def acquire(self) -> DataDirLock:
        data = self.path.parent.resolve()
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise DataDirError(f"cannot use the data directory {data}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise DataDirError(
                f"another companion server (PID {other}) is already using the "
                f"data directory {data}; stop it first or choose another "
                "--data directory"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def prepare(data: Path) -> None:
    """Create the data directory, or say in one sentence why it cannot be used."""
    data = Path(data)
    if data.exists() and not data.is_dir():
        raise DataDirError(f"the data directory {data.resolve()} is a file, not a directory")
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataDirError(f"cannot create the data directory {data}: {exc.strerror}") from None
    if not os.access(data, os.W_OK | os.X_OK):
        raise DataDirError(f"the data directory {data.resolve()} is not writable by this user")


def database_problem(path: Path, exc: BaseException) -> DataDirError:
    """A sentence for an error met while opening or replaying the database at ``path``."""
    if isinstance(exc, DatabaseRefused):  # already the sentence (migrations.check_file)
        return DataDirError(str(exc))
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in text:
        why = "the file is not a SQLite database (damaged or replaced)"
    elif isinstance(exc, sqlite3.DatabaseError) and "malformed" in text:
        why = "the database file is damaged"
    elif "readonly" in text or "read-only" in text:
        why = "the database file is read-only for this user"
    elif isinstance(exc, sqlite3.OperationalError) and "unable to open" in text:
        why = "the database file cannot be opened (check the directory's permissions)"
    elif isinstance(exc, OSError):
        why = exc.strerror or text
    else:
        why = text
    return DataDirError(f"cannot use the database {Path(path).resolve()}: {why}")
