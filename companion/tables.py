"""A table: its seats, its running game, its live connections and the one lock that orders them.

Every change of a table happens under its lock, one command at a time (DESIGN.md "Server"):
the engine validates, the store commits (one transaction, before anyone is told), then each
connection gets the view its role and seat may see. The dealer (digital dice and cards) and
the autopilot (skipped seats) answer in the same step and the same transaction.
"""

from __future__ import annotations

import hmac
import logging
import re
import secrets
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from companion import autopilot, dealer
from companion.engine import IllegalCommand, apply, new_game, views, visible_events
from companion.leds.palette import PLAYER_COLOURS
from companion.store import Store, token_hash

log = logging.getLogger(__name__)

SEATS_MIN, SEATS_MAX = 3, 5  # R1.1
DICE_MODES = ("digital", "table")
TABLE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
SEAT_KINDS = ("sacrifice", "bid", "dice", "city", "pyramid")  # a phone may send these
HOST_KINDS = ("harvest", "improvements", "roll")  # typed in from the real dice and cards
# Events a command may cause and still be undone: nothing secret or scored came out of it.
UNDOABLE_EVENTS = {"sacrificed", "bid_placed", "dice_decided", "harvest_dice",
                   "improvement_cards", "rolled", "round_started"}
BOT_NAMES = ("Xochi", "Tlaloc", "Itzel", "Nahui", "Citlali", "Yaretzi")  # companion players
MAX_CHAIN = 500  # dealer/autopilot follow-ups after one command; a game has far fewer

Observer = Callable[["Table", dict[str, Any], list[dict[str, Any]]], None]


class TableError(ValueError):
    """A refused request: ``code`` for programs, ``reason`` for people. Nothing changed."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class Connection:
    """One live websocket as the table sees it; the web layer subclasses ``_send``/``close``."""

    def __init__(self, role: str, seat: str | None = None) -> None:
        self.role = role  # "display" | "seat" | "host"
        self.seat = seat
        self.alive = True
        self._send_lock = threading.Lock()

    def send(self, frame: dict[str, Any] | str) -> bool:
        """Send one frame; a failure marks the connection dead instead of raising."""
        text = frame if isinstance(frame, str) else orjson.dumps(frame).decode()
        if not self.alive:
            return False
        try:
            with self._send_lock:
                self._send(text)
            return True
        except Exception:  # noqa: BLE001 - a broken socket must not break the table
            self.alive = False
            return False

    def _send(self, text: str) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self, code: int = 1000, reason: str = "") -> None:  # pragma: no cover
        self.alive = False


@dataclass
class Seat:
    seat: str
    name: str
    colour: str
    token_hash: str | None
    state: str = "phone"  # "phone" | "auto" (skipped) | "bot" (companion) | "vacant"
    level: str | None = None  # a companion player's kind when state == "bot"

    def row(self) -> dict[str, Any]:
        # The store keeps one state string: "bot:<level>" for a companion player.
        state = f"bot:{self.level}" if self.state == "bot" else self.state
        return {"seat": self.seat, "name": self.name, "colour": self.colour,
                "token_hash": self.token_hash, "state": state}

    @classmethod
    def from_row(cls, r: dict[str, Any]) -> Seat:
        state, _, level = r["state"].partition(":")
        return cls(r["seat"], r["name"], r["colour"], r["token_hash"], state, level or None)


@dataclass
class Game:
    """The running (or last) game of a table, rebuilt from the store on start-up."""

    id: int
    status: str  # "playing" | "finished" | "ended"
    document: dict[str, Any]
    decks: list[list[int]]
    dice: str
    state: dict[str, Any]
    commands: list[tuple[int, dict[str, Any], str, str | None]] = field(default_factory=list)
    events: list[list[dict[str, Any]]] = field(default_factory=list)  # per command
    cmd_ids: dict[tuple[str, str], int | None] = field(default_factory=dict)  # None = undone
    next_n: int = 0  # row number of the next stored command (undone rows keep theirs)

    @property
    def seq(self) -> int:
        return len(self.commands)

    def draws(self) -> int:
        return sum(1 for _, c, _, _ in self.commands if c["type"] == "improvements")


def seat_id_for(name: str, taken: set[str]) -> str:
    """An engine player id (``[a-z][a-z0-9_-]{0,15}``) made from a display name.

    >>> seat_id_for("Ana", set()), seat_id_for("Ana", {"ana"}), seat_id_for("李", {"p1"})
    ('ana', 'ana2', 'p2')
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9_-]", "", ascii_name.lower().replace(" ", "-"))
    slug = slug.lstrip("0123456789_-")[:13]
    if slug:
        candidates = [slug] + [f"{slug}{i}" for i in range(2, 10)]
    else:
        candidates = [f"p{i}" for i in range(1, 10)]
    for c in candidates:
        if c not in taken:
            return c
    raise TableError("bad_name", "no free seat id for that name")  # pragma: no cover


def clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise TableError("bad_name", "the name must be text")
    name = " ".join(name.split())
    if not 1 <= len(name) <= 20:
        raise TableError("bad_name", "the name must have 1 to 20 characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise TableError("bad_name", "the name must not contain control characters")
    return name


class Table:
    """One table of the café: seats, game, connections. All methods take the lock."""

    def __init__(self, name: str, store: Store, base_url: str, title: str | None = None,
                 dice: str = "digital", board: str = "none") -> None:
        if not TABLE_NAME.fullmatch(name):
            raise TableError("bad_table", f"table name {name!r} must match "
                             "[a-z0-9][a-z0-9-]{0,31}")
        self.name = name
        self.store = store
        self.base_url = base_url.rstrip("/")
        self.lock = threading.RLock()
        self.board = board
        self.board_status: dict[str, Any] | None = None
        self.observers: list[Observer] = []
        self.connections: list[Connection] = []
        self.seat_conns: dict[str, Connection] = {}
        row = store.table(name)
        if row is None:
            settings = {"dice": dice, "track_colors": None}
            store.create_table(name, secrets.token_urlsafe(16), secrets.token_urlsafe(24),
                               settings)
            row = store.table(name)
            assert row is not None
        self.join_secret: str = row["join_secret"]
        self.host_token: str = row["host_token"]
        self.settings: dict[str, Any] = row["settings"]
        self.title = title or f"Table {name}"
        self.seats = [Seat.from_row(r) for r in store.seats(name)]
        self.bots: Any = None  # the café's BotDriver, if companion players may play here
        self.game: Game | None = None
        if row["current_game"] is not None:
            self.game = self._load_game(row["current_game"])

    # -- loading ------------------------------------------------------------------------
    def _load_game(self, game_id: int) -> Game:
        """Replay a stored game to exactly the state it had acknowledged (every stored
        command was acknowledged only after its commit)."""
        stored = self.store.game(game_id)
        if stored is None:
            raise TableError("no_game", f"table {self.name}: game {game_id} is missing")
        doc = stored.document
        state = new_game(doc["players"], doc.get("stack"), doc.get("profile"))
        game = Game(stored.id, stored.status, doc, stored.decks, stored.dice, state)
        for c in self.store.commands(game_id, include_undone=True):
            game.next_n = c.n + 1
            if c.cmd_id is not None:
                game.cmd_ids[(c.source, c.cmd_id)] = None if c.undone else c.n
            if c.undone:
                continue
            try:
                game.state, events = apply(game.state, c.command)
            except IllegalCommand as exc:
                raise TableError("bad_log", f"table {self.name}: game {game_id} command "
                                 f"{c.n} no longer applies: {exc}") from None
            game.commands.append((c.n, c.command, c.source, c.cmd_id))
            game.events.append(events)
        return game

    # -- checks -------------------------------------------------------------------------
    def check_host(self, token: Any) -> bool:
        return isinstance(token, str) and hmac.compare_digest(token, self.host_token)

    def check_join(self, secret: Any) -> bool:
        return isinstance(secret, str) and hmac.compare_digest(secret, self.join_secret)

    def check_seat(self, seat: Any, token: Any) -> bool:
        if not isinstance(seat, str) or not isinstance(token, str):
            return False
        with self.lock:
            s = self._seat(seat)
            return bool(s and s.token_hash and s.state != "vacant"
                        and hmac.compare_digest(s.token_hash, token_hash(token)))

    def _seat(self, seat_id: str) -> Seat | None:
        return next((s for s in self.seats if s.seat == seat_id), None)

    # -- summaries and frames -----------------------------------------------------------
    def urls(self, with_join: bool) -> dict[str, Any]:
        t = f"/t/{self.name}"
        return {
            "display": f"{t}/", "qr": f"{t}/qr.svg", "join_api": f"{t}/api/join",
            "join": self.join_url() if with_join else None, "seat_page": f"{t}/seat",
            "ws_display": f"{t}/ws/display", "ws_seat": f"{t}/ws/seat",
            "ws_host": f"{t}/ws/host", "state": f"{t}/api/state",
        }

    def join_url(self) -> str:
        return f"{self.base_url}/t/{self.name}/join/{self.join_secret}"

    def status(self) -> str:
        if self.game is None:
            return "lobby"
        return "playing" if self.game.status == "playing" else "finished"

    def summary(self, with_join: bool = False) -> dict[str, Any]:
        with self.lock:
            g = self.game
            return {
                "name": self.name, "title": self.title, "status": self.status(),
                "dice": g.dice if g else self.settings["dice"],
                "seats_filled": sum(1 for s in self.seats if s.state != "vacant"),
                "seats_max": SEATS_MAX, "game_id": g.id if g else None,
                "round": g.state["round"] if g else None, "urls": self.urls(with_join),
                "lang": self.settings.get("lang", "en"),
                "hints": self.settings.get("hints"),
            }

    def _seats_info(self) -> list[dict[str, Any]]:
        return [{"id": s.seat, "name": s.name, "colour": s.colour,
                 "hex": PLAYER_COLOURS.get(s.colour), "connected": s.seat in self.seat_conns,
                 "state": s.state, "companion": s.state in ("bot", "auto"),
                 "person": s.token_hash is not None,
                 "level": s.level if s.state == "bot" else
                 ("plain" if s.state == "auto" else None)} for s in self.seats]

    def _history(self) -> list[dict[str, Any]]:
        """Events since the start of the current round (or of the game)."""
        if self.game is None:
            return []
        out: list[dict[str, Any]] = []
        for events in reversed(self.game.events):
            starts = [i for i, e in enumerate(events) if e["type"] == "round_started"]
            if starts:
                out[:0] = events[starts[-1]:]
                break
            out[:0] = events
        return out

    def _frame(self, role: str, seat: str | None, reason: str, events: list[dict[str, Any]],
               history: bool) -> dict[str, Any]:
        return self._frames([(role, seat)], reason, events, history)[(role, seat)]

    def _frames(self, targets: list[tuple[str, str | None]], reason: str,
                events: list[dict[str, Any]], history: bool
                ) -> dict[tuple[str, str | None], dict[str, Any]]:
        """The view frame of every (role, seat) in ``targets``. What all of them share (the
        public view, seats, summaries, history) is built once per broadcast."""
        g = self.game
        seats_info = self._seats_info()
        summaries: dict[bool, dict[str, Any]] = {}
        game_seats: dict[str | None, str | None] = {}
        for _role, seat in targets:
            game_seats[seat] = seat if g is not None and seat in g.state["players"] else None
        game_views = views(g.state, list(set(game_seats.values()))) if g is not None else {}
        whole_history = self._history() if history else []
        host_info = self._host_info() if any(r == "host" for r, _ in targets) else None
        frames: dict[tuple[str, str | None], dict[str, Any]] = {}
        for role, seat in targets:
            with_join = role != "seat"
            if with_join not in summaries:
                summaries[with_join] = self.summary(with_join=with_join)
            frame: dict[str, Any] = {
                "type": "view", "seq": g.seq if g else 0, "reason": reason,
                "table": summaries[with_join], "seats": seats_info,
                "you": None, "game": None, "events": visible_events(events, seat),
            }
            if g is not None:
                frame["game"] = {"id": g.id, "status": g.status, "dice": g.dice,
                                 "view": game_views[game_seats[seat]]}
            if role == "seat" and seat is not None:
                s = self._seat(seat)
                mine = ([dict(e) for e in g.state["pending"] if e.get("player") == seat]
                        if g else [])
                frame["you"] = {"seat": seat, "name": s.name if s else seat,
                                "colour": s.colour if s else None,
                                "hex": PLAYER_COLOURS.get(s.colour) if s else None,
                                "pending": mine}
            if history:
                frame["history"] = visible_events(whole_history, seat)
            if role != "seat":
                frame["board"] = self.board_status
            if role == "host":
                frame["host"] = host_info
            frames[(role, seat)] = frame
        return frames

    def _host_info(self) -> dict[str, Any]:
        possible, why = self._undo_check()
        g = self.game
        inputs = []
        if g is not None:
            inputs = [dict(e) for e in g.state["pending"]
                      if "player" not in e or e["type"] == "roll"]
        games = [{"id": sg.id, "status": sg.status, "players": sg.document["players"],
                  "created": sg.created,
                  "log": f"/t/{self.name}/games/{sg.id}/log.json?token={self.host_token}"}
                 for sg in self.store.games(self.name)]
        colours = (g.state["profile"]["track_colors"] if g else
                   self.settings.get("track_colors"))
        if colours is None:
            from companion.engine import DEFAULT_PROFILE
            colours = DEFAULT_PROFILE["track_colors"]
        return {"undo": {"possible": possible, "reason": why}, "inputs": inputs,
                "games": games, "profile": {"track_colors": colours,
                                            "saved": self.settings.get("track_colors")},
                "join_secret": self.join_secret}

    def snapshot(self, role: str = "display", seat: str | None = None) -> dict[str, Any]:
        with self.lock:
            return self._frame(role, seat, "hello", [], history=True)

    def broadcast(self, reason: str, events: list[dict[str, Any]] | None = None,
                  history: bool = False, roles: tuple[str, ...] | None = None) -> None:
        """Send every live connection (of ``roles``, default all) its own view, under the lock
        so frames keep their order."""
        events = events or []
        with self.lock:
            conns = [c for c in self.connections if roles is None or c.role in roles]
            frames = self._frames(list({(c.role, c.seat) for c in conns}), reason, events,
                                  history)
            texts = {key: orjson.dumps(frame).decode() for key, frame in frames.items()}
            for conn in conns:
                if not conn.send(texts[(conn.role, conn.seat)]):
                    self._drop(conn)

    # -- connections --------------------------------------------------------------------
    def attach(self, conn: Connection) -> None:
        """Register a connection and send it the whole view; a seat's newer connection takes
        the seat over from the older one (one live connection per seat)."""
        with self.lock:
            old = self.seat_conns.get(conn.seat) if conn.role == "seat" and conn.seat else None
            if old is not None and old is not conn:
                old.send({"type": "taken_over"})
                self._drop(old)
                old.close(4409, "taken over by another device")
            self.connections.append(conn)
            if conn.role == "seat" and conn.seat:
                self.seat_conns[conn.seat] = conn
            conn.send(self._frame(conn.role, conn.seat, "hello", [], history=True))
            if conn.role == "seat":
                self.broadcast("seats")

    def detach(self, conn: Connection) -> None:
        with self.lock:
            was_seat = conn.role == "seat" and self.seat_conns.get(conn.seat or "") is conn
            self._drop(conn)
            if was_seat:
                self.broadcast("seats")

    def _drop(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
        if conn.seat and self.seat_conns.get(conn.seat) is conn:
            del self.seat_conns[conn.seat]

    def _kick_seat(self, seat_id: str) -> None:
        conn = self.seat_conns.get(seat_id)
        if conn is not None:
            conn.send({"type": "taken_over"})
            self._drop(conn)
            conn.close(4409, "seat released")

    def close(self) -> None:
        """The server is stopping: tell everybody."""
        with self.lock:
            for conn in list(self.connections):
                conn.send({"type": "table_closed"})
                self._drop(conn)
                conn.close(4410, "table closed")

    # -- joining ------------------------------------------------------------------------
    def join(self, secret: Any, name: Any, colour: Any) -> dict[str, Any]:
        """Claim a seat: a new one in the lobby, or a released one during a game."""
        if not self.check_join(secret):
            raise TableError("bad_secret", "this join link is not valid for this table")
        name = clean_name(name)
        if not isinstance(colour, str) or colour not in PLAYER_COLOURS:
            raise TableError("bad_colour", "choose one of the offered colours")
        token = secrets.token_urlsafe(32)  # 256 random bits
        with self.lock:
            vacant = [s for s in self.seats if s.state == "vacant"]
            taken = {s.colour for s in self.seats if s.state != "vacant"}
            if colour in taken:
                raise TableError("colour_taken", "another player has this colour")
            if self.game is not None and self.game.status == "playing":
                if not vacant:
                    raise TableError("game_running", "a game is running and no seat is free")
                seat = vacant[0]
                seat.name, seat.colour, seat.state = name, colour, "phone"
                seat.token_hash = token_hash(token)
            else:
                if len(self.seats) >= SEATS_MAX:
                    raise TableError("table_full", f"the table has {SEATS_MAX} players already")
                seat = Seat(seat_id_for(name, {s.seat for s in self.seats}), name, colour,
                            token_hash(token))
                self.seats.append(seat)
            self._save_seats()
            self.broadcast("seats")
            return {"seat": seat.seat, "token": token, "name": name, "colour": colour,
                    "ws": f"/t/{self.name}/ws/seat"}

    def _save_seats(self) -> None:
        self.store.save_seats(self.name, [s.row() for s in self.seats])

    def leave(self, seat_id: str, on_done: Callable[[], Any] | None = None) -> None:
        """A phone gives up its seat in the lobby; ``on_done`` (its ok) runs once that is
        saved and before its socket is closed."""
        with self.lock:
            if self.game is not None and self.game.status == "playing":
                raise TableError("bad_state", "a seat can only be given up before the game")
            self.seats = [s for s in self.seats if s.seat != seat_id]
            self._save_seats()
            if on_done is not None:
                on_done()
            self._kick_seat(seat_id)
            self.broadcast("seats")

    # -- commands -----------------------------------------------------------------------
    def submit(self, source: str, cmd_id: Any, command: Any,
               conn: Connection | None = None) -> int:
        """Apply one command from ``source`` (``seat:<id>`` or ``host``), commit, acknowledge
        ``conn`` and broadcast. Returns the new sequence number. A retry of an already
        applied ``cmd_id`` is acknowledged again and applies nothing."""
        if not isinstance(cmd_id, str) or not 1 <= len(cmd_id) <= 64:
            raise TableError("bad_message", "a command needs an id of 1 to 64 characters")
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise TableError("bad_message", "command must be an object with a type")
        kind = command["type"]
        with self.lock:
            g = self.game
            if g is None or g.status != "playing":
                raise TableError("no_game", "no game is running at this table")
            done = g.cmd_ids.get((source, cmd_id), -1)
            if done is None:
                raise TableError("undone", "this command was undone by the host")
            if done != -1:
                if conn is not None:
                    conn.send({"type": "ack", "id": cmd_id, "seq": done + 1, "retry": True})
                return g.seq
            if source.startswith("seat:"):
                seat = source[5:]
                if kind not in SEAT_KINDS and not (kind == "roll" and g.dice == "table"):
                    raise TableError("not_allowed", f"a phone cannot send {kind!r} here")
                if command.get("player", seat) != seat:
                    raise TableError("not_allowed", "a phone can only play for its own seat")
                s = self._seat(seat)
                if s is not None and s.state == "bot":
                    raise TableError("not_allowed", "a companion player plays this seat now; "
                                     "the host can give it back")
                command = {**command, "player": seat}
            elif kind not in HOST_KINDS:
                raise TableError("not_allowed", f"the host cannot send {kind!r}; players "
                                 "send their own moves")
            self._run([(command, source, cmd_id)], conn)
            return g.seq

    def _run(self, batch: list[tuple[dict[str, Any], str, str | None]],
             conn: Connection | None = None, cmd_id: str | None = None) -> None:
        """Apply ``batch`` and every follow-up of the dealer and autopilot, commit them in one
        transaction, then acknowledge and broadcast. Raises TableError if ``batch`` is refused."""
        g = self.game
        assert g is not None
        state = g.state
        applied: list[tuple[dict[str, Any], str, str | None, list[dict[str, Any]]]] = []
        for command, source, cid in batch:
            try:
                state, events = apply(state, command)
            except IllegalCommand as exc:
                raise TableError("illegal", str(exc)) from None
            applied.append((command, source, cid, events))
        draws = g.draws()
        for _ in range(MAX_CHAIN):
            follow = self._follow_up(state, g, draws)
            if follow is None:
                break
            command, source = follow
            try:
                state, events = apply(state, command)
            except IllegalCommand:  # a bug in dealer/autopilot: stop, never loop
                log.exception("table %s: follow-up %r refused", self.name, command)
                break
            if command["type"] == "improvements":
                draws += 1
            applied.append((command, source, None, events))
        if not applied:
            return
        status = "finished" if state["finished"] else None
        first_n = g.next_n
        self.store.append(g.id, first_n, [(c, s, i) for c, s, i, _ in applied], status)
        # Committed: only now does anybody hear of it.
        all_events: list[dict[str, Any]] = []
        for k, (command, source, cid, events) in enumerate(applied):
            g.commands.append((first_n + k, command, source, cid))
            g.events.append(events)
            if cid is not None:
                g.cmd_ids[(source, cid)] = first_n + k
            all_events.extend(events)
        g.next_n = first_n + len(applied)
        g.state = state
        if status:
            g.status = status
        if conn is not None and applied[0][2] is not None:
            conn.send({"type": "ack", "id": applied[0][2], "seq": first_n + 1})
        self.broadcast("command", all_events)
        self._notify(all_events)

    def _follow_up(self, state: dict[str, Any], g: Game,
                   draws: int) -> tuple[dict[str, Any], str] | None:
        if g.dice == "digital":
            cmd = dealer.deal(state, g.decks, draws)
            if cmd is not None:
                return cmd, "dealer"
        for s in self.seats:
            if s.state == "auto":
                cmd = autopilot.move(state, s.seat)
                if cmd is not None:
                    return cmd, "auto"
        return None

    def _notify(self, events: list[dict[str, Any]]) -> None:
        """Observers (the LED board) run after the commit; they never break the table."""
        if self.game is None:
            return
        for observer in list(self.observers):
            try:
                observer(self, self.game.state, events)
            except Exception:  # noqa: BLE001
                log.exception("table %s: observer failed", self.name)

    # -- host actions -------------------------------------------------------------------
    def start(self, dice: Any = None) -> None:
        """Start a game with the seated players (R1.1) in a random stack order (R1.3)."""
        with self.lock:
            if self.game is not None and self.game.status == "playing":
                raise TableError("bad_state", "a game is already running")
            if self.game is not None:
                raise TableError("bad_state", "choose a new game first")
            dice = self.settings["dice"] if dice is None else dice
            if dice not in DICE_MODES:
                raise TableError("bad_message", "dice must be 'digital' or 'table'")
            seats = [s for s in self.seats if s.state != "vacant"]
            if not SEATS_MIN <= len(seats) <= SEATS_MAX or len(seats) != len(self.seats):
                raise TableError("bad_state", f"a game needs {SEATS_MIN} to {SEATS_MAX} "
                                 f"seated players; {len(seats)} are seated")
            players = [s.seat for s in seats]
            overrides = ({"track_colors": self.settings["track_colors"]}
                         if self.settings.get("track_colors") else None)
            state = new_game(players, dealer.initial_stack(players), overrides)
            # The whole profile goes into the log so it replays the same under new defaults.
            document = {"players": players, "stack": state["track"]["0"],
                        "profile": state["profile"]}
            decks = dealer.shuffle_decks(state["profile"])
            self.settings["dice"] = dice
            self.store.save_settings(self.name, self.settings)
            game_id = self.store.create_game(
                self.name, document, [{"seat": s.seat, "name": s.name, "colour": s.colour}
                                      for s in seats], decks, dice)
            self.game = Game(game_id, "playing", document, decks, dice, state)
            self._run([])
            self.broadcast("game", history=True)
            self._notify([])

    def set_dice(self, dice: Any) -> None:
        with self.lock:
            if dice not in DICE_MODES:
                raise TableError("bad_message", "dice must be 'digital' or 'table'")
            self.settings["dice"] = dice
            self.store.save_settings(self.name, self.settings)
            g = self.game
            if g is not None and g.status == "playing":
                g.dice = dice
                self.store.set_game_dice(g.id, dice)
                self._run([])  # the dealer answers what is pending at once
            self.broadcast("settings")

    def set_track_colors(self, colors: Any) -> None:
        """Correct the board profile's track colours (R2.3); saved for every later game and
        applied to the running one while it is still before round 1."""
        from companion.engine import make_profile

        if not isinstance(colors, list) or not 1 <= len(colors) <= 60:
            raise TableError("bad_message", "colors must be a list of 1 to 60 entries")
        try:
            make_profile({"track_colors": colors})
        except ValueError as exc:
            raise TableError("bad_message", str(exc)) from None
        with self.lock:
            g = self.game
            if g is not None and g.status == "playing" and g.state["round"] == 0:
                doc = {**g.document, "profile": {**g.document["profile"],
                                                 "track_colors": list(colors)}}
                self.store.set_game_document(g.id, doc)
                self.settings["track_colors"] = list(colors)
                self.store.save_settings(self.name, self.settings)
                self.game = self._load_game(g.id)
            else:
                self.settings["track_colors"] = list(colors)
                self.store.save_settings(self.name, self.settings)
            self.broadcast("settings", history=True)

    def _undo_check(self) -> tuple[bool, str]:
        g = self.game
        if g is None or g.status != "playing":
            return False, "no game is running"
        if not g.commands:
            return False, "nothing to undo"
        _, command, source, _ = g.commands[-1]
        if source == "dealer":
            return False, "the last command was the companion's dice or cards draw"
        if source == "auto" or source.startswith("bot:"):
            return False, "the last command was the companion's move for a skipped seat"
        revealing = [e["type"] for e in g.events[-1] if e["type"] not in UNDOABLE_EVENTS]
        if revealing:
            return False, (f"the last command ({command['type']}) has already revealed or "
                           f"scored something ({', '.join(sorted(set(revealing)))})")
        return True, f"undo {command['type']}" + (
            f" from {command['player']}" if "player" in command else "")

    def undo(self) -> None:
        """Take back the last command while it has revealed nothing (DESIGN.md)."""
        with self.lock:
            possible, why = self._undo_check()
            if not possible:
                raise TableError("cannot_undo", why)
            g = self.game
            assert g is not None
            n = g.commands[-1][0]
            self.store.mark_undone(g.id, n)
            self.game = self._load_game(g.id)
            self.broadcast("undo", history=True)
            self._notify([])

    def skip_seat(self, seat_id: Any) -> None:
        with self.lock:
            seat = self._need_seat(seat_id)
            seat.state = "auto"
            self._save_seats()
            if self.game is not None and self.game.status == "playing":
                self._run([])
            self.broadcast("seats")

    def resume_seat(self, seat_id: Any) -> None:
        with self.lock:
            seat = self._need_seat(seat_id)
            if seat.state not in ("auto", "bot"):
                raise TableError("bad_state", f"{seat.seat} is not skipped")
            if seat.token_hash is None:
                raise TableError("bad_state", f"{seat.name} is a companion player with no "
                                 "phone to give the seat back to; release the seat instead")
            seat.state, seat.level = "phone", None
            self._save_seats()
            self.broadcast("seats")

    # -- companion players ----------------------------------------------------------------
    def bot_seats(self) -> list[tuple[str, str]]:
        """(seat, level) of every seat a companion player plays now (not the plain skip)."""
        return [(s.seat, s.level or "good") for s in self.seats if s.state == "bot"]

    def add_bot(self, level: Any, name: Any = None) -> None:
        """Seat a companion player of ``level`` in the lobby (R1.1: 3 to 5 players)."""
        from companion.players import LEVELS

        if level not in LEVELS:
            raise TableError("bad_message", f"level must be one of {', '.join(LEVELS)}")
        with self.lock:
            if self.game is not None:
                raise TableError("bad_state", "companion players join in the lobby; during a "
                                 "game the host hands a seat to one")
            if len(self.seats) >= SEATS_MAX:
                raise TableError("table_full", f"the table has {SEATS_MAX} players already")
            taken = {s.colour for s in self.seats}
            colour = next(c for c in PLAYER_COLOURS if c not in taken)
            names = {s.name for s in self.seats}
            if name is None:
                name = next(n for n in BOT_NAMES if n not in names)
            name = clean_name(name)
            seat = Seat(seat_id_for(name, {s.seat for s in self.seats}), name, colour, None,
                        "bot" if level != "plain" else "auto", level if level != "plain"
                        else None)
            self.seats.append(seat)
            self._save_seats()
            self.broadcast("seats")

    def hand_to_bot(self, seat_id: Any, level: Any) -> None:
        """A companion player of ``level`` takes the seat of a player who left; the player's
        token stays valid so the host can give the seat back."""
        from companion.players import LEVELS

        if level not in LEVELS:
            raise TableError("bad_message", f"level must be one of {', '.join(LEVELS)}")
        with self.lock:
            seat = self._need_seat(seat_id)
            if seat.state == "vacant":
                raise TableError("bad_state", f"{seat.seat} is free; a phone can join there")
            seat.state, seat.level = ("auto", None) if level == "plain" else ("bot", level)
            self._save_seats()
            g = self.game
            if g is not None and g.status == "playing":
                self._run([])  # the plain autopilot answers at once
                self._notify([])  # and a thinking companion is asked
            self.broadcast("seats")

    def bot_answer(self, seat_id: str, key: tuple[Any, ...], command: Any) -> None:
        """A companion player's answer: submitted like a phone's command if the same decision
        is still awaited from that companion seat, else dropped (the game moved on)."""
        from companion.bots import decision_key

        with self.lock:
            g = self.game
            seat = self._seat(seat_id)
            if g is None or g.status != "playing" or seat is None or seat.state != "bot":
                return
            if (g.id, *(decision_key(g.state, seat_id) or ())) != key:
                return
            for cmd in (command, autopilot.move(g.state, seat_id)):
                if not isinstance(cmd, dict) or cmd.get("player") != seat_id:
                    continue
                try:
                    self._run([(cmd, f"bot:{seat_id}", None)])
                    return
                except TableError as exc:
                    log.error("table %s: companion %s move refused: %s", self.name, seat_id,
                              exc.reason)

    def set_hints(self, level: Any) -> None:
        """Learning mode (off by default): ``None`` or the level whose suggestions pads show."""
        from companion.players.hints import HINT_LEVELS

        if level is not None and level not in HINT_LEVELS:
            raise TableError("bad_message", "hints must be off (null), 'good' or 'strong'")
        with self.lock:
            self.settings["hints"] = level
            self.store.save_settings(self.name, self.settings)
            self.broadcast("settings")

    def hint(self, seat_id: str, conn: Connection, msg_id: Any) -> None:
        """Ask the hint level's player for a suggestion from this seat's own view; the answer
        goes to this seat's connection only."""
        with self.lock:
            level = self.settings.get("hints")
            if not level:
                raise TableError("hints_off", "the host has not turned hints on")
            g = self.game
            if g is None or g.status != "playing":
                raise TableError("no_game", "no game is running at this table")
            from companion.engine import view

            seen = view(g.state, seat_id)
            seq = g.seq
        if self.bots is None:
            raise TableError("hints_off", "this server runs no companion players")

        def done(result: Any, error: BaseException | None) -> None:
            conn.send({"type": "hint", "id": msg_id, "seq": seq,
                       "hint": None if error else result})

        self.bots.hint(level, seen, done)

    def release_seat(self, seat_id: Any) -> None:
        """Free a seat for another phone (a player left and someone takes over)."""
        with self.lock:
            seat = self._need_seat(seat_id)
            seat.state, seat.token_hash = "vacant", None
            self._save_seats()
            self._kick_seat(seat.seat)
            self.broadcast("seats")

    def remove_seat(self, seat_id: Any) -> None:
        with self.lock:
            seat = self._need_seat(seat_id)
            if self.game is not None and self.game.status == "playing":
                raise TableError("bad_state", "seats can only be removed before the game; "
                                 "skip or release it instead")
            self.seats.remove(seat)
            self._save_seats()
            self._kick_seat(seat.seat)
            self.broadcast("seats")

    def _need_seat(self, seat_id: Any) -> Seat:
        seat = self._seat(seat_id) if isinstance(seat_id, str) else None
        if seat is None:
            raise TableError("bad_message", f"no seat {seat_id!r} at this table")
        return seat

    def end_game(self) -> None:
        with self.lock:
            g = self.game
            if g is None or g.status != "playing":
                raise TableError("no_game", "no game is running")
            g.status = "ended"
            self.store.set_game_status(g.id, "ended")
            self.broadcast("game")

    def new_game(self) -> None:
        """Back to the lobby with the same seats (released seats are dropped, skipped ones go
        back to their phones: the host skips again whoever has really left)."""
        with self.lock:
            if self.game is not None and self.game.status == "playing":
                raise TableError("bad_state", "end the running game first")
            self.game = None
            self.store.set_current_game(self.name, None)
            self.seats = [s for s in self.seats if s.state != "vacant"]
            for s in self.seats:  # skipped players get their phones back for the new game
                if s.state == "auto":
                    s.state = "phone"
            self._save_seats()
            self.broadcast("game", history=True)

    def set_language(self, lang: str) -> None:
        """The display's language, the host's choice (checked by the web layer)."""
        with self.lock:
            self.settings["lang"] = lang
            self.store.save_settings(self.name, self.settings)
            self.broadcast("settings")

    def rotate_join(self) -> None:
        with self.lock:
            self.join_secret = secrets.token_urlsafe(16)
            self.store.save_join_secret(self.name, self.join_secret)
            self.broadcast("settings")

    def set_board_status(self, status: dict[str, Any] | None) -> None:
        with self.lock:
            if status != self.board_status:
                self.board_status = status
                self.broadcast("board", roles=("display", "host"))  # phones don't show it

    # -- logs ---------------------------------------------------------------------------
    def log_document(self, game_id: int) -> dict[str, Any]:
        """The SCENARIO.md document of a game that is over (an unfinished game's log would
        give away unrevealed bids and sacrifices)."""
        with self.lock:
            stored = self.store.game(game_id)
            if stored is None or stored.table_name != self.name:
                raise TableError("no_game", f"no game {game_id} at this table")
            if stored.status == "playing":
                raise TableError("bad_state", "the game is still running: its log holds "
                                 "unrevealed bids and sacrifices; end it first")
            return {**stored.document,
                    "commands": [c.command for c in self.store.commands(game_id)]}
