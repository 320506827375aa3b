"""Finished games stepped through on a display page (the café admin's replay). The app owns
one :class:`Replays` (``services.replays_of``); each replay's frames come from
``companion.table.frames.replay_frames``.

A replay may also *play*: each command of the game comes up as the live show put it up, one
frame with the command's events and a ``show`` block made as the live stage makes it
(``show.block``: the same beats, the same seconds at the same pace), so the display walks
through the beats exactly as at the table (DESIGN.md "The show"). The page keeps the clock.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from companion.engine import visible_events
from companion.table import show as beats
from companion.web.hub import WsConnection

MAX_REPLAYS = 20  # the oldest is forgotten past this (its page says "expired")


class BadPlay(ValueError):
    """A play request the replay cannot follow (an unknown pace, a replay without steps)."""


class Replay:
    """One finished game on display pages: a view frame per event, with the events of its
    round so far as ``history`` (the display renders it as on a reload). ``steps`` are the
    game's commands' events (``frames.replay_steps``), which playing needs."""

    def __init__(
        self, frames: list[dict[str, Any]], steps: list[list[dict[str, Any]]] | None = None
    ) -> None:
        self.frames = frames
        self.steps = steps
        self.step = 0  # a replay starts at the beginning
        self.playing: int | None = None  # the command whose show frame is up, if one is
        self.conns: list[WsConnection] = []
        self.lock = threading.Lock()
        self.used = time.monotonic()  # when the last frame went out
        self.current: dict[str, Any] = frames[0]  # the last frame sent (the step shown)
        # Frame k belongs to command owner[k] (0: the start); command n's frames start at
        # first[n]: one frame per event, one for a command without events.
        self.owner = [0]
        self.first = [0]
        for n, events in enumerate(steps or [], start=1):
            self.first.append(len(self.owner))
            self.owner.extend([n] * max(1, len(events)))
        if steps is not None and len(self.owner) != len(frames):
            raise ValueError(f"{len(steps)} commands do not make the {len(frames)} frames")

    def _send(self, frame: dict[str, Any]) -> None:
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
    ) -> dict[str, Any]:
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
            self._send(
                {
                    **self.frames[end],
                    "reason": "command",
                    # The log as before the command, then its events, as a live display gets
                    # them (never a private field: R2.7, R1.2).
                    "history": self.frames[start - 1]["history"] if n else [],
                    "events": [
                        {k: v for k, v in e.items() if k != "text"}
                        for e in visible_events(events, None)
                    ],
                    "show": block,
                }
            )
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
    """The replays open now, by an unguessable id (its display socket needs no token)."""

    def __init__(self, limit: int = MAX_REPLAYS) -> None:
        self.limit = limit
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def open(
        self, frames: list[dict[str, Any]], steps: list[list[dict[str, Any]]] | None = None
    ) -> str:
        """Keep a new replay (``steps``: its commands' events, to play it); returns its id."""
        rid = secrets.token_urlsafe(16)
        replay = Replay(frames, steps)
        with self._lock:
            self._replays[rid] = replay
            while len(self._replays) > self.limit:
                self._replays.popitem(last=False)
        return rid

    def get(self, rid: str) -> Replay | None:
        with self._lock:
            return self._replays.get(rid)


def move(replay: Replay, body: Any) -> tuple[dict[str, Any], int]:
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
