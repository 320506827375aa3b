"""What every part of a table shares: its store, its one lock, its game and seats, the commit
that makes a change durable, and the after-commit path that tells the subscribers.

The after-commit path (:meth:`TableCore.subscribe`) is the only way a change leaves a table:
the web hub sends frames from it, the LED board and the companion players follow the game on
it. Every change is computed first, committed (one transaction), applied to memory, and only
then published; a failed commit leaves memory as it was and answers ``storage_failed``
(DESIGN.md "Server").
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.store import Statements, Store
from companion.table.frames import Snapshot
from companion.table.frames import status as snapshot_status
from companion.table.model import Game, Outcome, Seat, TableError, storage_error

log = logging.getLogger(__name__)

Subscriber = Callable[[Any, Outcome], None]  # (the table, one committed outcome)
Reply = Callable[[Outcome], Any]


class TableCore:
    """The state and the lock of one table; the mixins of ``companion.table`` change it."""

    name: str
    title: str
    join_secret: str
    host_token: str
    store: Store
    lock: threading.RLock
    settings: dict[str, Any]
    seats: list[Seat]
    game: Game | None
    board_status: dict[str, Any] | None
    subscribers: list[Subscriber]
    stage: Any  # the show (companion.table.stage), if the table has one

    def snapshot(self, with_host: bool = False) -> Snapshot:  # pragma: no cover - Table's
        raise NotImplementedError

    # -- state --------------------------------------------------------------------------
    def playing(self) -> bool:
        return self.game is not None and self.game.status == "playing"

    def status(self) -> str:
        """``lobby`` | ``playing`` | ``finished`` (PROTOCOL.md section 4; frames.status)."""
        with self.lock:
            return snapshot_status(self.snapshot())

    def _seat(self, seat_id: str) -> Seat | None:
        return next((s for s in self.seats if s.seat == seat_id), None)

    def _need_seat(self, seat_id: Any) -> Seat:
        seat = self._seat(seat_id) if isinstance(seat_id, str) else None
        if seat is None:
            raise TableError("bad_message", f"no seat {seat_id!r} at this table")
        return seat

    # -- the after-commit path ----------------------------------------------------------
    def subscribe(self, subscriber: Subscriber, catch_up: bool = False) -> None:
        """After every commit, ``subscriber(table, outcome)`` is called with each
        :class:`~companion.table.model.Outcome` of that commit, in commit order, under the
        table's lock (so it must only record, render or queue, never wait). ``outcome.state``
        is the game's state when the game moved (else ``None``), ``outcome.events`` the new
        events. A subscriber that fails is logged and never breaks the table. With
        ``catch_up`` a subscriber joining a running game gets one ``Outcome("current",
        state=...)`` first (a restarted server's board and companion players)."""
        with self.lock:
            self.subscribers.append(subscriber)
            if catch_up and self.game is not None:
                self._tell(subscriber, Outcome("current", state=self.game.state))

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self.lock:
            if subscriber in self.subscribers:
                self.subscribers.remove(subscriber)

    def _tell(self, subscriber: Subscriber, outcome: Outcome) -> None:
        try:
            subscriber(self, outcome)
        except Exception:  # noqa: BLE001 - a subscriber never breaks the table
            log.exception("table %s: subscriber failed", self.name)

    def _publish(self, *outcomes: Outcome, reply: Reply | None = None) -> Outcome:
        """After a commit: the caller's reply (an ack goes before the views), then every
        outcome to every subscriber. Returns the first outcome."""
        if reply is not None:
            reply(outcomes[0])
        for outcome in outcomes:
            for subscriber in list(self.subscribers):
                self._tell(subscriber, outcome)
        return outcomes[0]

    def _commit(self, statements: Statements) -> None:
        """One transaction, or TableError ``storage_failed`` with nothing changed."""
        try:
            self.store.commit(statements)
        except Exception as exc:  # noqa: BLE001 - sqlite3 and OS errors alike
            log.warning("table %s: commit failed: %s", self.name, exc)
            raise storage_error(exc) from None
