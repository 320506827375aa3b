"""Companion players' seats at a table: the host seats a companion player in the lobby or
hands it a seat during a game; its answers come back (``bot_answer``) and are committed like a
phone's command. The thinking happens elsewhere (the driver, companion.table.bot_driver),
never under the table's lock.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from typing import Any

from companion.engine.colours import PLAYER_COLOURS
from companion.players import LEVELS, autopilot
from companion.players.common import decision_key
from companion.table.commands import Commands
from companion.table.core import Context
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


class BotSeats:
    """Companion players' seats and answers."""

    def __init__(self, ctx: Context, commands: Commands, seats: Seats) -> None:
        self.ctx = ctx
        self.commands = commands
        self.seating = seats

    def thinking(self) -> list[tuple[str, str]]:
        """(seat, level) of every seat a thinking companion player plays now (the plain
        skip answers at once in ``Commands.plan``, like the autopilot it is); the driver
        (companion.table.bot_driver) asks them."""
        return [(s.seat, s.level or "good") for s in self.ctx.seats if s.state == "bot"]

    def add_bot(self, level: Any, name: Any = None) -> Outcome:
        """Seat a companion player of ``level`` in the lobby (R1.1: 3 to 5 players)."""
        ctx = self.ctx
        if level not in LEVELS:
            raise TableError("bad_message", f"level must be one of {', '.join(LEVELS)}")
        with ctx.lock:
            if ctx.game is not None:
                raise TableError(
                    "bad_state",
                    "companion players join in the lobby; during a "
                    "game the host hands a seat to one",
                )
            if len(ctx.seats) >= SEATS_MAX:
                raise TableError("table_full", f"the table has {SEATS_MAX} players already")
            taken = {s.colour for s in ctx.seats}
            colour = next(c for c in PLAYER_COLOURS if c not in taken)
            names = {s.name for s in ctx.seats}
            name = clean_name(
                name if name is not None else next(n for n in BOT_NAMES if n not in names)
            )
            state: SeatState = "auto" if level == "plain" else "bot"
            kind = None if level == "plain" else level
            seat = Seat(
                seat_id_for(name, {s.seat for s in ctx.seats}), name, colour, None, state, kind
            )
            return self.seating.change([*ctx.seats, seat])

    def hand_to_bot(self, seat_id: Any, level: Any) -> Outcome:
        """A companion player of ``level`` takes the seat of a player who left; the player's
        token stays valid so the host can give the seat back (``resume_seat``)."""
        ctx = self.ctx
        if level not in LEVELS:
            raise TableError("bad_message", f"level must be one of {', '.join(LEVELS)}")
        with ctx.lock:
            seat = ctx.need_seat(seat_id)
            if seat.state == "vacant":
                raise TableError("bad_state", f"{seat.seat} is free; a phone can join there")
            state: SeatState = "auto" if level == "plain" else "bot"
            kind = None if level == "plain" else level
            # During a game a thinking companion player is asked now (``ask``).
            return self.seating.change(
                [replace(s, state=state, level=kind) if s is seat else s for s in ctx.seats],
                ask=True,
            )

    def bot_answer(self, seat_id: str, key: tuple[Any, ...], command: Any) -> None:
        """A companion player's answer: applied, committed and logged like a phone's command
        (source ``bot:<seat>:<level>``) if the same decision is still awaited from that companion
        seat, else dropped (the game moved on). A refused answer falls back to the plain
        autopilot's move."""
        ctx = self.ctx
        with ctx.lock:
            g = ctx.game
            seat = ctx.seat(seat_id)
            if g is None or g.status != "playing" or seat is None or seat.state != "bot":
                return
            if (g.id, *(decision_key(g.state, seat_id) or ())) != key:
                return
            for cmd in (command, autopilot.move(g.state, seat_id)):
                if not isinstance(cmd, dict) or cmd.get("player") != seat_id:
                    continue
                source = f"bot:{seat_id}:{seat.level}"
                try:
                    state, applied = self.commands.plan(
                        g, g.state, [(cmd, source, None)], ctx.seats
                    )
                    self.commands.commit_commands(g, state, applied)
                    return
                except TableError as exc:
                    log.error(
                        "table %s: companion %s move not applied: %s",
                        ctx.name,
                        seat_id,
                        exc.reason,
                    )
                    if exc.code == "storage_failed":  # ask again once the disk may take it
                        timer = threading.Timer(BOT_RETRY_S, self._ask_bots_again)
                        timer.daemon = True
                        timer.start()
                        return

    def _ask_bots_again(self) -> None:
        ctx = self.ctx
        with ctx.lock:
            if ctx.game is not None and ctx.playing():
                # No frame for anybody (roles=()): the companion players look again.
                ctx.publish(Outcome("ask_bots", roles=(), state=ctx.game.state))
