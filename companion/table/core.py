"""What a table's parts are given: the :class:`Context` they work on (the table's state, its
one lock, its commit and its after-commit path), and the shapes of a subscriber and a reply.

The parts (:mod:`~companion.table.commands`, :mod:`~companion.table.games`,
:mod:`~companion.table.seats`, :mod:`~companion.table.bot_seats`) are plain objects built
with a context and the other parts they call; the :class:`~companion.table.table.Table` is
that context. A part sees only what :class:`Context` names, so what ``ctx.x`` is can be read
here, not in five other files.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from companion.store import Statements, Store
from companion.store.documents import TableSettings
from companion.table.model import Game, Outcome, Seat

Subscriber = Callable[[Any, Outcome], None]  # (the table, one committed outcome)
Reply = Callable[[Outcome], Any]


class Context(Protocol):
    """The table as its parts see it. Each change is computed first, committed with
    :meth:`commit` (one transaction), applied to these attributes, and only then published
    with :meth:`publish`; all under :attr:`lock` (DESIGN.md "Server")."""

    name: str
    join_secret: str
    store: Store
    lock: threading.RLock
    settings: TableSettings
    seats: list[Seat]
    game: Game | None
    stage: Any  # the show (companion.table.stage), if the table has one

    def playing(self) -> bool:
        """A game is running (not over, not ended)."""
        ...

    def running(self) -> bool:
        """A game is running to the people at the table: played, or over in the store while
        the screens have not shown its end yet (DESIGN.md "The show")."""
        ...

    def seat(self, seat_id: str) -> Seat | None:
        """The seat of that id, if any."""
        ...

    def need_seat(self, seat_id: Any) -> Seat:
        """The seat of that id, or TableError ``bad_message`` naming it."""
        ...

    def commit(self, statements: Statements) -> None:
        """One transaction, or TableError ``storage_failed`` with nothing changed."""
        ...

    def publish(self, *outcomes: Outcome, reply: Reply | None = None) -> Outcome:
        """After a commit: the reply, then every outcome to every subscriber."""
        ...
