"""One damaged row stays contained: a result, a review or a command whose stored JSON cannot
be read is left out and named (in the admin's answers and the server's log, with its id),
and every other game is served. A live server on a real SQLite file written by the store,
damaged the way a disk fault or a hand edit would."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import requests
from live_server import LiveServer, free_port
from waiting import wait_for

from companion.cafe.outbox import Outbox
from companion.players.random_games import random_document
from companion.store import Store

from .test_webhook_live import SECRET, Receiver


def cafe_with_games(data: Path, count: int = 3, reviewed: bool = True) -> list[int]:
    """A café with ``count`` finished games at table 1, each with its result and a review
    (or, ``reviewed=False``, waiting in the review queue)."""
    data.mkdir(parents=True)
    path = data / "companion.sqlite3"
    store = Store(path)
    ids = []
    try:
        store.create_table("1", "j", "h", {"dice": "digital"})
        for i in range(count):
            doc = random_document(random.Random(10 + i), 3)
            seats = [{"seat": p, "name": p.title(), "colour": "sky"} for p in doc["players"]]
            gid = store.create_game(
                "1", {"players": doc["players"], "stack": doc["stack"]}, seats, [[], []], "digital"
            )
            store.append(gid, 0, [(c, "host", None) for c in doc["commands"]], "finished")
            if reviewed:
                store.save_review(gid, 1, {"players": {}, "decisions": []})
            ids.append(gid)
        store.set_current_game("1", None)
        if not reviewed:
            store.queue_reviews(0.0)
        outbox = Outbox(path)
        assert outbox.reconcile() == count
        outbox.close()
    finally:
        store.close()
    return ids


def damage(data: Path, sql: str, *params: Any) -> None:
    db = sqlite3.connect(data / "companion.sqlite3")
    with db:
        assert db.execute(sql, params).rowcount == 1
    db.close()


def cafe_to_send(data: Path, url: str, count: int) -> list[int]:
    """A café with ``count`` finished games at table 1 whose results wait to be sent to the
    webhook ``url`` (the outbox existed before the games ended)."""
    data.mkdir(parents=True)
    path = data / "companion.sqlite3"
    store = Store(path)
    outbox = Outbox(path, [url], SECRET)
    ids = []
    try:
        store.create_table("1", "j", "h", {"dice": "digital"})
        for i in range(count):
            doc = random_document(random.Random(30 + i), 3)
            seats = [{"seat": p, "name": p.title(), "colour": "sky"} for p in doc["players"]]
            gid = store.create_game(
                "1", {"players": doc["players"], "stack": doc["stack"]}, seats, [[], []], "digital"
            )
            store.append(gid, 0, [(c, "host", None) for c in doc["commands"]], "finished")
            ids.append(gid)
        store.set_current_game("1", None)
        assert outbox.reconcile() == count
        assert all(outbox.deliveries(g)[0]["state"] == "pending" for g in ids)
    finally:
        outbox.close()
        store.close()
    return ids


def damage_delivery(data: Path, game_id: int) -> int:
    """Damage the webhook delivery row of ``game_id`` (its attempts no number); its id."""
    db = sqlite3.connect(data / "companion.sqlite3")
    with db:
        (row_id,) = db.execute("SELECT id FROM outbox WHERE game_id = ?", (game_id,)).fetchone()
        db.execute("UPDATE outbox SET attempts = 'x' WHERE id = ?", (row_id,))
    db.close()
    return int(row_id)


@pytest.fixture
def cafe(tmp_path: Path) -> Any:
    data = tmp_path / "data"
    ids = cafe_with_games(data)
    server = LiveServer(data, extra=["--board", "none"])
    yield server, ids
    server.stop()


def get(live: LiveServer, path: str, **params: Any) -> requests.Response:
    headers = {"X-Admin-Token": live.admin_token()}
    return requests.get(f"{live.base}{path}", headers=headers, params=params, timeout=10)


def test_a_damaged_result_is_left_out_and_named_the_rest_served(cafe: Any) -> None:
    live, ids = cafe
    bad = ids[1]
    damage(live.data, 'UPDATE results SET result = \'{"game_id": 2, "play\' WHERE game_id = ?', bad)
    live.start()
    for period in ({}, {"from": "2000-01-01", "to": "2999-12-31"}):
        history = get(live, "/admin/api/history", **period)
        assert history.status_code == 200, history.text
        body = history.json()
        assert [g["game_id"] for g in body["games"]] == [ids[2], ids[0]]
        assert [(s["kind"], s["id"]) for s in body["skipped"]] == [("result", str(bad))]
        assert "bad JSON" in body["skipped"][0]["reason"]
        board = get(live, "/admin/api/leaderboard", **period)
        assert board.status_code == 200, board.text
        assert sum(p["games"] for p in board.json()["players"]) == 2 * 3  # two games, 3 seats
        assert board.json()["skipped"] == body["skipped"]
        csv = get(live, "/admin/export/games.csv", **period)
        assert csv.status_code == 200, csv.text
        rows = csv.text.strip().splitlines()[1:]
        assert sorted({r.split(",")[0] for r in rows}) == sorted(str(g) for g in (ids[0], ids[2]))
        assert get(live, "/admin/export/leaderboard.csv", **period).status_code == 200
    # The log names the row once (not at every look).
    assert live.log().count(f"the result of game {bad} cannot be read") == 1
    # A result document that is JSON but not a result is damaged too.
    live.stop()
    damage(live.data, "UPDATE results SET result = '[1, 2]' WHERE game_id = ?", ids[0])
    live.start()
    body = get(live, "/admin/api/history").json()
    assert [g["game_id"] for g in body["games"]] == [ids[2]]
    assert {s["id"] for s in body["skipped"]} == {str(bad), str(ids[0])}


def test_a_damaged_review_is_named_in_the_history_and_reviewed_anew_on_request(
    cafe: Any,
) -> None:
    live, ids = cafe
    bad = ids[0]
    damage(live.data, "UPDATE reviews SET document = 'not json' WHERE game_id = ?", bad)
    live.start()
    history = get(live, "/admin/api/history")
    assert history.status_code == 200, history.text
    rows = {g["game_id"]: g for g in history.json()["games"]}
    assert set(rows) == set(ids)
    assert rows[bad]["review"]["state"] == "damaged"
    assert f"the review of game {bad} cannot be read" in rows[bad]["review"]["reason"]
    assert all(rows[g]["review"]["state"] == "ready" for g in ids if g != bad)
    review = get(live, f"/admin/api/games/{bad}/review")
    assert review.status_code == 409 and review.json()["error"] == "damaged_row", review.text
    assert f"the review of game {bad} cannot be read" in live.log()
    # Asked again: reviewed anew, the new review replaces the damaged one.
    headers = {"X-Admin-Token": live.admin_token()}
    url = f"{live.base}/admin/api/games/{bad}/review"
    assert requests.post(url, headers=headers, timeout=10).status_code == 202
    wait_for(lambda: get(live, f"/admin/api/games/{bad}/review").status_code == 200, "review", 120)
    assert get(live, f"/admin/api/games/{bad}/review").json()["state"] == "ready"


def test_a_damaged_command_names_its_row_in_the_log_and_replay_the_rest_served(
    cafe: Any,
) -> None:
    live, ids = cafe
    bad = ids[2]
    damage(
        live.data, 'UPDATE commands SET command = \'{"type": "bi\' WHERE game_id = ? AND n = 5', bad
    )
    live.start()
    for path in (f"/admin/games/{bad}/log.json", f"/admin/games/{bad}/replay"):
        answer = get(live, path)
        assert answer.status_code == 409, (path, answer.status_code, answer.text[:200])
        body = answer.json()
        assert body["error"] == "damaged_row"
        assert f"command 5 of game {bad} cannot be read (bad JSON" in body["reason"]
    assert f"command 5 of game {bad} cannot be read" in live.log()
    # The other games and the history are served as before.
    assert get(live, f"/admin/games/{ids[0]}/log.json").status_code == 200
    assert get(live, f"/admin/games/{ids[1]}/replay").status_code == 200
    history = get(live, "/admin/api/history")
    assert history.status_code == 200
    assert {g["game_id"] for g in history.json()["games"]} == set(ids)


def test_the_webhook_sender_skips_a_damaged_row_names_it_and_sends_the_rest(
    tmp_path: Path,
) -> None:
    """A live server with a webhook to a real endpoint on 127.0.0.1: of four games waiting to
    be sent, one's result and another's delivery row are damaged. The two others arrive; the
    damaged two are named once each in the log (with their ids) and on the admin page."""
    data = tmp_path / "data"
    receiver = Receiver(free_port())
    url = f"http://127.0.0.1:{receiver.port}/results"
    ids = cafe_to_send(data, url, 4)
    damage(data, 'UPDATE results SET result = \'{"game_id": 1, "pla\' WHERE game_id = ?', ids[0])
    row_id = damage_delivery(data, ids[2])
    live = LiveServer(data, extra=["--board", "none", "--webhook", url, "--webhook-secret", SECRET])
    try:
        live.start()
        wait_for(lambda: len(receiver.posts) >= 2, "the two readable results sent")
        sent = sorted(json.loads(p["body"])["game_id"] for p in receiver.posts)
        assert sent == [ids[1], ids[3]]
        history = get(live, "/admin/api/history")
        assert history.status_code == 200, history.text
        body = history.json()
        assert [(s["kind"], s["id"]) for s in body["skipped"]] == [("result", str(ids[0]))]
        assert [(s["kind"], s["id"]) for s in body["unsent"]] == [("delivery", str(row_id))]
        assert "attempts" in body["unsent"][0]["reason"]
        log = live.log()
        assert log.count(f"the result of game {ids[0]} cannot be read") == 1, log
        assert log.count(f"webhook delivery {row_id} cannot be read") == 1, log
        assert "Traceback" not in log
        assert len(receiver.posts) == 2  # nothing sent twice, the damaged never
    finally:
        live.stop()
        receiver.close()


def test_a_damaged_command_fails_its_review_with_its_name_and_the_queue_goes_on(
    tmp_path: Path,
) -> None:
    """Games over and waiting for their review; one has a command that cannot be read. Its
    review fails with the row's name (tried, then kept with the reason for the admin), the
    games behind it are reviewed, and the table's own routes (the host's log and replay)
    answer 409 naming the row, not 500."""
    data = tmp_path / "data"
    ids = cafe_with_games(data, reviewed=False)
    bad = ids[0]
    damage(data, "UPDATE commands SET command = 'garbage' WHERE game_id = ? AND n = 3", bad)
    live = LiveServer(data, extra=["--board", "none"])
    try:
        live.start()
        wait_for(lambda: reviewed(data) >= set(ids[1:]), "the other games' reviews", 300)
        assert bad not in reviewed(data)
        row = wait_for(
            lambda: next(
                (
                    g["review"]
                    for g in get(live, "/admin/api/history").json()["games"]
                    if g["game_id"] == bad and (g["review"] or {}).get("state") == "failed"
                ),
                None,
            ),
            "the damaged game's review given up",
            300,
        )
        assert f"command 3 of game {bad} cannot be read" in row["reason"], row
        host = live.host_tokens["1"]
        for path in (f"/t/1/games/{bad}/log.json", f"/t/1/games/{bad}/replay"):
            answer = requests.get(f"{live.base}{path}", params={"token": host}, timeout=30)
            assert answer.status_code in (409, 503), (path, answer.status_code, answer.text[:200])
            assert f"game {bad}" in answer.json()["reason"], answer.text
        assert "Traceback" not in live.log()
    finally:
        live.stop()


def reviewed(data: Path) -> set[int]:
    db = sqlite3.connect(data / "companion.sqlite3")
    try:
        return {r[0] for r in db.execute("SELECT game_id FROM reviews")}
    finally:
        db.close()
