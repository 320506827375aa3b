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
    store.append(
        gid,
        0,
        [
            ({"type": "sacrifice", "player": "a", "card": 1}, "seat:a", "c1"),
            ({"type": "harvest", "dice": [1, 2, 3]}, "dealer", None),
        ],
    )
    store.close()
    again = Store(path)
    assert again.table("1").current_game == gid
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


GROUP_FAILURE = r"""
import json, resource, sys, threading, time
from companion.store import Store

store = Store(sys.argv[1])
store.create_table("1", "s", "h", {})
gid = store.create_game("1", {"players": []}, [], [], "digital")
results = {}

def write(name, n):
    try:
        store.append(gid, n, [({"type": name}, "host", name)])
        results[name] = "ok"
    except BaseException as exc:
        results[name] = type(exc).__name__

# Hold the connection so that "a" leads and waits while "b" and "c" queue as one batch.
store._lock.acquire()
threads = [threading.Thread(target=write, args=(name, n)) for n, name in enumerate("abc")]
threads[0].start()
while not store._leading:
    time.sleep(0.001)
for t in threads[1:]:
    t.start()
while len(store._pending) < 2:
    time.sleep(0.001)
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
if sys.argv[2] == "efbig":
    # A real write failure from the kernel: no file may grow past one byte (EFBIG).
    resource.setrlimit(resource.RLIMIT_FSIZE, (1, hard))
else:
    # The connection is gone under the leader (the server closing while a write waits):
    # the leader's commit raises before it reaches SQLite.
    db = store._db
    store._db = None
store._lock.release()
for t in threads:
    t.join(10)
hung = [t.name for t in threads if t.is_alive()]
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
if sys.argv[2] != "efbig":
    store._db = db
done = threading.Thread(target=write, args=("d", 0))
done.start()
done.join(10)
print(json.dumps({"results": results, "hung": hung, "later_hung": done.is_alive(),
                  "stored": [c.command["type"] for c in Store(sys.argv[1]).commands(gid)]}))
"""


@pytest.mark.parametrize("failure", ["efbig", "commit_raises"])
def test_a_failed_group_commit_fails_every_writer_and_frees_the_store(
    tmp_path, failure: str
) -> None:
    """The leader's commit fails (the kernel refuses the WAL write, or the commit raises
    outright): the batched followers raise too instead of returning success, nothing is
    stored, and later writes go through instead of waiting for a leader that is gone
    (issue 8, item 5)."""
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", GROUP_FAILURE, str(tmp_path / "db.sqlite3"), failure],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert not got["hung"] and not got["later_hung"], got
    assert all(r != "ok" for r in (got["results"][k] for k in "abc")), got
    assert got["results"]["d"] == "ok" and got["stored"] == ["d"], got
