"""A table's LED board: the picture follows the table's game, the display shows the board.

Data flows one way (DESIGN.md): after every committed command the table calls its subscriber
:meth:`TableBoard.on_commit`, which only records the new public view and wakes a background
thread. That thread renders the picture (companion.leds), hands it to the board link (which
never blocks) and, once a second or whenever something changed, reports the board's status to
the table, with the simulated LEDs when there is no hardware.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from companion.board.service import BoardService
from companion.engine import DEFAULT_PROFILE, view
from companion.engine.types import PlayerView, View
from companion.leds import (
    FRAME_RATE,
    Animation,
    Layout,
    animations_from_events,
    assign_colours,
    load_layout,
    needs_frames,
    prune,
    render,
)
from companion.leds.vision import screen_hex
from companion.table.board_status import BoardLayout, BoardStatus

if TYPE_CHECKING:
    from companion.table import Outcome, Table

log = logging.getLogger(__name__)

STATUS_EVERY_S = 1.0


class IdleProfile(TypedDict):
    track_colors: Sequence[str]


class IdleView(TypedDict):
    """The parts of a public view the picture reads, for a table with no game yet."""

    round: int
    mode: None
    station: None
    finished: bool
    winners: list[str]
    players: dict[str, PlayerView]
    track: dict[str, list[str]]
    pyramid: list[list[str | None]]
    profile: IdleProfile


def idle_view(track_colors: Sequence[str], pyramid_rows: list[list[int]]) -> IdleView:
    """The public view of a table with no game yet: an empty track and pyramid."""
    return {
        "round": 0,
        "mode": None,
        "station": None,
        "finished": False,
        "winners": [],
        "players": {},
        "track": {},
        "pyramid": [[None] * cells for cells, _ in pyramid_rows],
        "profile": {"track_colors": track_colors},
    }


def layout_summary(layout: Layout) -> BoardLayout:
    """Where each box, pyramid cell and status light sits on the strip, for the display."""
    return {
        "track": [list(leds) for leds in layout.box_leds],
        "pyramid": [list(row) for row in layout.pyramid],
        "status": {
            "mode": layout.status_mode,
            "round": list(layout.status_round),
            "station": list(layout.status_station),
        },
        "led_count": layout.led_count,
    }


class TableBoard:
    """Keeps one table's board (real or simulated) showing that table's game."""

    def __init__(
        self,
        table: Table,
        port: str | None,
        layout: Layout | None = None,
        service: BoardService | None = None,
    ) -> None:
        self.table = table
        self.layout = layout or load_layout()
        if service is None:
            service = BoardService(None if port in (None, "sim") else port, self.layout.led_count)
        self.service = service
        self.simulated = port in (None, "sim")
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._view: View | IdleView = self._idle()
        self._colours: dict[str, str] = {}
        self._animations: list[Animation] = []
        self._dirty = True
        self._thread = threading.Thread(target=self._run, name=f"board-{table.name}", daemon=True)

    def _source(self) -> Any:
        """The board follows the show (what the screens show now), or the table without one:
        both tell their subscribers ``(table, outcome)``, ``outcome.state`` the state shown."""
        stage = self.table.stage
        return stage if stage is not None else self.table

    def start(self) -> TableBoard:
        self._source().subscribe(self.on_commit, catch_up=True)
        self.service.start()
        self._thread.start()
        return self

    def on_commit(self, table: Table, outcome: Outcome) -> None:
        """Subscriber: runs under the table's lock, so it only records and wakes the thread.
        Only outcomes that moved the game (``outcome.state``) change the picture; with the
        show, each beat of a step that resolves several stations comes as its own outcome."""
        state = outcome.state
        if state is None:
            return
        events = outcome.events
        # Part-way through a step the show tells its beats one by one: draw that beat.
        public = outcome.shown if outcome.shown is not None else view(state, None)
        chosen = {s.seat: s.colour for s in table.seats if s.seat in state["players"]}
        now = time.monotonic()
        with self._lock:
            self._view = public
            self._colours = chosen
            self._animations = prune(self._animations, now) + animations_from_events(events, now)
            self._dirty = True
        self._wake.set()

    def _idle(self) -> IdleView:
        colours = self.table.settings.get("track_colors") or DEFAULT_PROFILE["track_colors"]
        return idle_view(colours, DEFAULT_PROFILE["pyramid_rows"])

    def _back_to_lobby(self) -> None:
        """No game at the table (a new one not started yet): an empty track and pyramid."""
        with self._lock:
            if self._view.get("players"):
                self._view = self._idle()
                self._colours = {}
                self._animations = []
                self._dirty = True

    def _picture(self, now: float) -> tuple[bytes, bool]:
        with self._lock:
            current, chosen = self._view, self._colours
            self._animations = prune(self._animations, now)
            animations = list(self._animations)
            self._dirty = False
        colours = assign_colours(list(current["players"]), chosen, self.layout.player_colours)
        pixels = render(current, self.layout, colours, now, animations)
        return pixels, needs_frames(current, self.layout, animations, now)

    def _run(self) -> None:
        moving = False
        last_status = 0.0
        while not self._stop.is_set():
            self._wake.wait(1 / FRAME_RATE if moving else STATUS_EVERY_S)
            self._wake.clear()
            now = time.monotonic()
            try:
                if self.table.game is None:
                    self._back_to_lobby()
                if self._dirty or moving:
                    pixels, moving = self._picture(now)
                    self.service.show(pixels)
                if now - last_status >= STATUS_EVERY_S or moving:
                    last_status = now
                    self.table.set_board_status(self.status())
            except Exception:  # noqa: BLE001 - the board must never stop the game
                log.exception("table %s: LED board update failed", self.table.name)
                moving = False

    def status(self) -> BoardStatus:
        """The board as the display shows it (mode, connection, detail, simulated LEDs)."""
        link = self.service.status()
        out: BoardStatus = {
            "mode": "simulated" if self.simulated else "serial",
            "connected": link["state"] in ("connected", "simulated"),
            "detail": link["last_error"] or link["state"],
            # Only what changes with the board's state: counters and ack ages would make
            # every status a new frame for every screen.
            "link": {
                "state": link["state"],
                "port": link["port"],
                "firmware": link["firmware"],
                "version": link["version"],
                "last_error": link["last_error"],
            },
        }
        if self.simulated:
            pixels = self.service.simulated_pixels()
            if pixels is not None:
                out["pixels"] = screen_hex(pixels, self.layout.brightness_cap)
                out["layout"] = layout_summary(self.layout)
        return out

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self._source().unsubscribe(self.on_commit)
        self.service.stop()
