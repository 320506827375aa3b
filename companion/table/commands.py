"""Commands at a table: a phone's or the host's command, the dealer's and the autopilot's
follow-ups answered in the same step and the same transaction, and undo.

The engine validates every command (:meth:`Commands.plan` works on a copy: nothing changes
until the commit); the dealer (digital dice and cards) and the autopilot (skipped seats)
follow up until nothing is pending from them. Undo takes back the last command while it has
revealed or scored nothing (DESIGN.md). The games, the seats and the companion players' seats
plan, record and commit their changes of a running game through this part.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, cast

from companion.engine import Command, Event, IllegalCommand, State, apply, new_game
from companion.players import autopilot
from companion.store import Statements
from companion.store.documents import GameDocument, LoggedCommand
from companion.store.results import TRACK_COLORS
from companion.table import dealer, policy
from companion.table.core import Context, Reply
from companion.table.model import Game, Outcome, Seat, TableError
from companion.table.undo import undo_check, undone_notice

log = logging.getLogger(__name__)

MAX_CHAIN = 500  # dealer/autopilot follow-ups after one command; a game has far fewer
# TRACK_COLORS (from companion.store.results): the table's own logged command (R2.3), not an
# engine one.

# Commands to apply, each with its source and command id: as they came (the engine checks them).
Batch = list[tuple[Mapping[str, Any], str, str | None]]
# Commands applied, each with its source, command id and events: what the log and the game keep.
Applied = list[tuple[LoggedCommand, str, str | None, list[Event]]]


def recoloured(
    document: GameDocument, commands: Sequence[LoggedCommand], colors: list[str]
) -> State:
    """The game's state had it been set up with track ``colors`` (R2.3): the engine commands so
    far replayed on the corrected profile (only allowed before round 1, so nothing scored)."""
    profile = {**document["profile"], "track_colors": list(colors)}
    state = new_game(document["players"], document.get("stack"), profile)
    for command in commands:
        if command["type"] != TRACK_COLORS:
            state, _ = apply(state, command)
    return state


def _asked_on_screen(shown: Game, source: str, command: Mapping[str, object]) -> None:
    """While the show is behind the committed game, a command is taken only if it answers
    what the screens ask now: the engine's answer to anything else would tell of a step not
    shown yet (a tie to decide, a window, the game's end), so the refusal names nothing."""
    kind, seat = command["type"], source[5:] if source.startswith("seat:") else None
    for entry in shown.state["pending"]:
        if entry["type"] != kind:
            continue
        player = entry.get("player")
        if player is None or player == (seat or command.get("player")):
            return
    raise TableError("illegal", "the screens do not ask this now; answer what they show")


class Commands:
    """Submitting commands, their follow-ups, and undo."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def submit(self, source: str, cmd_id: Any, command: Any, reply: Reply | None = None) -> Outcome:
        """Apply one command from ``source`` (``seat:<id>`` or ``host``), commit, then
        ``reply`` (the ack) and tell everybody. A retry of an already applied ``cmd_id`` is
        acknowledged again and applies nothing."""
        if not isinstance(cmd_id, str) or not 1 <= len(cmd_id) <= 64:
            raise TableError("bad_message", "a command needs an id of 1 to 64 characters")
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise TableError("bad_message", "command must be an object with a type")
        ctx = self.ctx
        with ctx.lock:
            g = ctx.game
            # The game as the screens show it: a game over in the store is still running on
            # them until its end is shown (DESIGN.md "The show").
            shown = ctx.stage.shown_game(g) if g is not None and ctx.stage is not None else g
            if g is None or shown is None or shown.status != "playing":
                raise TableError("no_game", "no game is running at this table")
            done = g.cmd_ids.get((source, cmd_id), -1)
            if done is None:
                raise TableError("undone", "this command was undone by the host")
            if done != -1:
                outcome = Outcome("command", ack_id=cmd_id, seq=g.place(done), retry=True)
                if reply is not None:
                    reply(outcome)
                return outcome
            command = policy.command_for(
                source, command, g.dice, frozenset(s.seat for s in ctx.seats if s.state == "bot")
            )
            if shown is not g:
                _asked_on_screen(shown, source, command)
            state, applied = self.plan(g, g.state, [(command, source, cmd_id)], ctx.seats)
            return self.commit_commands(g, state, applied, reply=reply)

    def plan(
        self,
        g: Game,
        state: State,
        batch: Batch,
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
            # The engine took it: one of its commands (engine/types.py) from here on.
            applied.append((cast(Command, command), source, cid, events))
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
                log.exception("table %s: follow-up %r refused", self.ctx.name, command)
                break
            if command["type"] == "improvements":
                draws += 1
            applied.append((cast(Command, command), source, None, events))
        return state, applied

    def _follow_up(
        self, state: State, g: Game, draws: int, seats: list[Seat], dice: str
    ) -> tuple[Mapping[str, Any], str] | None:
        if dice == "digital":
            cmd = dealer.deal(state, g.decks, draws)
            if cmd is not None:
                return cmd, "dealer"
        elif self.ctx.settings.get("companion_dice", "digital") == "digital":
            # Real dice at the table: companion players still roll their own black dice.
            cmd = dealer.roll_for(state, {s.seat for s in seats if s.companion})
            if cmd is not None:
                return cmd, "dealer"
        answer = dealer.unasked(state)  # R3.2, R5.4: nobody is asked what cannot matter
        if answer is not None:
            return answer
        for s in seats:
            if s.state == "auto":
                move = autopilot.move(state, s.seat)
                if move is not None:
                    return move, "auto"
        return None

    def append_stmts(self, g: Game, state: State, applied: Applied) -> Statements:
        """The statements that log ``applied`` (and the game's end, if it came)."""
        if not applied:
            return []
        status = "finished" if state["finished"] else None
        return self.ctx.store.append_stmts(
            g.id, g.next_n, [(c, s, i) for c, s, i, _ in applied], status
        )

    def record(self, g: Game, state: State, applied: Applied) -> list[Event]:
        """Committed: record ``applied`` in memory. Returns their events in order."""
        first_n = g.next_n
        all_events: list[Event] = []
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

    def commit_commands(
        self,
        g: Game,
        state: State,
        applied: Applied,
        extra: Statements | None = None,
        reply: Reply | None = None,
    ) -> Outcome:
        """Commit ``applied`` (with ``extra`` statements), record it, then tell everybody."""
        seq = g.seq + 1  # the place of the first applied command (Game.seq)
        self.ctx.commit([*(extra or []), *self.append_stmts(g, state, applied)])
        events = self.record(g, state, applied)
        ack = applied[0][2] if applied else None
        return self.ctx.publish(
            Outcome("command", events, ack_id=ack, seq=seq, state=g.state), reply=reply
        )

    def undo(self, game_id: Any = None, n: Any = None) -> Outcome:
        """Take back the last command while it has revealed nothing (DESIGN.md). The host
        names it (``game_id``, row ``n``: the host frame's ``undo``): a move that came in
        between is never taken back in its place."""
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (game_id, n)):
            raise TableError(
                "bad_message",
                "undo names the move it takes back: game and n from the host frame's undo",
            )
        ctx = self.ctx
        with ctx.lock:
            g = ctx.game
            if (
                g is not None
                and g.status == "playing"
                and (g.id != game_id or not g.commands or g.commands[-1][0] != n)
            ):
                raise TableError(
                    "undo_moved",
                    f"move {n} of game {game_id} is no longer the last move (another came "
                    "after it, or it was undone): nothing was undone",
                )
            check = undo_check(g)  # the rule and its words: undo.undo_check
            if not check.possible:
                raise TableError("cannot_undo", check.text)
            assert g is not None
            n, undone, source, cid = g.commands[-1]
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
            ctx.commit(ctx.store.undone_stmts(g.id, n))
            g.commands.pop()
            g.events.pop()
            if cid is not None:
                g.cmd_ids[(source, cid)] = None
            g.state = state
            return ctx.publish(
                Outcome("undo", history=True, state=state, notices=undone_notice(undone, state))
            )
