"""A table of the café, in the order data flows through it:

- :mod:`~companion.table.policy` — who may send what;
- :mod:`~companion.table.table` — the table: it owns the lock, the game and the subscribers
  and holds its parts :mod:`~companion.table.commands`, :mod:`~companion.table.games`,
  :mod:`~companion.table.seats` and :mod:`~companion.table.bot_seats`, which validate a change,
  commit it, apply it, return an :class:`~companion.table.model.Outcome` and tell the table's
  subscribers (what a part is given: :mod:`~companion.table.core`);
- :mod:`~companion.table.frames` — renders each audience's frame from a snapshot (the only way
  out to screens).

Connections are the web layer's (``companion.web.hub``); the hub, the LED board and the
companion players' driver (:mod:`~companion.table.bot_driver`) are subscribers.
"""

from companion.table.core import Subscriber
from companion.table.model import (
    DICE_MODES,
    NAME_MAX,
    SEATS_MAX,
    SEATS_MIN,
    TABLE_NAME,
    Game,
    Outcome,
    Seat,
    TableError,
)
from companion.table.table import Table

__all__ = [
    "DICE_MODES",
    "NAME_MAX",
    "SEATS_MAX",
    "SEATS_MIN",
    "TABLE_NAME",
    "Game",
    "Outcome",
    "Seat",
    "Subscriber",
    "Table",
    "TableError",
]
