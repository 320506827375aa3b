"""Every finished game's review: computed off the tables' path, stored with the game.

When a table's game is over (finished, or ended by the host) the :class:`Reviewer` hears it
after the commit (a table subscriber, so under the table's lock it only queues the game id). Its
own thread reads the game's log and hands the decisions, a part at a time, to the companion
players' low-priority pool (players/thinker.py, nice 19): a bot of another table waits at
most one part, and no table's lock is held while a decision is rated. After each part the
table is told the progress ("review 40 %"); the finished review is stored (store.save_review)
and given to the table, whose frames show each phone its own part (table/frames.py).

The queue is the store's (``review_queue``), not this process's memory: games over are
found in the store at the start and after every game (``Store.queue_reviews``: every game
over since ``reviews_since`` without a review), and reviewed one at a time in game order. A
game leaves the queue with its stored review, in one transaction, so a ``kill -9`` in the
middle of a review, or with games waiting, only delays them; a burst of games drains later and
none is dropped. A review that fails is tried :data:`TRIES` times, then left with its error.

A stored review is never computed again: a restarted server gives it to the table from the
store. The café admin may ask for the review of an older game (:meth:`Reviewer.request`); it
is queued the same way and stored the same way.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Literal, TypedDict

from companion.engine import apply, game_from_document
from companion.players import reviewing
from companion.players.review import (
    DecisionReview,
    ReviewDocument,
    ReviewError,
    StoredReviewDocument,
)
from companion.store import DamagedRow, Store
from companion.store.documents import GameLog
from companion.store.migrations import REVIEWS_SINCE
from companion.store.results import companion_levels, engine_log, meta
from companion.table import Table
from companion.table.bot_driver import BotDriver
from companion.table.model import Outcome, ReviewRecord

log = logging.getLogger(__name__)
_SEEDS = random.SystemRandom()
TRIES = 3  # a game's review is tried this often (a damaged log fails every time)
LOOK_S = 60.0  # how often the queue is looked at with nothing said (a game over elsewhere)
REVIEW_TIMEOUT_S = 3600.0  # one review longer than this is given up (the pool is stuck)


class ReviewWorking(TypedDict):
    state: Literal["working"]
    progress: int  # percent of the decisions rated


class ReviewQueued(TypedDict):
    state: Literal["queued"]
    ahead: int  # games before it in the queue


class ReviewFailed(TypedDict):
    state: Literal["failed"]
    reason: str  # why its last try failed (it has failed every try)


# Where a review that is not stored stands (Reviewer.progress).
ReviewProgress = ReviewWorking | ReviewQueued | ReviewFailed


class ReviewJob(TypedDict):
    """A review under way in the pool: its game's log, the seed and playouts of its search,
    its decisions' command indices in parts, how many parts are rated, and their ratings."""

    game_id: int
    document: GameLog
    seed: int
    playouts: int
    parts: list[list[int]]
    done: int
    rated: list[DecisionReview]


def replay_steps(document: GameLog) -> list[int]:
    """For each command of a log, the replay's step that shows the moment before it (the
    admin replay makes one frame at the start and one per event, at least one a command)."""
    state = game_from_document(document)
    steps = []
    count = 1
    for command in document["commands"]:
        steps.append(count - 1)
        state, events = apply(state, command)
        count += max(1, len(events))
    return steps


class Reviewer:
    """Reviews the games of one café's tables in the companion players' pool."""

    def __init__(self, store: Store, bots: BotDriver, budget: float | None = None) -> None:
        self.store = store
        self.bots = bots
        self.budget = reviewing.cafe_budget() if budget is None else budget
        self.tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._running: dict[int, ReviewWorking] = {}  # game id -> progress of its review
        self._wake = threading.Event()  # a game went over, or the admin asked for one
        self._ended = threading.Event()  # the review under way has ended (stored or failed)
        self._error: BaseException | None = None  # why the review under way failed
        self._closed = False
        # Games over from then on are reviewed unasked (set at a new café's first start).
        self.since = float(store.meta_setdefault(REVIEWS_SINCE, repr(time.time())))
        self._thread = threading.Thread(target=self._loop, name="reviewer", daemon=True)

    def start(self) -> Reviewer:
        """Review what the store's queue holds, then every game as it goes over."""
        self._thread.start()
        self._wake.set()
        return self

    # -- tables ---------------------------------------------------------------------------
    def watch(self, table: Table) -> None:
        """Review the table's games as they end; a game over before this start shows its
        stored review (else the store's queue has it: it is reviewed in its turn)."""
        self.tables[table.name] = table
        table.subscribe(self._heard)
        with table.lock:
            g = table.game
            over = g is not None and g.status != "playing"
            gid = g.id if g is not None else None
        if over and gid is not None:
            try:
                stored = self.store.review(gid)
            except DamagedRow as damage:  # reviewed anew; the new one replaces it
                self.store.skipped(damage)
                self.request(gid)
                stored = None
            if stored is not None:
                table.set_review(self._ready(gid, stored.document))
            else:
                table.set_review({"game_id": gid, "state": "working", "progress": 0})

    def _heard(self, table: Table, outcome: Outcome) -> None:
        """A table subscriber (after each commit, under the table's lock): queue a game that
        has just gone over. Nothing slow here."""
        g = table.game
        if g is None or g.status == "playing" or outcome.reason == "review":
            return
        review = table.review
        if review is not None and review.get("game_id") == g.id:
            return  # already under way or done
        table.review = {"game_id": g.id, "state": "working", "progress": 0}
        self._wake.set()  # the reviewer finds the game in the store (it is over there)

    # -- requests -------------------------------------------------------------------------
    def request(self, game_id: int) -> bool:
        """Queue the review of a game that is over (in the store); False when it is already
        under way."""
        with self._lock:
            if game_id in self._running or self._closed:
                return False
        self.store.queue_review(game_id)
        self._wake.set()
        return True

    def progress(self, game_id: int) -> ReviewProgress | None:
        """``{"state": "working", "progress": 40}`` while a review runs, ``{"state":
        "queued", "ahead": 3}`` while it waits (``failed`` with the reason once it has
        failed every try), else None."""
        with self._lock:
            found = self._running.get(game_id)
            if found:
                return found.copy()
        queued = self.store.review_queued(game_id)
        if queued is None:
            return None
        if queued.attempts >= TRIES:
            return {"state": "failed", "reason": queued.last_error or "no answer"}
        return {"state": "queued", "ahead": queued.ahead}

    def _loop(self) -> None:
        """One review at a time, oldest game first, until the queue is empty; then wait for
        a game to go over (or look again after :data:`LOOK_S`)."""
        while not self._closed:
            self._wake.wait(LOOK_S)
            self._wake.clear()
            try:
                while not self._closed:
                    # Before each review: every game gone over meanwhile joins the queue.
                    self.store.queue_reviews(self.since)
                    game_id = self.store.next_review(TRIES)
                    if game_id is None:
                        break
                    self._review(game_id)
            except Exception:  # noqa: BLE001 - e.g. a full disk: look again later
                log.exception("the review queue could not be read")

    def _review(self, game_id: int) -> None:
        """Review one queued game and wait until it is stored or has failed (the failure is
        kept in the queue with its reason)."""
        with self._lock:
            self._running[game_id] = {"state": "working", "progress": 0}
        self._ended.clear()
        self._error = None
        self._tell(game_id, {"game_id": game_id, "state": "working", "progress": 0})
        try:
            self._start(game_id)
            deadline = time.monotonic() + REVIEW_TIMEOUT_S
            while not self._ended.wait(1.0):
                if self._wake.is_set():  # games gone over meanwhile wait in the store's queue
                    self._wake.clear()
                    self.store.queue_reviews(self.since)
                if time.monotonic() > deadline:
                    self._failed(game_id, TimeoutError(f"no answer in {REVIEW_TIMEOUT_S:.0f} s"))
        except DamagedRow as damage:  # its log cannot be read: named once, no traceback
            self.store.skipped(damage)
            self._failed(game_id, damage)
        except Exception as exc:  # noqa: BLE001 - one bad game must not stop the others
            log.exception("review of game %s could not start", game_id)
            self._failed(game_id, exc)
        if self._error is not None and not self._closed:
            self.store.review_failed(game_id, str(self._error) or type(self._error).__name__)

    def _start(self, game_id: int) -> None:
        """Read the log (no table lock held while rating) and send the first part. Finding
        the decisions replays the game: that runs in the pool too, never in the server's
        process, where it would hold up the reveals at the other tables (under gevent a
        thread that computes is a greenlet that never yields)."""
        try:
            stored = self.store.review(game_id)
        except DamagedRow as damage:  # reviewed anew: the new review replaces it
            self.store.skipped(damage)
            stored = None
        if stored is not None:  # stored meanwhile: never again
            self.store.unqueue_review(game_id)
            self._finish(game_id, stored.document, store=False)
            return
        document = self._document(game_id)
        seed = _SEEDS.getrandbits(31)

        def found(result: tuple[list[list[int]], int] | None, error: BaseException | None) -> None:
            if error is not None or result is None:
                log.error("review of game %s failed: %r", game_id, error)
                self._failed(game_id, error)
                return
            parts, playouts = result
            job: ReviewJob = {
                "game_id": game_id,
                "document": document,
                "seed": seed,
                "playouts": playouts,
                "parts": parts,
                "done": 0,
                "rated": [],
            }
            try:
                self._next(job)
            except Exception as exc:  # noqa: BLE001
                log.exception("review of game %s failed", game_id)
                self._failed(game_id, exc)

        self.bots.thinker.submit(reviewing.parts, document, self.budget, done=found)

    def _document(self, game_id: int) -> GameLog:
        stored = self.store.game(game_id)
        if stored is None:
            raise ReviewError(f"no game {game_id}")
        if stored.status == "playing":
            raise ReviewError(f"game {game_id} is still running: its log holds secrets")
        logged = self.store.commands(game_id)
        document, commands = engine_log(stored.document, [c.command for c in logged])
        levels = companion_levels((c.command, c.source) for c in logged)
        about = meta(stored.table_name, stored.created, stored.seats, levels)
        return {**document, "meta": about, "commands": commands}

    def _next(self, job: ReviewJob) -> None:
        """Send the next part to the pool, or finish."""
        if self._closed:
            return
        parts: list[list[int]] = job["parts"]
        if job["done"] == len(parts):

            def assembled(stored: StoredReviewDocument | None, error: BaseException | None) -> None:
                if error is not None or stored is None:
                    log.error("review of game %s failed: %r", job["game_id"], error)
                    self._failed(job["game_id"], error)
                    return
                try:
                    self.store.save_review(job["game_id"], job["seed"], stored)
                except Exception as exc:  # noqa: BLE001 - e.g. a full disk
                    log.exception("review of game %s not stored", job["game_id"])
                    self._failed(job["game_id"], exc)
                    return
                self._finish(job["game_id"], stored, store=True)

            self.bots.thinker.submit(
                stored_review,
                job["document"],
                job["seed"],
                self.budget,
                job["playouts"],
                job["rated"],
                done=assembled,
            )
            return

        def done(rated: list[DecisionReview] | None, error: BaseException | None) -> None:
            if error is not None or rated is None:
                log.error("review of game %s failed: %r", job["game_id"], error)
                self._failed(job["game_id"], error)
                return
            job["rated"].extend(rated)
            job["done"] += 1
            self._progress(job["game_id"], int(100 * job["done"] / len(parts)))
            try:
                self._next(job)
            except Exception as exc:  # noqa: BLE001
                log.exception("review of game %s failed", job["game_id"])
                self._failed(job["game_id"], exc)

        part = parts[job["done"]]
        self.bots.thinker.submit(
            reviewing.rate_part,
            job["document"],
            job["seed"],
            job["playouts"],
            part,
            done=done,
        )

    # -- telling ---------------------------------------------------------------------------
    def _table_of(self, game_id: int) -> Table | None:
        for table in self.tables.values():
            g = table.game
            if g is not None and g.id == game_id:
                return table
        return None

    def _progress(self, game_id: int, percent: int) -> None:
        with self._lock:
            if game_id in self._running:
                self._running[game_id] = {"state": "working", "progress": percent}
        self._tell(game_id, {"game_id": game_id, "state": "working", "progress": percent})

    def _failed(self, game_id: int, error: BaseException | None) -> None:
        with self._lock:
            self._running.pop(game_id, None)
        reason = str(error) if error is not None else "no answer"
        self._error = error if error is not None else RuntimeError(reason)
        self._ended.set()
        if not self._closed:
            self._tell(game_id, {"game_id": game_id, "state": "failed", "reason": reason})

    def _finish(self, game_id: int, document: StoredReviewDocument, store: bool) -> None:
        with self._lock:
            self._running.pop(game_id, None)
        self._ended.set()
        self._tell(game_id, self._ready(game_id, document))

    @staticmethod
    def _ready(game_id: int, document: StoredReviewDocument) -> ReviewRecord:
        return {"game_id": game_id, "state": "ready", "progress": 100, "document": document}

    def _tell(self, game_id: int, review: ReviewRecord) -> None:
        table = self._table_of(game_id)
        if table is not None:
            table.set_review(review)

    def close(self) -> None:
        """Stop after the review under way (its game stays queued in the store)."""
        self._closed = True
        self._wake.set()
        self._ended.set()


def stored_review(
    document: GameLog,
    seed: int,
    budget: float,
    playouts: int,
    rated: list[DecisionReview],
) -> StoredReviewDocument:
    """The review as stored (runs in the pool's process): the ratings assembled, with the
    replay step of each listed decision (frames link to that moment)."""
    review = reviewing.assemble(document, seed, budget, playouts, rated)
    # The same JSON, its dicts copied into the stored types (where what a review stored by
    # the older method lacks is optional: a ReviewDocument is not one as it is).
    return {
        **review,
        "players": {
            p: {**pr, "worst": [{**d} for d in pr["worst"]]} for p, pr in review["players"].items()
        },
        "decisions": [{**d} for d in review["decisions"]],
        "steps": _steps_of(document, review),
    }


def _steps_of(log_document: GameLog, review: ReviewDocument) -> dict[str, int]:
    """The replay step of every listed (worst) decision, by its command index."""
    steps = replay_steps(log_document)
    wanted = {d["index"] for p in review["players"].values() for d in p["worst"]}
    return {str(i): steps[i] for i in sorted(wanted) if i < len(steps)}
