"""The rows the store reads and writes, as typed records (schema.sql names the columns).

A reader gets attributes the type checker knows instead of ``sqlite3.Row`` or a dict whose
keys only the SQL says; a JSON column is a document of its own (a game's setup, a result, a
review) and stays the plain JSON it was written as, typed where the store knows its shape
(documents.py). Frozen: a row read is a fact about the file, changed only by writing a new one.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from companion.store.documents import ResultDocument, TableSettings

if TYPE_CHECKING:  # the review's own document type (players/review.py)
    from companion.players.review import StoredReviewDocument


class GameSeat(TypedDict):
    """A seat as the game started with it (the ``games.seats`` JSON column): the seat id,
    its player's name and colour."""

    seat: str
    name: str
    colour: str


@dataclass(frozen=True)
class TableRow:
    """A table: its join secret and host token, its settings (JSON) and the game it shows."""

    name: str
    join_secret: str
    host_token: str
    settings: TableSettings  # the table's settings document (table/ owns its meaning)
    current_game: int | None


@dataclass(frozen=True)
class SeatRow:
    """A seat of a table, in seat order. ``state`` is one string: ``phone``, ``auto`` or
    ``bot:<level>`` (table/model.py ``Seat``); the token is kept hashed."""

    seat: str
    name: str
    colour: str
    token_hash: str | None
    state: str

    @classmethod
    def read(cls, r: sqlite3.Row) -> SeatRow:
        return cls(r["seat"], r["name"], r["colour"], r["token_hash"], r["state"])


@dataclass(frozen=True)
class TakeoverRow:
    """A phone took ``seat`` over from command ``n`` on, as ``name`` in ``colour``."""

    seat: str
    n: int
    name: str
    colour: str


@dataclass(frozen=True)
class ResultRow:
    """A recorded result without its document: when the game started and ended."""

    game_id: int
    status: str
    started: float
    ended: float


@dataclass(frozen=True)
class DeliveryRow:
    """One webhook delivery of a result: ``state`` pending, delivered or failed."""

    id: int
    game_id: int
    url: str
    state: str
    attempts: int
    next_at: float
    last_error: str | None
    delivered_at: float | None

    @classmethod
    def read(cls, r: sqlite3.Row) -> DeliveryRow:
        return cls(
            r["id"],
            r["game_id"],
            r["url"],
            r["state"],
            r["attempts"],
            r["next_at"],
            r["last_error"],
            r["delivered_at"],
        )


@dataclass(frozen=True)
class DueDelivery:
    """A webhook delivery that is due, read whole: its result document parsed and checked
    (a row that cannot be read is left out and named, never sent half)."""

    id: int
    game_id: int
    url: str
    attempts: int
    ended: float
    result: ResultDocument


@dataclass(frozen=True)
class QueuedReview:
    """A game's place in the review queue: failed tries, the last error, games before it."""

    attempts: int
    last_error: str | None
    ahead: int


@dataclass(frozen=True)
class ReviewQueueRow:
    """A game waiting for its review, since ``queued``."""

    game_id: int
    queued: float
    attempts: int
    last_error: str | None


@dataclass(frozen=True)
class StoredReview:
    """A game's stored review: the seed its search ran with and the review document
    (players/review.py)."""

    game_id: int
    seed: int
    created: float
    document: StoredReviewDocument
