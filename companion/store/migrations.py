"""The database's schema version (``PRAGMA user_version``), its migrations, and the check that
refuses a database that cannot be read whole before anything is written to it.

``schema.sql`` is the schema of version :data:`CURRENT`. A database written by the release
before versions existed has ``user_version`` 0; each migration below takes a database from the
version before it to its own number, inside one transaction with the version bump, and then
``schema.sql`` creates whatever is still missing (its statements are all IF NOT EXISTS).

An existing café whose database cannot be read whole is refused in one sentence (README),
never taken for a new one: an empty file, a file that is not SQLite, one failing
``PRAGMA quick_check``, one missing a table or column this release needs, or one written by a
newer release.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from pathlib import Path

from companion.store.results import upgraded

CURRENT = 5

# Tables every database has had since the first release (version 0); the others were made
# by the café's outbox on its first run and may be missing from a version-0 file.
V0_TABLES = frozenset({"tables", "seats", "games", "commands"})


class DatabaseRefused(ValueError):
    """An existing database file that this release will not open; the message says why."""

    def __init__(self, path: Path, why: str) -> None:
        self.path = Path(path).resolve()
        self.why = why
        super().__init__(f"cannot use the database {self.path}: {why}")


def schema() -> str:
    """The text of ``schema.sql`` (package data).

    >>> "CREATE TABLE IF NOT EXISTS results" in schema()
    True
    """
    return files("companion.store").joinpath("schema.sql").read_text(encoding="utf-8")


def statements(script: str) -> list[str]:
    """A script's statements, one by one (to run them inside a transaction).

    >>> statements("CREATE TABLE a (x);\\n-- note; here\\nCREATE TABLE b (y);")
    ['CREATE TABLE a (x);', '-- note; here\\nCREATE TABLE b (y);']
    """
    out: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            out.append(current.strip())
            current = ""
    if current.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in current.splitlines()
    ):
        out.append(current.strip())
    return out


@cache
def expected_columns() -> dict[str, tuple[str, ...]]:
    """Every table of ``schema.sql`` and its columns, read from the schema itself.

    >>> expected_columns()["games"][-2:]
    ('ended', 'ended_by')
    """
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(schema())
        names = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {n: tuple(r[1] for r in db.execute(f"PRAGMA table_info({n})")) for n in names}
    finally:
        db.close()


def _v1(db: sqlite3.Connection) -> None:
    """Version 1: games keep when they went over (``ended``); games over before it take the
    time their result recorded, where the outbox had recorded one."""
    db.execute("ALTER TABLE games ADD COLUMN ended REAL")
    if _tables(db) >= {"results"}:
        db.execute(
            "UPDATE games SET ended = (SELECT ended FROM results WHERE game_id = games.id)"
            " WHERE status != 'playing'"
        )


def _v2(db: sqlite3.Connection) -> None:
    """Version 2: games keep their review (``reviews``, companion/cafe/reviews.py). A new
    table only: ``schema.sql`` creates it after the steps; no row changes."""


def _v3(db: sqlite3.Connection) -> None:
    """Version 3: a seat's result lists who held it in which rounds and is credited to the
    holder of most rounds (``seat_takeovers`` keeps phones that take a seat over, a new
    table). Stored results are rewritten in that shape from their game's log where it is
    still kept (store/results.py ``upgraded``, no engine replay: R2.2's harvest starts each
    round); their scores stay as recorded."""
    if "results" not in _tables(db):
        return
    rows = db.execute("SELECT game_id, result FROM results").fetchall()
    for game_id, text in rows:
        result = json.loads(text)
        game = db.execute("SELECT seats FROM games WHERE id = ?", (game_id,)).fetchone()
        logged = [
            (n, json.loads(c), source)
            for n, c, source in db.execute(
                "SELECT n, command, source FROM commands WHERE game_id = ? AND undone = 0"
                " ORDER BY n",
                (game_id,),
            )
        ]
        try:
            new = upgraded(result, json.loads(game[0]) if game else None, logged)
        except (KeyError, TypeError, ValueError):
            continue  # a document this release cannot read stays as it was
        if new is not result:
            db.execute(
                "UPDATE results SET result = ? WHERE game_id = ?", (json.dumps(new), game_id)
            )


REVIEWS_SINCE = "reviews_since"  # cafe_meta: games over from then on are reviewed unasked


def _v4(db: sqlite3.Connection) -> None:
    """Version 4: the review queue (``review_queue``, made by ``schema.sql``) survives
    restarts. Which games it takes by itself (``cafe_meta`` ``reviews_since``): in a café
    that already reviewed games (version 2 or 3), every game over without its review since the
    first one reviewed (a restart lost them), all of them when none was; in an older café
    none of its old games (a café made now sets it at its first start)."""
    db.execute("CREATE TABLE IF NOT EXISTS cafe_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    if "reviews" in _tables(db):
        first = db.execute(
            "SELECT MIN(g.ended) FROM reviews r JOIN games g ON g.id = r.game_id"
        ).fetchone()[0]
        since = float(first) if first is not None else 0.0
    else:
        since = time.time()
    db.execute("INSERT OR IGNORE INTO cafe_meta VALUES (?, ?)", (REVIEWS_SINCE, repr(since)))


def _v5(db: sqlite3.Connection) -> None:
    """Version 5: a game ended early keeps who ended it (``games.ended_by``: "host" or
    "cafe"), so that after a restart the screens still say the café closed it. Games ended
    before keep NULL: nobody knows, and they are named as before (the host)."""
    db.execute("ALTER TABLE games ADD COLUMN ended_by TEXT")


# Version -> the step that takes a database of the version before to it.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _v1,
    2: _v2,
    3: _v3,
    4: _v4,
    5: _v5,
}
# Version -> columns its migration adds to tables that existed before it.
ADDED_COLUMNS: dict[int, dict[str, set[str]]] = {
    1: {"games": {"ended"}},
    5: {"games": {"ended_by"}},
}
# Version -> tables that came with it (a database of an earlier version may lack them).
ADDED_TABLES: dict[int, set[str]] = {2: {"reviews"}, 3: {"seat_takeovers"}, 4: {"review_queue"}}


def _tables(db: sqlite3.Connection) -> set[str]:
    return {
        r[0]
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    }


def check_file(path: Path) -> None:
    """Refuse (:class:`DatabaseRefused`) an existing database file that cannot be read whole
    or that this release does not know. Reads only: the file is left byte for byte as it was.
    A path with no file is a new café and passes; one that is not a regular file is left to
    SQLite's own error."""
    path = Path(path)
    if not path.is_file():
        return
    if path.stat().st_size == 0:
        raise DatabaseRefused(
            path, "the file is empty (0 bytes), so the café's tables and history are gone"
        )
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        raise DatabaseRefused(path, f"the file cannot be opened ({exc})") from None
    try:
        db.execute("PRAGMA query_only = ON")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            found = _tables(db)
        except sqlite3.DatabaseError as exc:
            if "not a database" in str(exc):
                raise DatabaseRefused(
                    path, "the file is not a SQLite database (damaged or replaced)"
                ) from None
            raise DatabaseRefused(path, f"the file cannot be read ({exc})") from None
        if version > CURRENT:
            raise DatabaseRefused(
                path,
                f"it was written by a newer release (schema version {version}; this release "
                f"knows up to {CURRENT}), so run that release or a newer one",
            )
        try:
            problems = [r[0] for r in db.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:
            raise DatabaseRefused(path, f"the database file is damaged ({exc})") from None
        if problems != ["ok"]:
            raise DatabaseRefused(path, f"the database file is damaged ({_first(problems)})")
        _check_tables(db, path, version, found)
    finally:
        db.close()


def _first(problems: list[str]) -> str:
    """The first problem quick_check found, on one line (the refusal is one sentence).

    >>> _first(["*** in database main ***\\nOn tree page 13 cell 0: Offset out of range", "x"])
    'quick_check: On tree page 13 cell 0: Offset out of range'
    """
    text = " ".join(problems[0].replace("*** in database main ***", " ").split())
    return f"quick_check: {text[:160]}"


def _check_tables(db: sqlite3.Connection, path: Path, version: int, found: set[str]) -> None:
    """Every table this version must have is there with its columns, and can be read."""
    expected = expected_columns()
    required = set(expected) if version >= 1 else set(V0_TABLES)
    for v, tables in ADDED_TABLES.items():
        if v > version:
            required -= tables
    missing = sorted(required - found)
    if missing:
        raise DatabaseRefused(path, f"the table {missing[0]} is missing")
    later: dict[str, set[str]] = {}
    for v, added in ADDED_COLUMNS.items():
        if v > version:
            for table, cols in added.items():
                later.setdefault(table, set()).update(cols)
    for table in sorted(found & set(expected)):
        try:
            have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
            db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()
        except sqlite3.DatabaseError as exc:
            raise DatabaseRefused(path, f"the table {table} cannot be read ({exc})") from None
        lacking = [c for c in expected[table] if c not in have and c not in later.get(table, ())]
        if lacking:
            raise DatabaseRefused(
                path, f"the table {table} is malformed (no column {', '.join(lacking)})"
            )


def migrate(db: sqlite3.Connection) -> int:
    """Bring an open (checked) database to :data:`CURRENT` in one transaction; a new one gets
    the whole schema. Returns the version it was at."""
    version: int = db.execute("PRAGMA user_version").fetchone()[0]
    if version == CURRENT:
        return version
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]  # another process's?
        if version < CURRENT:
            if _tables(db):  # an existing database: each step in turn
                for v in range(version + 1, CURRENT + 1):
                    MIGRATIONS[v](db)
            for sql in statements(schema()):
                db.execute(sql)
            db.execute(f"PRAGMA user_version = {CURRENT}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return version
