"""A table of the café, in the order data flows through it:

- :mod:`~companion.table.policy` — who may send what;
- :mod:`~companion.table.table` — validates a change, commits it, applies it, returns an
  :class:`~companion.table.model.Outcome` and tells its listeners;
- :mod:`~companion.table.frames` — renders each audience's frame from a snapshot (the only way
  out to screens).

Connections are the web layer's (``companion.web.hub``); the LED board is an observer.
"""

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
    "Table",
    "TableError",
]
