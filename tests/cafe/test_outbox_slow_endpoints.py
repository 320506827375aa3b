"""Slow, dripping and hanging webhook endpoints (real HTTP servers on 127.0.0.1, a real SQLite
file): a finished game reaches the results (history, leaderboard, outbox rows) at once, every
delivery attempt ends by its total deadline, and one endpoint never holds up another.

Each check is an order of events, never a number of seconds: the new game is in the results
before the slow endpoint has been sent it, and an attempt ends while its endpoint is still
holding the answer back."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for

from companion.cafe import outbox as outbox_module
from companion.cafe.outbox import Outbox
from companion.store import Store

from .test_outbox import SECRET, store_game

BOUND_S = 60.0  # no endpoint here holds a connection longer than this


class Endpoint:
    """A webhook receiver on 127.0.0.1 that answers in one of four ways: ``ok`` (200 at
    once), ``drip`` (200 and headers at once, then one body byte every ``pace`` s),
    ``drip-head`` (the status line itself one byte every ``pace`` s) or ``hang`` (reads the
    request, never answers)."""

    def __init__(self, mode: str, pace: float = 0.5) -> None:
        self.mode = mode
        self.posts: list[tuple[float, bytes]] = []
        self.stop = threading.Event()
        # Set once an answer went out to its end (not cut off by the companion): until then
        # the endpoint is still holding the request.
        self.answered = threading.Event()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                endpoint.posts.append((time.monotonic(), body))
                try:
                    endpoint.answer(self, pace)
                except OSError:
                    return  # the companion gave up on us
                endpoint.answered.set()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def answer(self, handler: BaseHTTPRequestHandler, pace: float) -> None:
        until = time.monotonic() + BOUND_S
        if self.mode == "ok":
            handler.send_response(200)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
        elif self.mode == "drip":
            handler.send_response(200)
            handler.send_header("Content-Length", "100000")
            handler.end_headers()
            handler.wfile.flush()
            while time.monotonic() < until and not self.stop.wait(pace):
                handler.wfile.write(b"x")
                handler.wfile.flush()
        elif self.mode == "drip-head":
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"y" * 10_000:
                if time.monotonic() > until or self.stop.wait(pace):
                    break
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
        else:  # hang
            self.stop.wait(BOUND_S)
        handler.close_connection = True

    def bodies(self) -> list[bytes]:
        return [body for _at, body in self.posts]

    def close(self) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoints() -> Iterator[Callable[[str], Endpoint]]:
    made: list[Endpoint] = []

    def make(mode: str) -> Endpoint:
        made.append(Endpoint(mode))
        return made[-1]

    yield make
    for e in made:
        e.close()


def recorded(outbox: Outbox, game_id: int, urls: int) -> bool:
    """In the results (what the history and leaderboard read) with its outbox rows."""
    return outbox.result(game_id) is not None and len(outbox.deliveries(game_id)) == urls


def idempotency_keys(endpoint: Endpoint) -> set[str]:
    return {json.loads(b)["idempotency_key"] for b in endpoint.bodies()}


@pytest.mark.parametrize("slow_mode", ["drip", "hang"])
def test_a_slow_endpoint_holds_up_neither_new_results_nor_other_endpoints(
    tmp_path: Path, endpoints: Callable[[str], Endpoint], slow_mode: str
) -> None:
    db = tmp_path / "companion.sqlite3"
    store = Store(db)
    slow, fast = endpoints(slow_mode), endpoints("ok")
    outbox = Outbox(db, [slow.url, fast.url], SECRET).start()
    try:
        # Eight results wait while the slow endpoint holds the first one.
        first = [store_game(store, "1", seed=s)[0] for s in range(8)]
        outbox.notify()
        wait_for(lambda: slow.posts, "the slow endpoint got a result", 10)
        game_id, _ = store_game(store, "1", seed=99)
        outbox.notify()
        wait_for(lambda: recorded(outbox, game_id, 2), "the new game recorded", 30)
        if slow_mode == "hang":
            # Recorded while the hanging endpoint still holds the first of the eight results
            # ahead of it (each attempt may take DEADLINE_S): results never wait for it.
            assert len(slow.posts) == 1 and not slow.answered.is_set(), len(slow.posts)
        assert [r.game_id for r in outbox.results_of("1", limit=1)] == [game_id]
        # The other endpoint gets every result while the slow one still holds its first.
        wait_for(lambda: len(fast.posts) == 9, "all nine at the healthy endpoint", 10)
        assert len(idempotency_keys(fast)) == 9
        if slow_mode == "drip":
            # A 200 whose body drips is a delivery: the status decides, the body is not read.
            wait_for(
                lambda: all(outbox.deliveries(g)[0]["state"] == "delivered" for g in first),
                "the dripping endpoint's results delivered",
                10,
            )
            assert not slow.answered.is_set(), "delivered only once the body had dripped"
    finally:
        outbox.close()
        store.close()


@pytest.mark.parametrize("mode", ["hang", "drip-head"])
def test_every_attempt_ends_by_its_total_deadline(
    tmp_path: Path,
    endpoints: Callable[[str], Endpoint],
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
) -> None:
    # 1.5 s for the whole attempt, though the answer's bytes are never 10 s apart.
    monkeypatch.setattr(outbox_module, "DEADLINE_S", 1.5, raising=False)
    db = tmp_path / "companion.sqlite3"
    store = Store(db)
    slow = endpoints(mode)
    outbox = Outbox(db, [slow.url], SECRET, first_retry=60.0).start()
    try:
        game_id, _ = store_game(store, "1", seed=3)
        outbox.notify()
        wait_for(lambda: slow.posts, "the endpoint got the result", 10)
        # The endpoint would hold the request for BOUND_S (60 s): the attempt ends long
        # before, by its own deadline, while the endpoint has not answered.
        wait_for(lambda: outbox.deliveries(game_id)[0]["attempts"] == 1, "the attempt ended", 30)
        assert not slow.answered.is_set(), "the attempt waited for the endpoint's answer"
        d = outbox.deliveries(game_id)[0]
        assert d["state"] == "pending", "a deadline is a failure to retry, not a refusal"
        assert d["last_error"] == "no answer within 1.5 s"
        assert d["next_at"] > time.time() + 20, "retried later with backoff"
    finally:
        outbox.close()
        store.close()
