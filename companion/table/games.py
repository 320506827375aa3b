"""A table's games: loading a stored game back, starting one, the dice mode and the track
colours of the running game, ending it, going back to the lobby, and a finished game's log.
A running game's changes are planned, recorded and logged through the table's
:class:`~companion.table.commands.Commands`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine import Event, IllegalCommand, apply, make_profile, new_game
from companion.store.documents import GameDocument, GameLog, TableSettings, TrackColorsCommand
from companion.store.results import TRACK_COLORS, companion_levels, engine_log, meta
from companion.table import dealer
from companion.table.commands import Applied, Commands, recoloured
from companion.table.core import Context
from companion.table.model import (
    COMPANION_DICE,
    DICE_MODES,
    SEATS_MAX,
    SEATS_MIN,
    Game,
    Outcome,
    TableError,
    game_status,
)


class Games:
    """A game's life at a table, from start to log."""

    def __init__(self, ctx: Context, commands: Commands) -> None:
        self.ctx = ctx
        self.commands = commands

    def load(self, game_id: int) -> Game:
        """Replay a stored game to exactly the state it had acknowledged (every stored
        command was acknowledged only after its commit)."""
        ctx = self.ctx
        stored = ctx.store.game(game_id)
        if stored is None:
            raise TableError("no_game", f"table {ctx.name}: game {game_id} is missing")
        doc = stored.document
        state = new_game(doc["players"], doc.get("stack"), doc.get("profile"))
        game = Game(stored.id, game_status(stored.status), doc, stored.decks, stored.dice, state)
        game.ended_by = stored.ended_by or "host"  # NULL: ended before it was kept (schema v5)
        for c in ctx.store.commands(game_id, include_undone=True):
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
                    events: list[Event] = []
                else:
                    game.state, events = apply(game.state, c.command)
            except (IllegalCommand, ValueError, KeyError) as exc:
                raise TableError(
                    "bad_log",
                    f"table {ctx.name}: game {game_id} command {c.n} no longer applies: {exc}",
                ) from None
            game.commands.append((c.n, c.command, c.source, c.cmd_id))
            game.events.append(events)
        return game

    def start(self, dice: Any = None) -> Outcome:
        """Start a game with the seated players (R1.1) in a random stack order (R1.3)."""
        ctx = self.ctx
        with ctx.lock:
            if ctx.playing():
                raise TableError("bad_state", "a game is already running")
            if ctx.game is not None:
                raise TableError("bad_state", "choose a new game first")
            dice = ctx.settings["dice"] if dice is None else dice
            if dice not in DICE_MODES:
                raise TableError("bad_message", "dice must be 'digital' or 'table'")
            seats = [s for s in ctx.seats if s.state != "vacant"]
            if not SEATS_MIN <= len(seats) <= SEATS_MAX or len(seats) != len(ctx.seats):
                raise TableError(
                    "bad_state",
                    f"a game needs {SEATS_MIN} to {SEATS_MAX} "
                    f"seated players; {len(seats)} are seated",
                )
            players = [s.seat for s in seats]
            overrides = (
                {"track_colors": ctx.settings["track_colors"]}
                if ctx.settings.get("track_colors")
                else None
            )
            state = new_game(players, dealer.initial_stack(players), overrides)
            # The whole profile goes into the log so it replays the same under new defaults.
            document: GameDocument = {
                "players": players,
                "stack": state["track"]["0"],
                "profile": state["profile"],
            }
            decks = dealer.shuffle_decks(state["profile"])
            game = Game(0, "playing", document, decks, dice, state)
            state, applied = self.commands.plan(game, state, [], ctx.seats)
            settings: TableSettings = {**ctx.settings, "dice": dice}
            status = "finished" if state["finished"] else None
            ctx.commit(
                [
                    *ctx.store.settings_stmts(ctx.name, settings),
                    *ctx.store.new_game_stmts(
                        ctx.name,
                        document,
                        [{"seat": s.seat, "name": s.name, "colour": s.colour} for s in seats],
                        decks,
                        dice,
                    ),
                    *ctx.store.append_stmts(
                        None, 0, [(c, s, i) for c, s, i, _ in applied], status, table_name=ctx.name
                    ),
                ]
            )
            game.id = ctx.store.current_game(ctx.name)
            events = self.commands.record(game, state, applied)
            ctx.settings, ctx.game = settings, game
            # The board and the companion players follow the game from the first outcome.
            outcomes = [Outcome("command", events, state=state)] if applied else []
            return ctx.publish(
                *outcomes, Outcome("game", history=True, state=None if applied else state)
            )

    def set_dice(self, dice: Any) -> Outcome:
        ctx = self.ctx
        with ctx.lock:
            if dice not in DICE_MODES:
                raise TableError("bad_message", "dice must be 'digital' or 'table'")
            settings: TableSettings = {**ctx.settings, "dice": dice}
            stmts = ctx.store.settings_stmts(ctx.name, settings)
            g = ctx.game
            if g is not None and g.status == "playing":
                # The dealer answers what is pending at once, in the same transaction.
                state, applied = self.commands.plan(g, g.state, [], ctx.seats, dice=dice)
                stmts += ctx.store.game_dice_stmts(g.id, dice)
                stmts += self.commands.append_stmts(g, state, applied)
                ctx.commit(stmts)
                ctx.settings, g.dice = settings, dice
                events = self.commands.record(g, state, applied)
                outcomes = [Outcome("command", events, state=state)] if applied else []
                return ctx.publish(*outcomes, Outcome("settings"))
            ctx.commit(stmts)
            ctx.settings = settings
            return ctx.publish(Outcome("settings"))

    def set_companion_dice(self, who: Any) -> Outcome:
        """With real dice (``dice`` = ``table``): ``digital`` (default) lets companion players
        roll their own black dice on the server, ``host`` has the host type them in too."""
        ctx = self.ctx
        if who not in COMPANION_DICE:
            raise TableError("bad_message", "companion dice must be 'digital' or 'host'")
        with ctx.lock:
            settings: TableSettings = {**ctx.settings, "companion_dice": who}
            stmts = ctx.store.settings_stmts(ctx.name, settings)
            g = ctx.game
            if g is not None and g.status == "playing":
                old, ctx.settings = ctx.settings, settings  # plan reads the new choice
                try:
                    state, applied = self.commands.plan(g, g.state, [], ctx.seats)
                    ctx.commit([*stmts, *self.commands.append_stmts(g, state, applied)])
                except TableError:
                    ctx.settings = old
                    raise
                events = self.commands.record(g, state, applied)
                outcomes = [Outcome("command", events, state=state)] if applied else []
                return ctx.publish(*outcomes, Outcome("settings"))
            ctx.commit(stmts)
            ctx.settings = settings
            return ctx.publish(Outcome("settings"))

    def set_track_colors(self, colors: Any) -> Outcome:
        """Correct the board profile's track colours (R2.3): saved for every later game, and
        while the running game is before round 1 logged as its command (the stored setup is
        never rewritten; replay applies the correction in order)."""
        ctx = self.ctx
        if not isinstance(colors, list) or not 1 <= len(colors) <= 60:
            raise TableError("bad_message", "colors must be a list of 1 to 60 entries")
        try:
            make_profile({"track_colors": colors})
        except ValueError as exc:
            raise TableError("bad_message", str(exc)) from None
        colors = list(colors)
        with ctx.lock:
            settings: TableSettings = {**ctx.settings, "track_colors": colors}
            stmts = ctx.store.settings_stmts(ctx.name, settings)
            g = ctx.game
            if g is not None and g.status == "playing" and g.state["round"] == 0:
                command: TrackColorsCommand = {"type": TRACK_COLORS, "colors": colors}
                state = recoloured(g.document, [c for _, c, _, _ in g.commands], colors)
                applied: Applied = [(command, "host", None, [])]
                ctx.commit([*stmts, *self.commands.append_stmts(g, state, applied)])
                ctx.settings = settings
                self.commands.record(g, state, applied)
                return ctx.publish(Outcome("settings", history=True, state=state))
            ctx.commit(stmts)
            ctx.settings = settings
            return ctx.publish(Outcome("settings", history=True))

    def end_game(self, by: str = "host") -> Outcome:
        """End the running game; ``by`` says who, so the phones name them ("host", "cafe")."""
        ctx = self.ctx
        with ctx.lock:
            g = ctx.game
            if g is None or g.status != "playing":
                raise TableError("no_game", "no game is running")
            ctx.commit(ctx.store.game_status_stmts(g.id, "ended", by))
            g.status = "ended"
            g.ended_by = by
            return ctx.publish(Outcome("game"))

    def new_game(self) -> Outcome:
        """Back to the lobby with the same seats (released seats are dropped, skipped ones go
        back to their phones: the host skips again whoever has really left)."""
        ctx = self.ctx
        with ctx.lock:
            if ctx.playing():
                raise TableError("bad_state", "end the running game first")
            # Companion players seated in the lobby stay; seats handed over go back.
            seats = [
                replace(s, state="phone", level=None)
                if s.companion and s.token_hash is not None
                else s
                for s in ctx.seats
                if s.state != "vacant"
            ]
            ctx.commit(
                [
                    *ctx.store.current_game_stmts(ctx.name, None),
                    *ctx.store.seats_stmts(ctx.name, [s.row() for s in seats]),
                ]
            )
            ctx.game, ctx.seats = None, seats
            return ctx.publish(Outcome("game", history=True))

    def log_document(self, game_id: int) -> GameLog:
        """The SCENARIO.md document of a game that is over (an unfinished game's log would
        give away unrevealed bids and sacrifices). Track-colour corrections are folded into
        the profile: they came before round 1, so the engine commands replay the same."""
        ctx = self.ctx
        with ctx.lock:
            stored = ctx.store.game(game_id)  # None too for ids past SQLite's integers
            if stored is None or stored.table_name != ctx.name:
                raise TableError("no_game", f"no game {game_id} at this table")
            if stored.status == "playing":
                raise TableError(
                    "bad_state",
                    "the game is still running: its log holds "
                    "unrevealed bids and sacrifices; end it first",
                )
            if ctx.stage is not None and not ctx.stage.end_shown(game_id):
                # The store has its end, the screens not yet (DESIGN.md "The show").
                raise TableError(
                    "bad_state",
                    "the game is still being played on the screens: its log holds "
                    "what they have not shown yet; wait for the end to be shown",
                )

            stored_commands = ctx.store.commands(game_id)
            document, commands = engine_log(stored.document, [c.command for c in stored_commands])
            levels = companion_levels((c.command, c.source) for c in stored_commands)
            about = meta(ctx.name, stored.created, stored.seats, levels)
            return {**document, "meta": about, "commands": commands}
