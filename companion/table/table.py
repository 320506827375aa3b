"""A table: its seats and its running game, and the one lock that orders their changes.

:class:`Table` is what the web layer, the café and the LED board hold. It owns the state (the
lock, the game, the seats, the settings) and the after-commit path (the subscribers), and
holds its parts, each built with the table as its :class:`~companion.table.core.Context` and
the other parts it calls: :attr:`Table.commands` (:mod:`~companion.table.commands`: commands,
follow-ups, undo), :attr:`Table.games` (:mod:`~companion.table.games`: start, end, new game,
logs), :attr:`Table.seating` (:mod:`~companion.table.seats`: joining, leaving, skip/resume,
release/remove) and :attr:`Table.bot_seats` (:mod:`~companion.table.bot_seats`: companion
players' seats and answers). Its public methods are the parts' (thin delegations) and the
table's own: settings, hints, the snapshot. The table knows nothing of connections or URLs:
each change returns an :class:`Outcome`, and its subscribers (the web hub, the LED board, the
companion players) hear of it after the commit, in commit order, under the table's lock
(:meth:`Table.subscribe`).
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from typing import Any, Literal

from companion.engine import DEFAULT_PROFILE, View, view
from companion.players.hints import HINT_LEVELS
from companion.store import Statements, Store
from companion.store.documents import GameLog, TableSettings
from companion.table import show
from companion.table.board_status import BoardStatus
from companion.table.bot_seats import BotSeats
from companion.table.commands import Commands
from companion.table.core import Reply, Subscriber
from companion.table.frame_types import HostGameRow
from companion.table.frames import HostInfo, Snapshot
from companion.table.frames import status as snapshot_status
from companion.table.games import Games
from companion.table.model import (
    TABLE_NAME,
    Game,
    Outcome,
    ReviewRecord,
    Seat,
    TableError,
    storage_error,
)
from companion.table.seats import Seats

log = logging.getLogger(__name__)

# The settings a host changes one at a time (_change_setting).
SettingKey = Literal["pace", "lang", "board_drawing"]
SETTINGS_WINDOW_S = 0.25  # settings changed within this go out as one frame


class Table:
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
        self.board_status: BoardStatus | None = None
        # The review of the game that is over (cafe/reviews.py): progress, then the document.
        self.review: ReviewRecord | None = None
        self.subscribers: list[Subscriber] = []  # after every commit: see Table.subscribe
        self.stage: Any = None  # the show (companion.table.stage): what the screens show when
        self._settings_sent = 0.0  # when the last settings frame went out (monotonic)
        self._settings_due = False  # a settings frame is due at the end of the window
        # The parts, each given the table (its Context) and the parts it calls.
        self.commands = Commands(self)
        self.games = Games(self, self.commands)
        self.seating = Seats(self, self.commands)
        self.bot_seats = BotSeats(self, self.commands, self.seating)
        row = store.table(name)
        if row is None:
            settings = {"dice": dice, "track_colors": None}
            store.create_table(name, secrets.token_urlsafe(16), secrets.token_urlsafe(24), settings)
            row = store.table(name)
            assert row is not None
        self.join_secret: str = row.join_secret
        self.host_token: str = row.host_token
        self.settings: TableSettings = row.settings
        self.title = title or f"Table {name}"
        self.seats: list[Seat] = [Seat.from_row(r) for r in store.seats(name)]
        self.game: Game | None = None
        if row.current_game is not None:
            self.game = self.games.load(row.current_game)

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
                        e.copy()
                        for e in g.state["pending"]
                        if "player" not in e or e["type"] == "roll"
                    ]
                    if g
                    else []
                )
                games: list[HostGameRow] = [
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
                    running=g is not None and g.status == "playing",
                )
            return Snapshot(
                name=self.name,
                title=self.title,
                # The store's JSON document, whose keys the table's setters write.
                settings=self.settings.copy(),
                seats=tuple(self.seats),
                game=self.game,
                board=self.board_status,
                host=host,
                review=self.review,
            )

    # -- state --------------------------------------------------------------------------
    def playing(self) -> bool:
        return self.game is not None and self.game.status == "playing"

    def running(self) -> bool:
        g = self.game
        if g is None or g.status == "playing":
            return g is not None
        return self.stage is not None and not self.stage.end_shown(g.id)

    def status(self) -> str:
        """``lobby`` | ``playing`` | ``finished`` (PROTOCOL.md section 4; frames.status)."""
        with self.lock:
            return snapshot_status(self.snapshot())

    def seat(self, seat_id: str) -> Seat | None:
        return next((s for s in self.seats if s.seat == seat_id), None)

    def need_seat(self, seat_id: Any) -> Seat:
        seat = self.seat(seat_id) if isinstance(seat_id, str) else None
        if seat is None:
            raise TableError("bad_message", f"no seat {seat_id!r} at this table")
        return seat

    # -- the commit and the after-commit path ------------------------------------------
    def subscribe(self, subscriber: Subscriber, catch_up: bool = False) -> None:
        """After every commit, ``subscriber(table, outcome)`` is called with each
        :class:`~companion.table.model.Outcome` of that commit, in commit order, under the
        table's lock (so it must only record, render or queue, never wait). ``outcome.state``
        is the game's state when the game moved (else ``None``), ``outcome.events`` the new
        events. A subscriber that fails is logged and never breaks the table. With
        ``catch_up`` a subscriber joining a running game gets one ``Outcome("current",
        state=...)`` first (a restarted server's board and companion players)."""
        with self.lock:
            self.subscribers.append(subscriber)
            if catch_up and self.game is not None:
                self._tell(subscriber, Outcome("current", state=self.game.state))

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self.lock:
            if subscriber in self.subscribers:
                self.subscribers.remove(subscriber)

    def _tell(self, subscriber: Subscriber, outcome: Outcome) -> None:
        try:
            subscriber(self, outcome)
        except Exception:  # noqa: BLE001 - a subscriber never breaks the table
            log.exception("table %s: subscriber failed", self.name)

    def publish(self, *outcomes: Outcome, reply: Reply | None = None) -> Outcome:
        """After a commit: the caller's reply (an ack goes before the views), then every
        outcome to every subscriber. Returns the first outcome."""
        if reply is not None:
            reply(outcomes[0])
        for outcome in outcomes:
            for subscriber in list(self.subscribers):
                self._tell(subscriber, outcome)
        return outcomes[0]

    def commit(self, statements: Statements) -> None:
        """One transaction, or TableError ``storage_failed`` with nothing changed (memory is
        changed only after it, DESIGN.md "Server")."""
        try:
            self.store.commit(statements)
        except Exception as exc:  # noqa: BLE001 - sqlite3 and OS errors alike
            log.warning("table %s: commit failed: %s", self.name, exc)
            raise storage_error(exc) from None

    # -- settings -----------------------------------------------------------------------
    def _change_setting(self, key: SettingKey, value: Any) -> Outcome:
        """Keep one setting: committed and sent to every screen only when it changes, so a
        client that repeats a setting costs the table nothing (no write, no frames). Changes
        that follow one another within :data:`SETTINGS_WINDOW_S` go out as one frame at the
        window's end (a picker flicked through four languages redraws the screens twice)."""
        with self.lock:
            if key in self.settings and self.settings[key] == value:
                return Outcome("settings", roles=())
            settings = self.settings.copy()
            settings[key] = value
            self.commit(self.store.settings_stmts(self.name, settings))
            self.settings = settings
            since = time.monotonic() - self._settings_sent
            if self._settings_due:
                return Outcome("settings", roles=())  # the frame already due carries it
            if since >= SETTINGS_WINDOW_S:
                self._settings_sent = time.monotonic()
                return self.publish(Outcome("settings"))
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
            self.publish(Outcome("settings"))

    def set_pace(self, pace: Any) -> Outcome:
        """How long the screens hold each station's result (companion.table.show). The show
        follows it from the beat up now before anyone reads the show again, also when the
        frame that tells the screens waits for the settings window."""
        if not show.valid_pace(pace):
            raise TableError("bad_message", f"pace must be one of {', '.join(show.PACES)}")
        with self.lock:
            outcome = self._change_setting("pace", pace)
            if self.stage is not None:
                self.stage.tick()
            return outcome

    def set_language(self, lang: str) -> Outcome:
        """The display's language, the host's choice (checked by the web layer)."""
        return self._change_setting("lang", lang)

    def set_board_drawing(self, shown: Any) -> Outcome:
        """Whether the display draws the LED board (the host's choice, kept in the settings)."""
        if not isinstance(shown, bool):
            raise TableError("bad_message", "shown must be true or false")
        return self._change_setting("board_drawing", shown)

    def set_hints(self, level: Any) -> Outcome:
        """Learning mode (off by default): ``None`` or the level whose suggestions pads show."""
        if level is not None and level not in HINT_LEVELS:
            raise TableError("bad_message", "hints must be off (null), 'good' or 'strong'")
        with self.lock:
            settings: TableSettings = {**self.settings, "hints": level}
            self.commit(self.store.settings_stmts(self.name, settings))
            self.settings = settings
            return self.publish(Outcome("settings"))

    def hint_request(self, seat_id: str) -> tuple[str, View, int]:
        """What a hint needs: the level, this seat's own view as its screen shows it (taken
        under the lock, the thinking happens elsewhere) and the sequence number it answers
        (the step on the screens)."""
        with self.lock:
            level = self.settings.get("hints")
            if not level:
                raise TableError("hints_off", "the host has not turned hints on")
            g = self.game
            if g is not None and self.stage is not None:
                # The seat's view as its screen shows it (the show's cursor), never the
                # committed game ahead of it: a hint must not tell of a step not yet shown.
                g = self.stage.shown_game(g)
            if g is None or g.status != "playing" or seat_id not in g.state["players"]:
                raise TableError("no_game", "no game is running at this table")
            return level, view(g.state, seat_id), g.seq

    def rotate_join(self) -> Outcome:
        with self.lock:
            secret = secrets.token_urlsafe(16)
            self.commit(self.store.join_secret_stmts(self.name, secret))
            self.join_secret = secret
            return self.publish(Outcome("settings"))

    def set_board_status(self, status: BoardStatus | None) -> None:
        """The LED board's status (not stored: it is the board's, not the table's). Only the
        displays draw it, and they get it alone (web/hub.py ``send_board``)."""
        with self.lock:
            if status != self.board_status:
                self.board_status = status
                self.publish(Outcome("board", roles=("display",)))

    def set_review(self, review: ReviewRecord) -> None:
        """The review of the game that is over, or its progress (not a table change: the
        review is stored by the café's reviewer, cafe/reviews.py)."""
        with self.lock:
            if review != self.review:
                self.review = review
                self.publish(Outcome("review"))

    def close(self) -> None:
        """The server is stopping: tell everybody."""
        with self.lock:
            self.publish(Outcome("closed"))

    # -- the parts' changes (Table.commands, .games, .seating, .bot_seats) ---------------
    def submit(self, source: str, cmd_id: Any, command: Any, reply: Reply | None = None) -> Outcome:
        return self.commands.submit(source, cmd_id, command, reply)

    def undo(self, game_id: Any = None, n: Any = None) -> Outcome:
        return self.commands.undo(game_id, n)

    def start(self, dice: Any = None) -> Outcome:
        return self.games.start(dice)

    def set_dice(self, dice: Any) -> Outcome:
        return self.games.set_dice(dice)

    def set_companion_dice(self, who: Any) -> Outcome:
        return self.games.set_companion_dice(who)

    def set_track_colors(self, colors: Any) -> Outcome:
        return self.games.set_track_colors(colors)

    def end_game(self, by: str = "host") -> Outcome:
        return self.games.end_game(by)

    def new_game(self) -> Outcome:
        return self.games.new_game()

    def log_document(self, game_id: int) -> GameLog:
        return self.games.log_document(game_id)

    def check_join(self, secret: Any) -> bool:
        return self.seating.check_join(secret)

    def check_seat(self, seat: Any, token: Any) -> bool:
        return self.seating.check_seat(seat, token)

    def join(self, secret: Any, name: Any, colour: Any) -> Outcome:
        return self.seating.join(secret, name, colour)

    def leave(self, seat_id: str, reply: Reply | None = None) -> Outcome:
        return self.seating.leave(seat_id, reply)

    def skip_seat(self, seat_id: Any) -> Outcome:
        return self.seating.skip_seat(seat_id)

    def resume_seat(self, seat_id: Any) -> Outcome:
        return self.seating.resume_seat(seat_id)

    def release_seat(self, seat_id: Any) -> Outcome:
        return self.seating.release_seat(seat_id)

    def remove_seat(self, seat_id: Any) -> Outcome:
        return self.seating.remove_seat(seat_id)

    def add_bot(self, level: Any, name: Any = None) -> Outcome:
        return self.bot_seats.add_bot(level, name)

    def hand_to_bot(self, seat_id: Any, level: Any) -> Outcome:
        return self.bot_seats.hand_to_bot(seat_id, level)

    def bot_answer(self, seat_id: str, key: tuple[Any, ...], command: Any) -> None:
        self.bot_seats.bot_answer(seat_id, key, command)
