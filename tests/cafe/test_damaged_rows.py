"""One damaged row stays contained: a result, a review or a command whose stored JSON cannot
be read is left out and named (in the admin's answers and the server's log, with its id),
and every other game is served. A live server on a real SQLite file written by the store,
damaged the way a disk fault or a hand edit would."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import requests
from live_server import LiveServer
from waiting import wait_for

from companion.cafe.outbox import Outbox
from companion.players.randomplay import random_document
from companion.store import Store

from .test_reviews_live import admin_token


def cafe_with_games(data: Path, count: int = 3) -> list[int]:
    """A café with ``count`` finished games at table 1, each with its result and a review."""
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
            store.save_review(gid, 1, {"players": {}, "decisions": []})
            ids.append(gid)
        store.set_current_game("1", None)
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


@pytest.fixture
def cafe(tmp_path: Path) -> Any:
    data = tmp_path / "data"
    ids = cafe_with_games(data)
    server = LiveServer(data, extra=["--board", "none"])
    yield server, ids
    server.stop()


def get(live: LiveServer, path: str, **params: Any) -> requests.Response:
    headers = {"X-Admin-Token": admin_token(live)}
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
    headers = {"X-Admin-Token": admin_token(live)}
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
