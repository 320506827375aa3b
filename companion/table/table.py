"""A table: its seats and its running game, and the one lock that orders their changes.

Every change is computed first, committed (one transaction), and only then applied to memory
and told: a failed commit leaves memory as it was and answers ``storage_failed`` (DESIGN.md
"Server"). The engine validates commands; the dealer (digital dice and cards) and the autopilot
(skipped seats) answer in the same step and the same transaction. The table knows nothing of
connections or URLs: each change returns an :class:`Outcome`, and the listeners (the web hub,
the LED board) hear of it after the commit, in commit order, under the table's lock.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.engine import (
    DEFAULT_PROFILE,
    IllegalCommand,
    State,
    View,
    apply,
    make_profile,
    new_game,
    view,
)
from companion.engine.colours import PLAYER_COLOURS
from companion.players import LEVELS, autopilot
from companion.players.common import decision_key
from companion.players.hints import HINT_LEVELS
from companion.store import Statements, Store, token_hash
from companion.store.results import TRACK_COLORS, companion_levels, engine_log, meta
from companion.table import dealer, policy, show
from companion.table.frames import HostInfo, Snapshot
from companion.table.model import (
    DICE_MODES,
    SEATS_MAX,
    SEATS_MIN,
    TABLE_NAME,
    Game,
    Outcome,
    Seat,
    SeatState,
    TableError,
    clean_name,
    game_status,
    seat_id_for,
    storage_error,
)

log = logging.getLogger(__name__)

# Events a command may cause and still be undone: nothing secret or scored came out of it.
UNDOABLE_EVENTS = {
    "sacrificed",
    "bid_placed",
    "dice_decided",
    "harvest_dice",
    "improvement_cards",
    "rolled",
    "round_started",
}
BOT_NAMES = ("Xochi", "Tlaloc", "Itzel", "Nahui", "Citlali", "Yaretzi")  # companion players
BOT_RETRY_S = 1.0  # a companion move the store refused is asked for again after this
MAX_CHAIN = 500  # dealer/autopilot follow-ups after one command; a game has far fewer
# TRACK_COLORS (from companion.store.results): the table's own logged command (R2.3), not an
# engine one.

Observer = Callable[["Table", State, list[dict[str, Any]]], None]
Listener = Callable[["Table", Outcome], None]
Applied = list[tuple[dict[str, Any], str, str | None, list[dict[str, Any]]]]


def recoloured(
    document: dict[str, Any], commands: list[dict[str, Any]], colors: list[str]
) -> State:
    """The game's state had it been set up with track ``colors`` (R2.3): the engine commands so
    far replayed on the corrected profile (only allowed before round 1, so nothing scored)."""
    profile = {**document["profile"], "track_colors": list(colors)}
    state = new_game(document["players"], document.get("stack"), profile)
    for command in commands:
        if command["type"] != TRACK_COLORS:
            state, _ = apply(state, command)
    return state


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
        self.board_status: dict[str, Any] | None = None
        self.observers: list[Observer] = []  # the LED board: (table, state, new events)
        self.listeners: list[Listener] = []  # the web hub: every outcome
        self.bots: Any = None  # the café's companion players (companion.table.companions), if any
        self.stage: Any = None  # the show (companion.table.stage): what the screens show when
        row = store.table(name)
        if row is None:
            settings = {"dice": dice, "track_colors": None}
            store.create_table(name, secrets.token_urlsafe(16), secrets.token_urlsafe(24), settings)
            row = store.table(name)
            assert row is not None
        self.join_secret: str = row["join_secret"]
        self.host_token: str = row["host_token"]
        self.settings: dict[str, Any] = row["settings"]
        self.title = title or f"Table {name}"
        self.seats: list[Seat] = [Seat.from_row(r) for r in store.seats(name)]
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
        game = Game(stored.id, game_status(stored.status), doc, stored.decks, stored.dice, state)
        for c in self.store.commands(game_id, include_undone=True):
            game.next_n = c.n + 1
            if c.cmd_id is not None:
                game.cmd_ids[(c.source, c.cmd_id)] = None if c.undone else c.n
            if c.undone:
                continue
            try:
                if c.command["type"] == TRACK_COLORS:
                    game.state = recoloured(
                        doc, [x for _, x, _, _ in game.commands], c.command["colors"]
                    )
                    events: list[dict[str, Any]] = []
                else:
                    game.state, events = apply(game.state, c.command)
            except (IllegalCommand, ValueError, KeyError) as exc:
                raise TableError(
                    "bad_log",
                    f"table {self.name}: game {game_id} command {c.n} no longer applies: {exc}",
                ) from None
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
            return bool(
                s
                and s.token_hash
                and s.state != "vacant"
                and hmac.compare_digest(s.token_hash, token_hash(token))
            )

    def _seat(self, seat_id: str) -> Seat | None:
        return next((s for s in self.seats if s.seat == seat_id), None)

    def _need_seat(self, seat_id: Any) -> Seat:
        seat = self._seat(seat_id) if isinstance(seat_id, str) else None
        if seat is None:
            raise TableError("bad_message", f"no seat {seat_id!r} at this table")
        return seat

    def playing(self) -> bool:
        return self.game is not None and self.game.status == "playing"

    def status(self) -> str:
        """``lobby`` | ``playing`` | ``finished`` (PROTOCOL.md section 4)."""
        if self.game is None:
            return "lobby"
        return "playing" if self.game.status == "playing" else "finished"

    # -- what the views are made from ----------------------------------------------------
    def snapshot(self, with_host: bool = False) -> Snapshot:
        """Everything a frame may show, taken under the lock (frames.py renders it)."""
        with self.lock:
            host = None
            if with_host:
                g = self.game
                possible, why = self._undo_check()
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
                    possible,
                    why,
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
            )

    # -- publishing ---------------------------------------------------------------------
    def _publish(
        self,
        *outcomes: Outcome,
        reply: Callable[[Outcome], Any] | None = None,
        events_for_board: list[dict[str, Any]] | None = None,
    ) -> Outcome:
        """After a commit: the caller's reply (an ack goes before the views), then every
        listener, then the LED board. Listeners never break the table."""
        if reply is not None:
            reply(outcomes[0])
        for outcome in outcomes:
            for listener in list(self.listeners):
                try:
                    listener(self, outcome)
                except Exception:  # noqa: BLE001
                    log.exception("table %s: listener failed", self.name)
        if events_for_board is not None:
            self._notify(events_for_board)
        return outcomes[0]

    def _notify(self, events: list[dict[str, Any]]) -> None:
        """Observers (the LED board) run after the commit; they never break the table."""
        if self.game is None:
            return
        for observer in list(self.observers):
            try:
                observer(self, self.game.state, events)
            except Exception:  # noqa: BLE001
                log.exception("table %s: observer failed", self.name)

    def _commit(self, statements: Statements) -> None:
        """One transaction, or TableError ``storage_failed`` with nothing changed."""
        try:
            self.store.commit(statements)
        except Exception as exc:  # noqa: BLE001 - sqlite3 and OS errors alike
            log.warning("table %s: commit failed: %s", self.name, exc)
            raise storage_error(exc) from None

    # -- joining and leaving ------------------------------------------------------------
    def join(self, secret: Any, name: Any, colour: Any) -> Outcome:
        """Claim a seat: a new one in the lobby, or a released one during a game. The
        outcome's ``result`` holds the seat and its token (for the joining phone only)."""
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
            if self.playing():
                if not vacant:
                    raise TableError("game_running", "a game is running and no seat is free")
                seat = replace(
                    vacant[0], name=name, colour=colour, state="phone", token_hash=token_hash(token)
                )
                seats = [seat if s.seat == seat.seat else s for s in self.seats]
            else:
                if len(self.seats) >= SEATS_MAX:
                    raise TableError("table_full", f"the table has {SEATS_MAX} players already")
                seat = Seat(
                    seat_id_for(name, {s.seat for s in self.seats}), name, colour, token_hash(token)
                )
                seats = [*self.seats, seat]
            self._commit(self.store.seats_stmts(self.name, [s.row() for s in seats]))
            self.seats = seats
            return self._publish(
                Outcome(
                    "seats",
                    result={"seat": seat.seat, "token": token, "name": name, "colour": colour},
                )
            )

    def leave(self, seat_id: str, reply: Callable[[Outcome], Any] | None = None) -> Outcome:
        """A phone gives up its seat in the lobby; ``reply`` (its ok) goes out once that is
        saved and before its socket is closed."""
        with self.lock:
            if self.playing():
                raise TableError("bad_state", "a seat can only be given up before the game")
            seats = [s for s in self.seats if s.seat != seat_id]
            self._commit(self.store.seats_stmts(self.name, [s.row() for s in seats]))
            self.seats = seats
            return self._publish(Outcome("seats", kicked=[seat_id]), reply=reply)

    # -- commands -----------------------------------------------------------------------
    def submit(
        self, source: str, cmd_id: Any, command: Any, reply: Callable[[Outcome], Any] | None = None
    ) -> Outcome:
        """Apply one command from ``source`` (``seat:<id>`` or ``host``), commit, then
        ``reply`` (the ack) and tell everybody. A retry of an already applied ``cmd_id`` is
        acknowledged again and applies nothing."""
        if not isinstance(cmd_id, str) or not 1 <= len(cmd_id) <= 64:
            raise TableError("bad_message", "a command needs an id of 1 to 64 characters")
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise TableError("bad_message", "command must be an object with a type")
        with self.lock:
            g = self.game
            if g is None or g.status != "playing":
                raise TableError("no_game", "no game is running at this table")
            done = g.cmd_ids.get((source, cmd_id), -1)
            if done is None:
                raise TableError("undone", "this command was undone by the host")
            if done != -1:
                outcome = Outcome("command", ack_id=cmd_id, seq=done + 1, retry=True)
                if reply is not None:
                    reply(outcome)
                return outcome
            command = policy.command_for(
                source, command, g.dice, frozenset(s.seat for s in self.seats if s.state == "bot")
            )
            state, applied = self._plan(g, g.state, [(command, source, cmd_id)], self.seats)
            return self._commit_commands(g, state, applied, reply=reply)

    def _plan(
        self,
        g: Game,
        state: State,
        batch: list[tuple[dict[str, Any], str, str | None]],
        seats: list[Seat],
        dice: str | None = None,
    ) -> tuple[State, Applied]:
        """``batch`` and every follow-up of the dealer and autopilot, applied to a copy:
        nothing changes here. Raises TableError if ``batch`` is refused."""
        applied: Applied = []
        for command, source, cid in batch:
            try:
                state, events = apply(state, command)
            except IllegalCommand as exc:
                raise TableError("illegal", str(exc)) from None
            applied.append((command, source, cid, events))
        dice = dice or g.dice
        draws = g.draws()
        for _ in range(MAX_CHAIN):
            follow = self._follow_up(state, g, draws, seats, dice)
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
        return state, applied

    def _follow_up(
        self, state: State, g: Game, draws: int, seats: list[Seat], dice: str
    ) -> tuple[dict[str, Any], str] | None:
        if dice == "digital":
            cmd = dealer.deal(state, g.decks, draws)
            if cmd is not None:
                return cmd, "dealer"
        for s in seats:
            if s.state == "auto":
                cmd = autopilot.move(state, s.seat)
                if cmd is not None:
                    return cmd, "auto"
        return None

    def _append_stmts(self, g: Game, state: State, applied: Applied) -> Statements:
        if not applied:
            return []
        status = "finished" if state["finished"] else None
        return self.store.append_stmts(
            g.id, g.next_n, [(c, s, i) for c, s, i, _ in applied], status
        )

    def _apply(self, g: Game, state: State, applied: Applied) -> list[dict[str, Any]]:
        """Committed: record ``applied`` in memory. Returns their events in order."""
        first_n = g.next_n
        all_events: list[dict[str, Any]] = []
        for k, (command, source, cid, events) in enumerate(applied):
            g.commands.append((first_n + k, command, source, cid))
            g.events.append(events)
            if cid is not None:
                g.cmd_ids[(source, cid)] = first_n + k
            all_events.extend(events)
        g.next_n = first_n + len(applied)
        g.state = state
        if state["finished"]:
            g.status = "finished"
        return all_events

    def _commit_commands(
        self,
        g: Game,
        state: State,
        applied: Applied,
        extra: Statements | None = None,
        reply: Callable[[Outcome], Any] | None = None,
    ) -> Outcome:
        first_n = g.next_n
        self._commit([*(extra or []), *self._append_stmts(g, state, applied)])
        events = self._apply(g, state, applied)
        ack = applied[0][2] if applied else None
        return self._publish(
            Outcome("command", events, ack_id=ack, seq=first_n + 1),
            reply=reply,
            events_for_board=events,
        )

    # -- host actions -------------------------------------------------------------------
    def start(self, dice: Any = None) -> Outcome:
        """Start a game with the seated players (R1.1) in a random stack order (R1.3)."""
        with self.lock:
            if self.playing():
                raise TableError("bad_state", "a game is already running")
            if self.game is not None:
                raise TableError("bad_state", "choose a new game first")
            dice = self.settings["dice"] if dice is None else dice
            if dice not in DICE_MODES:
                raise TableError("bad_message", "dice must be 'digital' or 'table'")
            seats = [s for s in self.seats if s.state != "vacant"]
            if not SEATS_MIN <= len(seats) <= SEATS_MAX or len(seats) != len(self.seats):
                raise TableError(
                    "bad_state",
                    f"a game needs {SEATS_MIN} to {SEATS_MAX} "
                    f"seated players; {len(seats)} are seated",
                )
            players = [s.seat for s in seats]
            overrides = (
                {"track_colors": self.settings["track_colors"]}
                if self.settings.get("track_colors")
                else None
            )
            state = new_game(players, dealer.initial_stack(players), overrides)
            # The whole profile goes into the log so it replays the same under new defaults.
            document = {
                "players": players,
                "stack": state["track"]["0"],
                "profile": state["profile"],
            }
            decks = dealer.shuffle_decks(state["profile"])
            game = Game(0, "playing", document, decks, dice, state)
            state, applied = self._plan(game, state, [], self.seats)
            settings = {**self.settings, "dice": dice}
            status = "finished" if state["finished"] else None
            self._commit(
                [
                    *self.store.settings_stmts(self.name, settings),
                    *self.store.new_game_stmts(
                        self.name,
                        document,
                        [{"seat": s.seat, "name": s.name, "colour": s.colour} for s in seats],
                        decks,
                        dice,
                    ),
                    *self.store.append_stmts(
                        None, 0, [(c, s, i) for c, s, i, _ in applied], status, table_name=self.name
                    ),
                ]
            )
            game.id = self.store.current_game(self.name)
            events = self._apply(game, state, applied)
            self.settings, self.game = settings, game
            outcomes = [Outcome("command", events)] if applied else []
            return self._publish(*outcomes, Outcome("game", history=True), events_for_board=events)

    def set_dice(self, dice: Any) -> Outcome:
        with self.lock:
            if dice not in DICE_MODES:
                raise TableError("bad_message", "dice must be 'digital' or 'table'")
            settings = {**self.settings, "dice": dice}
            stmts = self.store.settings_stmts(self.name, settings)
            g = self.game
            if g is not None and g.status == "playing":
                # The dealer answers what is pending at once, in the same transaction.
                state, applied = self._plan(g, g.state, [], self.seats, dice=dice)
                stmts += self.store.game_dice_stmts(g.id, dice)
                stmts += self._append_stmts(g, state, applied)
                self._commit(stmts)
                self.settings, g.dice = settings, dice
                events = self._apply(g, state, applied)
                outcomes = [Outcome("command", events)] if applied else []
                return self._publish(
                    *outcomes, Outcome("settings"), events_for_board=events if applied else None
                )
            self._commit(stmts)
            self.settings = settings
            return self._publish(Outcome("settings"))

    def set_track_colors(self, colors: Any) -> Outcome:
        """Correct the board profile's track colours (R2.3): saved for every later game, and
        while the running game is before round 1 logged as its command (the stored setup is
        never rewritten; replay applies the correction in order)."""
        if not isinstance(colors, list) or not 1 <= len(colors) <= 60:
            raise TableError("bad_message", "colors must be a list of 1 to 60 entries")
        try:
            make_profile({"track_colors": colors})
        except ValueError as exc:
            raise TableError("bad_message", str(exc)) from None
        colors = list(colors)
        with self.lock:
            settings = {**self.settings, "track_colors": colors}
            stmts = self.store.settings_stmts(self.name, settings)
            g = self.game
            if g is not None and g.status == "playing" and g.state["round"] == 0:
                command = {"type": TRACK_COLORS, "colors": colors}
                state = recoloured(g.document, [c for _, c, _, _ in g.commands], colors)
                applied: Applied = [(command, "host", None, [])]
                self._commit([*stmts, *self._append_stmts(g, state, applied)])
                self.settings = settings
                self._apply(g, state, applied)
                return self._publish(Outcome("settings", history=True), events_for_board=[])
            self._commit(stmts)
            self.settings = settings
            return self._publish(Outcome("settings", history=True))

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
            return False, "the last command was a companion player's move"
        revealing = [e["type"] for e in g.events[-1] if e["type"] not in UNDOABLE_EVENTS]
        if revealing:
            return False, (
                f"the last command ({command['type']}) has already revealed or "
                f"scored something ({', '.join(sorted(set(revealing)))})"
            )
        return True, f"undo {command['type']}" + (
            f" from {command['player']}" if "player" in command else ""
        )

    def undo(self) -> Outcome:
        """Take back the last command while it has revealed nothing (DESIGN.md)."""
        with self.lock:
            possible, why = self._undo_check()
            if not possible:
                raise TableError("cannot_undo", why)
            g = self.game
            assert g is not None
            n, _, source, cid = g.commands[-1]
            earlier = [c for _, c, _, _ in g.commands[:-1]]
            colors = [c["colors"] for c in earlier if c["type"] == TRACK_COLORS]
            if colors:
                state = recoloured(g.document, earlier, colors[-1])
            else:
                state = new_game(
                    g.document["players"], g.document.get("stack"), g.document.get("profile")
                )
                for command in earlier:
                    state, _ = apply(state, command)
            self._commit(self.store.undone_stmts(g.id, n))
            g.commands.pop()
            g.events.pop()
            if cid is not None:
                g.cmd_ids[(source, cid)] = None
            g.state = state
            return self._publish(Outcome("undo", history=True), events_for_board=[])

    def _seat_change(
        self, seats: list[Seat], reason: str = "seats", kicked: list[str] | None = None
    ) -> Outcome:
        """Commit a new seat list (with the autopilot's moves for newly skipped seats)."""
        stmts = self.store.seats_stmts(self.name, [s.row() for s in seats])
        g = self.game
        if g is not None and g.status == "playing":
            state, applied = self._plan(g, g.state, [], seats)
            self._commit([*stmts, *self._append_stmts(g, state, applied)])
            self.seats = seats
            events = self._apply(g, state, applied)
            outcomes = [Outcome("command", events)] if applied else []
            return self._publish(
                *outcomes,
                Outcome(reason, kicked=kicked or []),
                events_for_board=events if applied else None,
            )
        self._commit(stmts)
        self.seats = seats
        return self._publish(Outcome(reason, kicked=kicked or []))

    def skip_seat(self, seat_id: Any) -> Outcome:
        with self.lock:
            seat = self._need_seat(seat_id)
            return self._seat_change(
                [replace(s, state="auto") if s is seat else s for s in self.seats]
            )

    def resume_seat(self, seat_id: Any) -> Outcome:
        """The seat goes back to its phone (after a skip or a companion player's turn)."""
        with self.lock:
            seat = self._need_seat(seat_id)
            if not seat.companion:
                raise TableError("bad_state", f"{seat.seat} is not skipped")
            if seat.token_hash is None:
                raise TableError(
                    "bad_state",
                    f"{seat.name} is a companion player with no "
                    "phone to give the seat back to; release the seat instead",
                )
            return self._seat_change(
                [replace(s, state="phone", level=None) if s is seat else s for s in self.seats]
            )

    # -- companion players ----------------------------------------------------------------
    def bot_seats(self) -> list[tuple[str, str]]:
        """(seat, level) of every seat a thinking companion player plays now (the plain
        skip answers at once in ``_plan``, like the autopilot it is)."""
        return [(s.seat, s.level or "good") for s in self.seats if s.state == "bot"]

    def add_bot(self, level: Any, name: Any = None) -> Outcome:
        """Seat a companion player of ``level`` in the lobby (R1.1: 3 to 5 players)."""
        if level not in LEVELS:
            raise TableError("bad_message", f"level must be one of {', '.join(LEVELS)}")
        with self.lock:
            if self.game is not None:
                raise TableError(
                    "bad_state",
                    "companion players join in the lobby; during a "
                    "game the host hands a seat to one",
                )
            if len(self.seats) >= SEATS_MAX:
                raise TableError("table_full", f"the table has {SEATS_MAX} players already")
            taken = {s.colour for s in self.seats}
            colour = next(c for c in PLAYER_COLOURS if c not in taken)
            names = {s.name for s in self.seats}
            name = clean_name(
                name if name is not None else next(n for n in BOT_NAMES if n not in names)
            )
            state: SeatState = "auto" if level == "plain" else "bot"
            kind = None if level == "plain" else level
            seat = Seat(
                seat_id_for(name, {s.seat for s in self.seats}), name, colour, None, state, kind
            )
            return self._seat_change([*self.seats, seat])

    def hand_to_bot(self, seat_id: Any, level: Any) -> Outcome:
        """A companion player of ``level`` takes the seat of a player who left; the player's
        token stays valid so the host can give the seat back (``resume_seat``)."""
        if level not in LEVELS:
            raise TableError("bad_message", f"level must be one of {', '.join(LEVELS)}")
        with self.lock:
            seat = self._need_seat(seat_id)
            if seat.state == "vacant":
                raise TableError("bad_state", f"{seat.seat} is free; a phone can join there")
            state: SeatState = "auto" if level == "plain" else "bot"
            kind = None if level == "plain" else level
            outcome = self._seat_change(
                [replace(s, state=state, level=kind) if s is seat else s for s in self.seats]
            )
            if self.playing():
                self._notify([])  # a thinking companion player is asked now
            return outcome

    def bot_answer(self, seat_id: str, key: tuple[Any, ...], command: Any) -> None:
        """A companion player's answer: applied, committed and logged like a phone's command
        (source ``bot:<seat>:<level>``) if the same decision is still awaited from that companion
        seat, else dropped (the game moved on). A refused answer falls back to the plain
        autopilot's move."""
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
                source = f"bot:{seat_id}:{seat.level}"
                try:
                    state, applied = self._plan(g, g.state, [(cmd, source, None)], self.seats)
                    self._commit_commands(g, state, applied)
                    return
                except TableError as exc:
                    log.error(
                        "table %s: companion %s move not applied: %s",
                        self.name,
                        seat_id,
                        exc.reason,
                    )
                    if exc.code == "storage_failed":  # ask again once the disk may take it
                        timer = threading.Timer(BOT_RETRY_S, self._ask_bots_again)
                        timer.daemon = True
                        timer.start()
                        return

    def _ask_bots_again(self) -> None:
        with self.lock:
            if self.playing():
                self._notify([])

    def set_hints(self, level: Any) -> Outcome:
        """Learning mode (off by default): ``None`` or the level whose suggestions pads show."""

        if level is not None and level not in HINT_LEVELS:
            raise TableError("bad_message", "hints must be off (null), 'good' or 'strong'")
        with self.lock:
            settings = {**self.settings, "hints": level}
            self._commit(self.store.settings_stmts(self.name, settings))
            self.settings = settings
            return self._publish(Outcome("settings"))

    def hint_request(self, seat_id: str) -> tuple[str, View, int]:
        """What a hint needs: the level, this seat's own view (taken under the lock, the
        thinking happens elsewhere) and the sequence number it answers."""

        with self.lock:
            level = self.settings.get("hints")
            if not level:
                raise TableError("hints_off", "the host has not turned hints on")
            g = self.game
            if g is None or g.status != "playing" or seat_id not in g.state["players"]:
                raise TableError("no_game", "no game is running at this table")
            return level, view(g.state, seat_id), g.seq

    def release_seat(self, seat_id: Any) -> Outcome:
        """Free a seat for another phone (a player left and someone takes over)."""
        with self.lock:
            seat = self._need_seat(seat_id)
            freed = replace(seat, state="vacant", token_hash=None)
            return self._seat_change(
                [freed if s is seat else s for s in self.seats], kicked=[seat.seat]
            )

    def remove_seat(self, seat_id: Any) -> Outcome:
        with self.lock:
            seat = self._need_seat(seat_id)
            if self.playing():
                raise TableError(
                    "bad_state",
                    "seats can only be removed before the game; skip or release it instead",
                )
            return self._seat_change([s for s in self.seats if s is not seat], kicked=[seat.seat])

    def end_game(self) -> Outcome:
        with self.lock:
            g = self.game
            if g is None or g.status != "playing":
                raise TableError("no_game", "no game is running")
            self._commit(self.store.game_status_stmts(g.id, "ended"))
            g.status = "ended"
            return self._publish(Outcome("game"))

    def new_game(self) -> Outcome:
        """Back to the lobby with the same seats (released seats are dropped, skipped ones go
        back to their phones: the host skips again whoever has really left)."""
        with self.lock:
            if self.playing():
                raise TableError("bad_state", "end the running game first")
            # Companion players seated in the lobby stay; seats handed over go back.
            seats = [
                replace(s, state="phone", level=None)
                if s.companion and s.token_hash is not None
                else s
                for s in self.seats
                if s.state != "vacant"
            ]
            self._commit(
                [
                    *self.store.current_game_stmts(self.name, None),
                    *self.store.seats_stmts(self.name, [s.row() for s in seats]),
                ]
            )
            self.game, self.seats = None, seats
            return self._publish(Outcome("game", history=True))

    def set_pace(self, pace: Any) -> Outcome:
        """How long the screens hold each station's result (companion.table.show)."""
        if not show.valid_pace(pace):
            raise TableError("bad_message", f"pace must be one of {', '.join(show.PACES)}")
        with self.lock:
            settings = {**self.settings, "pace": pace}
            self._commit(self.store.settings_stmts(self.name, settings))
            self.settings = settings
            return self._publish(Outcome("settings"))

    def set_language(self, lang: str) -> Outcome:
        """The display's language, the host's choice (checked by the web layer)."""
        with self.lock:
            settings = {**self.settings, "lang": lang}
            self._commit(self.store.settings_stmts(self.name, settings))
            self.settings = settings
            return self._publish(Outcome("settings"))

    def set_board_drawing(self, shown: Any) -> Outcome:
        """Whether the display draws the LED board (the host's choice, kept in the settings)."""
        if not isinstance(shown, bool):
            raise TableError("bad_message", "shown must be true or false")
        with self.lock:
            settings = {**self.settings, "board_drawing": shown}
            self._commit(self.store.settings_stmts(self.name, settings))
            self.settings = settings
            return self._publish(Outcome("settings"))

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

    def close(self) -> None:
        """The server is stopping: tell everybody."""
        with self.lock:
            self._publish(Outcome("closed"))

    # -- logs ---------------------------------------------------------------------------
    def log_document(self, game_id: int) -> dict[str, Any]:
        """The SCENARIO.md document of a game that is over (an unfinished game's log would
        give away unrevealed bids and sacrifices). Track-colour corrections are folded into
        the profile: they came before round 1, so the engine commands replay the same."""
        with self.lock:
            stored = self.store.game(game_id)
            if stored is None or stored.table_name != self.name:
                raise TableError("no_game", f"no game {game_id} at this table")
            if stored.status == "playing":
                raise TableError(
                    "bad_state",
                    "the game is still running: its log holds "
                    "unrevealed bids and sacrifices; end it first",
                )

            stored_commands = self.store.commands(game_id)
            document, commands = engine_log(stored.document, [c.command for c in stored_commands])
            levels = companion_levels((c.command, c.source) for c in stored_commands)
            about = meta(self.name, stored.created, stored.seats, levels)
            return {**document, "meta": about, "commands": commands}
