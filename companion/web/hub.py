"""The live connections of one table: who is connected, and frames out to them.

A :class:`Hub` subscribes to its table. After each committed change it renders the frames of the
audiences connected right now (``companion.table.frames``), serialises each once, and hands the
text to every connection of that audience (``connections.py``: each has its own writer thread,
so a phone that stops reading never holds up the table).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any
from urllib.parse import urlsplit

import orjson
from werkzeug.routing import MapAdapter

from companion.engine import Event
from companion.engine.asks import awaiting
from companion.table import Outcome, Table
from companion.table import frames as render
from companion.table.admin_frames import AdminSockets
from companion.table.frame_types import (
    BoardFrame,
    Notice,
    Reason,
    ShowInfo,
    TableSummary,
    ViewFrame,
)
from companion.table.frames import Links
from companion.table.model import frame_reason
from companion.web.connections import CLOSE_TABLE_CLOSED, CLOSE_TAKEN_OVER, Connection

log = logging.getLogger(__name__)


class Hub:
    """One table's connections. Frames go out under the table's lock, so every connection
    sees changes in commit order; the lock is held only to render and queue, never to send."""

    def __init__(self, table: Table, urls: MapAdapter, base_url: str) -> None:
        self.table = table
        self.urls = urls  # Flask's URL map bound once: url_for's builder, usable anywhere
        self.base_url = base_url.rstrip("/")
        self.connections: list[Connection] = []
        self.seat_conns: dict[str, Connection] = {}
        self._paths = {
            "display": self._path("pages.display_page"),
            "qr": self._path("pages.qr_image"),
            "join_api": self._path("pages.join_api"),
            "seat_page": self._path("pages.seat_page"),
            "ws_display": self._path("sockets.display_socket"),
            "ws_seat": self._path("sockets.seat_socket"),
            "ws_host": self._path("sockets.host_socket"),
            "state": self._path("pages.state_json"),
        }
        self._links: tuple[tuple[str, str, str], Links] | None = None
        table.subscribe(self._on_outcome)
        if table.stage is not None:  # the show puts each committed step up in its turn
            table.stage.emit = self._on_show

    def _path(self, endpoint: str, **values: Any) -> str:
        """The path (and query) of ``endpoint`` for this table: pages resolve it against the
        address they were opened with (websocket rules build as ws://localhost/..., so only
        the path is kept)."""
        parts = urlsplit(self.urls.build(endpoint, {"name": self.table.name, **values}))
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def join_url(self) -> str:
        return self.base_url + self._path("pages.join_page", secret=self.table.join_secret)

    def links(self) -> Links:
        """The table's URLs; built again only when the address, the join secret or the host
        token changed (every frame carries them, and building a URL is not free)."""
        key = (self.base_url, self.table.join_secret, self.table.host_token)
        if self._links is None or self._links[0] != key:
            token = self.table.host_token
            links = Links(
                self._paths,
                self.join_url(),
                lambda game_id: self._path("pages.game_log", game_id=game_id, token=token),
            )
            self._links = (key, links)
        return self._links[1]

    def connected_seats(self) -> set[str]:
        """The seats whose phone is connected now."""
        with self.table.lock:
            return set(self.seat_conns)

    def sockets(self) -> AdminSockets:
        """The live sockets by kind of screen (the café admin's list)."""
        with self.table.lock:
            roles = [c.role for c in self.connections]
        return {
            "display": roles.count("display"),
            "host": roles.count("host"),
            "seat": roles.count("seat"),
        }

    # -- frames -------------------------------------------------------------------------
    def summary(self, with_join: bool = False) -> TableSummary:
        # The café's list says what the table's screens say (the round the show is on).
        return render.summary(self.shown_snapshot(), self.links(), with_join)

    def shown_snapshot(self, with_host: bool = False) -> render.Snapshot:
        """The table as the screens show it now: the game at the show's cursor."""
        snap = self.table.snapshot(with_host=with_host)
        stage = self.table.stage
        return snap if stage is None else stage.snapshot(snap)

    def _show_info(self) -> ShowInfo | None:
        stage = self.table.stage
        return None if stage is None else stage.info()

    def hello(self, role: str, seat: str | None = None) -> ViewFrame:
        """The whole view for a screen that (re)connects, or asks by HTTP."""
        with self.table.lock:
            snap = self.shown_snapshot(with_host=role == "host")
            frame = render.hello(snap, self.links(), (role, seat), set(self.seat_conns))
            frame["show"] = self._show_info()
            return frame

    def broadcast(
        self,
        reason: Reason,
        events: list[Event] | None = None,
        history: bool = False,
        roles: tuple[str, ...] | None = None,
        notices: dict[str, Notice] | None = None,
    ) -> None:
        """Every live connection (of ``roles``, default all) gets its own view; each
        audience's frame is rendered and serialised once."""
        with self.table.lock:
            conns = [c for c in self.connections if roles is None or c.role in roles]
            if not conns:
                return
            audiences = {c.audience for c in conns}
            snap = self.shown_snapshot(with_host=any(r == "host" for r, _ in audiences))
            frames = render.render(
                snap,
                self.links(),
                audiences,
                reason,
                events or [],
                history,
                set(self.seat_conns),
                notices,
            )
            info = self._show_info()
            for frame in frames.values():
                frame["show"] = info
            texts = {a: orjson.dumps(f).decode() for a, f in frames.items()}
            for conn in conns:
                if not conn.send(texts[conn.audience]):
                    self._drop(conn)

    def showing(self, conn: Connection, seq: int, asks: frozenset[str], held: bool) -> bool:
        """A phone says which questions it shows at view ``seq``. If that is the view up now
        and the table waits for its seat on something it does not show, it gets the whole
        view again (once per view: the safety net behind the pad's one sequence). A phone
        that says the show's beats hold its questions is looked at again when they end, on
        the server's clock: the net never depends on the phone saying more. True if the view
        was sent again."""
        with self.table.lock:
            conn.report = (seq, asks, held)
            if conn.role != "seat" or not conn.seat or self.seat_conns.get(conn.seat) is not conn:
                return False
            snap = self.shown_snapshot()
            g = snap.game
            stage = self.table.stage
            # A pad holds questions while the step's beats run; past them (plus a second for
            # its clock) it should ask, whatever it says.
            if held and stage is not None and stage.holding(margin=1.0):
                self._look_again(conn, stage.hold_left() + 1.1)
                return False
            if g is None or g.status != "playing" or seq != g.seq:
                return False  # a newer view is on its way
            seat = next((s for s in snap.seats if s.seat == conn.seat), None)
            if seat is None or seat.companion:
                return False  # a companion player answers for the seat, not the phone
            awaited = awaiting(g.state["pending"]).get(conn.seat, frozenset())
            if not awaited or awaited & asks or conn.resent == seq:
                return False
            conn.resent = seq
            log.warning(
                "table %s: seat %s is awaited (%s) but its phone shows %s at view %d: sent again",
                self.table.name,
                conn.seat,
                ", ".join(sorted(awaited)),
                ", ".join(sorted(asks)) or "no question",
                seq,
            )
            frame = self.hello("seat", conn.seat)
            frame["reason"] = "resend"
            return conn.send(frame)

    def _look_again(self, conn: Connection, seconds: float) -> None:
        """Check ``conn``'s last report again in ``seconds`` (one timer per connection)."""
        if conn.recheck is not None:
            conn.recheck.cancel()

        def again() -> None:
            conn.recheck = None
            if conn.report is not None and conn.alive:
                self.showing(conn, *conn.report)

        conn.recheck = threading.Timer(max(0.1, seconds), again)
        conn.recheck.name = f"look-again-{self.table.name}-{conn.seat}"
        conn.recheck.daemon = True
        conn.recheck.start()

    def _on_outcome(self, table: Table, outcome: Outcome) -> None:
        """The table committed a change (called under its lock)."""
        if outcome.reason == "closed":
            self.close()
            return
        for seat in outcome.kicked:
            self._kick(seat, outcome.kicked_by)
        if outcome.reason == "command" and table.stage is not None:
            return  # the show tells the screens when its turn comes (_on_show)
        if outcome.reason == "board":
            self.send_board()
            return
        reason = frame_reason(outcome.reason)
        if reason is None:
            return  # the table's own (ask_bots: no frame for anybody, roles=())
        self.broadcast(reason, outcome.events, outcome.history, outcome.roles, outcome.notices)

    def send_board(self) -> None:
        """The LED board's status alone to every display (PROTOCOL.md 3.4 ``board``). Its
        pictures change many times a step: as whole views, a 3-player game sent the display
        and the host 184 views of 15 KB each, and each redrew the whole page."""
        with self.table.lock:
            conns = [c for c in self.connections if c.role == "display"]
            if not conns:
                return
            frame: BoardFrame = {"type": "board", "board": self.table.board_status}
            text = orjson.dumps(frame).decode()
            for conn in conns:
                if not conn.send(text):
                    self._drop(conn)

    def _on_show(self, reason: Reason, events: list[Event], history: bool) -> None:
        """The show put up the next steps (called under the table's lock)."""
        self.broadcast(reason, events, history)

    # -- connections --------------------------------------------------------------------
    def attach(self, conn: Connection) -> bool:
        """Register a connection and send it the whole view; a seat's newer connection takes
        the seat over from the older one (one live connection per seat). An older
        connection's late hello is refused and closed, and the newer one keeps the seat
        untold: the connection that opened last holds it. Returns whether ``conn`` is in."""
        with self.table.lock:
            old = self.seat_conns.get(conn.seat) if conn.role == "seat" and conn.seat else None
            if old is not None and old is not conn and old.alive and old.opened > conn.opened:
                conn.send(
                    {
                        "type": "error",
                        "code": "superseded",
                        "reason": "a newer connection of this seat holds it; "
                        "this older one is closed",
                    }
                )
                conn.close(CLOSE_TAKEN_OVER, "a newer connection holds this seat")
                return False
            if old is not None and old is not conn:
                old.send({"type": "taken_over"})
                self._drop(old)
                old.close(CLOSE_TAKEN_OVER, "taken over by another device")
            self.connections.append(conn)
            if conn.role == "seat" and conn.seat:
                self.seat_conns[conn.seat] = conn
            conn.send(self.hello(conn.role, conn.seat))
            if conn.role == "seat":
                self.broadcast("seats")
            return True

    def detach(self, conn: Connection) -> None:
        with self.table.lock:
            was_seat = conn.role == "seat" and self.seat_conns.get(conn.seat or "") is conn
            self._drop(conn)
            if was_seat:
                self.broadcast("seats")

    def _drop(self, conn: Connection) -> None:
        if conn.recheck is not None:  # a closed phone is not looked at again: no timer left
            conn.recheck.cancel()
            conn.recheck = None
        if conn in self.connections:
            self.connections.remove(conn)
        if conn.seat and self.seat_conns.get(conn.seat) is conn:
            del self.seat_conns[conn.seat]

    def _kick(self, seat_id: str, by: str = "host") -> None:
        """The seat's phone lost it: ``removed`` says who did it (PROTOCOL.md 3.4), unlike
        ``taken_over`` (the same seat opened on another device)."""
        conn = self.seat_conns.get(seat_id)
        if conn is not None:
            conn.send({"type": "removed", "by": by} if by == "host" else {"type": "taken_over"})
            self._drop(conn)
            conn.close(CLOSE_TAKEN_OVER, "seat released")

    def close(self, flush_s: float = 1.0) -> None:
        """The server is stopping: tell everybody, and let those words reach the sockets
        (up to ``flush_s`` in all) before the rest of the server stops."""
        with self.table.lock:
            closing = list(self.connections)
            for conn in closing:
                conn.send({"type": "table_closed"})
                self._drop(conn)
                conn.close(CLOSE_TABLE_CLOSED, "table closed")
        deadline = time.monotonic() + flush_s
        for conn in closing:
            conn.flush(max(0.0, deadline - time.monotonic()))
