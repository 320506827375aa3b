"""The schema has a version: a database written by the release before versions existed
(tests/store/fixtures/release-ca36d62.sqlite3, made by that release's own code with
fixtures/make_release_db.py) opens, is migrated, and reads back the same."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.cafe.history import History, games_csv
from companion.cafe.outbox import Outbox
from companion.store import Store
from companion.store.migrations import CURRENT, expected_columns, schema
from companion.store.rows import SeatRow
from companion.table import Table

FIXTURE = Path(__file__).parent / "fixtures" / "release-ca36d62.sqlite3"


def raw(path: Path, sql: str) -> list[dict]:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in db.execute(sql)]
    finally:
        db.close()


def _without_holders(result: dict) -> dict:
    """A result document without what version 3 of the schema added to it (the release's
    documents had no ``companion``: a person)."""
    return {
        **{k: v for k, v in result.items() if k != "version"},
        "players": [
            {**{k: v for k, v in p.items() if k != "holders"}, "companion": p.get("companion")}
            for p in result["players"]
        ],
    }


@pytest.fixture
def release_db(tmp_path: Path) -> Path:
    path = tmp_path / "companion.sqlite3"
    shutil.copyfile(FIXTURE, path)
    return path


def test_the_fixture_is_a_release_database(release_db: Path) -> None:
    """What the migration test starts from: no version, no ``games.ended``, real rows. (Read
    from a copy: even a read-only open of a WAL file leaves ``-shm`` beside it.)"""
    assert raw(release_db, "PRAGMA user_version")[0]["user_version"] == 0
    assert "ended" not in {r["name"] for r in raw(release_db, "PRAGMA table_info(games)")}
    assert len(raw(release_db, "SELECT * FROM seats")) == 4
    statuses = {r["status"] for r in raw(release_db, "SELECT status FROM games")}
    assert statuses == {"finished", "ended"}
    assert len(raw(release_db, "SELECT * FROM results")) == 2
    assert len(raw(release_db, "SELECT * FROM outbox")) == 2


def test_release_database_opens_migrated_and_reads_back_the_same(release_db: Path) -> None:
    tables = raw(release_db, "SELECT * FROM tables")
    seats = raw(release_db, "SELECT * FROM seats ORDER BY position")
    games = raw(release_db, "SELECT * FROM games ORDER BY id DESC")
    commands = raw(release_db, "SELECT * FROM commands ORDER BY game_id, n")
    results = raw(release_db, "SELECT * FROM results ORDER BY ended DESC, game_id DESC")
    outbox = raw(release_db, "SELECT * FROM outbox ORDER BY id")
    token = raw(release_db, "SELECT value FROM cafe_meta WHERE key = 'admin_token'")[0]["value"]

    store = Store(release_db)
    try:
        assert store._read("PRAGMA user_version")[0][0] == CURRENT
        row = store.table("1")
        assert row is not None and row.host_token == tables[0]["host_token"]
        assert row.join_secret == tables[0]["join_secret"]
        assert row.settings == json.loads(tables[0]["settings"])
        assert store.seats("1") == [
            SeatRow(s["seat"], s["name"], s["colour"], s["token_hash"], s["state"]) for s in seats
        ]
        stored = store.games("1")
        assert [g.id for g in stored] == [g["id"] for g in games]
        by_result = {r["game_id"]: r["ended"] for r in results}
        for g, before in zip(stored, games, strict=True):
            assert (g.status, g.created, g.dice) == (before["status"], before["created"], "digital")
            assert g.document == json.loads(before["document"])
            assert g.seats == json.loads(before["seats"])
            # Version 1 keeps when a game went over; older games take their result's time.
            assert g.ended == by_result[g.id]
        for g in games:
            assert [
                (c.n, c.command, c.source, c.cmd_id, c.at) for c in store.commands(g["id"])
            ] == [
                (c["n"], json.loads(c["command"]), c["source"], c["cmd_id"], c["at"])
                for c in commands
                if c["game_id"] == g["id"]
            ]
        history = History(store)
        # Version 3 adds who held each seat; everything the result said before stays.
        before = [json.loads(r["result"]) for r in results]
        assert [_without_holders(g) for g in history.games()] == [
            _without_holders(g) for g in before
        ]
        for g in history.games():
            assert g["version"] == 2
            for p in g["players"]:  # the fixture's moves were typed in by the host
                rounds = list(range(1, max(1, g["rounds_played"]) + 1))
                assert p["holders"] == [
                    {"name": p["name"], "colour": p["colour"], "companion": None, "rounds": rounds}
                ]
        board = history.leaderboard()
        finished = [json.loads(r["result"]) for r in results if r["status"] == "finished"]
        assert sorted(b["name"] for b in board) == sorted(p["name"] for p in finished[0]["players"])
        winners = {p["name"] for p in finished[0]["players"] if p["winner"]}
        assert {b["name"] for b in board if b["wins"]} == winners
        assert store.admin_token() == token
        assert [d.url for d in store.deliveries(1)] == [outbox[0]["url"]]
        # The table itself comes back with its seats and no game running.
        table = Table("1", store)
        try:
            assert [s.name for s in table.seats] == ["Ana", "Ben", "Cleo", "Dev"]
            assert table.host_token == tables[0]["host_token"]
        finally:
            table.close()
    finally:
        store.close()
    # The outbox on the migrated file records nothing twice and queues nothing new.
    box = Outbox(release_db)
    try:
        assert box.reconcile() == 0
        for r in results:
            assert _without_holders(box.result(r["game_id"])) == _without_holders(
                json.loads(r["result"])
            )
    finally:
        box.close()
    assert raw(release_db, "PRAGMA user_version")[0]["user_version"] == CURRENT
    assert len(raw(release_db, "SELECT * FROM outbox")) == 2


def test_migrated_database_has_the_schema_of_a_new_one(release_db: Path, tmp_path: Path) -> None:
    """Migrating and creating anew end at the same tables, columns and indexes."""
    Store(release_db).close()
    Store(tmp_path / "new.sqlite3").close()

    def shape(path: Path) -> dict:
        names = raw(path, "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        cols = {
            n["name"]: [c["name"] for c in raw(path, f"PRAGMA table_info({n['name']})")]
            for n in names
            if n["type"] == "table"
        }
        return {"objects": sorted((n["type"], n["name"]) for n in names), "columns": cols}

    assert shape(release_db) == shape(tmp_path / "new.sqlite3")
    assert set(shape(release_db)["columns"]) == set(expected_columns())


def test_schema_is_package_data_and_the_only_schema() -> None:
    """One schema file: no other module of the package creates a table."""
    assert "CREATE TABLE IF NOT EXISTS games" in schema()
    package = Path(__file__).resolve().parents[2] / "companion"
    makers = [
        str(p.relative_to(package))
        for p in package.rglob("*.py")
        if "CREATE TABLE" in p.read_text(encoding="utf-8")
        and p.name != "migrations.py"  # builds the expected columns from schema.sql
    ]
    assert makers == []


def test_a_version_1_database_gains_the_reviews_table(release_db: Path) -> None:
    """A café at version 1 (before game reviews) opens: its games stay, it gets the empty
    ``reviews`` table and version 2, and a review can be stored and read back."""
    db = sqlite3.connect(release_db)
    db.execute("ALTER TABLE games ADD COLUMN ended REAL")  # what version 1 had
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    games = raw(release_db, "SELECT id FROM games ORDER BY id")
    assert "reviews" not in {r["name"] for r in raw(release_db, "SELECT name FROM sqlite_master")}

    store = Store(release_db)
    try:
        assert store._read("PRAGMA user_version")[0][0] == CURRENT == 5
        assert store.review(games[0]["id"]) is None
        store.save_review(games[0]["id"], 7, {"players": {}, "decisions": []})
        stored_review = store.review(games[0]["id"])
        assert stored_review is not None and stored_review.seed == 7
        assert store.reviewed([g["id"] for g in games]) == {games[0]["id"]}
    finally:
        store.close()
    assert raw(release_db, "SELECT id FROM games ORDER BY id") == games
    assert [r["name"] for r in raw(release_db, "PRAGMA table_info(reviews)")] == list(
        expected_columns()["reviews"]
    )


V2_FIXTURE = Path(__file__).parent / "fixtures" / "version-2.sqlite3"


def test_a_version_2_database_credits_who_played(tmp_path: Path) -> None:
    """A café at version 2 (fixtures/make_v2_db.py, that version's own code) recorded Jörg's
    seat as a companion player's because one played round 3 for him. Migrated, his result
    lists both holders and is his: the leaderboard (people only too) and the CSV count his
    game; the seat the companion player Xochi played throughout stays a companion player's;
    scores and winners are as recorded."""
    path = tmp_path / "companion.sqlite3"
    shutil.copyfile(V2_FIXTURE, path)
    assert raw(path, "PRAGMA user_version")[0]["user_version"] == 2
    before = {
        r["game_id"]: json.loads(r["result"])
        for r in raw(path, "SELECT game_id, result FROM results")
    }
    finished = next(g for g, r in before.items() if r["status"] == "finished")
    jorg = before[finished]["players"][0]
    assert (jorg["name"], jorg["companion"]) == ("Jörg", "good")  # what version 2 said

    store = Store(path)
    try:
        assert store._read("PRAGMA user_version")[0][0] == CURRENT
        history = History(store)
        games = {g["game_id"]: g for g in history.games()}
        result = games[finished]
        assert result["version"] == 2
        players = {p["seat"]: p for p in result["players"]}
        jorg = players["ana"]
        assert (jorg["name"], jorg["colour"], jorg["companion"]) == ("Jörg", "vermilion", None)
        assert jorg["holders"] == [
            {
                "name": "Jörg",
                "colour": "vermilion",
                "companion": None,
                "rounds": [1, 2, 4, 5, 6, 7],
            },
            {"name": "Jörg", "colour": "vermilion", "companion": "good", "rounds": [3]},
        ]
        xochi = players["dev"]
        assert xochi["companion"] == "plain"
        assert xochi["holders"] == [
            {"name": "Xochi", "colour": "yellow", "companion": "plain", "rounds": list(range(1, 8))}
        ]
        for seat in ("ben", "cleo"):
            assert [h["companion"] for h in players[seat]["holders"]] == [None]
        for old, new in zip(before[finished]["players"], result["players"], strict=True):
            assert (new["score"], new["track"], new["final"], new["winner"]) == (
                old["score"],
                old["track"],
                old["final"],
                old["winner"],
            )
        people = {r["name"]: r for r in history.leaderboard(people_only=True)}
        assert set(people) == {"Jörg", "Bea", "Cem"}
        assert (people["Jörg"]["games"], people["Jörg"]["helped"]) == (1, 1)
        assert people["Jörg"]["best_score"] == jorg["score"]
        assert people["Bea"]["helped"] == 0
        everyone = {(r["name"], r["companion"]) for r in history.leaderboard()}
        assert everyone == {("Jörg", False), ("Bea", False), ("Cem", False), ("Xochi", True)}
        rows = list(csv.DictReader(io.StringIO(games_csv([result]).removeprefix("\ufeff"))))
        assert rows[0]["name"] == "Jörg" and rows[0]["companion"] == ""
        assert rows[0]["holders"] == (
            "Jörg (vermilion) rounds 1-2,4-7 | companion good as Jörg (vermilion) rounds 3"
        )
        # The game the host ended after the sacrifices: each seat held by whoever made them.
        ended = next(g for g in games.values() if g["status"] == "ended")
        assert [p["holders"][0]["rounds"] for p in ended["players"]] == [[1]] * 4
    finally:
        store.close()
    assert raw(path, "PRAGMA user_version")[0]["user_version"] == CURRENT


def _version_2(path: Path) -> None:
    """Turn a database of this release back into version 2 (no review queue, no seat
    takeovers, no ``games.ended_by`` yet)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP TABLE review_queue")
    db.execute("DROP TABLE seat_takeovers")
    db.execute("ALTER TABLE games DROP COLUMN ended_by")
    db.execute("DELETE FROM cafe_meta WHERE key = 'reviews_since'")
    db.execute("PRAGMA user_version = 2")
    db.close()


def test_a_version_2_cafe_queues_the_reviews_a_restart_lost(tmp_path: Path) -> None:
    """A café at version 2 reviewed its games in memory: those over since its first review
    without one (lost to a restart) are queued; older ones (before reviews) are not."""
    path = tmp_path / "companion.sqlite3"
    store = Store(path)
    store.create_table("1", "j", "h", {})
    ids = []
    for ended in (100.0, 200.0, 300.0):  # before reviews, reviewed, lost to a restart
        gid = store.create_game("1", {"players": ["a", "b", "c"]}, [], [], "digital")
        store.commit([("UPDATE games SET status = 'ended', ended = ? WHERE id = ?", (ended, gid))])
        ids.append(gid)
    store.save_review(ids[1], 3, {"players": {}, "decisions": []})
    store.close()
    _version_2(path)
    assert "review_queue" not in {r["name"] for r in raw(path, "SELECT name FROM sqlite_master")}

    store = Store(path)
    try:
        assert store._read("PRAGMA user_version")[0][0] == CURRENT == 5
        since = float(store.meta_setdefault("reviews_since", "0"))
        assert since == 200.0  # the first reviewed game's end
        store.queue_reviews(since)
        assert [q.game_id for q in store.review_queue()] == [ids[2]]
    finally:
        store.close()


def test_an_older_cafe_reviews_only_games_over_from_now_on(release_db: Path) -> None:
    """A café from before reviews (version 0 here) keeps its old games unreviewed unless
    the admin asks: its ``reviews_since`` is the moment of the migration."""
    over = raw(release_db, "SELECT id FROM games WHERE status != 'playing'")
    assert over
    store = Store(release_db)
    try:
        since = float(store.meta_setdefault("reviews_since", "0"))
        assert since > 0
        store.queue_reviews(since)
        assert store.review_queue() == []
    finally:
        store.close()


def test_a_version_4_cafe_keeps_its_games_and_learns_who_ends_them(tmp_path: Path) -> None:
    """A café at version 4 (who ended a game was not kept) opens at version 5: its games
    read back as they were, an ended one with nobody named (the screens name the host, as
    version 4 did), and a game ended from now on keeps who ended it."""
    path = tmp_path / "companion.sqlite3"
    store = Store(path)
    store.create_table("1", "j", "h", {})
    old = store.create_game("1", {"players": ["a", "b", "c"]}, [], [], "digital")
    store.set_game_status(old, "ended")
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("ALTER TABLE games DROP COLUMN ended_by")  # what version 4 had
    db.execute("PRAGMA user_version = 4")
    db.close()
    before = raw(path, "SELECT * FROM games")

    store = Store(path)
    try:
        assert store._read("PRAGMA user_version")[0][0] == CURRENT == 5
        game = store.game(old)
        assert game is not None and (game.status, game.ended_by) == ("ended", None)
        new = store.create_game("1", {"players": ["a", "b", "c"]}, [], [], "digital")
        store.set_game_status(new, "ended", "cafe")
        game = store.game(new)
        assert game is not None and game.ended_by == "cafe"
    finally:
        store.close()
    after = raw(path, f"SELECT * FROM games WHERE id = {old}")
    assert after == [{**before[0], "ended_by": None}]
    assert [r["name"] for r in raw(path, "PRAGMA table_info(games)")] == list(
        expected_columns()["games"]
    )
