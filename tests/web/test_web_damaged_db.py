"""An existing café whose database cannot be read whole is refused in one sentence (README),
never taken for a new café: ``companion serve`` exits with 2, names the file and what is
wrong, and leaves the file byte for byte as it was. Each kind of damage is made on a real
database written by the server's own store."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from live_server import free_port, serve_once

from companion.cafe.outbox import Outbox
from companion.players.random_games import random_document
from companion.store import Store
from companion.store.rows import SeatRow


def real_cafe(data: Path) -> Path:
    """A database with a table, seats, a finished game with its result."""
    import random

    data.mkdir(parents=True)
    path = data / "companion.sqlite3"
    store = Store(path)
    store.create_table("1", "j", "h", {"dice": "digital"})
    doc = random_document(random.Random(3), 3)
    seats = [{"seat": p, "name": p.title(), "colour": "sky"} for p in doc["players"]]
    store.commit(
        store.seats_stmts("1", [SeatRow(**s, token_hash=None, state="phone") for s in seats])
    )
    gid = store.create_game(
        "1", {"players": doc["players"], "stack": doc["stack"]}, seats, [[], []], "digital"
    )
    store.append(gid, 0, [(c, "host", None) for c in doc["commands"]], "finished")
    store.set_current_game("1", None)
    outbox = Outbox(path)
    assert outbox.reconcile() == 1
    outbox.close()
    store.close()
    assert not Path(f"{path}-wal").exists()
    return path


def damage(path: Path, kind: str) -> None:
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "not_sqlite":
        path.write_bytes(os.urandom(16384))
    elif kind in ("missing_table", "malformed_table", "newer_version"):
        db = sqlite3.connect(path, isolation_level=None)
        if kind == "missing_table":
            db.execute("DROP TABLE results")
        elif kind == "malformed_table":
            # The results table replaced by one without its documents.
            db.execute("ALTER TABLE results DROP COLUMN result")
        else:
            db.execute("PRAGMA user_version = 99")
        db.execute("PRAGMA journal_mode = DELETE")
        db.close()
    elif kind == "damaged_pages":
        # Garbage over the results table's page: SQLite opens the file, quick_check fails.
        db = sqlite3.connect(path)
        page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'results'").fetchone()
        size = db.execute("PRAGMA page_size").fetchone()[0]
        db.close()
        with path.open("r+b") as fh:
            fh.seek((page[0] - 1) * size + 8)
            fh.write(b"\xa5" * 64)
    else:
        raise AssertionError(kind)


WHAT = {
    "empty": "the file is empty (0 bytes)",
    "not_sqlite": "not a SQLite database",
    "damaged_pages": "the database file is damaged",
    "missing_table": "the table results is missing",
    "malformed_table": "the table results is malformed (no column result)",
    "newer_version": "written by a newer release (schema version 99",
}


@pytest.mark.parametrize("kind", list(WHAT))
def test_a_damaged_database_is_refused_in_one_sentence_and_left_alone(
    tmp_path: Path, kind: str
) -> None:
    data = tmp_path / "data"
    path = real_cafe(data)
    damage(path, kind)
    before = path.read_bytes()
    run = serve_once(data, free_port())
    assert run.returncode == 2, run
    assert "Traceback" not in run.stderr and run.stdout == "", run
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion serve: "), run.stderr
    assert f"cannot use the database {path.resolve()}: " in lines[0], lines[0]
    assert WHAT[kind] in lines[0], lines[0]
    assert path.read_bytes() == before, "the refused database was written to"
    # Refusing again says the same: nothing was made of it meanwhile.
    again = serve_once(data, free_port())
    assert again.returncode == 2 and again.stderr == run.stderr
    assert path.read_bytes() == before


def test_only_a_missing_database_starts_a_new_cafe(tmp_path: Path) -> None:
    """Where no file existed a fresh café is made at the current schema version (the first
    start of every other server test); the check leaves a healthy database to open."""
    path = real_cafe(tmp_path / "data")
    store = Store(path)
    try:
        assert [g.status for g in store.games("1")] == ["finished"]
    finally:
        store.close()


def cafe_mid_game(data: Path) -> tuple[Path, int]:
    """:func:`real_cafe` with a second game under way at table 1 (its current game)."""
    import random

    path = real_cafe(data)
    store = Store(path)
    try:
        doc = random_document(random.Random(4), 3)
        seats = [{"seat": p, "name": p.title(), "colour": "sky"} for p in doc["players"]]
        gid = store.create_game(
            "1", {"players": doc["players"], "stack": doc["stack"]}, seats, [[], []], "digital"
        )
        store.append(gid, 0, [(c, "host", None) for c in doc["commands"][:4]])
    finally:
        store.close()
    return path, gid


# Damage in a JSON column the start reads: table 1's settings, its current game's document
# and its current game's commands. Each is one sentence naming the row, and exit 2.
JSON_DAMAGE = {
    "settings": (
        "UPDATE tables SET settings = '{{\"dice\": ' WHERE name = '1'",
        "the settings of table 1 cannot be read (bad JSON",
    ),
    "game_document": (
        "UPDATE games SET document = 'players: ana' WHERE id = {gid}",
        "game {gid} cannot be read (bad JSON",
    ),
    "game_seats": (
        "UPDATE games SET seats = '{{}}' WHERE id = {gid}",
        "game {gid} cannot be read (not a JSON list)",
    ),
    "game_command": (
        'UPDATE commands SET command = \'{{"type": "sacri\' WHERE game_id = {gid} AND n = 2',
        "command 2 of game {gid} cannot be read (bad JSON",
    ),
}


@pytest.mark.parametrize("kind", list(JSON_DAMAGE))
def test_a_damaged_setting_or_current_game_is_refused_in_one_sentence(
    tmp_path: Path, kind: str
) -> None:
    data = tmp_path / "data"
    path, gid = cafe_mid_game(data)
    sql, what = JSON_DAMAGE[kind]
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(sql.format(gid=gid))
    db.close()
    before = rows_of(path)
    run = serve_once(data, free_port())
    assert run.returncode == 2, run
    assert "Traceback" not in run.stderr and run.stdout == "", run
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion serve: "), run.stderr
    assert f"cannot use the database {path.resolve()}: " in lines[0], lines[0]
    assert what.format(gid=gid) in lines[0], lines[0]
    assert rows_of(path) == before, "the refused database was written to"


def rows_of(path: Path) -> list[str]:
    """Every row of the database as SQL (the file's header changes when SQLite opens it)."""
    db = sqlite3.connect(path)
    try:
        return list(db.iterdump())
    finally:
        db.close()
