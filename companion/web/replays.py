"""Finished games stepped through on a display page (the café admin's replay). The app owns
one :class:`Replays` (``services.replays_of``); each replay's frames come from
``companion.table.frames.replay_frames``."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from companion.web.hub import WsConnection

MAX_REPLAYS = 20  # the oldest is forgotten past this (its page says "expired")


class Replay:
    """One finished game on display pages: a view frame per event, with the events of its
    round so far as ``history`` (the display renders it as on a reload)."""

    def __init__(self, frames: list[dict[str, Any]]) -> None:
        self.frames = frames
        self.step = 0  # a replay starts at the beginning
        self.conns: list[WsConnection] = []
        self.lock = threading.Lock()
        self.used = time.monotonic()

    def show(self, step: int) -> int:
        """Move to ``step`` (clamped) and send it to every attached display."""
        with self.lock:
            self.step = max(0, min(len(self.frames) - 1, step))
            frame = {
                **self.frames[self.step],
                "replay": {"step": self.step, "steps": len(self.frames)},
            }
            for conn in list(self.conns):
                conn.send(frame)
            self.used = time.monotonic()
            return self.step

    def attach(self, conn: WsConnection) -> None:
        with self.lock:
            self.conns.append(conn)
        self.show(self.step)

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

    def open(self, frames: list[dict[str, Any]]) -> str:
        """Keep a new replay; returns its id."""
        rid = secrets.token_urlsafe(16)
        with self._lock:
            self._replays[rid] = Replay(frames)
            while len(self._replays) > self.limit:
                self._replays.popitem(last=False)
        return rid

    def get(self, rid: str) -> Replay | None:
        with self._lock:
            return self._replays.get(rid)
