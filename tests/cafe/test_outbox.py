"""The results outbox on a real SQLite file (created by the server's Store), outbound HTTP
stubbed with ``responses``: the body and its signature, retries with backoff, refusals, restarts
and a day offline."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import sqlite3
import time
from pathlib import Path

import pytest
import requests
import responses

from companion.cafe.outbox import Outbox, backoff, body_of
from companion.engine import apply_in_place, new_game
from companion.players.random_games import random_command, random_document
from companion.store import Store

URL = "https://cafe.example/chocolatl"
COLOURS = ["gold", "red", "green", "green"]
SECRET = "s3cret"
SEATS = [
    {"seat": "ana", "name": "Ana", "colour": "orange"},
    {"seat": "ben", "name": "Ben", "colour": "sky"},
    {"seat": "cleo", "name": "Cleo", "colour": "green"},
    {"seat": "dev", "name": "Dev", "colour": "yellow"},
]


class Clock:
    """The outbox's clock, moved by the test (it starts just before the games are stored)."""

    def __init__(self) -> None:
        self.t = time.time() - 1

    def __call__(self) -> float:
        return self.t


def store_game(store: Store, table: str, seed: int, finish: bool = True) -> tuple[int, dict]:
    """A random 4-player game stored as the server stores it: finished, or ended by the host
    after some commands."""
    rng = random.Random(seed)
    doc = random_document(rng, 4)
    # The table logs a track-colour correction before round 1 as its own command (R2.3); the
    # game is played on the corrected board (the colours decide each round's mode).
    state = new_game(doc["players"], doc["stack"], {"track_colors": COLOURS})
    doc["commands"] = []
    while not state["finished"]:
        command = random_command(state, rng)
        apply_in_place(state, command)
        doc["commands"].append(command)
    if not finish:
        doc["commands"] = doc["commands"][:30]
    if store.table(table) is None:
        store.create_table(table, "join", "host", {"dice": "digital"})
    game_id = store.create_game(
        table, {"players": doc["players"], "stack": doc["stack"]}, SEATS, [[], []], "digital"
    )
    stored = [{"type": "track_colors", "colors": COLOURS}, *doc["commands"]]
    store.append(game_id, 0, [(c, "test", None) for c in stored], "finished" if finish else None)
    if not finish:
        store.set_game_status(game_id, "ended")
    return game_id, doc


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "companion.sqlite3"


def test_finished_game_result_is_signed_and_complete(db: Path) -> None:
    clock = Clock()
    store = Store(db)
    outbox = Outbox(db, [URL], SECRET, titles={"oak": "Oak"}, clock=clock)
    game_id, doc = store_game(store, "oak", seed=3)
    assert outbox.reconcile() == 1
    assert outbox.reconcile() == 0, "a game is recorded once"
    with responses.RequestsMock() as rsps:
        rsps.post(URL, status=204)
        assert outbox.deliver_due() == 1
        sent = rsps.calls[0].request
    body = sent.body if isinstance(sent.body, bytes) else sent.body.encode()
    expected = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    assert sent.headers["X-Chocolatl-Signature"] == f"sha256={expected}"
    result = json.loads(body)
    # The engine's own end state of the same commands is the reference.
    state = new_game(doc["players"], doc["stack"], {"track_colors": COLOURS})
    for c in doc["commands"]:
        apply_in_place(state, c)
    assert result["status"] == "finished" and result["event"] == "game.finished"
    assert result["table"] == {"name": "oak", "title": "Oak"} and result["game_id"] == game_id
    assert result["winners"] == state["winners"] and result["winners"]
    assert [p["name"] for p in result["players"]] == ["Ana", "Ben", "Cleo", "Dev"]
    for p in result["players"]:
        final = state["players"][p["seat"]]["final"]
        assert p["final"] == final and p["score"] == final["total"]  # R7 lines and total
        assert p["winner"] == (p["seat"] in state["winners"])
    assert result["rounds_played"] == state["round"]
    assert sent.headers["Idempotency-Key"] == result["idempotency_key"]
    assert result["started_at"].endswith("Z") and result["ended_at"] >= result["started_at"]
    assert outbox.deliveries(game_id)[0]["state"] == "delivered"
    with responses.RequestsMock():
        assert outbox.deliver_due() == 0, "delivered once, not again"
    outbox.close()
    store.close()


def test_ended_game_has_track_scores_and_no_winner(db: Path) -> None:
    store = Store(db)
    outbox = Outbox(db, [URL], SECRET, clock=Clock())
    game_id, _ = store_game(store, "1", seed=5, finish=False)
    outbox.reconcile()
    result = outbox.result(game_id)
    assert result is not None
    assert result["status"] == "ended" and result["winners"] == []
    assert all(p["final"] is None and p["score"] == p["track"] for p in result["players"])
    outbox.close()
    store.close()


def test_failures_retry_with_growing_jittered_delays_across_restarts(db: Path) -> None:
    clock = Clock()
    store = Store(db)
    outbox = Outbox(db, [URL], SECRET, clock=clock, first_retry=5.0)
    game_id, _ = store_game(store, "1", seed=7)
    outbox.reconcile()
    bodies: list[bytes] = []
    delays: list[float] = []
    with responses.RequestsMock() as rsps:
        rsps.post(URL, status=503)
        for attempt in range(1, 6):
            assert outbox.deliver_due() == 1
            d = outbox.deliveries(game_id)[0]
            assert d["state"] == "pending" and d["attempts"] == attempt
            assert d["last_error"] == "HTTP 503"
            delay = d["next_at"] - clock.t
            ceiling = min(900.0, 5.0 * 2 ** (attempt - 1))
            assert ceiling / 2 <= delay <= ceiling, (attempt, delay)
            delays.append(delay)
            assert outbox.deliver_due() == 0, "not before its time"
            clock.t += delay
            bodies.append(rsps.calls[-1].request.body)
    assert delays[-1] > delays[0]
    assert len(set(bodies)) == 1, "every retry sends the same signed bytes"
    outbox.close()
    # The server restarts and the endpoint is down for a whole day: the result waits.
    outbox = Outbox(db, [URL], SECRET, clock=clock)
    assert outbox.reconcile() == 0
    with responses.RequestsMock() as rsps:
        rsps.post(URL, body=requests.ConnectionError("down"))
        end = clock.t + 24 * 3600
        while clock.t < end:
            clock.t = max(clock.t, outbox.next_due() or clock.t)
            outbox.deliver_due()
        d = outbox.deliveries(game_id)[0]
        assert d["state"] == "pending" and d["last_error"] == "ConnectionError"
        assert d["next_at"] - clock.t <= 900.0, "delays stop growing at 15 minutes"
    with responses.RequestsMock() as rsps:
        rsps.post(URL, status=200)
        clock.t = outbox.next_due() or clock.t
        assert outbox.deliver_due() == 1
        assert rsps.calls[0].request.body == bodies[0]
    assert outbox.deliveries(game_id)[0]["state"] == "delivered"
    outbox.close()
    store.close()


def test_a_client_error_is_a_final_refusal_but_429_is_retried(db: Path) -> None:
    clock = Clock()
    store = Store(db)
    urls = [URL, URL + "/2", URL + "/3"]
    outbox = Outbox(db, urls, SECRET, clock=clock)
    game_id, _ = store_game(store, "1", seed=9)
    outbox.reconcile()
    with responses.RequestsMock() as rsps:
        rsps.post(URL, status=400)
        rsps.post(URL + "/2", status=429)
        rsps.post(URL + "/3", status=301, headers={"Location": "https://elsewhere.example/"})
        assert outbox.deliver_due() == 3
    states = {d["url"]: d["state"] for d in outbox.deliveries(game_id)}
    assert states == {URL: "failed", URL + "/2": "pending", URL + "/3": "failed"}
    outbox.close()
    store.close()


def test_games_over_before_the_outbox_existed_are_history_not_webhooks(db: Path) -> None:
    clock = Clock()
    store = Store(db)
    old_id, _ = store_game(store, "1", seed=11)
    clock.t = time.time() + 60  # the outbox arrives later than that game
    outbox = Outbox(db, [URL], SECRET, clock=clock)
    assert outbox.reconcile() == 1
    assert outbox.result(old_id) is not None and outbox.deliveries(old_id) == []
    outbox.close()
    store.close()


def test_webhooks_need_a_secret(db: Path) -> None:
    Store(db).close()
    with pytest.raises(ValueError, match="secret"):
        Outbox(db, [URL], None)


def test_backoff_is_exponential_capped_and_jittered() -> None:
    assert [backoff(n, 5.0, rand=lambda: 1.0) for n in (1, 2, 3, 4)] == [5.0, 10.0, 20.0, 40.0]
    assert backoff(50, 5.0, rand=lambda: 1.0) == 900.0
    assert backoff(1, 5.0, rand=lambda: 0.0) == 2.5
    assert body_of({"b": 1, "a": "é"}) == '{"a":"é","b":1}'.encode()


def test_a_broken_log_never_blocks_the_others_and_is_reported_once(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store(db)
    outbox = Outbox(db, [URL], SECRET, clock=Clock())
    store.create_table("1", "join", "host", {"dice": "digital"})
    bad = store.create_game(
        "1", {"players": ["ana", "ben", "cleo"]}, SEATS[:3], [[], []], "digital"
    )
    store.append(bad, 0, [({"type": "bid", "player": "nobody"}, "test", None)], "finished")
    good, _ = store_game(store, "1", seed=13)
    assert outbox.reconcile() == 1
    assert outbox.result(good) is not None and outbox.result(bad) is None
    assert outbox.reconcile() == 0
    errors = [r for r in caplog.records if "could not be recorded" in r.getMessage()]
    assert len(errors) == 1
    outbox.close()
    store.close()


def test_a_damaged_result_or_delivery_is_skipped_and_named_the_rest_delivered(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A delivery whose result document or own row cannot be read (a disk fault, a hand
    edit) is left out and named once with its id (log; the store's list the admin page
    shows); every other result still goes out, and the damaged rows stay as they were."""
    clock = Clock()
    store = Store(db)
    outbox = Outbox(db, [URL], SECRET, clock=clock)
    ids = [store_game(store, "oak", seed=20 + i)[0] for i in range(4)]
    assert outbox.reconcile() == 4
    bad_result, bad_delivery = ids[0], ids[2]
    raw = sqlite3.connect(db)
    with raw:
        raw.execute(
            'UPDATE results SET result = \'{"game_id": 1, "pla\' WHERE game_id = ?', (bad_result,)
        )
        raw.execute("UPDATE outbox SET attempts = 'x' WHERE game_id = ?", (bad_delivery,))
        (row_id,) = raw.execute(
            "SELECT id FROM outbox WHERE game_id = ?", (bad_delivery,)
        ).fetchone()
    raw.close()
    with responses.RequestsMock() as rsps:
        rsps.post(URL, status=204)
        assert outbox.deliver_due() == 2
        sent = sorted(json.loads(c.request.body)["game_id"] for c in rsps.calls)
    assert sent == [ids[1], ids[3]]
    for gid in (ids[1], ids[3]):
        assert outbox.deliveries(gid)[0]["state"] == "delivered"
    for gid in (bad_result, bad_delivery):  # left as they were, not marked anything
        assert outbox.deliveries(gid)[0]["state"] == "pending"
    damaged = {(d["kind"], d["id"]): d["reason"] for d in outbox.store.damaged()}
    assert set(damaged) == {("result", str(bad_result)), ("delivery", str(row_id))}
    assert "bad JSON" in damaged[("result", str(bad_result))]
    assert "attempts" in damaged[("delivery", str(row_id))]
    # Not picked again (no attempt, no new log line) and no courier kept waking for them.
    with responses.RequestsMock():
        assert outbox.deliver_due() == 0
    assert outbox.next_due() is None
    logged = [r.getMessage() for r in caplog.records if "cannot be read" in r.getMessage()]
    assert len(logged) == 2, logged
    assert any(f"the result of game {bad_result} cannot be read" in m for m in logged)
    assert any(f"webhook delivery {row_id} cannot be read" in m for m in logged)
    outbox.close()
    store.close()
