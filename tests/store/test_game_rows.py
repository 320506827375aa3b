"""What the store keeps of a game: when it went over, and ids it cannot hold."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import pytest

from companion.cafe.outbox import Outbox
from companion.players.random_games import random_document
from companion.store import DamagedRow, Store
from companion.store.results import iso
from companion.table import Table

HUGE = 99999999999999999999999  # beyond SQLite's 64-bit integers


def test_a_game_the_host_ends_keeps_the_moment_it_ended(tmp_path: Path) -> None:
    """``ended_at`` of a game the host ends is when "End game" was pressed, stored then; the
    outbox noticing it an hour later does not move it."""
    path = tmp_path / "companion.sqlite3"
    store = Store(path)
    table = Table("1", store)
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        table.join(table.join_secret, name, colour)
    table.start()
    game_id = table.game.id
    before = time.time()
    table.end_game()
    after = time.time()
    stored = store.game(game_id)
    assert stored is not None and stored.status == "ended"
    assert stored.ended is not None and before <= stored.ended <= after
    later = after + 3600.0
    outbox = Outbox(path, clock=lambda: later)
    try:
        assert outbox.reconcile() == 1
        result = outbox.result(game_id)
    finally:
        outbox.close()
        table.close()
        store.close()
    assert result is not None and result["status"] == "ended"
    assert result["ended_at"] == iso(stored.ended) != iso(later)


def test_a_finished_game_ends_with_its_final_command(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    store = Store(path)
    store.create_table("1", "j", "h", {"dice": "digital"})
    doc = random_document(random.Random(5), 3)
    seats = [{"seat": p, "name": p.title(), "colour": "sky"} for p in doc["players"]]
    gid = store.create_game(
        "1", {"players": doc["players"], "stack": doc["stack"]}, seats, [[], []], "digital"
    )
    store.append(gid, 0, [(c, "host", None) for c in doc["commands"][:-1]])
    assert store.game(gid).ended is None  # still playing
    store.append(gid, len(doc["commands"]) - 1, [(doc["commands"][-1], "host", None)], "finished")
    stored = store.game(gid)
    assert stored.status == "finished" and stored.ended == store.last_command_at(gid)
    store.close()


def test_ids_beyond_sqlite_integers_are_simply_not_found(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.sqlite3")
    try:
        for gid in (HUGE, -HUGE, 2**63):
            assert store.game(gid) is None
            assert store.commands(gid) == []
            assert store.result(gid) is None
            assert store.deliveries(gid) == []
            assert store.last_command_at(gid) is None
        assert store.game(2**63 - 1) is None  # the largest id SQLite holds: a plain miss
    finally:
        store.close()


def test_a_result_read_by_its_game_is_checked_like_the_historys(tmp_path: Path) -> None:
    """A stored result missing what every result has is named as a damaged row when it is
    read by its game, as the history's reads name it, not handed on half there."""
    path = tmp_path / "companion.sqlite3"
    store = Store(path)
    table = Table("1", store)
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        table.join(table.join_secret, name, colour)
    table.start()
    game_id = table.game.id
    table.end_game()
    outbox = Outbox(path)
    try:
        assert outbox.reconcile() == 1
        assert store.result(game_id)["status"] == "ended"
        with sqlite3.connect(path) as db:
            db.execute("UPDATE results SET result = ? WHERE game_id = ?", ('{"x": 1}', game_id))
        with pytest.raises(DamagedRow, match="result"):
            store.result(game_id)
    finally:
        outbox.close()
        table.close()
        store.close()
