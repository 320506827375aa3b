"""Companion players at a table: the host seats them, they think elsewhere, they answer like
a phone.

A table tells its subscribers after every commit (DESIGN.md: command -> engine -> store ->
views, LEDs). The driver is such a subscriber: for every companion seat the engine now awaits,
it takes that seat's view (cheap, under the table's lock) and hands it to the thinker, a
separate low-priority process (companion/players/thinker.py). It never thinks under the lock.
When the answer comes back, the table checks that the same decision is still awaited from a
companion seat and submits the command through the engine, the store and the log like any
phone's (source ``bot:<seat>:<level>``).
"""

from __future__ import annotations

import logging
import random
import threading
from typing import TYPE_CHECKING, Any

from companion.engine import View, view
from companion.players import thinker as thinking
from companion.players.common import decision_key

if TYPE_CHECKING:
    from companion.table import Outcome, Table

log = logging.getLogger(__name__)
_SEEDS = random.SystemRandom()


class BotDriver:
    """Runs the companion seats of every table of one server on one :class:`Thinker`."""

    def __init__(self, workers: int = 1) -> None:
        self._thinker: thinking.Thinker | None = None
        self._workers = workers
        self._lock = threading.Lock()
        self._inflight: dict[tuple[str, str], tuple[Any, ...]] = {}
        self._closed = False

    def start(self) -> None:
        """Start the thinking processes ahead of need (the server does, once it serves: a
        game's end is always reviewed there, and a process started mid-game would hold up
        the reveals at every table)."""
        if not self._closed:
            self.thinker.warm()

    @property
    def thinker(self) -> thinking.Thinker:
        with self._lock:
            if self._thinker is None:  # started on first use: a table may never need it
                self._thinker = thinking.Thinker(self._workers)
            return self._thinker

    def observe(self, table: Table, outcome: Outcome) -> None:
        """Called by the table after each commit, under its lock: when the game moved
        (``outcome.state``), queue the awaited bots."""
        state = outcome.state
        g = table.game
        if state is None or g is None or g.status != "playing" or self._closed:
            return
        for seat, level in table.bot_seats.thinking():
            key = decision_key(state, seat)
            if key is None:
                continue
            full_key = (g.id, *key)
            with self._lock:
                if self._inflight.get((table.name, seat)) == full_key:
                    continue
                self._inflight[(table.name, seat)] = full_key
            seen = view(state, seat)

            def done(
                command: Any,
                error: BaseException | None,
                seat: str = seat,
                full_key: tuple[Any, ...] = full_key,
            ) -> None:
                with self._lock:
                    if self._inflight.get((table.name, seat)) == full_key:
                        del self._inflight[(table.name, seat)]
                if error is not None:
                    log.error("table %s: companion %s failed: %r", table.name, seat, error)
                    command = None
                table.bot_answer(seat, full_key, command)

            self.thinker.submit(thinking.decide, level, seen, _SEEDS.getrandbits(32), done=done)

    def hint(self, level: str, seen: View, done: Any) -> None:
        """A learning-mode suggestion for a seat's view, answered through ``done``."""
        self.thinker.submit(thinking.hint, level, seen, _SEEDS.getrandbits(32), done=done)

    def close(self) -> None:
        self._closed = True
        with self._lock:
            pool, self._thinker = self._thinker, None
        if pool is not None:
            pool.close()
