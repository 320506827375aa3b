"""The SQLite store on a real file: WAL + synchronous=FULL, atomic appends, group commit."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from companion.store import Store


def test_pragmas_and_append_survive_reopening(tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    store = Store(path)
    assert store._read("PRAGMA journal_mode")[0][0] == "wal"
    assert store._read("PRAGMA synchronous")[0][0] == 2  # FULL
    store.create_table("1", "secret", "host", {"dice": "digital"})
    gid = store.create_game("1", {"players": ["a", "b", "c"]}, [], [[1], [2]], "digital")
    store.append(gid, 0, [({"type": "sacrifice", "player": "a", "card": 1}, "seat:a", "c1"),
                          ({"type": "harvest", "dice": [1, 2, 3]}, "dealer", None)])
    store.close()
    again = Store(path)
    assert again.table("1")["current_game"] == gid
    rows = again.commands(gid)
    assert [r.n for r in rows] == [0, 1] and rows[1].command["dice"] == [1, 2, 3]
    assert again.find_cmd(gid, "seat:a", "c1").n == 0


def test_a_refused_write_changes_nothing_and_others_commit(tmp_path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    store.create_table("1", "s", "h", {})
    gid = store.create_game("1", {"players": []}, [], [], "digital")
    store.append(gid, 0, [({"type": "x"}, "host", "h1")])
    # Same row number again: refused whole, the game log is unchanged.
    with pytest.raises(sqlite3.IntegrityError):
        store.append(gid, 0, [({"type": "y"}, "host", "h2")], status="finished")
    assert [c.command["type"] for c in store.commands(gid)] == ["x"]
    assert store.game(gid).status == "playing"
    # Many threads appending at once (group commit): every write is there exactly once.
    def worker(k: int) -> None:
        for i in range(20):
            store.append(gid, 1 + k * 100 + i, [({"type": "z", "k": k}, f"seat:{k}", str(i))])

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(store.commands(gid)) == 1 + 8 * 20
    store.close()
