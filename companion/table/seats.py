"""A table's seats: joining and leaving, skip and resume, release and remove. A seat change
during a game is committed with the autopilot's moves for newly skipped seats (planned and
recorded through the table's :class:`~companion.table.commands.Commands`).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import replace
from typing import Any

from companion.engine.colours import PLAYER_COLOURS
from companion.store import token_hash
from companion.table.commands import Commands
from companion.table.core import Context, Reply
from companion.table.frame_types import Notice
from companion.table.model import (
    SEATS_MAX,
    Outcome,
    OutcomeReason,
    Seat,
    TableError,
    clean_name,
    seat_id_for,
)


class Seats:
    """Who sits at the table, and with what (a phone, the autopilot, nobody)."""

    def __init__(self, ctx: Context, commands: Commands) -> None:
        self.ctx = ctx
        self.commands = commands

    def check_join(self, secret: Any) -> bool:
        return isinstance(secret, str) and hmac.compare_digest(secret, self.ctx.join_secret)

    def check_seat(self, seat: Any, token: Any) -> bool:
        ctx = self.ctx
        if not isinstance(seat, str) or not isinstance(token, str):
            return False
        with ctx.lock:
            s = ctx.seat(seat)
            return bool(
                s
                and s.token_hash
                and s.state != "vacant"
                and hmac.compare_digest(s.token_hash, token_hash(token))
            )

    def join(self, secret: Any, name: Any, colour: Any) -> Outcome:
        """Claim a seat: a new one in the lobby, or a released one during a game. The
        outcome's ``result`` holds the seat and its token (for the joining phone only)."""
        ctx = self.ctx
        if not self.check_join(secret):
            raise TableError("bad_secret", "this join link is not valid for this table")
        name = clean_name(name)
        if not isinstance(colour, str) or colour not in PLAYER_COLOURS:
            raise TableError("bad_colour", "choose one of the offered colours")
        token = secrets.token_urlsafe(32)  # 256 random bits
        with ctx.lock:
            vacant = [s for s in ctx.seats if s.state == "vacant"]
            taken = {s.colour for s in ctx.seats if s.state != "vacant"}
            if colour in taken:
                raise TableError("colour_taken", "another player has this colour")
            # A phone that scans while the screens still show the game takes a freed seat
            # (the display offers it), even if the store has the game over already.
            if ctx.running():
                if not vacant:
                    raise TableError("game_running", "a game is running and no seat is free")
                seat = replace(
                    vacant[0], name=name, colour=colour, state="phone", token_hash=token_hash(token)
                )
                seats = [seat if s.seat == seat.seat else s for s in ctx.seats]
                g = ctx.game
                assert g is not None
                # The seat's moves from now on are this phone's: its result credits the
                # name and colour each holder played under (store/results.py).
                takeover = ctx.store.takeover_stmts(g.id, seat.seat, g.next_n, name, colour)
            else:
                if len(ctx.seats) >= SEATS_MAX:
                    raise TableError("table_full", f"the table has {SEATS_MAX} players already")
                seat = Seat(
                    seat_id_for(name, {s.seat for s in ctx.seats}), name, colour, token_hash(token)
                )
                seats = [*ctx.seats, seat]
                takeover = []
            ctx.commit([*ctx.store.seats_stmts(ctx.name, [s.row() for s in seats]), *takeover])
            ctx.seats = seats
            return ctx.publish(
                Outcome(
                    "seats",
                    result={"seat": seat.seat, "token": token, "name": name, "colour": colour},
                )
            )

    def leave(self, seat_id: str, reply: Reply | None = None) -> Outcome:
        """A phone gives up its seat in the lobby; ``reply`` (its ok) goes out once that is
        saved and before its socket is closed."""
        ctx = self.ctx
        with ctx.lock:
            if ctx.running():
                raise TableError("bad_state", "a seat can only be given up before the game")
            seats = [s for s in ctx.seats if s.seat != seat_id]
            ctx.commit(ctx.store.seats_stmts(ctx.name, [s.row() for s in seats]))
            ctx.seats = seats
            return ctx.publish(Outcome("seats", kicked=[seat_id], kicked_by="self"), reply=reply)

    def change(
        self,
        seats: list[Seat],
        reason: OutcomeReason = "seats",
        kicked: list[str] | None = None,
        ask: bool = False,
        notices: dict[str, Notice] | None = None,
    ) -> Outcome:
        """Commit a new seat list (with the autopilot's moves for newly skipped seats).
        ``ask``: the seat outcome carries the game's state, so the companion players look
        again (a seat handed to a thinking one during a game)."""
        ctx = self.ctx
        stmts = ctx.store.seats_stmts(ctx.name, [s.row() for s in seats])
        g = ctx.game
        if g is not None and g.status == "playing":
            state, applied = self.commands.plan(g, g.state, [], seats)
            ctx.commit([*stmts, *self.commands.append_stmts(g, state, applied)])
            ctx.seats = seats
            events = self.commands.record(g, state, applied)
            outcomes = [Outcome("command", events, state=state)] if applied else []
            return ctx.publish(
                *outcomes,
                Outcome(
                    reason,
                    kicked=kicked or [],
                    state=state if ask else None,
                    notices=notices or {},
                ),
            )
        ctx.commit(stmts)
        ctx.seats = seats
        return ctx.publish(Outcome(reason, kicked=kicked or [], notices=notices or {}))

    def skip_seat(self, seat_id: Any) -> Outcome:
        ctx = self.ctx
        with ctx.lock:
            seat = ctx.need_seat(seat_id)
            return self.change([replace(s, state="auto") if s is seat else s for s in ctx.seats])

    def resume_seat(self, seat_id: Any) -> Outcome:
        """The seat goes back to its phone (after a skip or a companion player's turn)."""
        ctx = self.ctx
        with ctx.lock:
            seat = ctx.need_seat(seat_id)
            if not seat.companion:
                raise TableError("bad_state", f"{seat.seat} is not skipped")
            if seat.token_hash is None:
                raise TableError(
                    "bad_state",
                    f"{seat.name} is a companion player with no "
                    "phone to give the seat back to; release the seat instead",
                )
            # The phone is told it has its seat back (to that seat only, PROTOCOL.md 3.4).
            return self.change(
                [replace(s, state="phone", level=None) if s is seat else s for s in ctx.seats],
                notices={seat.seat: {"kind": "resumed"}},
            )

    def release_seat(self, seat_id: Any) -> Outcome:
        """Free a seat for another phone (a player left and someone takes over)."""
        ctx = self.ctx
        with ctx.lock:
            seat = ctx.need_seat(seat_id)
            freed = replace(seat, state="vacant", token_hash=None)
            return self.change([freed if s is seat else s for s in ctx.seats], kicked=[seat.seat])

    def remove_seat(self, seat_id: Any) -> Outcome:
        ctx = self.ctx
        with ctx.lock:
            seat = ctx.need_seat(seat_id)
            if ctx.running():
                raise TableError(
                    "bad_state",
                    "seats can only be removed before the game; skip or release it instead",
                )
            return self.change([s for s in ctx.seats if s is not seat], kicked=[seat.seat])
