"""SQLite storage for tables, seats, games and their command logs.

Nothing else writes the database. Every accepted command is appended in one transaction with
WAL journalling and ``synchronous=FULL``, so once :meth:`Store.append` returns the command
survives ``kill -9`` and a power cut; the server only acknowledges after that.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from companion.store import migrations
from companion.store.documents import GameDocument, LoggedCommand, ResultDocument, TableSettings
from companion.store.rows import (
    DeliveryRow,
    DueDelivery,
    GameSeat,
    QueuedReview,
    ResultRow,
    ReviewQueueRow,
    SeatRow,
    StoredReview,
    TableRow,
    TakeoverRow,
)

if TYPE_CHECKING:  # the review's own document type (players/review.py)
    from companion.players.review import StoredReviewDocument

# SQLite's INTEGER range: an id outside it is no row of ours (and SQLite would overflow).
MIN_ID, MAX_ID = -(2**63), 2**63 - 1
OVER = ("finished", "ended")  # a game's status once it is over
Statements = list[tuple[str, tuple[Any, ...]]]
# A command to append, ``(command, source, cmd_id)``: written as given (the engine or the
# table checked it); :meth:`Store.commands` reads it back as a LoggedCommand.
Logged = tuple[Mapping[str, object], str, str | None]
log = logging.getLogger(__name__)
T = TypeVar("T")


class DamagedRow(ValueError):
    """A stored row whose JSON cannot be read (a disk fault, a hand edit). Lists skip such a
    row and report it (:meth:`Store.damaged`); a read of that one row raises this, naming it.
    """

    def __init__(self, kind: str, key: str, why: str) -> None:
        self.kind = kind  # result, review, command, game, settings
        self.key = key  # the row's id: a game id, "game/n" for a command, a table name
        self.why = why
        super().__init__(f"{self.what} cannot be read ({why})")

    @property
    def what(self) -> str:
        """The row in words: "game 7", "command 12 of game 7", "the settings of table oak".

        >>> DamagedRow("command", "7/12", "x").what, DamagedRow("result", "7", "x").what
        ('command 12 of game 7', 'the result of game 7')
        """
        if self.kind == "command":
            game, _, n = self.key.partition("/")
            return f"command {n} of game {game}"
        if self.kind == "game":
            return f"game {self.key}"
        if self.kind == "settings":
            return f"the settings of table {self.key}"
        if self.kind == "delivery":
            return f"webhook delivery {self.key}"
        return f"the {self.kind} of game {self.key}"

    def report(self) -> dict[str, str]:
        """What the café admin is shown."""
        return {"kind": self.kind, "id": self.key, "reason": self.why}


def _loads(kind: str, key: Any, text: Any, want: type[T]) -> T:
    """A stored JSON column of type ``want`` (its items unchecked: the caller casts it to the
    document it holds), or :class:`DamagedRow` naming the row.

    >>> _loads("result", 7, '{"a": 1}', dict)
    {'a': 1}
    >>> _loads("result", 7, '{"a": ', dict)
    Traceback (most recent call last):
    ...
    companion.store.database.DamagedRow: the result of game 7 cannot be read (bad JSON: \
Expecting value at character 6)
    """
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as exc:
        msg = getattr(exc, "msg", str(exc))
        pos = getattr(exc, "pos", None)
        where = f" at character {pos}" if pos is not None else ""
        raise DamagedRow(kind, str(key), f"bad JSON: {msg}{where}") from None
    if not isinstance(value, want):
        raise DamagedRow(kind, str(key), f"not a JSON {want.__name__}")
    return value


def token_hash(token: str) -> str:
    """Seat tokens are stored hashed: a copied database file does not hand out seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class StoredCommand:
    """One row of a game's command log."""

    n: int
    command: LoggedCommand
    source: str
    cmd_id: str | None
    undone: bool
    at: float = 0.0  # when it was stored (epoch seconds)


@dataclass
class StoredGame:
    """A game row: the SCENARIO.md setup plus what the server needs to resume it."""

    id: int
    table_name: str
    status: str
    created: float
    document: GameDocument  # players, stack, profile (no commands)
    seats: list[GameSeat]  # names and colours at game start
    decks: list[list[int]]  # the dealer's shuffled improvement decks
    dice: str
    ended: float | None = None  # when it went over (final command or host's end), else None
    ended_by: str | None = None  # who ended it early ("host", "cafe"); None if not ended


class Store:
    """One SQLite file for the whole server; a lock keeps the shared connection to one thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # An existing file must be read whole before anything is written to it: a damaged
        # café is refused, never started anew (migrations.check_file).
        migrations.check_file(self.path)
        self._lock = threading.Lock()
        self._cond = threading.Condition()
        self._pending: list[_Write] = []
        self._leading = False
        self._db = sqlite3.connect(
            str(self.path), check_same_thread=False, isolation_level=None, timeout=30
        )
        self._db.row_factory = sqlite3.Row
        # Damaged rows met so far (kind, id) -> reason: each logged once, shown to the admin.
        self._damaged: dict[tuple[str, str], str] = {}
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        migrations.migrate(self._db)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- damaged rows -------------------------------------------------------------------
    def skipped(self, damage: DamagedRow) -> None:
        """Note a damaged row a list left out: logged (once) with its id, kept for the admin."""
        key = (damage.kind, damage.key)
        with self._cond:
            new = key not in self._damaged
            self._damaged[key] = damage.why
        if new:
            log.error("%s: skipped", damage)

    def damaged(self) -> list[dict[str, str]]:
        """Every damaged row met since the start (the café admin shows them)."""
        with self._cond:
            found = sorted(self._damaged.items())
        return [{"kind": k, "id": i, "reason": why} for (k, i), why in found]

    # -- transactions -------------------------------------------------------------------
    def commit(self, statements: Statements) -> None:
        """Run the statements of one change (from the ``*_stmts`` builders below) as one
        transaction; returns once durable, raises (and nothing was written) otherwise."""
        self._write(statements)

    def _write(self, statements: Statements) -> None:
        """Run statements atomically and return once they are durable.

        Group commit without a hand-off: the first writer becomes the leader and commits
        every write queued so far in one transaction, each in its own savepoint (a failing one
        is rolled back alone and raises here); writes that arrive meanwhile wait and go
        together into the next leader's transaction. Busy tables share one fsync, a lone
        write commits on its own thread at once. Nothing returns before its COMMIT has
        completed (synchronous=FULL).
        """
        job = _Write(statements)
        with self._cond:
            self._pending.append(job)
            while self._leading and not job.done.is_set():
                self._cond.wait()
            if job.done.is_set():
                jobs: list[_Write] = []
            else:
                self._leading = True
                jobs, self._pending = self._pending, []
        if jobs:
            try:
                self._commit(jobs)
            except BaseException as exc:  # whatever broke, no job of this batch is durable
                for j in jobs:
                    if not j.done.is_set():
                        j.error = j.error or exc
                raise
            finally:
                # Every job of the batch is answered and the next writer may lead, even
                # when the commit itself raised: a follower must never take silence for
                # success, nor wait for a leader that is gone.
                for j in jobs:
                    j.done.set()
                with self._cond:
                    self._leading = False
                    self._cond.notify_all()
        if job.error is not None:
            raise job.error

    def _commit(self, jobs: list[_Write]) -> None:
        with self._lock:
            cur = self._db.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE")
                for job in jobs:
                    cur.execute("SAVEPOINT job")
                    try:
                        for sql, params in job.statements:
                            cur.execute(sql, params)
                        cur.execute("RELEASE job")
                    except sqlite3.Error as exc:
                        cur.execute("ROLLBACK TO job")
                        cur.execute("RELEASE job")
                        job.error = exc
                cur.execute("COMMIT")
            except BaseException as exc:  # the whole transaction failed: nobody is durable
                for job in jobs:
                    job.error = job.error or exc
                if self._db.in_transaction:
                    try:
                        cur.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass  # the connection rolls back itself when it can

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    # -- tables -------------------------------------------------------------------------
    def table(self, name: str) -> TableRow | None:
        rows = self._read("SELECT * FROM tables WHERE name = ?", (name,))
        if not rows:
            return None
        row = rows[0]
        return TableRow(
            name=row["name"],
            join_secret=row["join_secret"],
            host_token=row["host_token"],
            # The table gives its settings their meaning (table/table.py).
            settings=cast(TableSettings, _loads("settings", name, row["settings"], dict)),
            current_game=row["current_game"],
        )

    def create_table(
        self, name: str, join_secret: str, host_token: str, settings: Mapping[str, object]
    ) -> None:
        self._write(
            [
                (
                    "INSERT INTO tables (name, join_secret, host_token, settings)"
                    " VALUES (?, ?, ?, ?)",
                    (name, join_secret, host_token, json.dumps(settings)),
                )
            ]
        )

    def settings_stmts(self, name: str, settings: Mapping[str, object]) -> Statements:
        return [("UPDATE tables SET settings = ? WHERE name = ?", (json.dumps(settings), name))]

    def join_secret_stmts(self, name: str, secret: str) -> Statements:
        return [("UPDATE tables SET join_secret = ? WHERE name = ?", (secret, name))]

    def current_game_stmts(self, name: str, game_id: int | None) -> Statements:
        return [("UPDATE tables SET current_game = ? WHERE name = ?", (game_id, name))]

    def set_current_game(self, name: str, game_id: int | None) -> None:
        self._write(self.current_game_stmts(name, game_id))

    def current_game(self, name: str) -> int:
        rows = self._read("SELECT current_game FROM tables WHERE name = ?", (name,))
        return int(rows[0]["current_game"])

    # -- seats --------------------------------------------------------------------------
    def seats(self, table_name: str) -> list[SeatRow]:
        rows = self._read(
            "SELECT * FROM seats WHERE table_name = ? ORDER BY position", (table_name,)
        )
        return [SeatRow.read(r) for r in rows]

    def seats_stmts(self, table_name: str, seats: list[SeatRow]) -> Statements:
        """Replace the table's seat list (seats change rarely: joins, releases, removals;
        one server per data directory, so nobody else's seats are overwritten)."""
        stmts: Statements = [("DELETE FROM seats WHERE table_name = ?", (table_name,))]
        for pos, s in enumerate(seats):
            stmts.append(
                (
                    "INSERT INTO seats"
                    " (table_name, seat, position, name, colour, token_hash, state)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table_name, s.seat, pos, s.name, s.colour, s.token_hash, s.state),
                )
            )
        return stmts

    # -- games --------------------------------------------------------------------------
    def create_game(
        self,
        table_name: str,
        document: Mapping[str, object],
        seats: list[GameSeat],
        decks: list[list[int]],
        dice: str,
    ) -> int:
        """Store a new game and make it the table's current one, in one transaction."""
        self._write(self.new_game_stmts(table_name, document, seats, decks, dice))
        return self.current_game(table_name)

    def new_game_stmts(
        self,
        table_name: str,
        document: Mapping[str, object],
        seats: list[GameSeat],
        decks: list[list[int]],
        dice: str,
    ) -> Statements:
        """A new game row that becomes the table's current game (its id is the table's
        ``current_game`` afterwards; commands in the same transaction refer to it so)."""
        return [
            (
                "INSERT INTO games (table_name, status, created, document, seats, decks, dice)"
                " VALUES (?, 'playing', ?, ?, ?, ?, ?)",
                (
                    table_name,
                    time.time(),
                    json.dumps(document),
                    json.dumps(seats),
                    json.dumps(decks),
                    dice,
                ),
            ),
            (
                "UPDATE tables SET current_game = (SELECT MAX(id) FROM games WHERE table_name = ?)"
                " WHERE name = ?",
                (table_name, table_name),
            ),
        ]

    def game(self, game_id: int) -> StoredGame | None:
        """The game, or None; an id outside SQLite's integer range is simply not found."""
        if not _in_range(game_id):
            return None
        rows = self._read("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    def games(self, table_name: str) -> list[StoredGame]:
        rows = self._read(
            "SELECT * FROM games WHERE table_name = ? ORDER BY id DESC", (table_name,)
        )
        return self._games_of(rows)

    def _games_of(self, rows: list[sqlite3.Row]) -> list[StoredGame]:
        """The readable games of ``rows``; a damaged one is skipped and reported."""
        found = []
        for r in rows:
            try:
                found.append(_game(r))
            except DamagedRow as damage:
                self.skipped(damage)
        return found

    def game_status_stmts(
        self, game_id: int, status: str, ended_by: str | None = None
    ) -> Statements:
        """Set the status; a game going over keeps this moment as its end (the host's "End
        game"), not when the outbox later notices it, and who ended it (``ended_by``)."""
        ended = time.time() if status in OVER else None
        return [
            (
                "UPDATE games SET status = ?, ended = ?, ended_by = ? WHERE id = ?",
                (status, ended, ended_by if status == "ended" else None, game_id),
            )
        ]

    def game_dice_stmts(self, game_id: int, dice: str) -> Statements:
        return [("UPDATE games SET dice = ? WHERE id = ?", (dice, game_id))]

    def set_game_status(self, game_id: int, status: str, ended_by: str | None = None) -> None:
        self._write(self.game_status_stmts(game_id, status, ended_by))

    # -- commands -----------------------------------------------------------------------
    def append(
        self,
        game_id: int,
        first_n: int,
        rows: Sequence[Logged],
        status: str | None = None,
    ) -> None:
        """Append commands ``(command, source, cmd_id)`` numbered from ``first_n`` in one
        transaction, optionally setting the game's status (finished) in the same one."""
        self._write(self.append_stmts(game_id, first_n, rows, status))

    def append_stmts(
        self,
        game_id: int | None,
        first_n: int,
        rows: Sequence[Logged],
        status: str | None = None,
        table_name: str | None = None,
    ) -> Statements:
        """``game_id`` None: the table's current game (one made in the same transaction)."""
        now = time.time()
        if game_id is None:
            gid: tuple[str, tuple[Any, ...]] = (
                "(SELECT current_game FROM tables WHERE name = ?)",
                (table_name,),
            )
        else:
            gid = ("?", (game_id,))
        stmts: Statements = [
            (
                f"INSERT INTO commands (game_id, n, command, source, cmd_id, at)"
                f" VALUES ({gid[0]}, ?, ?, ?, ?, ?)",
                (*gid[1], first_n + i, json.dumps(cmd), source, cmd_id, now),
            )
            for i, (cmd, source, cmd_id) in enumerate(rows)
        ]
        if status is not None:
            # The final command's time is the game's end (stored with it, in one transaction).
            ended = now if status in OVER else None
            stmts.append(
                (
                    f"UPDATE games SET status = ?, ended = ? WHERE id = {gid[0]}",
                    (status, ended, *gid[1]),
                )
            )
        return stmts

    def commands(self, game_id: int, include_undone: bool = False) -> list[StoredCommand]:
        if not _in_range(game_id):
            return []
        sql = "SELECT * FROM commands WHERE game_id = ?"
        if not include_undone:
            sql += " AND undone = 0"
        rows = self._read(sql + " ORDER BY n", (game_id,))
        # One unreadable command makes the whole log unreadable (the rest would replay
        # wrongly): DamagedRow names it.
        return [
            StoredCommand(
                r["n"],
                _command(game_id, r["n"], r["command"]),
                r["source"],
                r["cmd_id"],
                bool(r["undone"]),
                r["at"],
            )
            for r in rows
        ]

    def next_n(self, game_id: int) -> int:
        rows = self._read(
            "SELECT COALESCE(MAX(n), -1) + 1 AS n FROM commands WHERE game_id = ?", (game_id,)
        )
        return int(rows[0]["n"])

    def find_cmd(self, game_id: int, source: str, cmd_id: str) -> StoredCommand | None:
        rows = self._read(
            "SELECT * FROM commands WHERE game_id = ? AND source = ? AND cmd_id = ?",
            (game_id, source, cmd_id),
        )
        if not rows:
            return None
        r = rows[0]
        return StoredCommand(
            r["n"],
            _command(game_id, r["n"], r["command"]),
            r["source"],
            r["cmd_id"],
            bool(r["undone"]),
        )

    def undone_stmts(self, game_id: int, n: int) -> Statements:
        return [("UPDATE commands SET undone = 1 WHERE game_id = ? AND n = ?", (game_id, n))]

    # -- seats changing hands during a game ------------------------------------------------
    def takeover_stmts(self, game_id: int, seat: str, n: int, name: str, colour: str) -> Statements:
        """A phone takes ``seat`` over from command ``n`` on, as ``name`` in ``colour``
        (committed with the seat list it changes)."""
        return [
            (
                "INSERT INTO seat_takeovers (game_id, seat, n, name, colour, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, n, name, colour, time.time()),
            )
        ]

    def takeovers(self, game_id: int) -> list[TakeoverRow]:
        """The phones that took the game's seats over, in order."""
        if not _in_range(game_id):
            return []
        rows = self._read(
            "SELECT seat, n, name, colour FROM seat_takeovers WHERE game_id = ? ORDER BY n, rowid",
            (game_id,),
        )
        return [TakeoverRow(r["seat"], r["n"], r["name"], r["colour"]) for r in rows]

    # -- retention ----------------------------------------------------------------------
    def delete_games(self, game_ids: list[int]) -> list[int]:
        """Delete games that are over (with their commands), in one transaction; a table's
        current game is never deleted. Returns the ids deleted."""
        if not game_ids:
            return []
        marks = ",".join("?" * len(game_ids))
        rows = self._read(
            f"SELECT id FROM games WHERE id IN ({marks}) AND status != 'playing' AND id NOT IN"
            " (SELECT current_game FROM tables WHERE current_game IS NOT NULL)",
            tuple(game_ids),
        )
        ids = [int(r["id"]) for r in rows]
        stmts: list[tuple[str, tuple[Any, ...]]] = []
        for gid in ids:
            stmts.append(("DELETE FROM commands WHERE game_id = ?", (gid,)))
            stmts.append(("DELETE FROM reviews WHERE game_id = ?", (gid,)))
            stmts.append(("DELETE FROM seat_takeovers WHERE game_id = ?", (gid,)))
            stmts.append(("DELETE FROM review_queue WHERE game_id = ?", (gid,)))
            stmts.append(("DELETE FROM games WHERE id = ?", (gid,)))
        if stmts:
            self._write(stmts)
        return ids

    def last_command_at(self, game_id: int) -> float | None:
        """When the game's latest command was stored (None: none yet, or no such game).
        For the café admin's "seconds since the last command"."""
        if not _in_range(game_id):
            return None
        rows = self._read("SELECT MAX(at) AS at FROM commands WHERE game_id = ?", (game_id,))
        return rows[0]["at"] if rows else None

    def finished_game(self, game_id: int) -> StoredGame | None:
        """A game that is over, or None: no such game (any id, however large), or one still
        running (its log would give away unrevealed bids and sacrifices)."""
        stored = self.game(game_id)
        return stored if stored is not None and stored.status != "playing" else None

    # -- café values --------------------------------------------------------------------
    def meta_setdefault(self, key: str, value: str) -> str:
        """The café value under ``key``, stored as ``value`` if it had none."""
        self._write([("INSERT OR IGNORE INTO cafe_meta VALUES (?, ?)", (key, value))])
        return str(self._read("SELECT value FROM cafe_meta WHERE key = ?", (key,))[0]["value"])

    def admin_token(self) -> str:
        """The café admin token, made on the first start and kept in the database."""
        return self.meta_setdefault("admin_token", secrets.token_urlsafe(24))

    # -- results and webhook deliveries (companion.cafe.outbox) --------------------------
    def games_over_unrecorded(self) -> list[StoredGame]:
        """Games that are over and have no result yet, oldest first."""
        rows = self._read(
            "SELECT * FROM games WHERE status IN ('finished', 'ended') AND id NOT IN "
            "(SELECT game_id FROM results) ORDER BY id"
        )
        return self._games_of(rows)

    def record_result(
        self, game: StoredGame, ended: float, result: ResultDocument, urls: list[str], now: float
    ) -> None:
        """Store a game's result and queue one delivery per URL, in one transaction; a game
        recorded before keeps its first result (deliveries are queued only for the result
        stored here)."""
        document = json.dumps(result)
        stmts: Statements = [
            (
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?)",
                (game.id, game.table_name, game.status, game.created, ended, document),
            )
        ]
        for url in urls:
            stmts.append(
                (
                    # Only when the stored result is this one (not an earlier record's).
                    "INSERT OR IGNORE INTO outbox (game_id, url, state, next_at)"
                    " SELECT ?, ?, 'pending', ?"
                    " WHERE (SELECT result FROM results WHERE game_id = ?) = ?",
                    (game.id, url, now, game.id, document),
                )
            )
        self._write(stmts)

    def result(self, game_id: int) -> ResultDocument | None:
        if not _in_range(game_id):
            return None
        rows = self._read("SELECT result FROM results WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        # Checked as the history's reads check it: a damaged row is named, never half-read.
        return _result(game_id, rows[0]["result"])

    def results_of(self, table: str, limit: int = 50) -> list[ResultRow]:
        """The table's latest results (newest first), without the documents."""
        rows = self._read(
            "SELECT game_id, status, started, ended FROM results WHERE table_name = ?"
            " ORDER BY ended DESC LIMIT ?",
            (table, limit),
        )
        return [ResultRow(r["game_id"], r["status"], r["started"], r["ended"]) for r in rows]

    def history(
        self,
        since: float | None = None,
        until: float | None = None,
        table: str | None = None,
        limit: int = 1000,
    ) -> list[ResultDocument]:
        """Result documents of games that ended in ``[since, until)``, newest first; a
        damaged one is left out (:meth:`history_read` says which)."""
        return self.history_read(since, until, table, limit)[0]

    def history_read(
        self,
        since: float | None = None,
        until: float | None = None,
        table: str | None = None,
        limit: int = 1000,
    ) -> tuple[list[ResultDocument], list[DamagedRow]]:
        """:meth:`history` and the damaged rows it left out (each also logged once)."""
        sql = "SELECT game_id, result FROM results WHERE 1"
        params: list[Any] = []
        if since is not None:
            sql += " AND ended >= ?"
            params.append(since)
        if until is not None:
            sql += " AND ended < ?"
            params.append(until)
        if table is not None:
            sql += " AND table_name = ?"
            params.append(table)
        rows = self._read(sql + " ORDER BY ended DESC, game_id DESC LIMIT ?", (*params, limit))
        found: list[ResultDocument] = []
        skipped: list[DamagedRow] = []
        for r in rows:
            try:
                found.append(_result(r["game_id"], r["result"]))
            except DamagedRow as damage:
                self.skipped(damage)
                skipped.append(damage)
        return found, skipped

    def results_before(self, cutoff: float) -> list[int]:
        """Games whose result ended before ``cutoff`` and that have no delivery pending."""
        rows = self._read(
            "SELECT game_id FROM results WHERE ended < ? AND game_id NOT IN"
            " (SELECT game_id FROM outbox WHERE state = 'pending')",
            (cutoff,),
        )
        return [int(r["game_id"]) for r in rows]

    def delete_results(self, game_ids: list[int]) -> None:
        """Forget these games' results and deliveries, in one transaction."""
        stmts: Statements = []
        for gid in game_ids:
            stmts.append(("DELETE FROM outbox WHERE game_id = ?", (gid,)))
            stmts.append(("DELETE FROM results WHERE game_id = ?", (gid,)))
        if stmts:
            self._write(stmts)

    def deliveries(self, game_id: int) -> list[DeliveryRow]:
        """Every delivery row of a game's result, in the order they were queued."""
        if not _in_range(game_id):
            return []
        return [
            DeliveryRow.read(r)
            for r in self._read("SELECT * FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
        ]

    def _unsendable(self) -> str:
        """The deliveries left out so far (JSON: outbox ids, and game ids of damaged results),
        for the queries below: a damaged row is not picked again and again, and never keeps a
        courier busy or the rows behind it waiting."""
        with self._cond:
            keys = list(self._damaged)
        ids = [int(k) for kind, k in keys if kind == "delivery"]
        games = [int(k) for kind, k in keys if kind == "result" and k.lstrip("-").isdigit()]
        return json.dumps({"ids": ids, "games": games})

    _NOT_LEFT_OUT = (
        " AND o.id NOT IN (SELECT value FROM json_each(?, '$.ids'))"
        " AND o.game_id NOT IN (SELECT value FROM json_each(?, '$.games'))"
    )

    def due_deliveries(
        self, now: float, url: str | None = None, limit: int = 50
    ) -> list[DueDelivery]:
        """Pending deliveries due by ``now`` (to ``url`` only, when given) with their result
        document and its end. A delivery or result that cannot be read is left out and
        reported (:meth:`skipped`: logged once with its id, listed by :meth:`damaged`); the
        row itself is left as it is."""
        left_out = self._unsendable()
        rows = self._read(
            "SELECT o.id, o.game_id, o.url, o.attempts, r.result, r.ended"
            " FROM outbox o JOIN results r USING (game_id)"
            " WHERE o.state = 'pending' AND o.next_at <= ? AND (? IS NULL OR o.url = ?)"
            + self._NOT_LEFT_OUT
            + " ORDER BY o.next_at LIMIT ?",
            (now, url, url, left_out, left_out, limit),
        )
        found = []
        for r in rows:
            try:
                found.append(_due_delivery(r))
            except DamagedRow as damage:
                self.skipped(damage)
        return found

    def delivery_delivered(self, delivery_id: int, attempts: int, now: float) -> None:
        self._write(
            [
                (
                    "UPDATE outbox SET state = 'delivered', attempts = ?, delivered_at = ?,"
                    " last_error = NULL WHERE id = ?",
                    (attempts, now, delivery_id),
                )
            ]
        )

    def delivery_failed(self, delivery_id: int, attempts: int, error: str) -> None:
        self._write(
            [
                (
                    "UPDATE outbox SET state = 'failed', attempts = ?, last_error = ? WHERE id = ?",
                    (attempts, error, delivery_id),
                )
            ]
        )

    def delivery_retry(self, delivery_id: int, attempts: int, error: str, next_at: float) -> None:
        self._write(
            [
                (
                    "UPDATE outbox SET attempts = ?, last_error = ?, next_at = ? WHERE id = ?",
                    (attempts, error, next_at, delivery_id),
                )
            ]
        )

    def next_due_by_url(self) -> dict[str, float]:
        """For each URL with pending deliveries, when its earliest one is due."""
        left_out = self._unsendable()
        rows = self._read(
            "SELECT o.url, MIN(o.next_at) AS t FROM outbox o WHERE o.state = 'pending'"
            + self._NOT_LEFT_OUT
            + " GROUP BY o.url",
            (left_out, left_out),
        )
        return {r["url"]: r["t"] for r in rows if isinstance(r["t"], (int, float))}

    # -- reviews (companion.cafe.reviews) ------------------------------------------------
    def save_review(self, game_id: int, seed: int, document: Mapping[str, object]) -> None:
        """Keep a game's review (players/review.py's document); a second one replaces it. The
        game leaves the review queue in the same transaction."""
        self._write(
            [
                (
                    "INSERT OR REPLACE INTO reviews (game_id, seed, created, document)"
                    " VALUES (?, ?, ?, ?)",
                    (game_id, seed, time.time(), json.dumps(document)),
                ),
                ("DELETE FROM review_queue WHERE game_id = ?", (game_id,)),
            ]
        )

    def queue_reviews(self, since: float) -> None:
        """Queue every game that went over at or after ``since`` and has neither a review
        nor a place in the queue (a game over while the server was down or busy)."""
        self._write(
            [
                (
                    "INSERT OR IGNORE INTO review_queue (game_id, queued)"
                    " SELECT id, ? FROM games WHERE status IN ('finished', 'ended')"
                    " AND ended >= ? AND id NOT IN (SELECT game_id FROM reviews)",
                    (time.time(), since),
                )
            ]
        )

    def queue_review(self, game_id: int) -> None:
        """Queue one game (asked for by the café admin): a failed one gets its tries back."""
        self._write(
            [
                (
                    "INSERT INTO review_queue (game_id, queued) VALUES (?, ?) ON CONFLICT"
                    " (game_id) DO UPDATE SET attempts = 0, last_error = NULL",
                    (game_id, time.time()),
                )
            ]
        )

    def unqueue_review(self, game_id: int) -> None:
        """Take a game that has its review out of the queue."""
        self._write([("DELETE FROM review_queue WHERE game_id = ?", (game_id,))])

    def next_review(self, tries: int) -> int | None:
        """The oldest queued game with fewer than ``tries`` failed reviews, or None."""
        rows = self._read(
            "SELECT game_id FROM review_queue WHERE attempts < ? ORDER BY game_id LIMIT 1",
            (tries,),
        )
        return int(rows[0]["game_id"]) if rows else None

    def review_failed(self, game_id: int, error: str) -> None:
        """One more failed try of a queued game's review, and why."""
        self._write(
            [
                (
                    "UPDATE review_queue SET attempts = attempts + 1, last_error = ?"
                    " WHERE game_id = ?",
                    (error[:500], game_id),
                )
            ]
        )

    def review_queued(self, game_id: int) -> QueuedReview | None:
        """A queued game's place (tries, last error, games before it), or None when it is
        not queued."""
        if not _in_range(game_id):
            return None
        rows = self._read(
            "SELECT attempts, last_error, (SELECT COUNT(*) FROM review_queue q"
            " WHERE q.game_id < r.game_id) AS ahead FROM review_queue r WHERE game_id = ?",
            (game_id,),
        )
        if not rows:
            return None
        r = rows[0]
        return QueuedReview(r["attempts"], r["last_error"], r["ahead"])

    def review_queue(self) -> list[ReviewQueueRow]:
        """Every queued game in order."""
        return [
            ReviewQueueRow(r["game_id"], r["queued"], r["attempts"], r["last_error"])
            for r in self._read("SELECT * FROM review_queue ORDER BY game_id")
        ]

    def review(self, game_id: int) -> StoredReview | None:
        """A game's stored review, or None."""
        if not _in_range(game_id):
            return None
        rows = self._read("SELECT * FROM reviews WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        r = rows[0]
        return StoredReview(
            game_id=r["game_id"],
            seed=r["seed"],
            created=r["created"],
            # The document as the reviewer stored it (cafe/reviews.py), or by an older method.
            document=cast("StoredReviewDocument", _loads("review", game_id, r["document"], dict)),
        )

    def reviewed(self, game_ids: list[int]) -> set[int]:
        """Which of these games have a stored review."""
        ids = [g for g in game_ids if _in_range(g)]
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        rows = self._read(f"SELECT game_id FROM reviews WHERE game_id IN ({marks})", tuple(ids))
        return {int(r["game_id"]) for r in rows}


class _Write:
    """Statements waiting for the committer, and how their commit went."""

    def __init__(self, statements: Statements) -> None:
        self.statements = statements
        self.done = threading.Event()
        self.error: BaseException | None = None


# What the history, the leaderboard and the CSV read of every result (cafe/history.py).
RESULT_KEYS = ("game_id", "status", "players", "table", "started_at", "ended_at")
PLAYER_KEYS = ("seat", "name", "score", "winner")


def _due_delivery(row: sqlite3.Row) -> DueDelivery:
    """A due outbox row with its result, or :class:`DamagedRow` naming the one that cannot be
    read (the result's, or the delivery's own columns)."""
    result = _result(row["game_id"], row["result"])
    key = result.get("idempotency_key")
    if not isinstance(key, str) or not key:
        raise DamagedRow("result", str(row["game_id"]), "no idempotency_key in it")
    attempts, ended = row["attempts"], row["ended"]
    if not isinstance(attempts, int) or attempts < 0:
        raise DamagedRow("delivery", str(row["id"]), f"attempts is {attempts!r}")
    if not isinstance(ended, (int, float)):
        raise DamagedRow("result", str(row["game_id"]), f"its end is {ended!r}")
    if not isinstance(row["url"], str):
        raise DamagedRow("delivery", str(row["id"]), "its URL is not text")
    return DueDelivery(row["id"], row["game_id"], row["url"], attempts, float(ended), result)


def _result(game_id: int, text: str) -> ResultDocument:
    """A stored result document, or :class:`DamagedRow` when it is not one."""
    doc = _loads("result", game_id, text, dict)
    lacking = [k for k in RESULT_KEYS if k not in doc]
    if lacking:
        raise DamagedRow("result", str(game_id), f"no {lacking[0]} in it")
    players = doc["players"]
    if not isinstance(players, list) or not all(
        isinstance(p, dict) and all(k in p for k in PLAYER_KEYS) for p in players
    ):
        raise DamagedRow("result", str(game_id), "its players cannot be read")
    return cast(ResultDocument, doc)


def _command(game_id: int, n: int, text: str) -> LoggedCommand:
    """A stored command (accepted by the engine, or the table's own, when it was logged)."""
    return cast(LoggedCommand, _loads("command", f"{game_id}/{n}", text, dict))


def _game(row: sqlite3.Row) -> StoredGame:
    gid = row["id"]
    return StoredGame(
        id=gid,
        table_name=row["table_name"],
        status=row["status"],
        created=row["created"],
        document=cast(GameDocument, _loads("game", gid, row["document"], dict)),
        seats=cast(list[GameSeat], _loads("game", gid, row["seats"], list)),
        decks=cast(list[list[int]], _loads("game", gid, row["decks"], list)),
        dice=row["dice"],
        ended=row["ended"],
        ended_by=row["ended_by"],
    )


def _in_range(game_id: int) -> bool:
    """Whether SQLite can hold this id (a URL may carry any number of digits).

    >>> _in_range(7), _in_range(99999999999999999999999)
    (True, False)
    """
    return MIN_ID <= game_id <= MAX_ID
