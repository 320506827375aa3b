"""Results leave the table: a durable outbox of webhook deliveries in the server's SQLite file.

When a game is over (finished, or ended by the host) its result (companion.store.results) is
written through the store (companion.store, the database's one owner) to the ``results``
table and one ``outbox`` row per webhook URL, in one transaction, by the recorder thread,
which never waits for the network: the history and the leaderboard show a game at once
whatever the endpoints do. One courier thread per webhook URL (so at most as many as URLs are
configured) posts that URL's due rows with ``requests``, signed with
``X-Chocolatl-Signature: sha256=<hex HMAC-SHA256 of the body>``, and retries failures with
exponential backoff and full jitter (capped at 15 minutes) for up to a week, so a café endpoint
that is down for a day, or a Pi that restarts meanwhile, still gets every result: at least once
(receivers de-duplicate on ``idempotency_key``). A slow or hanging endpoint holds up only its
own courier: every attempt has a total deadline (``DEADLINE_S``, connection to answer's
headers; the answer's body is not read), after which its socket is shut and the attempt counts
as failed. A 2xx answer is delivered; 3xx and 4xx other than 408/425/429 are final refusals.

Games are found by reconciling the store's games, not by a callback alone: a game that went
over just before a crash is picked up at the next start. ``notify()`` only makes it prompt.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import threading
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from companion.store import Store
from companion.store.database import StoredGame
from companion.store.documents import ResultDocument
from companion.store.results import build_result
from companion.store.rows import DueDelivery, ResultRow

if TYPE_CHECKING:  # requests is imported with the first attempt (http_post.py)
    import requests

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Chocolatl-Signature"
FIRST_RETRY_S = 5.0
MAX_DELAY_S = 15 * 60.0
GIVE_UP_AFTER_S = 7 * 24 * 3600.0  # well past "a day offline"
DEADLINE_S = 20.0  # one whole attempt, however the endpoint drips its answer
RECONCILE_EVERY_S = 2.0
PRUNE_EVERY_S = 3600.0


def signature(secret: str, body: bytes) -> str:
    """The signature header's value: ``sha256=`` and the hex HMAC-SHA256 of the exact body.

    >>> signature("k", b"{}")
    'sha256=add853b103fbcc936a194f9eb15e29c4ff08af6e47d5d1bca4f20218e31e4fff'
    """
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def backoff(
    attempts: int,
    first: float = FIRST_RETRY_S,
    cap: float = MAX_DELAY_S,
    rand: Callable[[], float] = random.random,
) -> float:
    """Delay before retry number ``attempts`` (1 = the first retry): exponential, capped,
    with full jitter so many tables coming back online do not retry in step.

    >>> backoff(1, rand=lambda: 1.0), backoff(3, rand=lambda: 1.0), backoff(30, rand=lambda: 1.0)
    (5.0, 20.0, 900.0)
    >>> 2.5 <= backoff(1) <= 5.0
    True
    """
    ceiling: float = min(cap, first * 2 ** max(0, attempts - 1))
    return ceiling * (0.5 + 0.5 * rand())


class DeliveryState(TypedDict):
    """A result's delivery to one webhook, for the host page (PROTOCOL.md "Result webhooks"):
    ``next_at`` only while it is pending; times are epoch seconds."""

    url: str
    state: str  # pending, delivered or failed
    attempts: int
    next_at: float | None
    last_error: str | None
    delivered_at: float | None


def body_of(result: ResultDocument) -> bytes:
    """The exact bytes that are signed and sent (the same on every retry)."""
    return json.dumps(result, separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode(
        "utf-8"
    )


class Outbox:
    """Results and webhook deliveries of one database; ``start()`` runs the recorder thread
    and one courier thread per webhook URL."""

    def __init__(
        self,
        database: str | Path | Store,
        urls: list[str] | None = None,
        secret: str | None = None,
        titles: dict[str, str] | None = None,
        first_retry: float = FIRST_RETRY_S,
        session: requests.Session | None = None,
        clock: Callable[[], float] = time.time,
        retention_days: int | None = None,
        delete_games: Callable[[list[int]], list[int]] | None = None,
        deadline: float | None = None,
        ahead: Callable[[], Collection[int]] | None = None,
    ) -> None:
        self.urls = list(urls or [])
        # The games over in the store whose end the table's screens have not shown yet
        # (web/shown.py): recorded and sent once the winner's moment has been, never before.
        self.ahead = ahead
        if self.urls and not secret:
            raise ValueError("webhooks need a secret to sign with (--webhook-secret)")
        self.secret = secret or ""
        self.titles = titles or {}
        self.first_retry = first_retry
        self._session = session  # made with the first attempt (None: not yet)
        self.deadline = DEADLINE_S if deadline is None else deadline
        self.clock = clock
        self.retention_days = retention_days
        self.delete_games = delete_games
        self._pruned_at = float("-inf")
        self._broken: set[int] = set()  # games whose log cannot be replayed (logged once)
        # Its own store (connection) on the path, so history reads never wait on the tables'.
        self._owns_store = not isinstance(database, Store)
        self.store = Store(database) if not isinstance(database, Store) else database
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._couriers: dict[str, tuple[threading.Thread, threading.Event]] = {}
        # Webhooks are sent for games over from now on, not for a database's old history.
        self._since_at = float(self.store.meta_setdefault("results_since", repr(self.clock())))

    # -- results ------------------------------------------------------------------------
    def _since(self) -> float:
        return self._since_at

    def reconcile(self) -> int:
        """Record every game that is over and has no result yet; queue its webhooks. Returns
        how many games were recorded."""
        count = 0
        ahead = set(self.ahead()) if self.ahead is not None else set()
        for game in self.store.games_over_unrecorded():
            if game.id in self._broken or game.id in ahead:
                continue
            try:
                self._record(game)
                count += 1
            except Exception:  # noqa: BLE001 - one broken game must not stop the others
                # Logged once per run, not at every look (the log would fill the card).
                self._broken.add(game.id)
                log.exception("results: game %s could not be recorded", game.id)
        return count

    def _record(self, game: StoredGame) -> None:
        now = self.clock()
        cmds = self.store.commands(game.id)
        since = self._since()
        status = game.status
        last_at = max([game.created, *(c.at for c in cmds)])
        # The store keeps when the game went over (final command or host's end); a game over
        # before it did so (an older database) falls back to its last command, or now.
        if game.ended is not None:
            ended = game.ended
        else:
            ended = last_at if status == "finished" else max(last_at, now)
        result = build_result(
            table=game.table_name,
            title=self.titles.get(game.table_name, f"Table {game.table_name}"),
            game_id=game.id,
            status=status,
            created=game.created,
            ended=ended,
            document=game.document,
            seats=game.seats,
            logged=[(c.n, c.command, c.source) for c in cmds],
            takeovers=self.store.takeovers(game.id),
        )
        # Sent when the game moved on after the outbox existed (not a database's old history).
        urls = self.urls if last_at >= since else []
        self.store.record_result(game, ended, result, urls, now)
        if urls:
            self._wake_couriers()

    def prune(self, days: int, delete_games: Callable[[list[int]], list[int]]) -> int:
        """Retention: forget games that ended more than ``days`` days ago — their results,
        deliveries, and (through ``delete_games``, the store's) the games and their logs."""
        cutoff = self.clock() - days * 86400.0
        old = self.store.results_before(cutoff)
        if not old:
            return 0
        deleted = delete_games(old)
        self.store.delete_results(deleted)
        if deleted:
            log.info("retention: deleted %d games older than %d days", len(deleted), days)
        return len(deleted)

    def result(self, game_id: int) -> ResultDocument | None:
        return self.store.result(game_id)

    def results_of(self, table: str, limit: int = 50) -> list[ResultRow]:
        """The table's latest results (newest first), without the documents."""
        return self.store.results_of(table, limit)

    # -- deliveries ---------------------------------------------------------------------
    def deliveries(self, game_id: int) -> list[DeliveryState]:
        """The delivery state of a game's result to each webhook (for the host page)."""
        rows = self.store.deliveries(game_id)
        return [
            {
                "url": r.url,
                "state": r.state,
                "attempts": r.attempts,
                "next_at": r.next_at if r.state == "pending" else None,
                "last_error": r.last_error,
                "delivered_at": r.delivered_at,
            }
            for r in rows
        ]

    def deliver_due(self, url: str | None = None) -> int:
        """Post every delivery that is due now (to ``url`` only, when given: a courier's
        share); returns how many were attempted. A delivery whose row or result cannot be
        read is skipped and reported by the store (logged once with its id; the admin page
        names a damaged result); the others go out."""
        rows = self._due_rows(self.clock(), url)
        rows = [r for r in rows if r.url in self.urls]  # a removed URL waits, shown as such
        for row in rows:
            if self._stop.is_set():
                break
            self._attempt(row)
        return len(rows)

    @property
    def session(self) -> requests.Session:
        """The HTTP session the couriers post with, made on first use: ``requests`` (with
        urllib3, about 50 ms of CPU, more on a Pi) is imported only by a server that has a
        result to send, not by every start."""
        if self._session is None:
            from companion.cafe.http_post import deadline_session

            self._session = deadline_session()
        return self._session

    def _attempt(self, row: DueDelivery) -> None:
        import requests

        from companion.cafe.http_post import DeadlinePassed, post_with_deadline

        body = body_of(row.result)
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "chocolatl-companion",
            SIGNATURE_HEADER: signature(self.secret, body),
            "Idempotency-Key": row.result["idempotency_key"],
        }
        error: str | None = None
        permanent = False
        try:
            status = post_with_deadline(self.session, row.url, body, headers, self.deadline)
            if not 200 <= status < 300:
                error = f"HTTP {status}"
                # Redirects are not followed (the body is signed for one URL): configure the
                # final URL. Client errors other than "try later" are final refusals.
                permanent = 300 <= status < 500 and status not in (408, 425, 429)
        except DeadlinePassed as exc:
            error = str(exc)
        except requests.RequestException as exc:
            error = type(exc).__name__
        now = self.clock()
        attempts = row.attempts + 1
        if error is None:
            self._mark_delivered(row.id, attempts, now)
        elif permanent or now - row.ended > GIVE_UP_AFTER_S:
            self._mark_failed(row.id, attempts, error)
        else:
            self._mark_retry(row.id, attempts, error, now + backoff(attempts, self.first_retry))
        if error:
            log.warning(
                "webhook %s, game %s: %s (attempt %d)", row.url, row.game_id, error, attempts
            )

    def next_due(self, url: str | None = None) -> float | None:
        """When the next pending delivery (to ``url``, when given) is due; None: none is."""
        due = [t for u, t in self._next_due_per_url() if u in self.urls and url in (None, u)]
        return min(due) if due else None

    # -- the outbox's rows, through the store --------------------------------------------
    def _due_rows(self, now: float, url: str | None) -> list[DueDelivery]:
        return self.store.due_deliveries(now, url)

    def _next_due_per_url(self) -> list[tuple[str, float]]:
        return list(self.store.next_due_by_url().items())

    def _mark_delivered(self, row_id: int, attempts: int, now: float) -> None:
        self.store.delivery_delivered(row_id, attempts, now)

    def _mark_failed(self, row_id: int, attempts: int, error: str) -> None:
        self.store.delivery_failed(row_id, attempts, error)

    def _mark_retry(self, row_id: int, attempts: int, error: str, next_at: float) -> None:
        self.store.delivery_retry(row_id, attempts, error, next_at)

    # -- the recorder and the couriers -------------------------------------------------
    def notify(self) -> None:
        """A game may just have ended: look now rather than at the next round."""
        self._wake.set()

    def start(self) -> Outbox:
        self._thread = threading.Thread(target=self._run, name="outbox", daemon=True)
        self._thread.start()
        for url in self.urls:  # bounded: one per configured URL
            wake = threading.Event()
            courier = threading.Thread(
                target=self._courier, args=(url, wake), name=f"outbox-courier-{url}", daemon=True
            )
            self._couriers[url] = (courier, wake)
            courier.start()
        return self

    def _wake_couriers(self) -> None:
        for _thread, wake in self._couriers.values():
            wake.set()

    def _run(self) -> None:
        """The recorder: results and outbox rows at once, retention now and then. It never
        waits for an endpoint (the couriers do)."""
        while not self._stop.is_set():
            try:
                self.reconcile()
                if (
                    self.retention_days
                    and self.delete_games
                    and time.monotonic() - self._pruned_at > PRUNE_EVERY_S
                ):
                    self._pruned_at = time.monotonic()
                    self.prune(self.retention_days, self.delete_games)
            except Exception:  # noqa: BLE001 - the recorder never dies; the games stay
                log.exception("outbox")
            self._wake.wait(RECONCILE_EVERY_S)
            self._wake.clear()

    def _courier(self, url: str, wake: threading.Event) -> None:
        """Deliveries to one URL, one at a time: a slow endpoint delays only its own."""
        while not self._stop.is_set():
            try:
                self.deliver_due(url)
                due = self.next_due(url)
            except Exception:  # noqa: BLE001 - the courier never dies; the rows stay
                log.exception("outbox courier %s", url)
                due = None
            wait = RECONCILE_EVERY_S
            if due is not None:
                wait = max(0.05, min(wait, due - self.clock()))
            wake.wait(wait)
            wake.clear()

    def close(self, wait: float = 2.0) -> None:
        """Stop the recorder and the couriers. A delivery still in flight after ``wait``
        seconds is left to the process exit: its row stays pending and goes out again after
        the restart."""
        self._stop.set()
        self._wake.set()
        self._wake_couriers()
        until = time.monotonic() + wait
        threads = [t for t, _wake in self._couriers.values()]
        if self._thread is not None:
            threads.append(self._thread)
        for thread in threads:
            thread.join(timeout=max(0.0, until - time.monotonic()))
            if thread.is_alive():
                return
        if self._owns_store:
            self.store.close()
