"""Companion players and hints at a table: the host seats a companion player in the lobby or
hands it a seat during a game; its answers come back (``bot_answer``) and are committed like a
phone's command. Learning mode's hints read a seat's own view. The thinking happens elsewhere
(companion.table.companions), never under the table's lock.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from typing import Any

from companion.engine import View, view
from companion.engine.colours import PLAYER_COLOURS
from companion.players import LEVELS, autopilot
from companion.players.common import decision_key
from companion.players.hints import HINT_LEVELS
from companion.table.model import (
    SEATS_MAX,
    Outcome,
    Seat,
    SeatState,
    TableError,
    clean_name,
    seat_id_for,
)
from companion.table.seats import Seats

log = logging.getLogger(__name__)

BOT_NAMES = ("Xochi", "Tlaloc", "Itzel", "Nahui", "Citlali", "Yaretzi")  # companion players
BOT_RETRY_S = 1.0  # a companion move the store refused is asked for again after this


class Bots(Seats):
    """Companion players' seats and answers, and hints."""

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
            # During a game a thinking companion player is asked now (``ask``).
            return self._seat_change(
                [replace(s, state=state, level=kind) if s is seat else s for s in self.seats],
                ask=True,
            )

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
            if self.game is not None and self.playing():
                # No frame for anybody (roles=()): the companion players look again.
                self._publish(Outcome("ask_bots", roles=(), state=self.game.state))

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
