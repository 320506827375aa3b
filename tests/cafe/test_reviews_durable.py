"""The review queue survives ``kill -9``: games over while a review runs, or waiting behind
it, each get their review after a restart, though their tables have moved on to new games
(the queue is the store's ``review_queue``, not the server's memory). Real server, real
websocket clients, real SQLite file."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from live_server import Host, LiveServer, play, seat_phones
from waiting import wait_for

from companion.store import Store
from companion.store.rows import QueuedReview

BUDGET = "4.0"  # long enough that a review is under way when the server is killed


def stored_reviews(data: Path) -> set[int]:
    db = sqlite3.connect(data / "companion.sqlite3")
    try:
        return {r[0] for r in db.execute("SELECT game_id FROM reviews")}
    finally:
        db.close()


def over_games(data: Path) -> set[int]:
    db = sqlite3.connect(data / "companion.sqlite3")
    try:
        return {
            r[0] for r in db.execute("SELECT id FROM games WHERE status IN ('finished', 'ended')")
        }
    finally:
        db.close()


def end_a_game(live: LiveServer, table: str, names: list[str], colour: int = 0) -> int:
    """Seat phones, play a round, end the game and start the next one (back to the
    lobby): the ended game is no table's current game any more."""
    phones = seat_phones(live, table, names, colour)
    host = Host(live, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [], host, max_steps=12)
    assert host.act("end_game")["type"] == "ok"
    game_id = int(phones[0].view["game"]["id"])
    assert host.act("new_game")["type"] == "ok"
    for peer in [host, *phones]:
        peer.close()
    return game_id


def test_kill_9_during_a_review_and_with_games_waiting_loses_no_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_REVIEW_BUDGET", BUDGET)
    live = LiveServer(tmp_path / "data", tables=3, extra=["--board", "none"]).start()
    try:
        games = [
            end_a_game(live, "1", ["Ana", "Ben", "Cleo"]),
            end_a_game(live, "2", ["Dev", "Eli", "Fay"]),
            end_a_game(live, "3", ["Gus", "Hal", "Ida"]),
        ]
        headers = {"X-Admin-Token": live.admin_token()}

        def state(gid: int) -> dict[str, Any] | None:
            url = f"{live.base}/admin/api/history"
            rows = requests.get(url, headers=headers, timeout=10).json()["games"]
            return next((g["review"] for g in rows if g["game_id"] == gid), None)

        # One review under way, the later games waiting for their turn behind it: the
        # server holds one game's review in memory, whatever the backlog (the rest wait in
        # the store), so its memory does not grow with a burst of games.
        wait_for(
            lambda: any((state(g) or {}).get("state") == "working" for g in games),
            "a review runs",
            120,
        )
        states = wait_for(
            lambda: all(s := [(state(g) or {}).get("state") for g in games]) and s,
            "every game in the history with its review's state",
            120,
        )
        assert states.count("working") <= 1, states
        assert set(states) <= {"working", "queued", "ready"}, states
        assert states[-1] in ("queued", "working"), states
        assert not stored_reviews(live.data) >= set(games)
        live.kill9()
        waiting = set(games) - stored_reviews(live.data)
        assert waiting, "every review was done before the kill: nothing was tested"

        live.start()
        wait_for(lambda: stored_reviews(live.data) >= set(games), "every game's review", 180)
        assert over_games(live.data) == set(games)
        headers = {"X-Admin-Token": live.admin_token()}
        for gid in games:
            url = f"{live.base}/admin/api/games/{gid}/review"
            body = requests.get(url, headers=headers, timeout=10).json()
            assert body["state"] == "ready" and body["review"]["players"], body
    finally:
        live.stop()
    store = Store(live.data / "companion.sqlite3")
    try:
        assert store.review_queue() == []  # each game left the queue with its review
    finally:
        store.close()


def test_games_waiting_for_their_review_at_a_kill_9_are_reviewed_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22's break 4 on its own: the server is killed while games wait for their
    review; after the restart every one of them is reviewed (none is lost with the killed
    process's memory), whatever the order the reviews ran in before."""
    monkeypatch.setenv("COMPANION_REVIEW_BUDGET", BUDGET)
    live = LiveServer(tmp_path / "data", tables=2, extra=["--board", "none"]).start()
    try:
        games = [
            end_a_game(live, "1", ["Ana", "Ben", "Cleo"]),
            end_a_game(live, "2", ["Dev", "Eli", "Fay"]),
        ]
        live.kill9()
        waiting = set(games) - stored_reviews(live.data)
        assert waiting, "every review was done before the kill: nothing was tested"
        live.start()
        wait_for(lambda: stored_reviews(live.data) >= set(games), "every game's review", 180)
    finally:
        live.stop()


def test_the_queue_keeps_game_order_tries_and_its_place_in_the_store(tmp_path: Path) -> None:
    """The store's side: games over since ``reviews_since`` are queued once, oldest first; a
    failure counts a try with its reason; a stored review takes its game out of the queue."""
    store = Store(tmp_path / "companion.sqlite3")
    try:
        store.create_table("1", "j", "h", {})
        ids = []
        for _ in range(3):
            gid = store.create_game("1", {"players": ["a", "b", "c"]}, [], [], "digital")
            store.set_game_status(gid, "ended")
            ids.append(gid)
        playing = store.create_game("1", {"players": ["a", "b", "c"]}, [], [], "digital")
        store.queue_reviews(time.time() + 3600)  # none went over since then
        assert store.review_queue() == []
        store.queue_reviews(0.0)
        store.queue_reviews(0.0)  # twice: each game once
        assert [q.game_id for q in store.review_queue()] == ids
        assert playing not in [q.game_id for q in store.review_queue()]
        assert store.next_review(3) == ids[0]
        for _ in range(3):
            store.review_failed(ids[0], "the log cannot be read")
        assert store.next_review(3) == ids[1]  # the failing one is left with its reason
        assert store.review_queued(ids[0]) == QueuedReview(
            attempts=3, last_error="the log cannot be read", ahead=0
        )
        queued = store.review_queued(ids[2])
        assert queued is not None and queued.ahead == 2
        store.save_review(ids[1], 5, {"players": {}, "decisions": []})
        assert [q.game_id for q in store.review_queue()] == [ids[0], ids[2]]
        store.queue_review(ids[0])  # asked again: its tries back
        assert store.next_review(3) == ids[0]
    finally:
        store.close()
