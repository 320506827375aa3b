"""Every step holds its beats by the stage's own clock (DESIGN.md "The show", R3, R6.3, R7).

A real table in a real SQLite file plays a whole game on a test clock: each step stays up
for its beats' seconds (``show.hold``) before the next goes up, and a server restarted
mid-step (the cursor kept in the table's settings, as after kill -9) shows the rest of that
step, counted on from when it went up, and not a moment more or less. The live server's show tests
(tests/web/test_web_show.py) check what the screens receive and in which order; the seconds
are checked here, where no busy machine can make a frame late.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from manual_clock import ManualClock

from companion.cafe import Cafe, TableConfig
from companion.players import autopilot
from companion.store import Store
from companion.table import show

PACE = "test:0.8"
STEP_S = 0.03  # how far the clock moves when nobody may answer (no divisor of a pace)
EPS = 1e-6  # float rounding of seconds since the epoch (not a slack: the clock is the test's)


def open_table(db: Path, clock: ManualClock, players: tuple[str, ...] = ()) -> tuple[Cafe, Any]:
    cafe = Cafe(Store(db), [TableConfig("1")], pace="normal")
    table = cafe.tables["1"]
    table.stage.clock = clock
    for name, colour in zip(players, ("orange", "sky", "green", "yellow"), strict=False):
        table.join(table.join_secret, name, colour)
    return cafe, table


def close(cafe: Cafe) -> None:
    cafe.close()
    cafe.store.close()


def answer_or_wait(table: Any, n: int) -> None:
    """Answer what the screens ask (the shown state) at once, as a phone's answer sent while
    a step still holds is taken (its next step waits behind), else move the clock on."""
    stage, clock = table.stage, table.stage.clock
    with table.lock:
        shown = stage.shown_game(table.game).state
    waiting = [e["player"] for e in shown["pending"] if "player" in e]
    if waiting and stage.behind() == 0:
        table.submit(f"seat:{waiting[0]}", f"c{n}", autopilot.move(shown, waiting[0]))
    else:
        clock.advance(STEP_S)
    stage.tick()


def test_every_step_holds_its_beats_through_a_whole_game(tmp_path: Path) -> None:
    clock = ManualClock()
    cafe, table = open_table(tmp_path / "db.sqlite3", clock, ("Ana", "Ben", "Cleo"))
    try:
        table.set_pace(PACE)
        table.start("digital")
        stage = table.stage
        ups: list[tuple[float, int]] = [(clock(), stage.shown)]  # (when, step) each step went up
        for n in range(20_000):
            if table.game.state["finished"] and stage.behind() == 0 and not stage.holding():
                break
            answer_or_wait(table, n)
            if stage.shown != ups[-1][1]:
                ups.append((clock(), stage.shown))
        else:
            raise AssertionError("the game did not end")
        events = table.game.events
    finally:
        close(cafe)
    held = 0
    for (t, step), (t_next, _) in zip(ups, ups[1:], strict=False):
        hold = show.hold(events[step - 1], PACE) if step else 0.0
        # The next step goes up once this one's beats are over (the clock stood still
        # meanwhile unless the test moved it), never before.
        assert t_next - t >= hold - EPS, (step, hold, t_next - t)
        held += hold > 0
    assert held >= 12  # stations were revealed in every round
    # The last step holds a line per player (R7) and the winner.
    last = show.beats(events[-1], PACE)
    assert [b["kind"] for b in last][-4:] == ["final_line"] * 3 + ["winner"]


def test_a_restart_mid_step_shows_the_rest_of_that_step(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    clock = ManualClock()
    cafe, table = open_table(db, clock, ("Ana", "Ben", "Cleo"))
    try:
        table.set_pace("test:4")
        table.start("digital")
        stage = table.stage
        for n in range(2_000):  # up to a step that reveals a station, just up
            info = stage.info()
            if info["elapsed"] == 0 and any(b["kind"] == "station" for b in info["beats"]):
                break
            answer_or_wait(table, n)
        else:
            raise AssertionError("no station was revealed")
        clock.advance(1.5)  # the power goes 1.5 s into the step
        stage.tick()
        step, hold = stage.shown, info["hold"]
    finally:
        close(cafe)  # the cursor is in the table's settings (kill -9 leaves the same record)

    later = ManualClock(clock() + 2.0)  # back 2 s later (a restart takes about that)
    cafe, table = open_table(db, ManualClock(clock()))
    try:
        stage = table.stage
        assert stage.shown == step
        stage.clock = later
        # The step's clock ran on while the server was off (the phones and the TV kept counting
        # down their beats): 3.5 s into it, the rest still to show.
        assert stage.info()["elapsed"] == pytest.approx(3.5)
        assert stage.hold_left() == pytest.approx(hold - 3.5)
        later.advance(hold - 3.5 - 0.01)
        stage.tick()
        assert stage.holding() and stage.shown == step
        later.advance(0.01)
        stage.tick()
        assert not stage.holding() and stage.shown == step  # the phones ask now
    finally:
        close(cafe)
