"""A table: its seats and its running game, and the one lock that orders their changes.

:class:`Table` is the façade the web layer, the café and the LED board hold. Its parts live
by concern in this package: :mod:`~companion.table.core` (the lock, the commit and the
after-commit path), :mod:`~companion.table.commands` (commands, follow-ups, undo),
:mod:`~companion.table.games` (start, end, new game, logs), :mod:`~companion.table.seats`
(joining, leaving, skip/resume, release/remove) and :mod:`~companion.table.bots` (companion
players and hints). The table knows nothing of connections or URLs: each change returns an
:class:`Outcome`, and its subscribers (the web hub, the LED board, the companion players)
hear of it after the commit, in commit order, under the table's lock
(:meth:`~companion.table.core.TableCore.subscribe`).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from typing import Any

from companion.engine import DEFAULT_PROFILE
from companion.store import Store
from companion.table import show
from companion.table.bots import Bots
from companion.table.core import Subscriber
from companion.table.frames import HostInfo, Snapshot
from companion.table.model import TABLE_NAME, Game, Outcome, Seat, TableError

SETTINGS_WINDOW_S = 0.25  # settings changed within this go out as one frame


class Table(Bots):
    """One table of the café. Every public method takes the lock."""

    def __init__(
        self,
        name: str,
        store: Store,
        title: str | None = None,
        dice: str = "digital",
        board: str = "none",
    ) -> None:
        if not TABLE_NAME.fullmatch(name):
            raise TableError(
                "bad_table", f"table name {name!r} must match [a-z0-9][a-z0-9-]{{0,31}}"
            )
        self.name = name
        self.store = store
        self.lock = threading.RLock()
        self.board = board
        self.board_status: dict[str, Any] | None = None
        # The review of the game that is over (cafe/reviews.py): progress, then the document.
        self.review: dict[str, Any] | None = None
        self.subscribers: list[Subscriber] = []  # after every commit: see TableCore.subscribe
        self.bots: Any = None  # the café's companion players (companion.table.companions), if any
        self.stage: Any = None  # the show (companion.table.stage): what the screens show when
        self._settings_sent = 0.0  # when the last settings frame went out (monotonic)
        self._settings_due = False  # a settings frame is due at the end of the window
        row = store.table(name)
        if row is None:
            settings = {"dice": dice, "track_colors": None}
            store.create_table(name, secrets.token_urlsafe(16), secrets.token_urlsafe(24), settings)
            row = store.table(name)
            assert row is not None
        self.join_secret: str = row.join_secret
        self.host_token: str = row.host_token
        self.settings: dict[str, Any] = row.settings
        self.title = title or f"Table {name}"
        self.seats: list[Seat] = [Seat.from_row(r) for r in store.seats(name)]
        self.game: Game | None = None
        if row.current_game is not None:
            self.game = self._load_game(row.current_game)

    def check_host(self, token: Any) -> bool:
        return isinstance(token, str) and hmac.compare_digest(token, self.host_token)

    def snapshot(self, with_host: bool = False) -> Snapshot:
        """Everything a frame may show, taken under the lock (frames.py renders it)."""
        with self.lock:
            host = None
            if with_host:
                g = self.game
                colours = (
                    g.state["profile"]["track_colors"] if g else self.settings.get("track_colors")
                ) or DEFAULT_PROFILE["track_colors"]
                inputs = (
                    [
                        dict(e)
                        for e in g.state["pending"]
                        if "player" not in e or e["type"] == "roll"
                    ]
                    if g
                    else []
                )
                games = [
                    {
                        "id": sg.id,
                        "status": sg.status,
                        # Names as the players typed them (the seat ids are lower-cased).
                        "players": [s["name"] for s in sg.seats] or sg.document["players"],
                        "created": sg.created,
                    }
                    for sg in self.store.games(self.name)
                ]
                host = HostInfo(
                    inputs,
                    games,
                    list(colours),
                    self.settings.get("track_colors"),
                    self.join_secret,
                )
            return Snapshot(
                name=self.name,
                title=self.title,
                settings=dict(self.settings),
                seats=tuple(self.seats),
                game=self.game,
                board=self.board_status,
                host=host,
                review=self.review,
            )

    def _change_setting(self, key: str, value: Any) -> Outcome:
        """Keep one setting: committed and sent to every screen only when it changes, so a
        client that repeats a setting costs the table nothing (no write, no frames). Changes
        that follow one another within :data:`SETTINGS_WINDOW_S` go out as one frame at the
        window's end (a picker flicked through four languages redraws the screens twice)."""
        with self.lock:
            if key in self.settings and self.settings[key] == value:
                return Outcome("settings", roles=())
            settings = {**self.settings, key: value}
            self._commit(self.store.settings_stmts(self.name, settings))
            self.settings = settings
            since = time.monotonic() - self._settings_sent
            if self._settings_due:
                return Outcome("settings", roles=())  # the frame already due carries it
            if since >= SETTINGS_WINDOW_S:
                self._settings_sent = time.monotonic()
                return self._publish(Outcome("settings"))
            self._settings_due = True
            timer = threading.Timer(SETTINGS_WINDOW_S - since, self._send_settings)
            timer.daemon = True
            timer.start()
            return Outcome("settings", roles=())

    def _send_settings(self) -> None:
        """The window's end: one frame with every setting changed in it."""
        with self.lock:
            self._settings_due = False
            self._settings_sent = time.monotonic()
            self._publish(Outcome("settings"))

    def set_pace(self, pace: Any) -> Outcome:
        """How long the screens hold each station's result (companion.table.show)."""
        if not show.valid_pace(pace):
            raise TableError("bad_message", f"pace must be one of {', '.join(show.PACES)}")
        return self._change_setting("pace", pace)

    def set_language(self, lang: str) -> Outcome:
        """The display's language, the host's choice (checked by the web layer)."""
        return self._change_setting("lang", lang)

    def set_board_drawing(self, shown: Any) -> Outcome:
        """Whether the display draws the LED board (the host's choice, kept in the settings)."""
        if not isinstance(shown, bool):
            raise TableError("bad_message", "shown must be true or false")
        return self._change_setting("board_drawing", shown)

    def rotate_join(self) -> Outcome:
        with self.lock:
            secret = secrets.token_urlsafe(16)
            self._commit(self.store.join_secret_stmts(self.name, secret))
            self.join_secret = secret
            return self._publish(Outcome("settings"))

    def set_board_status(self, status: dict[str, Any] | None) -> None:
        """The LED board's status (not stored: it is the board's, not the table's)."""
        with self.lock:
            if status != self.board_status:
                self.board_status = status
                self._publish(Outcome("board", roles=("display", "host")))  # phones: no board

    def set_review(self, review: dict[str, Any]) -> None:
        """The review of the game that is over, or its progress (not a table change: the
        review is stored by the café's reviewer, cafe/reviews.py)."""
        with self.lock:
            if review != self.review:
                self.review = review
                self._publish(Outcome("review"))

    def close(self) -> None:
        """The server is stopping: tell everybody."""
        with self.lock:
            self._publish(Outcome("closed"))
