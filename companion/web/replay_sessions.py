"""Open replays of finished games, each a session that display pages follow (the café admin's
and a table's phones' alike), and the built games behind them. The app owns one
:class:`Replays` (``services.replays_of``); each replay's frames come from
``companion.table.replay_frames``; ``replay_routes`` serves the one step route and socket.

A replay may also *play*: each command of the game comes up as the live show put it up, one
frame with the command's events and a ``show`` block made as the live stage makes it
(``show.block``: the same beats, the same seconds at the same pace), so the display walks
through the beats exactly as at the table (DESIGN.md "The show"). The page keeps the clock.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from companion.engine import Event, visible_events
from companion.engine.story import Story, game_story
from companion.store import DamagedRow
from companion.store.database import StoredGame
from companion.store.documents import GameDocument, LoggedCommand
from companion.store.results import companion_levels, engine_log
from companion.store.rows import GameSeat
from companion.table import replay_frames as render
from companion.table import show as beats
from companion.table.frame_types import Chapter, ReplayFrame, ShowInfo
from companion.table.staging import beat_views
from companion.web.connections import WsConnection
from companion.web.guard import GuessThrottle

MAX_REPLAYS = 100  # open replays of everybody: the oldest is forgotten past this ("expired")
PER_OPENER = {"admin": 20, "table": 2}  # open replays kept per opener (the admin; a token)
CACHE_BYTES = 48 * 1024 * 1024  # built replays kept, as the JSON size of their frames
BUILD_WAIT_S = 60.0  # a build that takes longer is given up (the page answers 503)
# Opens of a table's replay per token: a burst of 4, then one every 5 s (a phone opens one
# moment of its review at a time; every open was a whole build before the cache).
OPEN_RATE, OPEN_BURST = 0.2, 4
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Built:
    """A finished game's replay, built once and never changed: shared by every page that
    opens it (a :class:`Replay` keeps only its own step and displays)."""

    frames: list[ReplayFrame]
    steps: list[list[Event]]
    chapters: list[Chapter]
    size: int  # bytes of the frames as JSON: what the cache counts
    story: Story | None = None  # the game's story, told at its end as live


class ReplayJob(TypedDict):
    """What a replay is built from, as plain data the companion players' pool can be handed."""

    table: str
    title: str
    lang: str
    game_id: int
    document: GameDocument
    seats: list[GameSeat]
    status: Literal["finished", "ended"]
    logged: list[tuple[LoggedCommand, str]]  # (command, source)
    display_url: str


# A built replay's key: the game, its status, and the title, language and page it shows.
BuildKey = tuple[int, str, str, str, str]


def build(game: ReplayJob) -> Built:
    """Build a finished game's replay from its stored log (runs in the companion players'
    pool, players/thinker.py: a whole game's frames take tens of milliseconds, which the
    server's shared event loop must not spend). ``game`` holds the table's name, title and
    language, the game's id, stored document, seats and status, the logged ``(command,
    source)`` pairs and the display page's URL."""
    logged = game["logged"]
    levels = companion_levels((command, source) for command, source in logged)
    document, commands = engine_log(game["document"], [command for command, _ in logged])
    frames = render.replay_frames(
        table=game["table"],
        title=game["title"],
        lang=game["lang"],
        game_id=game["game_id"],
        document=document,
        seats=[{**s, "companion": levels.get(s["seat"])} for s in game["seats"]],
        status=game["status"],
        commands=commands,
        urls={"display": game["display_url"]},
    )
    size = len(json.dumps(frames, separators=(",", ":")))
    story = game_story({**document, "commands": commands})
    return Built(
        frames, render.replay_steps(document, commands), render.chapters(frames), size, story
    )


class BuildFailed(RuntimeError):
    """The replay could not be built (the pool failed or took too long)."""


class Builds:
    """Built replays by game (and the title, language and URL they show), least recently used
    first, within :data:`CACHE_BYTES`. One build per game at a time: a second opener waits
    for the first one's."""

    def __init__(self, limit_bytes: int = CACHE_BYTES) -> None:
        self.limit_bytes = limit_bytes
        self._built: OrderedDict[BuildKey, Built] = OrderedDict()
        self._running: dict[BuildKey, Future[Built]] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    def get(
        self,
        key: BuildKey,
        game: Callable[[], ReplayJob],
        run: Callable[[ReplayJob], Future[Built]] | None,
    ) -> Built:
        """The replay of ``key``, built by ``run`` (the pool; None: here) from ``game()``."""
        with self._lock:
            found = self._built.get(key)
            if found is not None:
                self._built.move_to_end(key)
                return found
            future = self._running.get(key)
            mine = future is None
            if future is None:
                future = self._running[key] = Future()
        if not mine:
            return _wait(future)
        try:
            built = build(game()) if run is None else _wait(run(game()))
        except DamagedRow:
            # A stored row that cannot be read is named as such (the admin's 409), not as
            # a failed build; nothing is cached for it.
            with self._lock:
                self._running.pop(key, None)
            future.set_exception(BuildFailed(f"game {key[0]} has a damaged row"))
            raise
        except Exception as exc:  # noqa: BLE001 - a pool that is gone, a log that fails
            failed = exc if isinstance(exc, BuildFailed) else BuildFailed(f"{exc!r}")
            log.warning("replay %s could not be built: %s", key[0], failed)
            with self._lock:
                self._running.pop(key, None)
            future.set_exception(failed)
            raise failed from None
        with self._lock:
            self._running.pop(key, None)
            if built.size <= self.limit_bytes:
                self._built[key] = built
                self._bytes += built.size
                while self._bytes > self.limit_bytes:
                    _key, old = self._built.popitem(last=False)
                    self._bytes -= old.size
        future.set_result(built)
        return built

    @property
    def bytes(self) -> int:
        with self._lock:
            return self._bytes


def _wait(future: Future[Built]) -> Built:
    try:
        return future.result(timeout=BUILD_WAIT_S)
    except TimeoutError:
        raise BuildFailed(f"the replay took more than {BUILD_WAIT_S:g} s to build") from None
    except BuildFailed:
        raise
    except Exception as exc:  # noqa: BLE001 - the pool's failure, named for the page
        raise BuildFailed(f"the replay could not be built: {exc!r}") from None


class Played(TypedDict):
    """A played step's answer: the step shown, of how many, and the show block it plays."""

    step: int
    steps: int
    show: ShowInfo


class BadPlay(ValueError):
    """A play request the replay cannot follow (an unknown pace, a replay without steps)."""


class Replay:
    """One finished game on display pages: a view frame per event, with the events of its
    round so far as ``history`` (the display renders it as on a reload). ``steps`` are the
    game's commands' events (``replay_frames.replay_steps``), which playing needs."""

    def __init__(
        self,
        frames: list[ReplayFrame],
        steps: list[list[Event]] | None = None,
        story: Story | None = None,
    ) -> None:
        self.frames = frames  # shared with other replays of the same game: never changed
        self.steps = steps
        self.story = story  # played to its end, the game tells it, as live
        self.step = 0  # a replay starts at the beginning
        self.playing: int | None = None  # the command whose show frame is up, if one is
        self.conns: list[WsConnection] = []
        self.lock = threading.Lock()
        self.used = time.monotonic()  # when the last frame went out
        self.current: ReplayFrame = frames[0]  # the last frame sent (the step shown)
        # Frame k belongs to command owner[k] (0: the start); command n's frames start at
        # first[n]: one frame per event, one for a command without events.
        self.owner = [0]
        self.first = [0]
        for n, events in enumerate(steps or [], start=1):
            self.first.append(len(self.owner))
            self.owner.extend([n] * max(1, len(events)))
        if steps is not None and len(self.owner) != len(frames):
            raise ValueError(f"{len(steps)} commands do not make the {len(frames)} frames")

    def _send(self, frame: ReplayFrame) -> None:
        self.current = frame
        self.used = time.monotonic()
        for conn in list(self.conns):
            conn.send({**frame, "replay": {"step": self.step, "steps": len(self.frames)}})

    def show(self, step: int) -> int:
        """Move to ``step`` (clamped) and send it to every attached display."""
        with self.lock:
            self.step = max(0, min(len(self.frames) - 1, step))
            self.playing = None
            self._send(self.frames[self.step])
            return self.step

    def play(
        self, step: int, pace: str, elapsed: float | None = None, paused: bool = False
    ) -> Played:
        """Show the command that ``step`` (clamped) belongs to as the live show did: its last
        frame with the command's events and the show block at ``pace``, ``elapsed`` seconds
        into its beats (by default the beats of its events before ``step``: those were read
        already), frozen there when ``paused``. Returns the step shown and the show block."""
        if not beats.valid_pace(pace):
            raise BadPlay(f"unknown pace {pace!r}: quick, normal or relaxed")
        if self.steps is None:
            raise BadPlay("this replay cannot play: it was opened without the game's steps")
        with self.lock:
            k = max(0, min(len(self.frames) - 1, step))
            n = self.owner[k]
            events = self.steps[n - 1] if n else []
            start = self.first[n]
            end = start + max(1, len(events)) - 1 if n else 0
            if elapsed is None:
                elapsed = beats.hold(events[: k - start], pace) if n else 0.0
            if n and self.playing != n and self.step != start - 1:
                # The display stages the beats on the view before the command (markers walk
                # from where they stood): that view comes first.
                self.step = start - 1
                self._send(self.frames[start - 1])
            block = beats.block(self.steps, n, pace, elapsed)
            if paused:
                block["paused"] = True
            self.step, self.playing = end, n
            # The command's events as a live display gets them (never a private field: R2.7,
            # R1.2), and each beat's view staged on the server as the live show stages it.
            told = [beats.without_text(e) for e in visible_events(events, None)]
            game = self.frames[end]["game"]
            if n and block["beats"]:
                before = self.frames[start - 1]["game"]["view"]
                game = {**game, "staged": beat_views(before, game["view"], told, block["beats"])}
            frame: ReplayFrame = {
                **self.frames[end],
                "reason": "command",
                "game": game,
                # The log as before the command, then its events.
                "history": self.frames[start - 1]["history"] if n else [],
                "events": told,
                "show": block,
            }
            ended = n == len(self.steps) and self.frames[-1]["game"]["status"] == "ended"
            if self.story is not None and ("story_at" in block or ended):
                # The story comes up once the winner's moment has been (the block says when),
                # or at once after the last move of a game the host ended, as on the live
                # display; stepping there by hand shows the final scoring or the last move.
                frame["story"] = self.story
            self._send(frame)
            return {"step": self.step, "steps": len(self.frames), "show": block}

    def attach(self, conn: WsConnection) -> None:
        """A display comes (or comes back): it gets the step shown now, a playing command as
        far into its beats as the others are, and the others are left alone."""
        with self.lock:
            self.conns.append(conn)
            frame = self.current
            show = frame.get("show")
            if show is not None and not show.get("paused"):
                elapsed = show["elapsed"] + time.monotonic() - self.used
                frame = {**frame, "show": {**show, "elapsed": round(min(show["hold"], elapsed), 3)}}
            conn.send({**frame, "replay": {"step": self.step, "steps": len(self.frames)}})

    def detach(self, conn: WsConnection) -> None:
        with self.lock:
            if conn in self.conns:
                self.conns.remove(conn)


class Replays:
    """The replays open now, by an unguessable id (its display socket needs no token). Each
    opener (the admin, a table's token) keeps its own few, so nobody's opens push out
    another's; the built games behind them are shared (:class:`Builds`)."""

    def __init__(self, limit: int = MAX_REPLAYS) -> None:
        self.limit = limit
        self.builds = Builds()
        self.opens = GuessThrottle(rate=OPEN_RATE, burst=OPEN_BURST)  # per token, see below
        self._replays: OrderedDict[str, tuple[str, Replay]] = OrderedDict()
        self._lock = threading.Lock()

    def open(
        self,
        frames: list[ReplayFrame],
        steps: list[list[Event]] | None = None,
        opener: str = "admin",
        story: Story | None = None,
    ) -> str:
        """Keep a new replay (``steps``: its commands' events, to play it; ``story``: the
        game's, told when it is played to its end); returns its id. ``opener`` is ``admin``
        or ``table:<name>:<seat or host>``."""
        rid = secrets.token_urlsafe(16)
        replay = Replay(frames, steps, story)
        keep = PER_OPENER["admin" if opener == "admin" else "table"]
        with self._lock:
            self._replays[rid] = (opener, replay)
            mine = [r for r, (who, _) in self._replays.items() if who == opener]
            for old in mine[: max(0, len(mine) - keep)]:
                del self._replays[old]
            while len(self._replays) > self.limit:
                self._replays.popitem(last=False)
        return rid

    def get(self, rid: str) -> Replay | None:
        with self._lock:
            found = self._replays.get(rid)
            return found[1] if found is not None else None

    def open_wait(self, opener: str) -> float:
        """Seconds until ``opener`` may open another replay (0: now; the open is counted).
        Openers are kept as a hash: the throttle holds no token."""
        key = hashlib.sha256(opener.encode()).hexdigest()[:32]
        wait = self.opens.wait(key)
        if wait <= 0:
            self.opens.failed(key)  # one open taken from its bucket
        return wait


def open_game(
    replays: Replays,
    cafe: Any,
    stored: StoredGame,
    title: str,
    lang: str,
    display_url: str,
    opener: str = "admin",
) -> tuple[str, Built]:
    """Open a replay of the finished game ``stored`` (a ``StoredGame``) for ``opener``: built
    once in the companion players' pool (here when the server runs none), then shared.
    Returns the replay's id and what was built. Raises :class:`BuildFailed`."""
    key = (stored.id, stored.status, title, lang, display_url)
    # Both openers replay only a game that is over (a running one's log holds secrets).
    status: Literal["finished", "ended"] = "ended" if stored.status == "ended" else "finished"

    def game() -> ReplayJob:
        logged = cafe.store.commands(stored.id)
        return {
            "table": stored.table_name,
            "title": title,
            "lang": lang,
            "game_id": stored.id,
            "document": stored.document,
            "seats": stored.seats,
            "status": status,
            "logged": [(c.command, c.source) for c in logged],
            "display_url": display_url,
        }

    bots = cafe.bots
    run = None if bots is None else (lambda g: bots.thinker.submit(build, g))
    built = replays.builds.get(key, game, run)
    return replays.open(built.frames, built.steps, opener, built.story), built


def move(replay: Replay, body: object) -> tuple[Mapping[str, object], int]:
    """A step request of a replay page: ``{"to": n}`` shows step n; with ``"pace"`` it plays
    the command of step n (``elapsed`` seconds into its beats, ``paused`` to hold there).
    Returns the answer and its HTTP status; a bad request changes nothing."""
    body = body if isinstance(body, dict) else {}
    to = body.get("to")
    if isinstance(to, bool) or not isinstance(to, int):
        return {"error": "bad_message", "reason": 'send {"to": step number}'}, 400
    if "pace" not in body:
        return {"step": replay.show(to), "steps": len(replay.frames)}, 200
    elapsed = body.get("elapsed")
    if elapsed is not None and (
        isinstance(elapsed, bool) or not isinstance(elapsed, int | float) or elapsed < 0
    ):
        return {"error": "bad_message", "reason": "elapsed must be seconds (0 or more)"}, 400
    paused = body.get("paused", False)
    if not isinstance(paused, bool):
        return {"error": "bad_message", "reason": "paused must be true or false"}, 400
    try:
        answer = replay.play(to, body["pace"], elapsed, paused)
    except BadPlay as exc:
        return {"error": "bad_play", "reason": str(exc)}, 400
    return answer, 200
