"""A table's seats: joining and leaving, skip and resume, release and remove. A seat change
during a game is committed with the autopilot's moves for newly skipped seats.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import replace
from typing import Any

from companion.engine.colours import PLAYER_COLOURS
from companion.store import token_hash
from companion.table.core import Reply
from companion.table.games import Games
from companion.table.model import (
    SEATS_MAX,
    Outcome,
    Seat,
    TableError,
    clean_name,
    seat_id_for,
)


class Seats(Games):
    """Who sits at the table, and with what (a phone, the autopilot, nobody)."""

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
                g = self.game
                assert g is not None
                # The seat's moves from now on are this phone's: its result credits the
                # name and colour each holder played under (store/results.py).
                takeover = self.store.takeover_stmts(g.id, seat.seat, g.next_n, name, colour)
            else:
                if len(self.seats) >= SEATS_MAX:
                    raise TableError("table_full", f"the table has {SEATS_MAX} players already")
                seat = Seat(
                    seat_id_for(name, {s.seat for s in self.seats}), name, colour, token_hash(token)
                )
                seats = [*self.seats, seat]
                takeover = []
            self._commit([*self.store.seats_stmts(self.name, [s.row() for s in seats]), *takeover])
            self.seats = seats
            return self._publish(
                Outcome(
                    "seats",
                    result={"seat": seat.seat, "token": token, "name": name, "colour": colour},
                )
            )

    def leave(self, seat_id: str, reply: Reply | None = None) -> Outcome:
        """A phone gives up its seat in the lobby; ``reply`` (its ok) goes out once that is
        saved and before its socket is closed."""
        with self.lock:
            if self.playing():
                raise TableError("bad_state", "a seat can only be given up before the game")
            seats = [s for s in self.seats if s.seat != seat_id]
            self._commit(self.store.seats_stmts(self.name, [s.row() for s in seats]))
            self.seats = seats
            return self._publish(Outcome("seats", kicked=[seat_id], kicked_by="self"), reply=reply)

    def _seat_change(
        self,
        seats: list[Seat],
        reason: str = "seats",
        kicked: list[str] | None = None,
        ask: bool = False,
        notices: dict[str, dict[str, Any]] | None = None,
    ) -> Outcome:
        """Commit a new seat list (with the autopilot's moves for newly skipped seats).
        ``ask``: the seat outcome carries the game's state, so the companion players look
        again (a seat handed to a thinking one during a game)."""
        stmts = self.store.seats_stmts(self.name, [s.row() for s in seats])
        g = self.game
        if g is not None and g.status == "playing":
            state, applied = self._plan(g, g.state, [], seats)
            self._commit([*stmts, *self._append_stmts(g, state, applied)])
            self.seats = seats
            events = self._apply(g, state, applied)
            outcomes = [Outcome("command", events, state=state)] if applied else []
            return self._publish(
                *outcomes,
                Outcome(
                    reason,
                    kicked=kicked or [],
                    state=state if ask else None,
                    notices=notices or {},
                ),
            )
        self._commit(stmts)
        self.seats = seats
        return self._publish(Outcome(reason, kicked=kicked or [], notices=notices or {}))

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
            # The phone is told it has its seat back (to that seat only, PROTOCOL.md 3.4).
            return self._seat_change(
                [replace(s, state="phone", level=None) if s is seat else s for s in self.seats],
                notices={seat.seat: {"kind": "resumed"}},
            )

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
