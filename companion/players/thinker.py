"""Where companion players think at a table: a separate low-priority process.

A table must never wait for a bot: the server hands the seat's view to this pool, goes on
serving, and submits the answer like a phone's command when it arrives (checking that the game
has not moved on). The search runs in its own process with a raised nice value, so on a busy
core the operating system serves the tables first, and it never holds a table's lock or the
server's interpreter lock.

The pool's processes end with the server's process, however it ends: a ``kill -9`` (gunicorn's
own worker timeout, the OOM killer) runs no clean-up, and the pool's processes would otherwise
live on as orphans thinking for nobody. Each one watches its parent's process id and exits when
it changes (the kernel hands an orphan to another parent).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from companion.players import chooser
from companion.players.hints import suggest

NICE = 19  # the lowest priority: tables are served first, bots use what is left
PARENT_CHECK_S = 0.5  # how soon a thinking process notices that its server is gone
log = logging.getLogger(__name__)


def _lower_priority(nice: int) -> None:
    """In the pool's process: the lowest priority, and off the server's cores when the
    server was pinned to some of them (``taskset``) and others exist."""
    try:
        os.nice(nice)
    except OSError:  # pragma: no cover - not allowed here: run at the same priority
        pass
    try:
        mine = os.sched_getaffinity(0)
        others = set(range(os.cpu_count() or 1)) - mine
        if others:
            os.sched_setaffinity(0, others)
    except (AttributeError, OSError):  # pragma: no cover - no affinity on this system
        pass


def _start_in_pool(nice: int, parent: int) -> None:
    """The pool process's initializer: end with ``parent``, then lower the priority."""
    _end_with_parent(parent)
    _lower_priority(nice)


def _end_with_parent(parent: int, every: float = PARENT_CHECK_S) -> None:
    """Exit as soon as ``parent`` is no longer this process's parent (it died: we were
    re-parented). A thread that polls ``getppid`` is used rather than ``PR_SET_PDEATHSIG``,
    which fires when the *thread* that started us ends, not the process."""
    if os.getppid() != parent:  # it died while we were starting
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)  # no clean-up: the parent that would want our answers is gone

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def decide(kind: str, view: dict[str, Any], seed: int) -> dict[str, Any] | None:
    """One decision (runs in the pool's process)."""
    return chooser(kind)(view, random.Random(seed))


def hint(level: str, view: dict[str, Any], seed: int) -> dict[str, Any] | None:
    """One learning-mode suggestion (runs in the pool's process)."""
    return suggest(view, level, random.Random(seed))


class Thinker:
    """A pool of ``workers`` processes for bot decisions and hints.

    Answers are handed to their ``done`` callbacks on one answering thread of this process,
    in the order they arrive, so a callback that takes a table's lock holds up neither the
    pool nor other tables' thinking.
    """

    def __init__(self, workers: int = 1, nice: int = NICE) -> None:
        self._workers = workers
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_in_pool,
            initargs=(nice, os.getpid()),
        )
        self._answers: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._answering = threading.Thread(
            target=self._answer_loop, name="thinker-answers", daemon=True
        )
        self._answering.start()

    def submit(
        self,
        fn: Callable[..., Any],
        *args: Any,
        done: Callable[[Any, BaseException | None], None] | None = None,
    ) -> Future[Any]:
        """Run ``fn(*args)`` in the pool; ``done(result, error)`` is called when it ends."""
        future = self._pool.submit(fn, *args)
        if done is not None:

            def finished(f: Future[Any]) -> None:
                if f.cancelled():
                    return
                error = f.exception()
                result = None if error else f.result()
                self._answers.put(lambda: done(result, error))

            future.add_done_callback(finished)
        return future

    def _answer_loop(self) -> None:
        while True:
            job = self._answers.get()
            if job is None:
                return
            try:
                job()
            except Exception:  # noqa: BLE001 - one failed answer must not stop the others
                log.exception("a companion player's answer failed")

    def warm(self) -> None:
        """Start the pool's processes now rather than on the first decision or review.
        Starting one stalls the server's process (about 0.2 s measured on the development
        machine, under gevent every table waits): at start-up nobody is waiting yet."""
        for _ in range(self._workers):
            self._pool.submit(os.getpid)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._answers.put(None)
        self._answering.join(timeout=10)
