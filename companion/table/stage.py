"""The show's driver: one cursor per table over the committed steps, moved on a clock.

The table commits every command at once (the engine stays instant); the stage decides what
the screens show when (DESIGN.md "The show"). Its cursor ``shown`` counts the game's
commands on the screens; the step at the cursor stays up for ``show.hold`` seconds before the
next one is put up. Every audience — display, phones, host page, LED board — is rendered from
the state at the cursor, so no screen runs ahead of another: a phone is asked for a decision
only once the display shows the step that asks it.

The cursor survives a restart: whenever it reaches a step that holds, the table's settings
keep ``show = {game, n, at}`` (``at`` the clock's time it got there), and a restarted
server resumes there with the time left. Steps that hold nothing are never worth a write: a
stale record only replays them instantly.

Companion players think on the true state (they subscribe to the table, not to the stage);
their answers wait in the store until the show gets to them.

The clock is the wall clock (``time.time``) unless one is given: a test gives its own and
moves it on, so a paced show is checked beat by beat without waiting the beats out.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.engine import Event, State, View, apply, new_game, view, visible_events
from companion.store.results import TRACK_COLORS
from companion.table import show, staging
from companion.table.dealer import TABLE_ANSWERS
from companion.table.frame_types import Beat, HostGameRow, Reason, ShowInfo
from companion.table.model import Game, Outcome
from companion.table.staging import StepShown

if TYPE_CHECKING:
    from companion.table.frames import Snapshot
    from companion.table.table import Table

log = logging.getLogger(__name__)

Subscriber = Callable[[Any, Outcome], None]  # as the table's (companion.table.core)
Emit = Callable[[Reason, list[Event], bool], None]
Clock = Callable[[], float]  # seconds since the epoch (the stored cursor's ``at`` is one)


class Stage:
    """One table's show. Every method that reads the game takes the table's lock."""

    def __init__(
        self, table: Table, default_pace: str = show.DEFAULT_PACE, clock: Clock = time.time
    ) -> None:
        self.table = table
        self.clock = clock
        self.default_pace = default_pace
        self.subscribers: list[Subscriber] = []  # the LED board: the shown state
        self.emit: Emit | None = None  # the web hub: frames of newly shown steps
        self.game_id: int | None = None
        self.shown = 0  # commands of the current game on the screens
        self.reached = clock()  # when the cursor got to ``shown`` (the clock's time)
        # (game, n, state after n commands, state after n - 1 or None) cache
        self._state: tuple[int, int, State, State | None] | None = None
        self._told = 0  # events of the shown step the LED board has been told (its beats)
        self._beat = -1  # the beat of the shown step the LED board was told last (-1: none up)
        self._before: tuple[tuple[int, int], State] | None = None  # the state before it
        # (the step's events, the pace, their beats): see _beats
        self._beats_of: tuple[list[Event], str, list[Beat]] | None = None
        self._wake = threading.Event()
        self._due: float | None = None  # when the clock's thread ticks next
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        with table.lock:
            self._resume()
            self._pace = self.pace  # the pace the cursor's ``reached`` is counted in
        table.subscribers.insert(0, self._on_outcome)  # before the hub: it renders our cursor

    # -- the pace -----------------------------------------------------------------------
    @property
    def pace(self) -> str:
        pace = self.table.settings.get("pace")
        return str(pace) if isinstance(pace, str) and show.valid_pace(pace) else self.default_pace

    # -- the cursor ---------------------------------------------------------------------
    def _resume(self) -> None:
        """Start where the stored record says (a restart mid-show), else caught up."""
        g = self.table.game
        record = self.table.settings.get("show")
        self.game_id = g.id if g else None
        if g is None:
            self.shown, self.reached = 0, self.clock()
        elif isinstance(record, dict) and record.get("game") == g.id:
            self.shown = max(0, min(int(record.get("n", 0)), len(g.commands)))
            self.reached = float(record.get("at", self.clock()))
        else:
            self.shown, self.reached = len(g.commands), self.clock()

    def _current_events(self, g: Game) -> list[Event]:
        return g.events[self.shown - 1] if 0 < self.shown <= len(g.events) else []

    def _hold(self, g: Game) -> float:
        return show.held(self._beats(g))

    def holding(self, margin: float = 0.0) -> bool:
        """Whether the step up now is still within its beats, plus ``margin`` seconds (the
        pages hold every question until they end, and not after)."""
        with self.table.lock:
            g = self.table.game
            return g is not None and self.clock() - self.reached < self._hold(g) + margin

    def hold_left(self) -> float:
        """Seconds until the step up now stops holding the questions (0 when it does not)."""
        with self.table.lock:
            g = self.table.game
            return 0.0 if g is None else max(0.0, self.reached + self._hold(g) - self.clock())

    def behind(self) -> int:
        """Committed steps not on the screens yet."""
        with self.table.lock:
            g = self.table.game
            return len(g.commands) - self.shown if g is not None else 0

    def tick(self, now: float | None = None) -> None:
        """Put up every step whose turn has come (under the table's lock), then tell the
        screens once; tell the LED board every beat that tells more of the step."""
        with self.table.lock:
            now = self.clock() if now is None else now
            g = self.table.game
            if g is None:
                self.game_id, self.shown, self._state, self._told = None, 0, None, 0
                self._beat = -1
                return
            if g.id != self.game_id:  # a new game: its first steps are shown from the start
                self.game_id, self.shown, self.reached, self._state = g.id, 0, now, None
                self._told, self._pace = 0, self.pace
            self._follow_pace(g, now)
            total = len(g.commands)
            events: list[Event] = []
            # What the LED board has not been told yet: the rest of the step it was on.
            later: list[Event] = self._current_events(g)[self._told :]
            moved = False
            if self.shown > total:  # the host took a command back: nothing of it to tell
                self.shown, self.reached, self._state, moved = total, now, None, True
                self._told, later = len(self._current_events(g)), []
            while self.shown < total and now >= self.reached + self._hold(g):
                events.extend(g.events[self.shown])
                self.shown += 1
                self.reached = now
                self._told = 0
                moved = True
            current = self._current_events(g)
            step_beats = self._beats(g)
            beat = show.beat_at(step_beats, now - self.reached)
            told = show.told(current, step_beats, beat)
            # A new beat is drawn even when it tells no new event: its station's light (a gold
            # round's station result is the whole step, R2.6), then the step read.
            if not moved and told <= self._told and beat == self._beat:
                self._schedule(g, now)
                return
            if moved:
                if self._hold(g) > 0:
                    self._persist(g)
                if self.emit is not None:
                    try:
                        self.emit("command", events, False)
                    except Exception:  # noqa: BLE001 - a screen must not stop the show
                        log.exception("table %s: show frames failed", self.table.name)
                # The step left, every step passed through, then the new step's first beats.
                told_events = later + events[: len(events) - len(current)] + current[:told]
            else:
                told_events = current[self._told : told]
            self._told, self._beat = told, beat
            outcome = Outcome(
                "command",
                visible_events(told_events, None),
                state=self.shown_state(),
                shown=self._staged(g),
            )
            for subscriber in list(self.subscribers):
                self._tell(subscriber, outcome)
            self._schedule(g, now)

    def _follow_pace(self, g: Game, now: float) -> None:
        """A new pace goes on from the beat up now (``show.rebased``): nothing shown goes back."""
        pace = self.pace
        if pace == self._pace:
            return
        current = self._current_events(g)
        old, new = show.beats(current, self._pace), show.beats(current, pace)
        self._pace = pace
        if current:
            self.reached = now - show.rebased(old, new, now - self.reached)
            self._persist(g)

    def _beats(self, g: Game) -> list[Beat]:
        """The beats of the step up now (kept while the step and the pace stay: every tick
        and every frame asks for them)."""
        events, pace = self._current_events(g), self.pace
        cached = self._beats_of
        if cached is None or cached[0] is not events or cached[1] != pace:
            cached = self._beats_of = (events, pace, show.beats(events, pace))
        return cached[2]

    def _staged(self, g: Game) -> View | None:
        """The public view at the beat up now, while the step is told beat by beat (None
        once its beats are over: followers then draw the shown state's view). While a
        station's result is up its light stays on that station, though the step has gone on
        to the next station's bids or dice window (R2.4-R2.6, R3.2)."""
        current = self._current_events(g)
        if self.shown < 1:
            return None
        beats = self._beats(g)
        up = beats[self._beat] if 0 <= self._beat < len(beats) else None
        if self._told >= len(current) and (up is None or up["kind"] not in ("station", "decision")):
            return None
        before = view(self._state_before(g), None)
        after = view(self.shown_state(), None)
        return staging.at_beat(before, after, visible_events(current, None), self._told, up)

    def _state_before(self, g: Game) -> State:
        """The state before the step up now (kept while the step stays: every frame of the
        step stages its beats on it)."""
        key = (g.id, self.shown)
        if self._before is None or self._before[0] != key:
            self._before = (key, self._state_at(self.shown - 1))
        return self._before[1]

    def next(self) -> None:
        """The host's "next": the current beat ends now (the next one, or the next step);
        once the winner's moment is up, the story of the game comes now (R7)."""
        with self.table.lock:
            g = self.table.game
            if g is None:
                return
            now = self.clock()
            elapsed = now - self.reached
            step_beats = self._beats(g)
            ends = show.beat_ends(step_beats)
            story = show.story_at(step_beats)
            if story is not None:
                ends.append(story)
            end = next((e for e in ends if e > elapsed + 1e-6), elapsed)
            self.reached -= max(0.0, end - elapsed)
            before = self.shown
            self.tick(now)
            if self.shown == before:
                if self._hold(g) > 0:
                    self._persist(g)
                if self.emit is not None:
                    self.emit("show", [], False)

    def _persist(self, g: Game) -> None:
        """Keep the cursor in the table's settings, so a restart resumes this step."""
        settings = self.table.settings.copy()
        settings["show"] = {"game": g.id, "n": self.shown, "at": self.reached}
        try:
            self.table.store.commit(self.table.store.settings_stmts(self.table.name, settings))
            self.table.settings = settings
        except Exception as exc:  # noqa: BLE001 - a full disk must not stop the show
            log.warning("table %s: show cursor not saved: %s", self.table.name, exc)

    def _on_outcome(self, table: Table, outcome: Outcome) -> None:
        """The table committed something: put up whatever is due (a new game, an undo, a
        pace, a command that may come straight up)."""
        if outcome.roles != () and outcome.reason != "board":  # the board's pictures: no step
            self.tick()

    # -- who follows the show (the LED board), as a table's subscribers ---------------------
    def subscribe(self, subscriber: Subscriber, catch_up: bool = False) -> None:
        """``subscriber(table, outcome)`` whenever the show puts up steps, ``outcome.state``
        the state shown; with ``catch_up`` first the step up now."""
        with self.table.lock:
            self.subscribers.append(subscriber)
            if catch_up and self.table.game is not None:
                outcome = Outcome(
                    "current", state=self.shown_state(), shown=self._staged(self.table.game)
                )
                self._tell(subscriber, outcome)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self.table.lock:
            if subscriber in self.subscribers:
                self.subscribers.remove(subscriber)

    def _tell(self, subscriber: Subscriber, outcome: Outcome) -> None:
        try:
            subscriber(self.table, outcome)
        except Exception:  # noqa: BLE001 - a follower never stops the show
            log.exception("table %s: show subscriber failed", self.table.name)

    # -- what the screens see ---------------------------------------------------------
    def shown_state(self) -> State:
        """The game's state after the shown commands (replayed, cached per step)."""
        return self._state_at(self.shown)

    def _state_at(self, n: int) -> State:
        """The game's state after its first ``n`` commands (replayed from a cache that only
        moves forward, so walking the show costs one command a step)."""
        with self.table.lock:
            g = self.table.game
            assert g is not None
            if n >= len(g.commands):
                return g.state
            cached = self._state
            if cached is not None and cached[0] == g.id and cached[1] == n + 1 and cached[3]:
                return cached[3]  # the step before the one up (its beats are staged on it)
            if cached is None or cached[0] != g.id or cached[1] > n:
                doc = g.document
                start = new_game(doc["players"], doc.get("stack"), doc.get("profile"))
                cached = (g.id, 0, start, None)
            _, done, state, prior = cached
            for k in range(done, n):
                prior = state
                command = g.commands[k][1]
                if command["type"] == TRACK_COLORS:
                    profile = {**g.document["profile"], "track_colors": command["colors"]}
                    state = new_game(g.document["players"], g.document.get("stack"), profile)
                    for c in [c for _, c, _, _ in g.commands[:k] if c["type"] != TRACK_COLORS]:
                        state, _ = apply(state, c)
                else:
                    state, _ = apply(state, command)
            self._state = (g.id, n, state, prior)
            return state

    def shown_game(self, g: Game) -> Game:
        """``g`` as far as the screens have got (the same object when caught up)."""
        if self.shown >= len(g.commands):
            return g
        state = self.shown_state()
        # A decision the shown step asks may be answered already (a companion player, the
        # autopilot, a no-dice answer): only what the game still awaits is asked on screen.
        point = ("round", "phase", "step", "station")
        same = all(state.get(k) == g.state.get(k) for k in point)
        still = [e for e in state["pending"] if same and e in g.state["pending"]]
        if still != state["pending"]:
            state = {**state, "pending": still}
        return replace(
            g,
            state=state,
            commands=g.commands[: self.shown],
            events=g.events[: self.shown],
            status="finished"
            if state["finished"]
            else ("playing" if g.status == "finished" else g.status),
        )

    def snapshot(self, snap: Snapshot) -> Snapshot:
        """A table snapshot with the game as shown."""
        if snap.game is None:
            return snap
        with self.table.lock:
            if self.table.game is not snap.game:
                return snap
            game = self.shown_game(snap.game)
            host = snap.host
            if host is not None and game is not snap.game:
                # The host types in what the shown step asks (real dice and cards), not more.
                inputs = [
                    e.copy()
                    for e in game.state["pending"]
                    if "player" not in e or e["type"] == "roll"
                ]
                # The host's list of games says what the screens say of this one (its end
                # is not up yet), so no log link runs ahead of the show.
                games: list[HostGameRow] = [
                    {**x, "status": game.status} if x["id"] == game.id else x for x in host.games
                ]
                host = replace(host, inputs=inputs, games=games)
            return replace(snap, game=game, host=host, step=self._step_shown(snap.game))

    def _step_shown(self, g: Game) -> StepShown | None:
        """The step up now while its beats run: every frame stages each beat's view on it."""
        current = self._current_events(g)
        step_beats = self._beats(g)
        if self.shown < 1 or not current or self.clock() - self.reached >= show.held(step_beats):
            return None
        return StepShown(self._state_before(g), current, step_beats)

    def end_shown(self, game_id: int) -> bool:
        """Whether game ``game_id`` is over on the screens: its last step is up and has held
        all its beats (R7's lines and the winner). Until then the game is still being
        played to every reader (logs, replays, reviews, results): the store knows its end
        before the table has seen it. Only the table's current game can be ahead of its
        screens; a game the table has left (a new game, the lobby) was over on them."""
        with self.table.lock:
            g = self.table.game
            if g is None or g.id != game_id:
                return True
            if g.status == "playing" or self.game_id != g.id or self.shown < len(g.commands):
                return False
            return self.clock() >= self.reached + self._hold(g)

    def info(self) -> ShowInfo:
        """What every frame says about the show: the pace, the current step's beats and how
        far into them the show is (screens count down from their own clocks)."""
        with self.table.lock:
            g = self.table.game
            pace = self.pace
            if g is None:
                return {"pace": pace, "seconds": show.pace_seconds(pace), "beats": [], "step": 0}
            block = show.block(g.events, self.shown, pace, self.clock() - self.reached)
            up = (self.shown - 1, self.shown)  # the step up and the next: the table's answers?
            table = [0 <= k < len(g.commands) and g.commands[k][2] in TABLE_ANSWERS for k in up]
            show.mark_table_answers(block, *table)
            return block

    # -- the clock ------------------------------------------------------------------------
    def start(self) -> Stage:
        self._thread = threading.Thread(
            target=self._run, name=f"show-{self.table.name}", daemon=True
        )
        self._thread.start()
        self.tick()
        return self

    def _schedule(self, g: Game, now: float) -> None:
        """Wake at the next beat that tells the LED board more, or when the next step is due."""
        ends = [self.reached + end for end in show.beat_ends(self._beats(g))]
        due = next((t for t in ends if t > now), None)
        if self.shown < len(g.commands):
            step_due = self.reached + self._hold(g)
            due = step_due if due is None else min(due, step_due)
        if due is not None:
            self._due = due
            self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            due = self._due
            timeout = None if due is None else max(0.0, due - self.clock())
            self._wake.wait(timeout if timeout is None else min(timeout, 5.0))
            self._wake.clear()
            if self._stop.is_set():
                return
            if self._due is not None and self.clock() >= self._due:
                self._due = None
                try:
                    self.tick()
                except Exception:  # noqa: BLE001 - the show goes on
                    log.exception("table %s: show tick failed", self.table.name)

    def close(self) -> None:
        """Stop the clock (no join: this runs from the server's SIGTERM handler, where waiting
        for a thread may not block; the thread is a daemon and ends at its next wake)."""
        self._stop.set()
        self._wake.set()
